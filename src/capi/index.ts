/** The CAPI vocabulary's door: provider types and labels, Kubernetes versions, immutable templates. Imports only errors and go. */
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
export { immutableTemplateOf, immutableTemplates, type ImmutableTemplate } from './immutable-templates.js';
export { namespaceNameProblem, objectNameProblem } from './object-names.js';
export { featureGatesArg, parseFeatureGates, parseGoBool } from './feature-gates.js';
