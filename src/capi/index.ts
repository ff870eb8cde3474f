/** The CAPI vocabulary's door: provider types and labels, Kubernetes versions. Imports only errors and go. */
export {
  componentsFileName,
  isProviderType,
  manifestLabel,
  providerTypeByFlag,
  providerTypeOrder,
  providerTypePlace,
  providerTypes,
  type ProviderType,
} from './provider-type.js';
export {
  compareKubernetesVersions,
  formatKubernetesVersion,
  isKubernetesSemanticVersion,
  kubernetesMinor,
  parseKubernetesVersion,
  versionTag,
  type KubernetesVersion,
} from './kubernetes-version.js';
export { featureGatesArg, parseFeatureGates, parseGoBool } from './feature-gates.js';
