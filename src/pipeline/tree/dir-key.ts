/**
 * The one place a tree directory's cache key is made: the sha256 of the canonical encoding (keys sorted) of its
 * inputs record (render's tree/dir-inputs.ts), capiform's version and code digest, and the key format. Every field of
 * the record is in the key, so an input added to a record cannot be forgotten here.
 */
import { canonicalDigest } from '../../cache/index.js';
import type { DirInputs } from '../../render/index.js';
import { codeFingerprint } from '../../version.js';

/** Bump when the encoding or the meaning of a record changes. */
const dirKeyFormat = 'capiform-dir-v3';

/** The cache key of a tree directory rendered from `inputs`. */
export function dirInputsKey(inputs: DirInputs): string {
  return canonicalDigest({ format: dirKeyFormat, capiform: codeFingerprint(), inputs });
}
