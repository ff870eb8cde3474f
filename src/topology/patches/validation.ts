/**
 * What CAPI's ClusterClass webhook refuses in `spec.patches` (`core/webhooks/admission/patch_validation.go`, spec
 * capi-plan.md §3.4.5): names, `enabledIf` and value templates that do not parse, operations other than add/replace/
 * remove, paths outside `/spec`, array indices, value sources, unknown variables, and selectors that match no template
 * of the class. A class with such a patch never reaches a cluster, so a review reports these instead of applying them.
 * Works on v1beta2 classes (v1beta1 `ref` fields are read too).
 */
import { goQuote } from '../../go/index.js';
import { fieldInvalid as invalid, fieldNotSupported, fieldRequired as required, type FieldError } from '../../apiextensions/index.js';
import { qualifiedNameErrors } from '../variables/index.js';
import { isObject, nestedField, type JsonObject } from './json.js';
import { goAtoi } from './variable-value.js';
import { parseValueTemplate } from './value-template.js';

/** `builtinVariables`: the `builtin.*` paths a `valueFrom.variable` may name. */
export const builtinVariablePaths: ReadonlySet<string> = new Set([
  'builtin',
  ...['', '.name', '.namespace', '.uid', '.metadata.labels', '.metadata.annotations'].map((s) => `builtin.cluster${s}`),
  ...['', '.classRef.name', '.classRef.namespace', '.class', '.classNamespace', '.version'].map((s) => `builtin.cluster.topology${s}`),
  ...['', '.serviceDomain', '.services', '.pods'].map((s) => `builtin.cluster.network${s}`),
  ...['', '.name', '.replicas', '.version', '.metadata.labels', '.metadata.annotations', '.machineTemplate.infrastructureRef.name'].map(
    (s) => `builtin.controlPlane${s}`,
  ),
  ...['machineDeployment', 'machinePool'].flatMap((w) =>
    [
      '',
      '.class',
      '.name',
      '.replicas',
      '.topologyName',
      '.version',
      '.metadata.labels',
      '.metadata.annotations',
      '.bootstrap.configRef.name',
      '.infrastructureRef.name',
    ].map((s) => `builtin.${w}${s}`),
  ),
]);

