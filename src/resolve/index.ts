/** Provider resolution's door: where releases come from and which versions a config resolves to. */
export {
  certManagerRepository,
  providerLocation,
  providerRepository,
  repositoryFactory,
  resolveVersions,
  type ProviderResolution,
  type RepositoryFactory,
  type RepositoryRef,
  type Resolution,
} from './resolve-config.js';
export type { HttpClient, ProgressListener } from './http/client.js';
