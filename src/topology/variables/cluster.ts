/**
 * CAPI's `internal/topology/variables` for Cluster values: defaulting (`cluster_variable_defaulting.go`) and
 * validation (`cluster_variable_validation.go`) of `spec.topology.variables` and of the control plane,
 * MachineDeployment and MachinePool overrides against `ClusterClass.status.variables`.
 */
import { GoJsonSyntaxError } from '../../go/index.js';
import {
  applyDefaults,
  fieldInternalError,
  fieldInvalid,
  FieldPath,
  fieldRequired,
  fieldTypeInvalid,
  hasCelRules,
  pruneUnknownFields,
  validateCelRules,
  validateValue,
  withFieldError,
  type FieldError,
  type JSONSchemaProps,
} from '../../apiextensions/index.js';
import { convertVariableSchema } from './schema.js';
import {
  decodedValue,
  isNilValue,
  rawText,
  variableOf,
  type ClusterClassStatusVariable,
  type ClusterClassVariable,
  type ClusterVariable,
} from './types.js';

/** A field path given as Go prints it (`spec.topology.variables`) or built with {@link FieldPath}. */
export type PathLike = FieldPath | string;

export function toPath(p: PathLike): FieldPath {
  return typeof p === 'string' ? FieldPath.of(p) : p;
}

function jsonError(err: unknown): string {
  return err instanceof GoJsonSyntaxError || err instanceof Error ? err.message : String(err);
}

/** `newValuesIndex`: values by name; a name set twice is an error. */
function valuesIndex(path: FieldPath, values: readonly ClusterVariable[]): { index: Map<string, ClusterVariable>; errors: FieldError[] } {
  const index = new Map<string, ClusterVariable>();
  const errors: FieldError[] = [];
  for (const v of values) {
    if (index.has(v.name)) errors.push(fieldInvalid(path.key(v.name), rawText(v), `variable "${v.name}" is set more than once`));
    index.set(v.name, v);
  }
  return { index, errors };
}

/** `newDefinitionsIndex`: definitions by name; empty or conflicting definitions make the whole list invalid. */
function definitionsIndex(
  path: FieldPath,
  definitions: readonly ClusterClassStatusVariable[],
): { index: Map<string, ClusterClassStatusVariable>; errors: FieldError[] } {
  const index = new Map<string, ClusterClassStatusVariable>();
  const problems: string[] = [];
  for (const d of definitions) {
    if ((d.definitions ?? []).length === 0) problems.push(`variable "${d.name}" has no definitions`);
    if (d.definitionsConflict === true) problems.push(`variable "${d.name}" has conflicting definitions`);
    index.set(d.name, d);
  }
  if (problems.length === 0) return { index, errors: [] };
  const names = `[${definitions.map((d) => `Name: ${d.name}`).join(',')}]`;
  // kerrors.NewAggregate prints one error bare and several as a bracketed list.
  const aggregate = problems.length === 1 ? (problems[0] as string) : `[${problems.join(', ')}]`;
  return { index, errors: [fieldTypeInvalid(path, names, `variable definitions in the ClusterClass not valid: ${aggregate}`)] };
}

/** `DefaultClusterVariables`: defaults values and creates missing variables that have a top-level default. */
export function defaultClusterVariables(
  values: readonly ClusterVariable[],
  definitions: readonly ClusterClassStatusVariable[],
  path: PathLike,
): { variables: ClusterVariable[]; errors: FieldError[] } {
  return defaultVariables(values, definitions, true, toPath(path));
}

/** `DefaultMachineVariables`: defaults override values; never creates variables. */
export function defaultMachineVariables(
  values: readonly ClusterVariable[],
  definitions: readonly ClusterClassStatusVariable[],
  path: PathLike,
): { variables: ClusterVariable[]; errors: FieldError[] } {
  return defaultVariables(values, definitions, false, toPath(path));
}

