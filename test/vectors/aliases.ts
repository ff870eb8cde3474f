/**
 * Other names clusterctl's functions go by in vector files: the receiver-qualified form (`repository.NewTemplate`),
 * the unexported spelling (`alterComponents`), the Go test's subject. Each alias runs the canonical key's handler.
 * Keys are full op keys (`clusterctl:<op>`, `capi-plan:*:<operation>`).
 */
export const aliases: Record<string, string> = {
  // client/repository/components.go
  'clusterctl:alterComponents': 'clusterctl:AlterComponents',
  'clusterctl:repository.AlterComponents': 'clusterctl:AlterComponents',
  'clusterctl:components.AlterComponents': 'clusterctl:AlterComponents',
  'clusterctl:repository.addCommonLabels': 'clusterctl:addCommonLabels',
  'clusterctl:getCommonLabels': 'clusterctl:addCommonLabels',
  'clusterctl:repository.fixTargetNamespace': 'clusterctl:fixTargetNamespace',
  'clusterctl:repository.inspectTargetNamespace': 'clusterctl:inspectTargetNamespace',
  'clusterctl:repository.addNamespaceIfMissing': 'clusterctl:addNamespaceIfMissing',
  // client/repository/template.go
  'clusterctl:repository.NewTemplate': 'clusterctl:NewTemplate',
  'clusterctl:newTemplate': 'clusterctl:NewTemplate',
  'clusterctl:Template.Get': 'clusterctl:TemplateClient.Get',
  'clusterctl:repository.MergeTemplates': 'clusterctl:MergeTemplates',
  // api/v1alpha3
  'clusterctl:Metadata.GetReleaseSeriesForContract': 'clusterctl:GetReleaseSeriesForContract',
  'clusterctl:metadata.GetReleaseSeriesForContract': 'clusterctl:GetReleaseSeriesForContract',
  'clusterctl:v1alpha3.GetReleaseSeriesForContract': 'clusterctl:GetReleaseSeriesForContract',
  'clusterctl:getReleaseSeriesForContract': 'clusterctl:GetReleaseSeriesForContract',
  'clusterctl:Metadata.GetReleaseSeriesForVersion': 'clusterctl:GetReleaseSeriesForVersion',
  'clusterctl:metadata.GetReleaseSeriesForVersion': 'clusterctl:GetReleaseSeriesForVersion',
  'clusterctl:Provider.ManifestLabel': 'clusterctl:ManifestLabel',
  'clusterctl:v1alpha3.ManifestLabel': 'clusterctl:ManifestLabel',
  // client/repository/overrides.go
  'clusterctl:overrides.getLocalOverride': 'clusterctl:getLocalOverride',
  'clusterctl:repository.getLocalOverride': 'clusterctl:getLocalOverride',
  'clusterctl:GetLocalOverride': 'clusterctl:getLocalOverride',
  'clusterctl:getLocalOverrides': 'clusterctl:getLocalOverride',
  'clusterctl:overrides.Get': 'clusterctl:getLocalOverride',
  'clusterctl:override.Path': 'clusterctl:overrides.Path',
  'clusterctl:newOverride': 'clusterctl:overrides.Path',
  // client/config/providers_client.go
  'clusterctl:providers.defaults': 'clusterctl:providers.Defaults',
  'clusterctl:providersClient.defaults': 'clusterctl:providers.Defaults',
  'clusterctl:defaults': 'clusterctl:providers.Defaults',
  'clusterctl:Providers.List': 'clusterctl:providers.List',
  'clusterctl:Providers.Get': 'clusterctl:providers.Get',
  // util/yaml
  'clusterctl:yaml.FromUnstructured': 'clusterctl:FromUnstructured',
  'clusterctl:utilyaml.FromUnstructured': 'clusterctl:FromUnstructured',
  'clusterctl:yaml.ToUnstructured': 'clusterctl:ToUnstructured',
  'clusterctl:utilyaml.ToUnstructured': 'clusterctl:ToUnstructured',
  // client (config.go)
  'clusterctl:client.ProcessYAML': 'clusterctl:ProcessYAML',
  'clusterctl:clusterctlClient.ProcessYAML': 'clusterctl:ProcessYAML',
  'clusterctl:client.GetClusterTemplate': 'clusterctl:GetClusterTemplate',
  'clusterctl:client.InitImages': 'clusterctl:InitImages',
  'clusterctl:client.GetProviderComponents': 'clusterctl:GetProviderComponents',
  // yamlprocessor
  'clusterctl:SimpleProcessor.Process': 'clusterctl:Process',
  'clusterctl:SimpleProcessor.GetVariables': 'clusterctl:GetVariables',
  'clusterctl:SimpleProcessor.GetVariableMap': 'clusterctl:GetVariableMap',
  'clusterctl:GetVariablesMap': 'clusterctl:GetVariableMap',
  'clusterctl:SimpleProcessor.GetTemplateName': 'clusterctl:GetTemplateName',
  // repositories and versions
  'clusterctl:goproxy.Client.GetVersions': 'clusterctl:goproxy.GetVersions',
  'clusterctl:goproxy.GetGoproxyHost': 'clusterctl:goproxy.GetSchemeAndHost',
  'clusterctl:newGitHubRepository': 'clusterctl:NewGitHubRepository',
  'clusterctl:newGitLabRepository': 'clusterctl:NewGitLabRepository',
  'clusterctl:NewLocalRepository': 'clusterctl:newLocalRepository',
  'clusterctl:github.latestContractRelease': 'clusterctl:latestContractRelease',
  'clusterctl:github.latestRelease': 'clusterctl:latestRelease',
  'clusterctl:github.latestPatchRelease': 'clusterctl:latestPatchRelease',
  'clusterctl:github.getLatestContractRelease': 'clusterctl:latestContractRelease',
  'clusterctl:getLatestContractRelease': 'clusterctl:latestContractRelease',
  'clusterctl:getLatestRelease': 'clusterctl:latestRelease',
  'clusterctl:getLatestPatchRelease': 'clusterctl:latestPatchRelease',
  'clusterctl:github.getFile': 'clusterctl:github.GetFile',
  'clusterctl:gitlab.getFile': 'clusterctl:gitlab.GetFile',
  'clusterctl:local.getFile': 'clusterctl:local.GetFile',
  // cert-manager
  'clusterctl:certManager.getManifestObjects': 'clusterctl:certManager.getManifestObjs',
  // upgrade plan (capi-plan format, any file)
  'capi-plan:*:GetReleaseSeriesForContract': 'capi-plan:*:getReleaseSeriesForContract',
  'capi-plan:*:ManifestLabel': 'capi-plan:*:manifestLabel',
  'capi-plan:*:shouldUpgrade': 'capi-plan:*:certManagerShouldUpgrade',
  'capi-plan:*:Plan': 'capi-plan:*:plan',
  'capi-plan:*:ApplyPlan': 'capi-plan:*:applyPlan',
  'capi-plan:*:ApplyCustomPlan': 'capi-plan:*:applyCustomPlan',
};
