/**
 * The project's files on disk: the crash-safe tree writer and its journal, the project's writer lock and the checks
 * of the paths it writes. A door of its own so a command can reach the tree on disk (`readSettled`, the writer
 * lock) without loading the rest of the pipeline.
 */
export { assertNoUnfinishedWrite, diffTree, readSettled, repairTree, stateDir, writeTree, type TreeScope } from './tree-writer.js';
export { defaultLockTimeoutSeconds, withProjectLock, type Repair } from './project-lock.js';
export { checkLockPath, checkTreePaths } from './tree-paths.js';
export { TreeCache, type TreeCacheOptions } from './tree-cache.js';
export { dirInputsKey } from './dir-key.js';
