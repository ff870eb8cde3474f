/** The one sha256 helper: content digests in the lock, cache keys and bundle sums all come from here. */
import { hash } from 'node:crypto';

/** One-shot `crypto.hash`: about twice as fast as a `createHash` object for the small inputs names and keys hash. */
export function sha256Hex(data: string | Uint8Array): string {
  return hash('sha256', data, 'hex');
}

/** Digest of a JSON-serialisable value (cache keys): same value, same key, on any machine. */
export function digestOf(value: unknown): string {
  return sha256Hex(JSON.stringify(value));
}

/**
 * JSON with object keys sorted and undefined members left out: a canonical encoding, so equal values encode (and
 * hash) equally whatever order their keys were written in.
 */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (typeof v === 'object' && v !== null) {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .filter((k) => o[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

/** sha256 of a value's canonical encoding (cache keys of records: a field added to the record is in the key). */
export function canonicalDigest(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}
