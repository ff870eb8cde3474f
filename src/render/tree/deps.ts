/**
 * The render functions the pipeline calls, in one place: helper G's Render API, helper H's Argo CD glue and helper
 * B's YAML emitter. Until those land on main this file holds TEMPORARY narrow stand-ins (see ./stand-ins.ts);
 * switching is a change of the imports below only.
 */
export {
  renderProviderComponents,
  renderClusterTemplate,
  templateOptionsToVariables,
  clusterClassReferences,
  processCertManager,
  emitManifests,
  type KubeObject,
  type ImageOverrides,
} from './stand-ins.js';
export { argocdManifests, clusterDirectorySyncWaves, kustomizationFor, providerSyncWave, syncWaves } from '../argocd/index.js';
