/** The cache layer's door: atomic writes, hashing, byte order and inter-process locks. A leaf: it imports only errors. */
export { writeFileAtomic, temporarySibling, type AtomicWriteOptions } from './atomic-write.js';
export { sha256Hex, digestOf } from './hash.js';
export { compareBytes } from './bytes.js';
export { acquireProcessLock, withProcessLock, pidAlive, type LockOwner, type ProcessLock, type ProcessLockOptions } from './process-lock.js';
