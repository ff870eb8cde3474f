export { parseOciUrl, ociReleaseUrl, type OciReference } from './reference.js';
export { ociCredentials, dockerConfigPath, type OciCredentials } from './credentials.js';
export { RegistryStore, parseChallenge, tagPageSize, maxTagPages, type OciStore } from './registry.js';
export { OciRepository } from './repository.js';
export * from './artifact.js';
