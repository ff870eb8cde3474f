/** The one sha256 helper: content digests in the lock, cache keys and bundle sums all come from here. */
import { createHash } from 'node:crypto';

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Digest of a JSON-serialisable value (cache keys): same value, same key, on any machine. */
export function digestOf(value: unknown): string {
  return sha256Hex(JSON.stringify(value));
}
