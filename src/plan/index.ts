/**
 * The plan layer's door to what reads the plans' inputs from disk (manifests, the inventory of a tree or lock, local
 * and cached release listings). The planners themselves have doors of their own: ./diff, ./move, ./upgrade,
 * ./rollout.
 */
export {
  localBasepath,
  localVersions,
  manifestFiles,
  missingListings,
  parseManifestText,
  readCachedRemoteListing,
  readLocalListing,
  readLockInventory,
  readManifests,
  readTreeInventory,
  repositoryListing,
  type LockedInventoryProvider,
} from './read-inputs.js';
