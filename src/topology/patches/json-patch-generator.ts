/**
 * The inline JSON patch generator (`core/reconcilers/topology/cluster/patches/inline/json_patch_generator.go`):
 * for every template of a request, the patch's definitions whose selector matches it, gated by `enabledIf`, each
 * turned into one RFC 6902 patch whose values come from `value`, `valueFrom.variable` or `valueFrom.template`.
 */
import { goQuote } from '../../go/index.js';
import type { JsonPatchOperation } from './json-patch.js';
import { isObject, type JsonObject } from './json.js';
import { BuiltinsTypeError } from './builtins.js';
import { getVariableValue, VariableLookupError } from './variable-value.js';
import { mergeVariableMaps, toVariableMap, type PatchVariable, type VariableMap } from './variables.js';
import { patchIsEnabled, renderValueTemplate, shareTemplateData, ValueTemplateError } from './value-template.js';

/** `runtimehooksv1.HolderReference`: the object and field that will point at the object built from the template. */
export interface HolderReference {
  apiVersion: string;
  kind: string;
  name: string;
  namespace: string;
  fieldPath: string;
}

/** `GeneratePatchesRequestItem`. */
export interface GeneratePatchesRequestItem {
  uid: string;
  holderReference: HolderReference;
  /** The template (JSON), as patched by the patches before this one. */
  object: JsonObject;
  variables: PatchVariable[];
}

/** `GeneratePatchesRequest`. */
export interface GeneratePatchesRequest {
  variables: PatchVariable[];
  items: GeneratePatchesRequestItem[];
}

export interface GeneratePatchesResponseItem {
  uid: string;
  patchType: 'JSONPatch';
  patch: JsonPatchOperation[];
}

export interface GeneratePatchesResponse {
  items: GeneratePatchesResponseItem[];
}

/** One failure of a generation; the generator reports all of them, as CAPI aggregates them. */
export interface GenerateFailure {
  /** Index of the request item. */
  item: number;
  /** Index in `definitions` when the failure belongs to one definition (undefined for `enabledIf`). */
  definition?: number;
  /** Index in the definition's `jsonPatches`, when known. */
  jsonPatch?: number;
  message: string;
}

export class InlinePatchError extends Error {
  constructor(readonly failures: GenerateFailure[]) {
    super(aggregateMessage(failures.map((f) => f.message)));
  }
}

/** `kerrors.NewAggregate(errs).Error()`: one message as is, several (deduplicated) as `[a, b]`. */
export function aggregateMessage(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  if (unique.length === 1) return unique[0] as string;
  return `[${unique.join(', ')}]`;
}

/** What a selector is matched against: the template's apiVersion and kind, and its holder. */
export interface SelectorTarget {
  apiVersion: string;
  kind: string;
  holderReference: HolderReference;
}

/** A class name of `matchResources.*Class.names`: exact, `*`, `*suffix` or `prefix*`. */
function classMatches(pattern: string, className: string | undefined): boolean {
  if (pattern === '*') return true;
  // CAPI compares the raw JSON with the quoted name, so only a JSON string can match anything but `*`.
  if (className === undefined) return false;
  if (pattern === className) return true;
  if (pattern.startsWith('*') && className.endsWith(pattern.slice(1))) return true;
  if (pattern.endsWith('*') && className.startsWith(pattern.slice(0, -1))) return true;
  return false;
}

const workerFieldPaths = new Set(['spec.template.spec.bootstrap.configRef', 'spec.template.spec.infrastructureRef']);
const controlPlaneMachineFieldPaths = new Set(['spec.machineTemplate.infrastructureRef', 'spec.machineTemplate.spec.infrastructureRef']);

