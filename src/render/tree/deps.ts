/**
 * The render functions the pipeline calls, in one place: the Render API, the YAML emitter and cert-manager
 * processing, the Argo CD glue.
 */
import { processCertManagerManifest, type ImageOverrides } from '../components/index.js';

export { renderProviderComponents, type ImageOverrides } from '../provider-components.js';
export { getVariables } from '../../envsubst/index.js';
export { renderClusterTemplate, templateOptionsToVariables, clusterClassReferences } from '../cluster-template.js';
export { emitManifests, type KubeObject, type ManifestEntry } from '../../yaml/index.js';
export {
  argocdManifests,
  clusterDirectorySyncWaves,
  fleetArgocdManifests,
  type FleetArgoCdInput,
  declaredNamespaces,
  kustomizationFor,
  namespaceDir,
  namespaceFile,
  namespaceYaml,
  providerSyncWave,
  syncWaves,
  workloadNamespaces,
} from '../argocd/index.js';

/** cert-manager as clusterctl installs it (spec §6). */
export function processCertManager(raw: string, version: string, images?: ImageOverrides): { yaml(): string } {
  return processCertManagerManifest({ text: raw, version, images: images ?? null });
}