function defaultVariables(
  values: readonly ClusterVariable[],
  definitions: readonly ClusterClassStatusVariable[],
  createVariables: boolean,
  path: FieldPath,
): { variables: ClusterVariable[]; errors: FieldError[] } {
  const vIndex = valuesIndex(path, values);
  if (vIndex.errors.length > 0) return { variables: [], errors: vIndex.errors };
  const dIndex = definitionsIndex(path, definitions);
  if (dIndex.errors.length > 0) return { variables: [], errors: dIndex.errors };
  const all: ClusterVariable[] = [...values];
  for (const d of definitions) if (!vIndex.index.has(d.name)) all.push({ name: d.name });
  const errors: FieldError[] = [];
  const out: ClusterVariable[] = [];
  for (const variable of all) {
    const p = path.key(variable.name);
    const definition = dIndex.index.get(variable.name);
    if (!definition) {
      errors.push(fieldInvalid(p, rawText(variable), 'variable is not defined'));
      continue;
    }
    const r = defaultVariable(vIndex.index.get(variable.name), definition, p, createVariables);
    if (r.errors.length > 0) {
      errors.push(...r.errors);
      continue;
    }
    if (r.variable) out.push(r.variable);
  }
  return errors.length > 0 ? { variables: [], errors } : { variables: out, errors: [] };
}

/**
 * `defaultValue`: one variable. Returns no variable when it does not exist and is not created (no top-level default,
 * or creation disabled).
 */
export function defaultVariable(
  current: ClusterVariable | undefined,
  definition: ClusterClassStatusVariable,
  path: PathLike,
  createVariable: boolean,
): { variable?: ClusterVariable; errors: FieldError[] } {
  const p = toPath(path);
  const def = definition.definitions[0];
  if (!def) return { errors: [] };
  const schema = def.schema?.openAPIV3Schema ?? {};
  if (!current && (!createVariable || schema.default === undefined || schema.default === null)) return { errors: [] };
  const converted = convertVariableSchema(schema, FieldPath.of('schema'));
  if (converted.errors.length > 0) {
    const list = `[${converted.errors.map((e) => e.message).join(' ')}]`;
    return {
      errors: [fieldInvalid(p, '', `invalid schema in ClusterClass for variable "${definition.name}": error to convert schema ${list}`)],
    };
  }
  let value: unknown = null;
  if (current && !isNilValue(current)) {
    try {
      value = decodedValue(current);
    } catch (err) {
      return {
        errors: [fieldInvalid(p, '', `failed to unmarshal variable "${current.name}" value "${rawText(current)}": ${jsonError(err)}`)],
      };
    }
  }
  // Structural defaulting works on objects: the variable is wrapped as a property, as CAPI does.
  const wrapped = applyDefaults({ [definition.name]: value }, { type: 'object', properties: { [definition.name]: converted.schema } }) as Record<
    string,
    unknown
  >;
  return { variable: variableOf(definition.name, wrapped[definition.name] ?? null), errors: [] };
}

/** `ValidateClusterVariables`: required variables, definitions, schemas and CEL rules (with old values for oldSelf). */
export function validateClusterVariables(
  values: readonly ClusterVariable[],
  oldValues: readonly ClusterVariable[] | undefined,
  definitions: readonly ClusterClassStatusVariable[],
  path: PathLike,
): FieldError[] {
  return validateVariables(values, oldValues ?? [], definitions, true, toPath(path));
}

/**
 * `ValidateControlPlaneVariables` and `ValidateMachineVariables` (MachineDeployment/MachinePool overrides): CAPI keeps
 * two names for one check, overrides without the required-variables check.
 */
export function validateControlPlaneVariables(
  values: readonly ClusterVariable[],
  oldValues: readonly ClusterVariable[] | undefined,
  definitions: readonly ClusterClassStatusVariable[],
  path: PathLike,
): FieldError[] {
  return validateVariables(values, oldValues ?? [], definitions, false, toPath(path));
}

export const validateMachineVariables: typeof validateControlPlaneVariables = validateControlPlaneVariables;

