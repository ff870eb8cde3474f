/**
 * CAPI's `clusterclass_variable_validation.go`: what the ClusterClass webhook checks on `spec.variables` — names,
 * metadata, that each schema is a structural schema CAPI supports, that its defaults, examples and enum values
 * validate against it, and that its CEL rules compile (new rules in the compatibility-version environment, rules kept
 * from the old class in the newest one). Also `status.variables`, which the ClusterClass controller builds.
 */
import {
  checkCelSchema,
  fieldForbidden,
  fieldInvalid,
  fieldNotSupported,
  FieldPath,
  fieldRequired,
  fieldTooLong,
  isJsonObject,
  jsonDeepEqual,
  preexistingRulesOf,
  validateCelRules,
  validateDefaults,
  validateStructural,
  validateValue,
  withFieldError,
  type FieldError,
  type JSONSchemaProps,
} from '../../apiextensions/index.js';
import { toPath, type PathLike } from './cluster.js';
import { convertVariableSchema } from './schema.js';
import type { ClusterClassStatusVariable, ClusterClassVariable, VariableMetadata } from './types.js';

export interface ClusterClassVariableOptions {
  /**
   * Kubernetes version whose CEL environment new rules compile in (CAPI uses the API server's default compatibility
   * version, n-1 of its Kubernetes libraries: `1.35` for CAPI v1.14).
   */
  compatibilityVersion?: string;
}

const defaultCompatibilityVersion = '1.35';

/** `ValidateClusterClassVariables(ctx, oldVariables, variables, fldPath)`. */
export function validateClusterClassVariables(
  oldVariables: readonly ClusterClassVariable[] | undefined,
  variables: readonly ClusterClassVariable[],
  path: PathLike,
  options: ClusterClassVariableOptions = {},
): FieldError[] {
  const p = toPath(path);
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  for (const v of variables) {
    if (seen.has(v.name)) {
      errors.push(
        fieldInvalid(p.key(v.name).child('name'), v.name, `variable name must be unique. Variable with name "${v.name}" is defined more than once`),
      );
    }
    seen.add(v.name);
  }
  const old = new Map<string, ClusterClassVariable>();
  for (const v of oldVariables ?? []) old.set(v.name, v);
  for (const v of variables) errors.push(...validateClusterClassVariable(old.get(v.name), v, p.key(v.name), options));
  return errors;
}

/** `validateClusterClassVariable(ctx, oldVariable, variable, fldPath)`. */
export function validateClusterClassVariable(
  oldVariable: ClusterClassVariable | undefined,
  variable: ClusterClassVariable,
  path: PathLike,
  options: ClusterClassVariableOptions = {},
): FieldError[] {
  const p = toPath(path);
  const errors: FieldError[] = [];
  errors.push(...validateVariableName(variable.name, p.child('name')));
  const metadataField = variable.metadata !== undefined && variable.deprecatedV1Beta1Metadata === undefined ? 'metadata' : 'deprecatedV1Beta1Metadata';
  errors.push(...validateMetadata(variable.deprecatedV1Beta1Metadata ?? variable.metadata, p.child(metadataField)));
  const schemaPath = p.child('schema', 'openAPIV3Schema');
  const schema = variable.schema?.openAPIV3Schema ?? {};
  errors.push(...validateXMetadata(schema, schemaPath));
  errors.push(...validateRootSchema(oldVariable, variable, schemaPath, options));
  return errors;
}

function validateVariableName(name: string, p: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  if (name === '') errors.push(fieldRequired(p, 'variable name must be defined'));
  if (name === 'builtin') errors.push(fieldInvalid(p, name, '"builtin" is a reserved variable name'));
  if (name.includes('.')) errors.push(fieldInvalid(p, name, 'variable name cannot contain "."'));
  return errors;
}

const labelKeyFmt = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const labelKeyRe = new RegExp(`^${labelKeyFmt}$`);
const labelKeyMsg = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const dns1123SubdomainFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*';
const dns1123SubdomainRe = new RegExp(`^${dns1123SubdomainFmt}$`);

function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join('or ')}regex used for validation is '${fmt}')`;
}

/** apimachinery `IsQualifiedName` (label and annotation keys). */
export function qualifiedNameErrors(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) name = parts[0] as string;
  else if (parts.length === 2) {
    const prefix = parts[0] as string;
    name = parts[1] as string;
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else {
      if (prefix.length > 253) errs.push('prefix part must be no more than 253 characters');
      if (!dns1123SubdomainRe.test(prefix)) {
        errs.push(
          `prefix part ${regexError(
            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
            dns1123SubdomainFmt,
            'example.com',
          )}`,
        );
      }
    }
  } else {
    return [
      `a valid label key ${regexError(labelKeyMsg, labelKeyFmt, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (name.length > 63) errs.push('name part must be no more than 63 characters');
  if (!labelKeyRe.test(name)) errs.push(`name part ${regexError(labelKeyMsg, labelKeyFmt, 'MyName', 'my.name', '123-abc')}`);
  return errs;
}

/** apimachinery `IsValidLabelValue`. */
function labelValueErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!new RegExp(`^(${labelKeyFmt})?$`).test(value)) {
    errs.push(
      regexError(
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        `(${labelKeyFmt})?`,
        'MyValue',
        'my_value',
        '12345',
      ),
    );
  }
  return errs;
}

