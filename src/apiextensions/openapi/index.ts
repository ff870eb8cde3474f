/**
 * OpenAPI v3 schema validation as the Kubernetes API server runs it for custom resources and CAPI runs it for
 * ClusterClass variables: kube-openapi value validation, structural-schema checks, structural defaulting, pruning of
 * unknown fields and list-type uniqueness. Pure: decoded JSON values and schemas in, field errors out.
 */
export { validateValue, schemaTypes, type OpenAPIOptions } from './validator.js';
export { validateStructural, unsupportedSchemaField, children as schemaChildren } from './structural.js';
export {
  applyDefaults,
  hasCelRules,
  pruneNonNullableNullsWithoutDefaults,
  validateDefaults,
  type CelRuleCheck,
  type DefaultsOptions,
} from './defaulting.js';
export { pruneUnknownFields, type PruneResult } from './pruning.js';
export { validateListSetsAndMaps } from './listtype.js';
export { validateCustomResource, type CustomResourceOptions, type CustomResourceResult } from './resource.js';
export { effectiveFormat, matchesFormat } from './formats.js';
export { deepCopy as deepCopyJson, deepEqual as jsonDeepEqual, isObject as isJsonObject } from './json.js';