/** `prettyPrint`: Go's `json.MarshalIndent(v, "", "  ")` (keys in struct order, empty fields left out). */
function prettyPrint(v: unknown): string {
  return JSON.stringify(v, null, 2).replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`);
}

/** A JSONPatch as the Go struct marshals it (`op`, `path`, `value`, `valueFrom`; empty fields omitted). */
function jsonPatchStruct(p: JsonObject): JsonObject {
  const out: JsonObject = {};
  if (p.op) out.op = p.op;
  if (p.path) out.path = p.path;
  if (p.value !== undefined && p.value !== null) out.value = p.value;
  if (isObject(p.valueFrom)) out.valueFrom = valueFromStruct(p.valueFrom);
  return out;
}
function valueFromStruct(v: JsonObject): JsonObject {
  const out: JsonObject = {};
  if (v.variable) out.variable = v.variable;
  if (v.template) out.template = v.template;
  return out;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function templateError(name: string, text: string): string | undefined {
  try {
    parseValueTemplate(name, text);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

/** A class template reference (`templateRef`, or v1beta1's `ref`). */
function templateRef(obj: unknown): JsonObject | undefined {
  if (!isObject(obj)) return undefined;
  const ref = obj.templateRef ?? obj.ref;
  return isObject(ref) ? ref : undefined;
}

function selectorMatchesRef(selector: JsonObject, ref: JsonObject | undefined): boolean {
  return ref !== undefined && selector.kind === ref.kind && selector.apiVersion === ref.apiVersion;
}

function classNameMatches(pattern: string, className: string): boolean {
  if (pattern === className || pattern === '*') return true;
  if (pattern.startsWith('*') && className.endsWith(pattern.slice(1))) return true;
  return pattern.endsWith('*') && className.startsWith(pattern.slice(0, -1));
}

function validateSelectorName(name: string, path: string): FieldError | undefined {
  if (!name.includes('*')) return undefined;
  if (name.split('*').length > 2) return invalid(path, name, 'selector can at most contain a single "*" rune');
  if (!name.startsWith('*') && !name.endsWith('*')) return invalid(path, name, '"*" rune can only appear at the beginning, or ending of the selector');
  if (qualifiedNameErrors(name.replaceAll('*', 'a')).length > 0) return invalid(path, name, 'selector does not comply with the Kubernetes naming standards');
  return undefined;
}

function validateSelector(selector: JsonObject, clusterClass: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const match = isObject(selector.matchResources) ? selector.matchResources : {};
  const names = (key: string): string[] => {
    const c = match[key];
    return isObject(c) && Array.isArray(c.names) ? c.names.map(String) : [];
  };
  const mdNames = names('machineDeploymentClass');
  const mpNames = names('machinePoolClass');
  if (match.infrastructureCluster !== true && match.controlPlane !== true && mdNames.length === 0 && mpNames.length === 0) {
    return [invalid(path, prettyPrint(selector), 'no selector enabled')];
  }
  const spec = isObject(clusterClass.spec) ? clusterClass.spec : {};
  if (match.infrastructureCluster === true && !selectorMatchesRef(selector, templateRef(spec.infrastructure))) {
    errs.push(invalid(`${path}.matchResources.infrastructureCluster`, true, 'selector is enabled but does not match the infrastructure ref'));
  }
  if (match.controlPlane === true) {
    const cp = isObject(spec.controlPlane) ? spec.controlPlane : {};
    if (!selectorMatchesRef(selector, templateRef(cp)) && !selectorMatchesRef(selector, templateRef(cp.machineInfrastructure))) {
      errs.push(
        invalid(
          `${path}.matchResources.controlPlane`,
          true,
          'selector is enabled but matches neither the controlPlane ref nor the controlPlane machineInfrastructure ref',
        ),
      );
    }
  }
  for (const [key, list, classesKey, what] of [
    ['machineDeploymentClass', mdNames, 'machineDeployments', 'MachineDeployment'],
    ['machinePoolClass', mpNames, 'machinePools', 'MachinePool'],
  ] as const) {
    const classes = nestedField(spec, ['workers', classesKey]).value;
    for (let i = 0; i < list.length; i++) {
      const name = list[i] as string;
      const namePath = `${path}.matchResources.${key}.names[${i}]`;
      const bad = validateSelectorName(name, namePath);
      if (bad) {
        errs.push(bad);
        break;
      }
      const found = (Array.isArray(classes) ? classes : []).some(
        (c) =>
          isObject(c) &&
          classNameMatches(name, str(c.class)) &&
          (selectorMatchesRef(selector, templateRef(c.infrastructure)) || selectorMatchesRef(selector, templateRef(c.bootstrap))),
      );
      if (!found) {
        errs.push(invalid(namePath, name, `selector is enabled but matches neither the bootstrap ref nor the infrastructure ref of a ${what} class`));
      }
    }
  }
  return errs;
}

/** `validateIndexAccess`: only `0` (prepend) in add paths, no index at all in replace and remove paths. */
function validateIndexAccess(op: string, jsonPath: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const part of jsonPath.split('/')) {
    // Most parts are field names: skip them before goAtoi, whose failure builds an Error (costly per part).
    if (!/^[+-]?[0-9]+$/.test(part)) continue;
    let index: number;
    try {
      index = goAtoi(part);
    } catch {
      continue;
    }
    if (op === 'add' && index !== 0) errs.push(invalid(path, jsonPath, 'arrays can only be accessed using "0" (prepend) or "-" (append)'));
    if (op === 'replace' || op === 'remove') errs.push(invalid(path, jsonPath, `elements in arrays can not be accessed in a ${op} operation`));
  }
  return errs;
}

function validateJsonPatch(p: JsonObject, variableNames: ReadonlySet<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const op = str(p.op);
  const jsonPath = str(p.path);
  if (op !== 'add' && op !== 'replace' && op !== 'remove') {
    errs.push(fieldNotSupported(`${path}.op`, prettyPrint(jsonPatchStruct(p)), ['add', 'remove', 'replace']));
  }
  if (!jsonPath.startsWith('/spec')) errs.push(invalid(`${path}.path`, prettyPrint(jsonPatchStruct(p)), 'jsonPatch path must start with "/spec"'));
  errs.push(...validateIndexAccess(op, jsonPath, `${path}.path`));
  if (op !== 'add' && op !== 'replace') return errs;
  const hasValue = p.value !== undefined && p.value !== null;
  const valueFrom = isObject(p.valueFrom) ? p.valueFrom : undefined;
  if (!hasValue && !valueFrom) errs.push(invalid(path, prettyPrint(jsonPatchStruct(p)), 'jsonPatch must define one of value or valueFrom'));
  if (hasValue && valueFrom) errs.push(invalid(path, prettyPrint(jsonPatchStruct(p)), 'jsonPatch can not define both value and valueFrom'));
  if (!valueFrom) return errs;
  const variable = str(valueFrom.variable);
  const template = str(valueFrom.template);
  if (!variable && !template) errs.push(invalid(`${path}.valueFrom`, prettyPrint(valueFromStruct(valueFrom)), 'valueFrom must set either template or variable'));
  if (variable && template) errs.push(invalid(`${path}.valueFrom`, prettyPrint(valueFromStruct(valueFrom)), 'valueFrom can not set both template and variable'));
  if (template) {
    const parseError = templateError('valueFrom.template', template);
    if (parseError) errs.push(invalid(`${path}.valueFrom.template`, template, `template can not be parsed: ${parseError}`));
  }
  if (variable) {
    if (variable.startsWith('builtin.')) {
      if (!builtinVariablePaths.has(variable)) errs.push(invalid(`${path}.valueFrom.variable`, variable, 'not a defined builtin variable'));
    } else if (!variableNames.has(variable.split(/[[.]/).find((s) => s !== '') ?? '')) {
      errs.push(invalid(`${path}.valueFrom.variable`, variable, `variable with name ${variable} cannot be found`));
    }
  }
  return errs;
}

/** `validatePatches`: every reason CAPI's webhook would refuse the class's `spec.patches`. */
export function validatePatches(clusterClass: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  const patches = nestedField(clusterClass, ['spec', 'patches']).value;
  const specVariables = nestedField(clusterClass, ['spec', 'variables']).value;
  const variableNames = new Set((Array.isArray(specVariables) ? specVariables : []).filter(isObject).map((v) => str(v.name)));
  const names = new Set<string>();
  (Array.isArray(patches) ? patches : []).forEach((raw, i) => {
    const patch = isObject(raw) ? raw : {};
    const path = `spec.patches[${i}]`;
    const name = str(patch.name);
    if (name === '') errs.push(required(`${path}.name`, 'patch name must be defined'));
    if (name === 'inline') errs.push(required(`${path}.name`, '"inline" can not be used as the name of a patch'));
    if (names.has(name)) errs.push(invalid(`${path}.name`, name, `patch names must be unique. Patch with name ${goQuote(name)} is defined more than once`));
    names.add(name);
    const enabledIf = str(patch.enabledIf);
    if (enabledIf) {
      const parseError = templateError('enabledIf', enabledIf);
      if (parseError) errs.push(invalid(`${path}.enabledIf`, enabledIf, `template can not be parsed: ${parseError}`));
    }
    const hasDefinitions = Array.isArray(patch.definitions);
    const external = isObject(patch.external) ? patch.external : undefined;
    if (!hasDefinitions && !external) errs.push(required(path, 'one of definitions or external must be defined'));
    if (hasDefinitions && external) errs.push(invalid(path, prettyPrint(patch), 'only one of definitions or external can be defined'));
    (hasDefinitions ? (patch.definitions as unknown[]) : []).forEach((d, j) => {
      const definition = isObject(d) ? d : {};
      const jsonPatches = Array.isArray(definition.jsonPatches) ? definition.jsonPatches : [];
      jsonPatches.forEach((p, k) => errs.push(...validateJsonPatch(isObject(p) ? p : {}, variableNames, `${path}.definitions[${j}].jsonPatches[${k}]`)));
      const selector = isObject(definition.selector) ? definition.selector : {};
      errs.push(...validateSelector(selector, clusterClass, `${path}.definitions[${j}].selector`));
    });
    if (external && !str(external.validateTopologyExtension) && !str(external.generatePatchesExtension)) {
      errs.push(invalid(`${path}.external`, prettyPrint(external), 'one of validateTopologyExtension and generatePatchesExtension must be defined'));
    }
  });
  return errs;
}
