/** The bundle layer's door: air-gapped bundles (layout, archive) and the images a tree uses. */
export { mtimeFromEnv, writeArchive } from './archive.js';
export { archiveLimitsFromEnv } from './archive-limits.js';
export { formatImageList, formatRelocations, imagesOfTree, relocationFormats, relocations, type ImageRecord, type RelocationFormat, type TreeFileInput } from './images.js';
export { bundleFiles, checkLockedFiles, repositoryDir, type Extra } from './layout.js';
export { bundleRepository, openBundle, type BundleSource } from './source.js';
export { verifyBundleFile } from './verify.js';
export { provenanceFile, provenanceStatement, type Statement } from './provenance.js';
export { dsseEnvelope, loadSigningKey, pae, signBlob } from './signing.js';
export { checkSignedProvenance, signatureFiles, verifyBundleSignature } from './signed.js';
export { defaultBundleName, lockedFileReader, readProjectLock, readTree } from './project.js';
export { ociLayoutFiles, ociLayoutFile, ociLayoutIndex, refNameAnnotation, type OciLayout, type OciLayoutArtifact } from './oci-layout.js';
