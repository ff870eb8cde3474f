/** Argo CD / kustomize glue for the rendered tree (pure functions; the tree writer does the IO). */
export { kustomizationFor, syncWaveAnnotation, type KustomizationOptions, type SyncWavePatch } from './kustomization.js';
export {
  argocdManifests,
  type ArgoCdDestination,
  type ArgoCdGenerator,
  type ArgoCdInput,
  type ArgoCdMode,
  type ArgoCdNamespaced,
  type ArgoCdProvider,
  type TreeFile,
} from './applications.js';
export { argoAppName } from './names.js';
export { fleetArgocdManifests, managementClusterLabel, type FleetArgoCdInput } from './fleet.js';
export { clusterDirectorySyncWaves, providerSyncWave, syncWaves } from './waves.js';
export { declaredNamespaces, namespaceDir, namespaceFile, namespaceYaml, workloadNamespaces } from './namespaces.js';
