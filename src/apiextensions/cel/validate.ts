/**
 * Evaluating `x-kubernetes-validations` over a value (apiextensions `Validator.Validate`): the schema and the value
 * are walked together; each node's rules see `self` and, where the old value correlates (same property, same map key,
 * same list-map entry), `oldSelf`. Failures read exactly as the API server reports them.
 */
import { isCelError, type CelInput } from '@bufbuild/cel';
import type { JSONSchemaProps, ValidationRule } from '../schema/index.js';
import { omitValue, type FieldError } from '../field/index.js';
import { schemaDeclType, type DeclType } from './types.js';
import { escapePropertyName } from './escape.js';
import { compileRules, type EnvironmentChoice } from './compile.js';
import { toCelValue } from './values.js';
import { invalid, forbidden, required, duplicate } from './fielderror.js';
import { evaluationMessage } from './runtime-errors.js';
import { optionalOf } from './library.js';
import { isObject } from '../../go/index.js';

export const PER_CALL_LIMIT = 1000000;
export const RUNTIME_COST_BUDGET = 10000000;
const MAX_MESSAGE_EXPRESSION_LENGTH = 5 * 1024;

interface Walk {
  readonly env: EnvironmentChoice;
  budget: number;
  readonly errors: FieldError[];
}

const rulesBelow = new WeakMap<JSONSchemaProps, boolean>();

/** Whether the node or anything under it carries rules (remembered per schema node). */
function hasRules(s: JSONSchemaProps | undefined, depth = 0): boolean {
  if (!s || depth > 64) return false;
  const known = rulesBelow.get(s);
  if (known !== undefined) return known;
  const found =
    (s['x-kubernetes-validations'] ?? []).length > 0 ||
    hasRules(s.items, depth + 1) ||
    (typeof s.additionalProperties === 'object' && hasRules(s.additionalProperties, depth + 1)) ||
    (s.allOf ?? []).some((a) => hasRules(a, depth + 1)) ||
    Object.values(s.properties ?? {}).some((p) => hasRules(p, depth + 1));
  rulesBelow.set(s, found);
  return found;
}

export function validateValue(
  schema: JSONSchemaProps,
  value: unknown,
  oldValue: unknown,
  fieldPath: string,
  env: EnvironmentChoice,
  resourceRoot = false,
): FieldError[] {
  if (!hasRules(schema)) return [];
  const walk: Walk = { env, budget: RUNTIME_COST_BUDGET, errors: [] };
  visit(walk, schema, schemaDeclType(schema, resourceRoot || schema['x-kubernetes-embedded-resource'] === true), value, oldValue, fieldPath);
  return walk.errors;
}

function visit(w: Walk, schema: JSONSchemaProps, decl: DeclType | undefined, value: unknown, old: unknown, path: string): void {
  if (value === null || value === undefined || w.budget < 0 || !hasRules(schema)) return;
  if (decl) validateExpressions(w, schema, schema, decl, value, old, path);
  for (const sub of schema.allOf ?? []) {
    if (w.budget < 0) return;
    if (decl && (sub['x-kubernetes-validations'] ?? []).length > 0) validateExpressions(w, sub, schema, decl, value, old, path);
  }
  if (Array.isArray(value)) {
    const items = schema.items;
    if (!items) return;
    const oldItems = Array.isArray(old) ? old : undefined;
    for (let i = 0; i < value.length; i++) {
      if (w.budget < 0) return;
      visit(w, items, decl?.elem, value[i], correlateListItem(schema, value[i], oldItems), `${path}[${i}]`);
    }
    return;
  }
  if (!isObject(value)) return;
  const oldMap = isObject(old) ? old : undefined;
  if (typeof schema.additionalProperties === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (w.budget < 0) return;
      visit(w, schema.additionalProperties, decl?.elem, v, oldMap?.[k], `${path}[${k}]`);
    }
  }
  if (schema.properties) {
    for (const [k, v] of Object.entries(value)) {
      const prop = schema.properties[k];
      if (!prop || w.budget < 0) continue;
      const escaped = escapePropertyName(k);
      let fieldDecl: DeclType | undefined;
      if (escaped !== undefined) {
        fieldDecl = decl?.fields?.get(escaped);
        if (!fieldDecl) continue;
      } else fieldDecl = schemaDeclType(prop, prop['x-kubernetes-embedded-resource'] === true);
      if (!fieldDecl) continue;
      visit(w, prop, fieldDecl, v, oldMap?.[k], path === '' ? k : `${path}.${k}`);
    }
  }
}