/** `matchesSelector`. */
export function matchesSelector(item: SelectorTarget, templateVariables: VariableMap, selector: unknown): boolean {
  if (!isObject(selector)) return false;
  if (item.apiVersion !== selector.apiVersion || item.kind !== selector.kind) return false;
  const match = isObject(selector.matchResources) ? selector.matchResources : {};
  const holder = item.holderReference;
  if (match.infrastructureCluster === true && holder.kind === 'Cluster' && holder.fieldPath === 'spec.infrastructureRef') return true;
  if (match.controlPlane === true) {
    if (holder.kind === 'Cluster' && holder.fieldPath === 'spec.controlPlaneRef') return true;
    if (controlPlaneMachineFieldPaths.has(holder.fieldPath)) return true;
  }
  for (const [key, holderKind, classPath] of [
    ['machineDeploymentClass', 'MachineDeployment', 'builtin.machineDeployment.class'],
    ['machinePoolClass', 'MachinePool', 'builtin.machinePool.class'],
  ] as const) {
    const classSelector = match[key];
    if (classSelector === undefined || classSelector === null) continue;
    if (holder.kind !== holderKind || !workerFieldPaths.has(holder.fieldPath)) continue;
    let value: unknown;
    try {
      value = getVariableValue(templateVariables, classPath);
    } catch {
      continue;
    }
    const className = typeof value === 'string' ? value : undefined;
    const names = isObject(classSelector) && Array.isArray(classSelector.names) ? classSelector.names : [];
    if (names.some((n) => typeof n === 'string' && classMatches(n, className))) return true;
  }
  return false;
}

const present = (v: unknown): boolean => v !== undefined && v !== null;

/** A value that cannot be calculated (no or two value sources, a missing variable, a failing template). */
export class PatchValueError extends Error {}

/** `calculateValue`: the value of an `add`/`replace` operation. */
export function calculateValue(patch: JsonObject, variables: VariableMap): unknown {
  const valueFrom = patch.valueFrom;
  if (!present(patch.value) && !present(valueFrom)) throw new PatchValueError('failed to calculate value: neither .value nor .valueFrom are set');
  if (present(patch.value) && present(valueFrom)) throw new PatchValueError('failed to calculate value: both .value and .valueFrom are set');
  if (present(patch.value)) return patch.value;
  const from = isObject(valueFrom) ? valueFrom : {};
  const variable = typeof from.variable === 'string' ? from.variable : '';
  const template = typeof from.template === 'string' ? from.template : '';
  if (variable === '' && template === '') {
    throw new PatchValueError('failed to calculate value: .valueFrom is set, but neither .valueFrom.variable nor .valueFrom.template are set');
  }
  if (variable !== '' && template !== '') {
    throw new PatchValueError('failed to calculate value: .valueFrom is set, but both .valueFrom.variable and .valueFrom.template are set');
  }
  if (variable !== '') {
    try {
      return getVariableValue(variables, variable);
    } catch (err) {
      if (!(err instanceof VariableLookupError)) throw err;
      throw new PatchValueError(`failed to calculate value: ${err.message}`);
    }
  }
  try {
    return renderValueTemplate(template, variables);
  } catch (err) {
    if (!(err instanceof ValueTemplateError)) throw err;
    throw new PatchValueError(`failed to calculate value for template: ${err.message}`);
  }
}

/** `generateJSONPatches`: a definition's `jsonPatches` as RFC 6902 operations (values only for add/replace). */
function generateJsonPatches(jsonPatches: unknown, variables: VariableMap): { operations: JsonPatchOperation[] } | { failed: number; message: string } {
  const operations: JsonPatchOperation[] = [];
  const list = Array.isArray(jsonPatches) ? jsonPatches : [];
  for (let i = 0; i < list.length; i++) {
    const p = isObject(list[i]) ? (list[i] as JsonObject) : {};
    const op = typeof p.op === 'string' ? p.op : '';
    const path = typeof p.path === 'string' ? p.path : '';
    if (op === 'add' || op === 'replace') {
      try {
        operations.push({ op, path, value: calculateValue(p, variables) });
      } catch (err) {
        if (!(err instanceof PatchValueError)) throw err;
        return { failed: i, message: err.message };
      }
    } else {
      operations.push({ op, path });
    }
  }
  return { operations };
}

/**
 * Variable maps by the variable lists they come from: the engine hands every inline patch the same lists (the
 * desired state does not change while patches run), so the maps and the merged builtins are built once.
 */