/** `metav1validation.ValidateLabels` then `apivalidation.ValidateAnnotations` (map keys in sorted order). */
function validateLabelsAndAnnotations(metadata: VariableMetadata | undefined, labels: FieldPath, annotations: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  for (const k of Object.keys(metadata?.labels ?? {}).sort()) {
    for (const msg of qualifiedNameErrors(k)) errors.push(fieldInvalid(labels, k, msg));
    for (const msg of labelValueErrors(String(metadata?.labels?.[k] ?? ''))) errors.push(fieldInvalid(labels, metadata?.labels?.[k], msg));
  }
  let size = 0;
  for (const k of Object.keys(metadata?.annotations ?? {}).sort()) {
    for (const msg of qualifiedNameErrors(k.toLowerCase())) errors.push(fieldInvalid(annotations, k, msg));
    size += k.length + String(metadata?.annotations?.[k] ?? '').length;
  }
  if (size > 256 * 1024) errors.push(fieldTooLong(annotations, 256 * 1024));
  return errors;
}

function validateMetadata(metadata: VariableMetadata | undefined, p: FieldPath): FieldError[] {
  return validateLabelsAndAnnotations(metadata, p.child('labels'), p.child('annotations'));
}

/** `validateClusterClassXVariableMetadata`: `x-metadata` anywhere along properties, additionalProperties and items. */
function validateXMetadata(schema: JSONSchemaProps, p: FieldPath): FieldError[] {
  const errors = validateLabelsAndAnnotations(schema['x-metadata'], p.child('x-metadata', 'labels'), p.child('x-metadata', 'annotations'));
  if (isJsonObject(schema.additionalProperties)) errors.push(...validateXMetadata(schema.additionalProperties as JSONSchemaProps, p.child('additionalProperties')));
  for (const k of Object.keys(schema.properties ?? {}).sort()) {
    errors.push(...validateXMetadata(schema.properties?.[k] as JSONSchemaProps, p.child('properties').key(k)));
  }
  if (isJsonObject(schema.items)) errors.push(...validateXMetadata(schema.items as JSONSchemaProps, p.child('items')));
  return errors;
}

const validTypes = ['array', 'boolean', 'integer', 'number', 'object', 'string'];

function validateRootSchema(
  oldVariable: ClusterClassVariable | undefined,
  variable: ClusterClassVariable,
  p: FieldPath,
  options: ClusterClassVariableOptions,
): FieldError[] {
  const converted = convertVariableSchema(variable.schema?.openAPIV3Schema ?? {}, p);
  if (converted.errors.length > 0) {
    return converted.errors.map((e) =>
      withFieldError(e, {
        detail: `failed to convert schema definition for variable "${variable.name}"; ClusterClass should be checked: ${e.detail}`,
      }),
    );
  }
  let oldSchema: JSONSchemaProps | undefined;
  if (oldVariable) {
    const old = convertVariableSchema(oldVariable.schema?.openAPIV3Schema ?? {}, p);
    if (old.errors.length > 0) {
      return old.errors.map((e) =>
        withFieldError(e, {
          detail: `failed to convert old schema definition for variable "${variable.name}"; ClusterClass should be checked: ${e.detail}`,
        }),
      );
    }
    oldSchema = old.schema;
  }
  const schema = converted.schema;
  // Structural schemas only allow `type: object` at the root, so the variable schema is checked as a property.
  const wrapper: JSONSchemaProps = { type: 'object', properties: { variableSchema: schema } };
  const structural = validateStructural(wrapper, p);
  if (structural.length > 0) {
    return structural.map((e) => withFieldError(e, { field: e.field.replace('openAPIV3Schema.properties[variableSchema]', 'openAPIV3Schema') }));
  }
  const cel = (s: JSONSchemaProps, value: unknown, old: unknown, at: FieldPath): FieldError[] => validateCelRules(s, value, old, at.toString());
  const defaults = validateDefaults(schema, p, { requirePrunedDefaults: true, cel });
  if (defaults.length > 0) return defaults;

  const schemaErrors = walkSchema(schema, p);
  if (schemaErrors.length > 0) return schemaErrors;
  // Compiles the rules (pre-existing ones in the newest environment), checks their costs and runs examples and enum
  // values through them.
  return checkCelSchema(schema, p.toString(), {
    compatibilityVersion: options.compatibilityVersion ?? defaultCompatibilityVersion,
    ...(oldSchema ? { preexistingRules: preexistingRulesOf(oldSchema) } : {}),
  });
}

