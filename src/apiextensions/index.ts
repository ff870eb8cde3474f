/**
 * The apiextensions layer's door: Kubernetes' schema machinery, as the API server runs it for custom resources and
 * CAPI runs it for ClusterClass variables. Named after upstream's k8s.io/apiextensions-apiserver (structural schemas,
 * defaulting, pruning, list types, CEL `x-kubernetes-validations` with the Kubernetes libraries and cost model:
 * pkg/apiserver/schema/...) and k8s.io/apimachinery/pkg/util/validation/field (field paths and field errors).
 * Pure: decoded JSON values and schemas in, field errors out. Below topology and validate, which both use it.
 *
 * Rooms: `schema` (the JSONSchemaProps type), `field` (field paths and errors), `openapi` (kube-openapi value
 * validation, structural checks, defaulting, pruning, list types, custom resources), `cel` (CEL rules and the
 * apimachinery label and CIDR checks the webhooks share).
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
  goJsonMarshal,
  withFieldError,
  type FieldError,
  type FieldErrorType,
} from './field/index.js';
export { RawJson, type JSONSchemaProps, type ValidationRule } from './schema/index.js';
export {
  applyDefaults,
  hasCelRules,
  isJsonObject,
  jsonDeepEqual,
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
  checkCelSchema,
  estimateCelCost,
  preexistingRulesOf,
  validateCelRules,
  type CelOptions,
  type CelRuleCost,
  type CheckCelOptions,
  type PreexistingRules,
} from './cel/index.js';
/** apimachinery's label key and value validation with its messages, and Go's CIDR parsing (the webhooks' checks). */
export { cidrContainsIP, isQualifiedName, isValidLabelValue, parseCIDR, parseIP, type IPAddress } from './cel/index.js';