const mapsOfLists = new WeakMap<readonly PatchVariable[], Map<string, unknown>>();
const mergedMaps = new WeakMap<readonly PatchVariable[], WeakMap<readonly PatchVariable[], Map<string, unknown>>>();

function variableMapOf(list: readonly PatchVariable[]): Map<string, unknown> {
  let m = mapsOfLists.get(list);
  if (!m) {
    m = toVariableMap(list);
    shareTemplateData(m);
    mapsOfLists.set(list, m);
  }
  return m;
}

function mergedVariables(global: readonly PatchVariable[], template: readonly PatchVariable[]): VariableMap {
  let byTemplate = mergedMaps.get(global);
  if (!byTemplate) {
    byTemplate = new WeakMap();
    mergedMaps.set(global, byTemplate);
  }
  let m = byTemplate.get(template);
  if (!m) {
    m = mergeVariableMaps(variableMapOf(global), variableMapOf(template));
    shareTemplateData(m);
    byTemplate.set(template, m);
  }
  return m;
}

/** The kind CAPI names a template by in generation errors. */
function kindOf(object: JsonObject): string {
  return typeof object.kind === 'string' ? object.kind : '';
}

/**
 * `jsonPatchGenerator.Generate`: one response item per matching, enabled definition of every request item, in
 * request and definition order. Throws InlinePatchError listing every failure (CAPI keeps going and aggregates).
 */
export function generateInlinePatches(patch: JsonObject, request: GeneratePatchesRequest): GeneratePatchesResponse {
  return { items: generateWithDefinitions(patch, request).map(({ uid, patchType, patch: operations }) => ({ uid, patchType, patch: operations })) };
}

/** {@link generateInlinePatches}, each response item with the index of the definition it came from. */
export function generateWithDefinitions(
  patch: JsonObject,
  request: GeneratePatchesRequest,
): Array<GeneratePatchesResponseItem & { definition: number }> {
  const response: { items: Array<GeneratePatchesResponseItem & { definition: number }> } = { items: [] };
  const failures: GenerateFailure[] = [];
  const definitions = Array.isArray(patch.definitions) ? patch.definitions : [];
  const enabledIf = typeof patch.enabledIf === 'string' ? patch.enabledIf : undefined;
  request.items.forEach((item, itemIndex) => {
    const objectKind = kindOf(item.object);
    const templateVariables = variableMapOf(item.variables);
    const target: SelectorTarget = {
      apiVersion: typeof item.object.apiVersion === 'string' ? item.object.apiVersion : '',
      kind: objectKind,
      holderReference: item.holderReference,
    };
    const matching: number[] = [];
    definitions.forEach((d, i) => {
      if (isObject(d) && matchesSelector(target, templateVariables, d.selector)) matching.push(i);
    });
    if (matching.length === 0) return;
    let variables: VariableMap;
    try {
      variables = mergedVariables(request.variables, item.variables);
    } catch (err) {
      if (!(err instanceof BuiltinsTypeError)) throw err;
      failures.push({
        item: itemIndex,
        message: `failed to merge global and template-specific variables for ${goQuote(objectKind)}: failed to merge builtin variables: failed to unmarshal builtin variable: ${err.message}`,
      });
      return;
    }
    let enabled: boolean;
    try {
      enabled = patchIsEnabled(enabledIf, variables);
    } catch (err) {
      if (!(err instanceof ValueTemplateError)) throw err;
      failures.push({ item: itemIndex, message: `failed to calculate if patch is enabled for ${goQuote(objectKind)}: ${err.message}` });
      return;
    }
    if (!enabled) return;
    for (const definition of matching) {
      const generated = generateJsonPatches((definitions[definition] as JsonObject).jsonPatches, variables);
      if ('failed' in generated) {
        failures.push({
          item: itemIndex,
          definition,
          jsonPatch: generated.failed,
          message: `failed to generate JSON patches for ${goQuote(objectKind)}: ${generated.message}`,
        });
        continue;
      }
      response.items.push({ uid: item.uid, patchType: 'JSONPatch', patch: generated.operations, definition });
    }
  });
  if (failures.length > 0) throw new InlinePatchError(failures);
  return response.items;
}
