/**
 * The cache layer's door: the content-addressed cache and where it lives, atomic writes, hashing, byte order and
 * inter-process locks. A leaf: it imports only errors.
 */
export { writeFileAtomic, temporarySibling, isTemporarySibling, temporaryTarget, type AtomicWriteOptions } from './atomic-write.js';
export { sha256Hex, sha256Incremental, digestOf, canonicalDigest, canonicalJson, type Sha256 } from './hash.js';
export { gzipReproducible } from './bytes.js';
export { defaultCacheDir } from './cache-root.js';
export { rememberValid, validatedBefore } from './validated.js';
export { ContentCache, type HttpCacheEntry } from './content-cache.js';
export { acquireProcessLock, withProcessLock, pidAlive, type LockOwner, type ProcessLock, type ProcessLockOptions } from './process-lock.js';