/**
 * CAPI's `validateSchema` without the CEL part (`checkCelSchema` owns it): supported types, examples and enum values
 * against the node's schema, and properties with additionalProperties.
 */
function walkSchema(s: JSONSchemaProps, p: FieldPath): FieldError[] {
  if (s.type && !validTypes.includes(s.type)) return [fieldNotSupported(p.child('type'), s.type, validTypes)];
  const errors: FieldError[] = [];
  if (s.example !== undefined && s.example !== null) errors.push(...validateValue(s, s.example, p.child('example')));
  (s.enum ?? []).forEach((e, i) => {
    if (e !== null && e !== undefined) errors.push(...validateValue(s, e, p.child('enum').index(i)));
  });
  if (isJsonObject(s.additionalProperties)) {
    if (Object.keys(s.properties ?? {}).length > 0) errors.push(fieldForbidden(p, 'additionalProperties and properties are mutually exclusive'));
    errors.push(...walkSchema(s.additionalProperties as JSONSchemaProps, p.child('additionalProperties')));
  }
  for (const k of Object.keys(s.properties ?? {}).sort()) errors.push(...walkSchema(s.properties?.[k] as JSONSchemaProps, p.child('properties').key(k)));
  if (isJsonObject(s.items)) errors.push(...walkSchema(s.items as JSONSchemaProps, p.child('items')));
  if (s.not) errors.push(...walkSchema(s.not, p.child('not')));
  (s.allOf ?? []).forEach((x, i) => errors.push(...walkSchema(x, p.child('allOf').index(i))));
  (s.oneOf ?? []).forEach((x, i) => errors.push(...walkSchema(x, p.child('oneOf').index(i))));
  (s.anyOf ?? []).forEach((x, i) => errors.push(...walkSchema(x, p.child('anyOf').index(i))));
  return errors;
}

/** JSON schema equality ignoring `false` flags (CAPI's `dropFalsePtrBool`), for definition conflicts. */
function sameSchema(a: JSONSchemaProps, b: JSONSchemaProps): boolean {
  const strip = (s: unknown): unknown => {
    if (Array.isArray(s)) return s.map(strip);
    if (!isJsonObject(s)) return s;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(s)) {
      if (v === false && ['uniqueItems', 'exclusiveMaximum', 'exclusiveMinimum', 'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-int-or-string'].includes(k)) {
        continue;
      }
      if (v !== undefined) out[k] = strip(v);
    }
    return out;
  };
  return jsonDeepEqual(strip(a), strip(b));
}

/**
 * `ClusterClass.status.variables` as the ClusterClass controller builds it: inline definitions (`from: inline`) plus
 * variables external patches declared (when known, keyed by patch name), sorted by name; a name defined differently
 * by two sources has `definitionsConflict: true`.
 */
export function clusterClassStatusVariables(
  variables: readonly ClusterClassVariable[],
  discovered: ReadonlyArray<{ patch: string; variables: readonly ClusterClassVariable[] }> = [],
): ClusterClassStatusVariable[] {
  const all = new Map<string, ClusterClassStatusVariable>();
  const definitionOf = (v: ClusterClassVariable, from: string): ClusterClassStatusVariable['definitions'][number] => {
    const d: ClusterClassStatusVariable['definitions'][number] = { from, schema: v.schema };
    if (v.required !== undefined) d.required = v.required;
    const metadata = v.deprecatedV1Beta1Metadata ?? v.metadata;
    if (metadata !== undefined) d.deprecatedV1Beta1Metadata = metadata;
    return d;
  };
  for (const v of variables) all.set(v.name, { name: v.name, definitionsConflict: false, definitions: [definitionOf(v, 'inline')] });
  for (const { patch, variables: vs } of discovered) {
    for (const v of vs) {
      const existing = all.get(v.name);
      const def = definitionOf(v, patch);
      if (!existing) {
        all.set(v.name, { name: v.name, definitionsConflict: false, definitions: [def] });
        continue;
      }
      const first = existing.definitions[0];
      const conflict =
        existing.definitionsConflict === true ||
        !first ||
        (first.required === true) !== (def.required === true) ||
        !sameSchema(first.schema?.openAPIV3Schema ?? {}, def.schema?.openAPIV3Schema ?? {}) ||
        !jsonDeepEqual(first.deprecatedV1Beta1Metadata ?? null, def.deprecatedV1Beta1Metadata ?? null);
      all.set(v.name, { name: v.name, definitionsConflict: conflict, definitions: [...existing.definitions, def] });
    }
  }
  return [...all.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