/** `validateClusterVariables` with an explicit required check (the form CAPI's tests call). */
export function validateVariables(
  values: readonly ClusterVariable[],
  oldValues: readonly ClusterVariable[],
  definitions: readonly ClusterClassStatusVariable[],
  validateRequired: boolean,
  path: PathLike,
): FieldError[] {
  const p = toPath(path);
  const vIndex = valuesIndex(p, values);
  if (vIndex.errors.length > 0) return vIndex.errors;
  const oldIndex = valuesIndex(p, oldValues);
  if (oldIndex.errors.length > 0) return oldIndex.errors;
  const dIndex = definitionsIndex(p, definitions);
  if (dIndex.errors.length > 0) return dIndex.errors;
  const errors: FieldError[] = [];
  if (validateRequired) {
    for (const d of definitions) {
      if (d.definitions[0]?.required === true && !vIndex.index.has(d.name)) {
        errors.push(fieldRequired(p, `required variable "${d.name}" must be set`));
      }
    }
  }
  for (const value of values) {
    const vp = p.key(value.name);
    const definition = dIndex.index.get(value.name);
    if (!definition) {
      errors.push(fieldInvalid(vp, rawText(value), 'variable is not defined'));
      continue;
    }
    const def = definition.definitions[0];
    if (!def) continue;
    errors.push(
      ...validateClusterVariable(value, oldIndex.index.get(value.name), { name: value.name, required: def.required, schema: def.schema }, vp),
    );
  }
  return errors;
}

/**
 * `ValidateClusterVariable`: one value against its definition — the OpenAPI schema, unknown fields (unless
 * `x-kubernetes-preserve-unknown-fields`), then the CEL rules, with `oldSelf` when an old value exists.
 */
export function validateClusterVariable(
  value: ClusterVariable,
  oldValue: ClusterVariable | undefined,
  definition: ClusterClassVariable,
  path: PathLike,
): FieldError[] {
  const p = toPath(path);
  const raw = rawText(value);
  let decoded: unknown = null;
  try {
    decoded = decodedValue(value);
  } catch (err) {
    return [fieldInvalid(p.child('value'), raw, `variable "${value.name}" could not be parsed: ${jsonError(err)}`)];
  }
  const converted = convertVariableSchema(definition.schema?.openAPIV3Schema ?? {}, FieldPath.of('schema'));
  if (converted.errors.length > 0) {
    const list = `[${converted.errors.map((e) => e.message).join(' ')}]`;
    return [
      fieldInternalError(p, `failed to convert schema definition for variable "${definition.name}"; ClusterClass should be checked: ${list}`),
    ];
  }
  const schema: JSONSchemaProps = converted.schema;
  const schemaErrors = validateValue(schema, decoded, p.child('value'));
  if (schemaErrors.length > 0) {
    return schemaErrors.map((e) => withFieldError(e, { badValue: raw, detail: e.detail.replace(/^ in body /, '') }));
  }
  const wrapper: JSONSchemaProps = { type: 'object', properties: { variableValue: schema } };
  const unknown = pruneUnknownFields({ variableValue: decoded }, wrapper).unknownFields.map((f) => f.replace(/^variableValue\./, ''));
  if (unknown.length > 0) {
    return [
      fieldInvalid(
        p,
        raw,
        `failed validation: "${unknown.join(',')}" field(s) are not specified in the variable schema of variable "${value.name}"`,
      ),
    ];
  }
  if (!hasCelRules(schema)) return [];
  let old: unknown;
  if (oldValue && !isNilValue(oldValue)) {
    try {
      old = decodedValue(oldValue);
    } catch (err) {
      return [
        fieldInvalid(p.child('value'), rawText(oldValue), `old value of variable "${value.name}" could not be parsed: ${jsonError(err)}`),
      ];
    }
  }
  return validateCelRules(schema, decoded, old, p.child('value').toString()).map((e) => withFieldError(e, { badValue: raw }));
}