/** Only `x-kubernetes-list-type: map` lists correlate old and new items, by their key fields. */
function correlateListItem(schema: JSONSchemaProps, item: unknown, oldItems: unknown[] | undefined): unknown {
  if (!oldItems || schema['x-kubernetes-list-type'] !== 'map' || !isObject(item)) return undefined;
  const keys = schema['x-kubernetes-list-map-keys'] ?? [];
  const keyOf = (v: unknown): string | undefined => {
    if (!isObject(v)) return undefined;
    return JSON.stringify(keys.map((k) => v[k] ?? schema.items?.properties?.[k]?.default ?? null));
  };
  const key = keyOf(item);
  return oldItems.find((o) => keyOf(o) === key);
}

function schemaTypeValue(schema: JSONSchemaProps): string {
  return schema.type ?? '';
}

function ruleErrorString(rule: ValidationRule): string {
  return (rule.message ?? '').length > 0 ? rule.message!.trim() : (rule.rule ?? '').trim();
}

function ruleMessageOrDefault(rule: ValidationRule): string {
  return (rule.message ?? '').length === 0 ? `failed rule: ${ruleErrorString(rule)}` : rule.message!.trim();
}

function validateExpressions(
  w: Walk,
  rulesSchema: JSONSchemaProps,
  nodeSchema: JSONSchemaProps,
  decl: DeclType,
  value: unknown,
  old: unknown,
  path: string,
): void {
  const compiled = compileRules(rulesSchema, decl, w.env);
  if (compiled.length === 0) return;
  const type = schemaTypeValue(nodeSchema);
  if (w.budget <= 0) {
    w.errors.push(invalid(path, type, 'validation failed due to running out of cost budget, no further validation rules will be run'));
    w.budget = -1;
    return;
  }
  const self = toCelValue(value, decl);
  const hasOld = old !== null && old !== undefined;
  const oldSelf = hasOld ? toCelValue(old, decl) : undefined;
  for (const c of compiled) {
    const rule = c.rule;
    if (c.error) {
      w.errors.push(invalid(path, type, `rule compile error: ${c.error.detail}`));
      continue;
    }
    if (!c.program) continue;
    // Transition rules run only when there is an old value to compare with; optionalOldSelf rules see it as optional.
    if (c.usesOldSelf && !hasOld && !rule.optionalOldSelf) continue;
    const activation: Record<string, CelInput> = { self };
    if (rule.optionalOldSelf) activation.oldSelf = optionalOf(oldSelf);
    else if (hasOld) activation.oldSelf = oldSelf!;
    const result = c.program(activation);
    if (isCelError(result)) {
      const message = evaluationMessage(result.message);
      if (message.startsWith('no such overload')) {
        w.errors.push(invalid(path, type, `'${message}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleErrorString(rule)}`));
      } else {
        w.errors.push(invalid(path, type, `${message} evaluating rule: ${ruleErrorString(rule)}`));
      }
      continue;
    }
    if (result === true) continue;
    const at = c.normalizedFieldPath ? `${path}.${c.normalizedFieldPath}` : path;
    let detail: string | undefined;
    if (c.messageProgram) {
      const msg = c.messageProgram(activation);
      if (!isCelError(msg) && typeof msg === 'string') {
        const trimmed = msg.trim();
        if (trimmed.length > 0 && trimmed.length <= MAX_MESSAGE_EXPRESSION_LENGTH && !/\n/.test(trimmed)) detail = trimmed;
      }
    }
    detail ??= ruleMessageOrDefault(rule);
    const shown = nodeSchema.type === 'object' || nodeSchema.type === 'array' ? omitValue : value;
    w.errors.push(errorForReason(at, shown, detail, rule.reason));
  }
}

function errorForReason(path: string, value: unknown, detail: string, reason: string | undefined): FieldError {
  switch (reason) {
    case 'FieldValueForbidden':
      return forbidden(path, detail);
    case 'FieldValueRequired':
      return required(path, detail);
    case 'FieldValueDuplicate':
      return duplicate(path, value);
    default:
      return invalid(path, value, detail);
  }
}

