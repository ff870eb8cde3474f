/**
 * Every clusterctl / Cluster API function and CLI command the specs in ../shared/spec name, section by section, with
 * the op keys a vector file would use for it. Library functions the specs cite for their semantics (Go's
 * `sort.Strings`, `json.Marshal`, viper, apimachinery's YAML reader…) are not listed: clusterctl's vectors exercise
 * them through the clusterctl function that calls them. The ClusterClass topology sections (capi-plan.md §3–4)
 * are issue 13's and listed in ./unsupported.ts by file.
 *
 * spec-coverage.test.ts checks that each key has a handler or an ./unsupported.ts reason.
 */
export interface SpecFunction {
  spec: 'clusterctl-render.md' | 'capi-plan.md' | 'envsubst.md';
  section: string;
  /** As the spec writes it. */
  name: string;
  /** Op keys (see ./registry.ts): the canonical one first, then the spellings vector files use. */
  keys: string[];
}

const c = (section: string, name: string, ...ops: string[]): SpecFunction => ({
  spec: 'clusterctl-render.md',
  section,
  name,
  keys: ops.map((op) => `clusterctl:${op}`),
});
const p = (section: string, name: string, ...ops: string[]): SpecFunction => ({
  spec: 'capi-plan.md',
  section,
  name,
  keys: ops.map((op) => `capi-plan:*:${op}`),
});
const e = (section: string, name: string, ...keys: string[]): SpecFunction => ({ spec: 'envsubst.md', section, name, keys });

