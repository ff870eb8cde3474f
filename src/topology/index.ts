/**
 * The topology layer's door: ClusterClass expansion (blueprint, variables with defaulting and OpenAPI + CEL
 * validation, patches, names, desired state), pure data in and objects out, between lock and render
 * (spec/capi-plan.md §3). Sub-folders are doors of their own; the validate layer reuses the OpenAPI and CEL checks.
 */
export {
  FieldPath,
  fieldError,
  fieldInvalid,
  fieldRequired,
  fieldForbidden,
  fieldNotSupported,
  fieldTypeInvalid,
  fieldDuplicate,
  fieldTooLong,
  fieldTooMany,
  fieldInternalError,
  type FieldError,
  type FieldErrorType,
} from './field/index.js';
export { RawJson, type JSONSchemaProps, type ValidationRule } from './schema/index.js';
export {
  applyDefaults,
  pruneNonNullableNullsWithoutDefaults,
  pruneUnknownFields,
  validateDefaults,
  validateListSetsAndMaps,
  validateStructural,
  validateValue,
  validateCustomResource,
  type CustomResourceOptions,
  type CustomResourceResult,
  type OpenAPIOptions,
  type PruneResult,
} from './openapi/index.js';
export {
  clusterClassStatusVariables,
  defaultClusterVariables,
  defaultMachineVariables,
  validateClusterClassVariables,
  validateClusterVariables,
  validateControlPlaneVariables,
  validateMachineVariables,
  type ClusterClassStatusVariable,
  type ClusterClassVariable,
  type ClusterVariable,
} from './variables/index.js';
export {
  applyPatches,
  calculateTemplateData,
  calculateValue,
  controlPlaneVariables,
  generateInlinePatches,
  globalVariables,
  machineDeploymentVariables,
  machinePoolVariables,
  matchesSelector,
  parsePathSegment,
  patchIsEnabled,
  renderValueTemplate,
  validatePatches,
  type PatchChange,
  type PatchOutcome,
} from './patches/index.js';
export {
  controlPlaneContract,
  expandTopology,
  topologyLimits,
  type ExpandedCluster,
  type ExpandedVariable,
  type ExpandOptions,
  type ExpandResult,
  type TopologyObject,
  type TopologyProblem,
  upgradePlanExtensionOf,
} from './expand.js';
export type { UpgradePlan } from './desired/index.js';
export {
  dns1123SubdomainErrors,
  generateName,
  generateNameFromData,
  namingData,
  namingTemplateErrors,
  NamingTemplateError,
  randomAlphabet,
  simpleName,
  stableRandom,
  topologyObjectName,
  topologyRoles,
  type ObjectNameInput,
  type NamedObject,
} from './names/index.js';
/** apimachinery's label key and value validation with its messages, and Go's CIDR parsing (the webhooks' checks). */
export { isQualifiedName, isValidLabelValue, parseCIDR, parseIP } from './cel/index.js';
