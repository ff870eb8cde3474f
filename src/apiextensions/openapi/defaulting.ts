/**
 * Structural defaulting (apiextensions `schema/defaulting`): defaults of the structural schema (never under
 * junctors) fill absent fields inside objects that exist and replace non-nullable nulls; item and
 * additionalProperties defaults apply to null entries. Also `ValidateDefaults`: every default must itself validate,
 * be pruned, and pass the node's CEL rules.
 */
import { FieldPath, fieldInvalid, type FieldError } from '../field/index.js';
import type { JSONSchemaProps } from '../schema/index.js';
import { deepCopy, deepEqual, isObject } from './json.js';
import { pruneUnknownFields } from './pruning.js';
import { validateValue, type OpenAPIOptions } from './validator.js';

function hasDefault(s: JSONSchemaProps | undefined): boolean {
  return s !== undefined && s.default !== undefined && s.default !== null;
}

function isNonNullableNull(x: unknown, s: JSONSchemaProps | undefined): boolean {
  return (x === null || x === undefined) && s !== undefined && s.nullable !== true;
}

/**
 * Whether a node or anything below it (properties, additionalProperties, items) carries `x-kubernetes-validations`:
 * the API server only builds a CEL validator for such a node.
 */
export function hasCelRules(s: JSONSchemaProps): boolean {
  if ((s['x-kubernetes-validations'] ?? []).length > 0) return true;
  const subs: JSONSchemaProps[] = [...Object.values(s.properties ?? {})];
  if (isObject(s.items)) subs.push(s.items as JSONSchemaProps);
  const ap = apSchema(s);
  if (ap) subs.push(ap);
  return subs.some(hasCelRules);
}

function apSchema(s: JSONSchemaProps): JSONSchemaProps | undefined {
  return isObject(s.additionalProperties) ? (s.additionalProperties as JSONSchemaProps) : undefined;
}

function defaultInPlace(x: unknown, s: JSONSchemaProps | undefined, depth: number): void {
  if (!s || depth > 1000) return;
  if (Array.isArray(x)) {
    const items = isObject(s.items) ? (s.items as JSONSchemaProps) : undefined;
    for (let i = 0; i < x.length; i++) {
      if (isNonNullableNull(x[i], items)) x[i] = deepCopy(items?.default ?? null);
      defaultInPlace(x[i], items, depth + 1);
    }
    return;
  }
  if (!isObject(x)) return;
  const props = s.properties ?? {};
  for (const k of Object.keys(props).sort()) {
    const prop = props[k] as JSONSchemaProps;
    if (!hasDefault(prop)) continue;
    if (!Object.prototype.hasOwnProperty.call(x, k) || isNonNullableNull(x[k], prop)) x[k] = deepCopy(prop.default);
  }
  for (const k of Object.keys(x)) {
    if (Object.prototype.hasOwnProperty.call(props, k)) defaultInPlace(x[k], props[k], depth + 1);
    else if (s.additionalProperties !== undefined) {
      const ap = apSchema(s);
      if (isNonNullableNull(x[k], ap)) x[k] = deepCopy(ap?.default ?? null);
      defaultInPlace(x[k], ap, depth + 1);
    }
  }
}

/** `structuraldefaulting.Default(x, schema)` on a copy: the defaulted value. */
export function applyDefaults(value: unknown, schema: JSONSchemaProps): unknown {
  const copy = deepCopy(value);
  defaultInPlace(copy, schema, 0);
  return copy;
}

/** `PruneNonNullableNullsWithoutDefaults` on a copy: nulls the schema does not allow and cannot default are removed. */
export function pruneNonNullableNullsWithoutDefaults(value: unknown, schema: JSONSchemaProps): unknown {
  const copy = deepCopy(value);
  pruneNullsInPlace(copy, schema, 0);
  return copy;
}

/**
 * What the API server's decoder does to a custom resource after pruning, in place on a value the caller owns:
 * `PruneNonNullableNullsWithoutDefaults`, then `structuraldefaulting.Default`.
 */
export function decodeDefaultsInPlace(value: unknown, schema: JSONSchemaProps): void {
  pruneNullsInPlace(value, schema, 0);
  defaultInPlace(value, schema, 0);
}

function pruneNullsInPlace(x: unknown, s: JSONSchemaProps | undefined, depth: number): void {
  if (depth > 1000) return;
  if (Array.isArray(x)) {
    const items = s && isObject(s.items) ? (s.items as JSONSchemaProps) : undefined;
    for (const v of x) pruneNullsInPlace(v, items, depth + 1);
    return;
  }
  if (!isObject(x)) return;
  for (const k of Object.keys(x)) {
    const sub = s ? (s.properties?.[k] ?? apSchema(s)) : undefined;
    if (isNonNullableNull(x[k], sub) && !hasDefault(sub)) delete x[k];
    else pruneNullsInPlace(x[k], sub, depth + 1);
  }
}

/** Runs a node's `x-kubernetes-validations` on a value (the CEL engine, supplied by the caller). */
export type CelRuleCheck = (schema: JSONSchemaProps, value: unknown, oldValue: unknown, path: FieldPath) => FieldError[];

export interface DefaultsOptions extends OpenAPIOptions {
  /** The schema is the root of a resource (its metadata may be defaulted). */
  isResourceRoot?: boolean;
  /** Defaults must not carry fields the schema prunes (`must not have unknown fields`). */
  requirePrunedDefaults?: boolean;
  /** Validates CEL rules of the node on its default; without it CEL rules are not checked here. */
  cel?: CelRuleCheck;
}

/**
 * `structuraldefaulting.ValidateDefaults(ctx, path, schema, isResourceRoot, requirePrunedDefaults)`: each default
 * (not under additionalProperties, where defaults are forbidden) against its own node's schema, then the node's CEL
 * rules with the default as both self and oldSelf, then as a create.
 */
export function validateDefaults(schema: JSONSchemaProps, path: FieldPath, options: DefaultsOptions = {}): FieldError[] {
  const errs: FieldError[] = [];
  const walk = (s: JSONSchemaProps, p: FieldPath, depth: number): void => {
    if (depth > (options.maxDepth ?? 1000)) return;
    if (hasDefault(s)) {
      const def = s.default;
      const here = p.child('default');
      let failed = false;
      if (options.requirePrunedDefaults === true) {
        const pruned = pruneUnknownFields(def, s, { isResourceRoot: s['x-kubernetes-embedded-resource'] === true }).value;
        if (!deepEqual(pruned, def)) errs.push(fieldInvalid(here, def, 'must not have unknown fields'));
      }
      const schemaErrs = validateValue(s, def, here, options);
      if (schemaErrs.length > 0) {
        errs.push(...schemaErrs);
        failed = true;
      }
      if (!failed && options.cel && hasCelRules(s)) {
        const celErrs = options.cel(s, def, def, here);
        errs.push(...celErrs);
        if (celErrs.length === 0) errs.push(...options.cel(s, def, undefined, here));
      }
    }
    if (isObject(s.items)) walk(s.items as JSONSchemaProps, p.child('items'), depth + 1);
    for (const k of Object.keys(s.properties ?? {}).sort()) walk(s.properties?.[k] as JSONSchemaProps, p.child('properties').key(k), depth + 1);
  };
  const root = options.isResourceRoot === true && schema['x-kubernetes-embedded-resource'] !== true ? { ...schema, 'x-kubernetes-embedded-resource': true } : schema;
  walk(root, path, 0);
  return errs;
}
