/** The bundle layer's door: air-gapped bundles (layout, archive) and the images a tree uses. */
export { mtimeFromEnv, writeArchive } from './archive.js';
export { imagesOfTree, type TreeFileInput } from './images.js';
export { bundleFiles, checkLockedFiles, type Extra } from './layout.js';
export { defaultBundleName, lockedFileReader, readProjectLock, readTree } from './project.js';
