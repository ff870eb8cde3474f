/**
 * The render layer's door: the shape of a rendered tree and the tree's directories rendered from resolved releases
 * (functions of data: each directory of an explicit inputs record, tree/dir-inputs.ts; the pipeline memoizes them by it). Putting a tree on disk is the pipeline's
 * (src/pipeline/tree).
 */
export { generatedHeader, generatedMark, targetRoots, treeRoots } from './tree/roots.js';
export { checkFeatureGateNames, renderCertManager, renderProvider } from './render-providers.js';
export { renderClusters, type OwnTemplate, type ProducedCluster, type ReleaseText, type RenderClustersOptions } from './render-clusters.js';
export { addDir, headerText, mergeDuplicates, providerNamespaces, renderContext, treeRoot, withHeader, type OmittedObject, type RenderContext } from './tree-context.js';
export { aggregate, secretsError, type Problem } from './problems.js';
export { argocdManifests, fleetArgocdManifests, type FleetArgoCdInput, namespaceDir, namespaceFile, namespaceYaml, providerSyncWave, syncWaves, workloadNamespaces } from './tree/deps.js';
export {
  certManagerDirInputs,
  classDirInputs,
  clusterDirInputs,
  providerDirInputs,
  type CertManagerDirInputs,
  type ClassDirInputs,
  type ClusterDirInputs,
  type DirInputs,
  type ProviderDirInputs,
  type TreeMemo,
} from './tree/dir-inputs.js';
export { applyJsonPatches } from './tree/customize.js';
export { configSecretKeys, configSecretName, operatorApiVersion, operatorKinds, operatorManifests, operatorProviderYaml, type OperatorProviderInput, type OperatorRelease, type OperatorSettings } from './operator.js';
export type { TreeChanges, TreeFile } from './tree/tree-file.js';
export type { ImageOverrides } from './components/index.js';
// The library surface (src/index.ts) renders single templates and components as clusterctl does.
export { renderProviderComponents, type ProviderComponents, type RenderProviderComponentsInput } from './provider-components.js';
export {
  renderClusterTemplate,
  templateOptionsToVariables,
  type RenderClusterTemplateInput,
  type RenderedClusterTemplate,
  type TemplateOptions,
} from './cluster-template.js';
export { hashTemplateNames } from './template-hash.js';
export { isTemplateFileName, templatePinNote, templatePinOf } from './template-names.js';
export { clusterInShard, parseShard, pathInShard, shardIndexOf, shardKey, shardOfPath, type Shard } from './shard.js';
export { clusterctlWellKnownVariables, unusedVariableMessage, unusedVariables, type UnusedVariable } from './unused-variables.js';
