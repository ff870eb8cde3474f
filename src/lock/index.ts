/**
 * The lock layer's door: the lock model, its one reader and one writer, the digest of the config inputs it pins, the
 * artifact store that verifies and records release files against it, and the frozen and stale checks.
 */
export { isFleetLock, lockFileName, lockfileVersion, type FleetLock, type Lock, type LockFile, type LockedCertManager, type LockedFile, type LockedProvider, type LockedSource, type LockedTemplatePin } from './model.js';
export { formatLock, lockSection, parseLock, parseLockFile, releaseLock } from './format.js';
export {
  lockFileFromBytes,
  lockFromBytes,
  readLock,
  readLockDocument,
  readLockedProviders,
  readLockFile,
  writeLock,
  type LockDocument,
  type LockedProviderSummary,
  type LockFileDocument,
} from './file.js';
export { resolutionDigest } from './digest.js';
export { ArtifactStore, memoryCache, type ArtifactCache, type ArtifactSource, type ArtifactStoreOptions } from './artifacts.js';
export { checkContractPin, isUpgrading, lockDrift, LockStaleError, pinnedVersions, staleLockError, type LockDrift } from './stale.js';
export { pinnedTemplateVersions, templatePinKey, templatePinRequests, type TemplatePinRequest } from './template-pins.js';
