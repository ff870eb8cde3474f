/**
 * The topology layer's door: ClusterClass expansion (blueprint, variables with defaulting and OpenAPI + CEL
 * validation, patches, names, desired state), pure data in and objects out, between lock and render
 * (spec/capi-plan.md §3). Sub-folders are doors of their own; the validate layer reuses the OpenAPI and CEL checks.
 */
export type { FieldError, FieldErrorType } from './field/index.js';
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
} from './expand.js';
export type { UpgradePlan } from './desired/index.js';
export {
  dns1123SubdomainErrors,
  generateName,
  namingTemplateErrors,
  NamingTemplateError,
  randomAlphabet,
  simpleName,
  stableRandom,
  topologyObjectName,
  type ObjectNameInput,
  type NamedObject,
} from './names/index.js';
