/**
 * ClusterClass patches (spec capi-plan.md §3.3 "Which variables a patch sees", §3.4): the variables each template
 * sees, the inline JSON patch generator with its Go templates, and the engine that applies a class's patches to a
 * Cluster's desired state in CAPI's order. External (Runtime SDK) patches cannot run offline and are reported.
 */
export { applyPatches, type PatchChange, type PatchOutcome } from './engine.js';
export {
  aggregateMessage,
  calculateValue,
  generateInlinePatches,
  InlinePatchError,
  matchesSelector,
  type GenerateFailure,
  type GeneratePatchesRequest,
  type GeneratePatchesRequestItem,
  type GeneratePatchesResponse,
  type GeneratePatchesResponseItem,
  type HolderReference,
  type SelectorTarget,
} from './json-patch-generator.js';
export { applyJsonPatch, JsonPatchError, type JsonPatchOperation } from './json-patch.js';
export { getVariableValue, parsePathSegment, VariableLookupError, type PathSegment } from './variable-value.js';
export {
  BUILTIN,
  controlPlaneVariables,
  definitionsForPatch,
  globalVariables,
  INLINE,
  machineDeploymentVariables,
  machinePoolVariables,
  mergeVariableMaps,
  toVariableMap,
  variablesFromRawJSON,
  type PatchVariable,
  type VariableMap,
} from './variables.js';
export { builtinVariablePaths, validatePatches } from './validation.js';
export {
  calculateTemplateData,
  parseValueTemplate,
  patchIsEnabled,
  renderValueTemplate,
  ValueTemplateError,
  withNondeterministicCallListener,
} from './value-template.js';