export const specFunctions: SpecFunction[] = [
  // clusterctl-render.md §0 pipeline overview
  c('§0', 'clusterctl generate provider', 'cli:generate provider'),
  c('§0', 'client.GenerateProvider', 'GenerateProvider', 'client.GenerateProvider'),
  c('§0', 'GetProviderComponents', 'GetProviderComponents', 'client.GetProviderComponents'),
  c('§0', 'getComponentsByName', 'getComponentsByName'),
  c('§0', 'repository.Components().Get', 'ComponentsClient.Get', 'Components.Get'),
  c('§0', 'NewComponents', 'NewComponents', 'repository.NewComponents'),
  c('§0', 'printYamlOutput', 'cli:generate provider', 'cli:generate cluster'),
  c('§0', 'clusterctl generate cluster', 'cli:generate cluster'),
  c('§0', 'client.GetClusterTemplate', 'GetClusterTemplate', 'client.GetClusterTemplate'),
  c('§0', 'templateOptionsToVariables', 'templateOptionsToVariables'),
  c('§0', 'repository.NewTemplate', 'NewTemplate', 'repository.NewTemplate', 'newTemplate'),
  c('§0', 'addClusterClassIfMissing', 'addClusterClassIfMissing'),
  c('§0', 'printVariablesOutput', 'cli:generate cluster'),
  c('§0', 'clusterctl generate yaml', 'cli:generate yaml'),
  c('§0', 'client.ProcessYAML', 'ProcessYAML', 'client.ProcessYAML'),
  c('§0', 'clusterctl init list-images', 'cli:init list-images'),
  c('§0', 'client.InitImages', 'InitImages', 'client.InitImages'),
  c('§0', 'clusterctl config repositories', 'cli:config repositories'),
  c('§0', 'Providers().List()', 'providers.List'),
  // §0.1 YAML reading and writing
  c('§0.1', 'ToUnstructured', 'ToUnstructured', 'yaml.ToUnstructured'),
  c('§0.1', 'util.Ordinalize', 'Ordinalize', 'util.Ordinalize'),
  c('§0.1', 'FromUnstructured', 'FromUnstructured', 'yaml.FromUnstructured'),
  c('§0.1', 'JoinYaml', 'JoinYaml'),
  c('§0.1', 'sigs.k8s.io/yaml emit and parse (derived)', 'emit', 'parse'),
  // §1 variable substitution
  c('§1.1', 'Process', 'Process', 'SimpleProcessor.Process'),
  c('§1.1', 'inspectVariables', 'inspectVariables'),
  c('§1.2', 'envsubst.Eval', 'envsubst.Eval'),
  c('§1.4', 'GetTemplateName', 'GetTemplateName'),
  c('§1.4', 'GetClusterClassTemplateName', 'GetClusterClassTemplateName'),
  c('§1.5', 'GetVariables', 'GetVariables'),
  c('§1.5', 'GetVariableMap', 'GetVariableMap'),
  // §2 components
  c('§2.1', 'FixImages', 'FixImages'),
  c('§2.1', 'InspectImages', 'InspectImages'),
  c('§2.2', 'inspectTargetNamespace', 'inspectTargetNamespace'),
  c('§2.1', 'addNamespaceIfMissing', 'addNamespaceIfMissing'),
  c('§2.3', 'fixTargetNamespace', 'fixTargetNamespace'),
  c('§2.4', 'IsResourceNamespaced', 'IsResourceNamespaced'),
  c('§2.5', 'NewComponents sort (derived)', 'componentsOrder'),
  c('§2.6', 'addCommonLabels / getCommonLabels', 'addCommonLabels', 'getCommonLabels'),
  c('§2.6', 'AlterComponents', 'AlterComponents', 'alterComponents'),
  c('§2.7', 'Components.InventoryObject', 'Components.InventoryObject', 'InventoryObject'),
  c('§2.8', 'AlterImage', 'AlterImage'),
  c('§2.8', 'ImageFromString', 'ImageFromString'),
  c('§2.8', 'IsDeploymentWithManager', 'IsDeploymentWithManager'),
  c('§2.10', 'printComponentsAsText (--describe)', 'cli:generate provider'),
  // §3 cluster templates
  c('§3.1', 'NewTemplate', 'NewTemplate'),
  c('§3.2', 'GetClusterTemplate', 'GetClusterTemplate'),
  c('§3.2', 'TemplateClient.Get', 'TemplateClient.Get'),
  c('§3.2', 'getURLContent / GetFromURL', 'GetFromURL', 'getURLContent'),
  c('§3.2', 'getGitHubFileContent', 'getGitHubFileContent'),
  c('§3.2', 'getRawURLFileContent', 'getRawURLFileContent'),
  c('§3.2', 'getLocalFileContent', 'getLocalFileContent'),
  c('§3.2', 'handleGithubErr (template client)', 'cluster.handleGithubErr'),
  c('§3.2', 'GetFromConfigMap', 'GetFromConfigMap'),
  c('§3.2', 'ProcessYAML', 'ProcessYAML'),
  c('§3.3', 'templateOptionsToVariables', 'templateOptionsToVariables'),
  c('§3.5', 'addClusterClassIfMissing', 'addClusterClassIfMissing'),
  c('§3.5', 'clusterClassExists', 'clusterClassExists'),
  c('§3.5', 'ClusterClassClient.Get', 'ClusterClassClient.Get'),
  c('§3.5', 'MergeTemplates', 'MergeTemplates'),
  // §4 repositories and versions
  c('§4.1', 'repositoryFactory', 'repositoryFactory'),
  c('§4.2', 'NewGitHubRepository', 'NewGitHubRepository'),
  c('§4.2', 'GetVersions (GitHub)', 'github.GetVersions', 'github.getVersions(API only)'),
  c('§4.2', 'goproxy GetSchemeAndHost', 'goproxy.GetSchemeAndHost'),
  c('§4.2', 'goproxy GetVersions', 'goproxy.GetVersions'),
  c('§4.2', 'GetFile (GitHub)', 'github.GetFile', 'github.getReleaseByTag', 'github.downloadFilesFromRelease'),
  c('§4.2', 'getComponentsPath', 'getComponentsPath'),
  c('§4.2', 'handleGithubErr', 'handleGithubErr'),
  c('§4.3', 'NewGitLabRepository', 'NewGitLabRepository'),
  c('§4.3', 'GetFile (GitLab)', 'gitlab.GetFile'),
  c('§4.4', 'newLocalRepository', 'newLocalRepository'),
  c('§4.4', 'GetVersions (local)', 'local.GetVersions'),
  c('§4.4', 'GetFile (local)', 'local.GetFile'),
  c('§4.5', 'latestPatchRelease', 'latestPatchRelease'),
  c('§4.5', 'latestRelease', 'latestRelease'),
  c('§4.5', 'latestContractRelease', 'latestContractRelease'),
  c('§4.5', 'GetReleaseSeriesForContract', 'GetReleaseSeriesForContract', 'Metadata.GetReleaseSeriesForContract'),
  c('§4.6', 'overrides Path', 'overrides.Path'),
  c('§4.6', 'getLocalOverride', 'getLocalOverride'),
  c('§4.7', 'metadataClient.Get', 'metadataClient.Get'),
  c('§4.7', 'validateMetadata', 'validateMetadata'),
  c('§4.7', 'GetReleaseSeriesForVersion', 'GetReleaseSeriesForVersion'),
  c('§4.8', 'ManifestLabel', 'ManifestLabel'),
  c('§4.8', 'ProviderType.Order', 'ProviderType.Order'),
  c('§4.9', 'parseProviderName', 'parseProviderName'),
  c('§4.9', 'providers.List', 'providers.List'),
  c('§4.9', 'validateProvider', 'validateProvider'),
  c('§4.9', 'providers.Get', 'providers.Get'),
  c('§4.9', 'built-in provider defaults', 'providers.Defaults', 'providers.defaults'),
  c('§4.9', 'GetProvidersConfig', 'GetProvidersConfig'),
  // §5–6 config file, list-images, cert-manager
  c('§5.2', 'InitImages', 'InitImages'),
  c('§5.3', 'InspectImages', 'InspectImages'),
  c('§6', 'cert-manager config Get', 'CertManager.Get'),
  c('§6', 'cert-manager timeout', 'certManager.getWaitTimeout'),
  c('§6', 'getManifestObjs', 'certManager.getManifestObjs'),
  c('§6', 'utilresource.SortForCreate', 'utilresource.SortForCreate'),
  c('§6', 'shouldUpgrade', 'certManager.shouldUpgrade'),
  // capi-plan.md §1 upgrade plan
  p('§1.1', 'ProviderType.Order / ManifestLabel', 'manifestLabel', 'ManifestLabel'),
  p('§1.1', 'InstanceName', 'instanceName', 'InstanceName'),
  p('§1.1', 'versionTag', 'versionTag'),
  p('§1.2', 'GetReleaseSeriesForContract', 'getReleaseSeriesForContract', 'GetReleaseSeriesForContract'),
  p('§1.3', 'getUpgradeInfo', 'getUpgradeInfo'),
  p('§1.4', 'getContractsForUpgrade', 'getContractsForUpgrade'),
  p('§1.5', 'getLatestNextVersion', 'getLatestNextVersion'),
  p('§1.5', 'GetCompatibleVersions', 'getCompatibleVersions', 'GetCompatibleVersions'),
  p('§1.6', 'Plan', 'plan', 'Plan'),
  p('§1.7', 'CheckCAPIContract', 'CheckCAPIContract'),
  p('§1.8', 'clusterctl upgrade plan (output)', 'upgradePlanOutput', 'cli:upgrade plan'),
  p('§1.7', 'EnsureCustomResourceDefinitions', 'EnsureCustomResourceDefinitions'),
  p('§1.9', 'ApplyPlan', 'applyPlan', 'ApplyPlan'),
  p('§1.10', 'ApplyCustomPlan', 'applyCustomPlan', 'ApplyCustomPlan'),
  p('§1.10', 'createCustomPlan', 'createCustomPlan'),
  p('§1.10', 'parseUpgradeItem', 'parseUpgradeItem'),
  p('§1.11', 'doUpgrade', 'doUpgrade'),
  p('§1.12', 'shouldUpgrade', 'certManagerShouldUpgrade', 'shouldUpgrade'),
  // capi-plan.md §2 move
  p('§2.1', 'getDiscoveryTypes', 'discoveryTypes', 'getDiscoveryTypes'),
  p('§2.2', 'Discovery', 'buildGraph', 'discovery', 'Discovery', 'DiscoveryByNamespace'),
  p('§2.3', 'objectGraph.addObj', 'addObj', 'objectGraph.addObj'),
  p('§2.3', 'setSoftOwnership', 'setSoftOwnership'),
  p('§2.3', 'setTenants', 'setTenants', 'setClusterTenants', 'setCRSTenants', 'setGlobalIdentityTenants'),
  p('§2.3', 'getMoveNodes', 'getMoveNodes'),
  p('§2.3', 'setShouldNotDelete', 'setShouldNotDelete'),
  p('§2.4', 'getMoveSequence', 'getMoveSequence'),
  p('§2.4', 'move (execution)', 'move'),
  p('§2.4', 'clusterctl move', 'cli:move'),
  // envsubst.md
  e('§1', 'SimpleProcessor.Process', 'clusterctl:Process', 'envsubst:curated', 'envsubst:byte-level-vectors'),
  e('§1', 'GetVariables / GetVariableMap', 'clusterctl:GetVariables', 'clusterctl:GetVariableMap', 'envsubst:list-variables'),
  e('§1', 'parse.Parse + envsubst.Eval', 'clusterctl:envsubst.Eval'),
  e('§1', 'NewTemplate', 'clusterctl:NewTemplate'),
  e('§1', 'NewComponents', 'clusterctl:NewComponents'),
];
