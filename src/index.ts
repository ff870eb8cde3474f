/** capiform's library surface. Every export here is part of the documented interface (DESIGN.md). */
export * from './errors.js';
export { manifestLabel, providerTypeOrder, providerTypes, type ProviderType } from './capi/index.js';
export type { ProviderRepository, RepositoryKind } from './resolve/index.js';
export { listVariables, substitute, type TemplateVariable, type Variables } from './envsubst/index.js';
export { builtinProviders, type ProviderConfig } from './resolve/index.js';
export { parseProviderName, validateProvider } from './resolve/index.js';
export { listProviders, getProvider } from './resolve/index.js';
export { LocalRepository } from './resolve/index.js';
export { GitHubRepository } from './resolve/github/index.js';
export { GitLabRepository } from './resolve/gitlab/index.js';
export { HttpsRepository } from './resolve/https/index.js';
export { createRemoteRepository, type RemoteRepositoryOptions } from './resolve/remote/index.js';
export { HttpClient, OfflineError, RateLimitError, progressMode, progressReporter, type ProgressEvent } from './resolve/http/index.js';
export { ContentCache, defaultCacheDir, sha256Hex } from './cache/index.js';
export { readTemplateSource } from './resolve/template-source/index.js';
export { createRepository } from './resolve/index.js';
export {
  readMetadata,
  parseMetadata,
  checkProviderContract,
  releaseSeriesForVersion,
  releaseSeriesForContract,
  type Metadata,
  type ReleaseSeries,
} from './resolve/index.js';
export { latestRelease, latestPatchRelease, latestContractRelease } from './resolve/index.js';
export { withOverrides, overridePath } from './resolve/index.js';
export { loadClusterctlConfig, parseClusterctlConfig, ClusterctlConfig } from './config/index.js';
export {
  parseManifests,
  parseEntries,
  emitManifests,
  emitGoYaml,
  type KubeObject,
  type ManifestEntry,
} from './yaml/index.js';
export {
  renderComponents,
  fixTargetNamespace,
  inspectImages,
  alterImage,
  processCertManagerManifest,
  type Components,
  type ImageOverrides,
  type OutputStyle,
} from './render/components/index.js';
export {
  diffTrees,
  formatMarkdown,
  formatText,
  type DiffOptions,
  type DiffReport,
  type ObjectChange,
  type RenderedTree,
} from './plan/diff/index.js';
export { readTreeFromDir, readTreeFromGit, reviewChange, type ReviewRequest } from './pipeline/review/index.js';
export {
  applyCustomPlan,
  applyPlan,
  checkUpgradePaths,
  createCustomPlan,
  formatUpgradePlan,
  plan as planUpgrade,
  planWithDropped,
  type InventoryProvider,
  type Repositories,
  type RepositoryListing,
  type UpgradeFinding,
  type UpgradeItem,
  type UpgradePlan,
} from './plan/upgrade/index.js';
export { formatMovePlan, planMove, type MovePlan, type MovePlanObject } from './plan/move/index.js';
export {
  compareExpansions,
  planTopology,
  reviewTopology,
  reviewTreeTopology,
  type ClusterTopologyReview,
  type RoleChange,
  type TopologyPlan,
  type TopologyReview,
} from './plan/topology/index.js';
export {
  hashTemplateNames,
  renderClusterTemplate,
  renderProviderComponents,
  templateOptionsToVariables,
  type ProviderComponents,
  type RenderClusterTemplateInput,
  type RenderedClusterTemplate,
  type RenderProviderComponentsInput,
  type TemplateOptions,
} from './render/index.js';
export { defineConfig } from './config/index.js';
// The config types, named one by one: they are the documented interface of capi.config.ts.
export type { ArgoCdConfig, CapiformConfig, CertManagerConfig, ClusterEntry, DeploymentConfig, ImageOverride, ImagesConfig, ManagerConfig, PatchConfig, ProviderEntry, ResolvedArgoCd, ResolvedCertManager, ResolvedCluster, ResolvedConfig, ResolvedProvider, ResolvedSecrets, ResolvedTemplates, ResolvedVariables, SecretsConfig, TemplatesConfig, VariablesConfig } from './config/index.js';
export {
  argocdManifests,
  kustomizationFor,
  type ArgoCdInput,
  type KustomizationOptions,
} from './render/argocd/index.js';
export {
  expandTopology,
  type ExpandedCluster,
  type ExpandedVariable,
  type ExpandOptions,
  type ExpandResult,
  type TopologyObject,
  type TopologyProblem,
  type UpgradePlan as TopologyUpgradePlan,
} from './topology/index.js';
export type { FieldError } from './apiextensions/index.js';
