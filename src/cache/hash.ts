/** The one sha256 helper: content digests in the lock, cache keys and bundle sums all come from here. */
import { createHash, hash } from 'node:crypto';

/** One-shot `crypto.hash`: about twice as fast as a `createHash` object for the small inputs names and keys hash. */
export function sha256Hex(data: string | Uint8Array): string {
  return hash('sha256', data, 'hex');
}

/** Digest of a JSON-serialisable value (cache keys): same value, same key, on any machine. */
export function digestOf(value: unknown): string {
  return sha256Hex(JSON.stringify(value));
}

/** A sha256 fed in pieces: a stream's chunks, or a key built from several parts without joining them first. */
export interface Sha256 {
  /** Adds bytes (a string counts as its UTF-8 bytes). */
  update(data: string | Uint8Array): Sha256;
  /** The digest of everything added, as lowercase hex; the hasher is spent afterwards. */
  hex(): string;
}

/** An incremental sha256 ({@link sha256Hex} of the concatenation of every `update`). */
export function sha256Incremental(): Sha256 {
  const h = createHash('sha256');
  const self: Sha256 = {
    update(data) {
      h.update(data);
      return self;
    },
    hex: () => h.digest('hex'),
  };
  return self;
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
