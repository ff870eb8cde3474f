/**
 * The resolve layer's door: repository clients behind one interface, the provider catalog, metadata and version
 * rules. The GitHub, GitLab and plain-HTTPS clients (and octokit behind them) are loaded only when a remote
 * repository is used: `loadRemote` and `loadTemplateSource` import them on demand, so commands that never leave the
 * disk do not pay for them.
 */
export type { ProviderRepository, RepositoryKind, RepositorySource, VersionPage } from './repository.js';
export * from './http/index.js';
export { LocalRepository } from './local/local-repository.js';
export { createRepository, repositoryKindFor, resolveProviderRelease, type RepositoryOptions } from './factory.js';
export {
  checkProviderContract,
  compatibleContracts,
  currentContract,
  decodeMetadata,
  metadataFile,
  parseMetadata,
  readMetadata,
  releaseSeriesForContract,
  releaseSeriesForVersion,
  validateMetadata,
  type Metadata,
  type ReleaseSeries,
} from './metadata.js';
export { closestNames, closestProviderNames, formatRepositoriesText, levenshtein, formatRepositoriesYaml, getProvider, listProviders, splitUrl, type UserProvider } from './providers.js';
export { isDNS1123Label, isDNS1123Subdomain, parseProviderName, validateProvider, type ProviderNameAndVersion } from './provider-name.js';
export { builtinProviders, certManagerProviderName, type ProviderConfig } from './catalog.js';
export { certManagerShouldUpgrade, type CertManagerUpgradeDecision } from './cert-manager.js';
export { overridePath, readOverride, withOverrides } from './overrides.js';
export { latestContractRelease, latestPatchRelease, latestRelease } from './versions.js';
export {
  certManagerLabel,
  certManagerRepository,
  certManagerRepositoryHint,
  providerLocation,
  providerRepository,
  repositoryFactory,
  resolveVersions,
  type ArtifactReader,
  type ProviderResolution,
  type RepositoryFactory,
  type RepositoryRef,
  type Resolution,
} from './resolve-config.js';

export { resolveTemplatePin, type TemplatePinResolution } from './template-pins.js';

/** The remote repository clients (GitHub, GitLab, HTTPS), loaded on first use. */
export const loadRemote = (): Promise<typeof import('./remote/index.js')> => import('./remote/index.js');
/** `generate cluster --from` sources (URL, GitHub, file, stdin), loaded on first use. */
export const loadTemplateSource = (): Promise<typeof import('./template-source/index.js')> => import('./template-source/index.js');
