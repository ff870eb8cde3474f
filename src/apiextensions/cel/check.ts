/**
 * Checking the rules a schema declares before any value is validated (apiextensions CRD validation, and CAPI's
 * ClusterClass variable validation which copies it): every rule and messageExpression must compile in the chosen
 * environment, rule fields must be well-formed, `oldSelf` must not appear where old values cannot be correlated, and
 * the estimated cost of each expression and of the whole schema must fit the budgets. Examples and enum values must
 * pass the rules too.
 */
import type { JSONSchemaProps } from '../schema/index.js';
import type { FieldError } from '../field/index.js';
import { schemaDeclType, type DeclType } from './types.js';
import { escapePropertyName } from './escape.js';
import { compileRules, type EnvironmentChoice } from './compile.js';
import { validFieldPath } from './fieldpath.js';
import { validateValue } from './validate.js';
import { invalid, forbidden, required, notSupported, invalidRule } from './fielderror.js';
import { MAX_UINT64 } from './cost.js';

/** apiextensions `StaticEstimatedCostLimit`: the largest estimated cost of one expression. */
export const STATIC_ESTIMATED_COST_LIMIT = 10000000;
/** apiextensions `StaticEstimatedCRDCostLimit`: the largest estimated cost of all expressions of a schema. */
export const STATIC_ESTIMATED_CRD_COST_LIMIT = 100000000;

const supportedReasons = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];

interface RuleCost {
  readonly path: string;
  readonly cost: number;
}

interface TotalCost {
  total: number;
  mostExpensive: RuleCost[];
}

interface Context {
  readonly env: EnvironmentChoice;
  readonly total: TotalCost;
}

/** Where the walk is: the node's declared type and how often it can repeat (undefined: unbounded). */
interface CelScope {
  readonly decl: DeclType | undefined;
  readonly maxCardinality: number | undefined;
}

interface Errors {
  schema: FieldError[];
  cel: FieldError[];
}

const isEmbedded = (s: JSONSchemaProps): boolean => s['x-kubernetes-embedded-resource'] === true;
const hasNewlines = (s: string): boolean => /[\n\r]+/.test(s);
const mulGuard = (a: number, b: number): number => (a === 0 ? 0 : a * b > MAX_UINT64 ? MAX_UINT64 : a * b);

function maxElements(s: JSONSchemaProps): number | undefined {
  switch (s.type) {
    case 'object':
      if (s.additionalProperties !== undefined) return s.maxProperties !== undefined ? Math.max(0, s.maxProperties) : undefined;
      return 1;
    case 'array':
      return s.maxItems !== undefined ? Math.max(0, s.maxItems) : undefined;
    default:
      return 1;
  }
}

function child(parentSchema: JSONSchemaProps, parent: CelScope, decl: DeclType | undefined): CelScope {
  if (parent.maxCardinality === undefined) return { decl, maxCardinality: undefined };
  const max = maxElements(parentSchema);
  return { decl, maxCardinality: max === undefined ? undefined : mulGuard(parent.maxCardinality, max) };
}

function observe(total: TotalCost, path: string, cost: number): void {
  total.total = Math.min(MAX_UINT64, total.total + cost);
  if (cost < STATIC_ESTIMATED_CRD_COST_LIMIT / 100) return;
  total.mostExpensive.push({ path, cost });
  total.mostExpensive.sort((a, b) => b.cost - a.cost);
  if (total.mostExpensive.length > 4) total.mostExpensive.length = 4;
}

/** apiextensions `getCostErrorMessage`. */
export function costErrorMessage(costName: string, cost: number, limit: number): string {
  const exceed = cost / limit;
  let factor: string;
  if (exceed > 100) factor = 'more than 100x';
  else if (exceed < 1.5) factor = `${exceed.toFixed(6)}x`;
  else factor = `${exceed.toFixed(1)}x`;
  return `${costName} exceeds budget by factor of ${factor} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

export function checkSchema(schema: JSONSchemaProps, fieldPath: string, env: EnvironmentChoice, resourceRoot = false): FieldError[] {
  const ctx: Context = { env, total: { total: 0, mostExpensive: [] } };
  const rootDecl = schemaDeclType(schema, resourceRoot || schema['x-kubernetes-embedded-resource'] === true);
  const errs = walk(ctx, schema, fieldPath, { decl: rootDecl, maxCardinality: 1 }, undefined, resourceRoot);
  const all = [...errs.schema, ...errs.cel];
  if (ctx.total.total > STATIC_ESTIMATED_CRD_COST_LIMIT) {
    for (const expensive of ctx.total.mostExpensive) {
      all.push(forbidden(expensive.path, 'contributed to estimated rule & messageExpression cost total exceeding cost limit for entire OpenAPIv3 schema'));
    }
    all.push(forbidden(fieldPath, costErrorMessage('x-kubernetes-validations estimated rule & messageExpression cost total for entire OpenAPIv3 schema', ctx.total.total, STATIC_ESTIMATED_CRD_COST_LIMIT)));
  }
  return all;
}

function walk(
  ctx: Context,
  schema: JSONSchemaProps,
  path: string,
  scope: CelScope | undefined,
  uncorrelatable: string | undefined,
  resourceRoot = false,
): Errors {
  const errs: Errors = { schema: [], cel: [] };
  const merge = (e: Errors): void => {
    errs.schema.push(...e.schema);
    errs.cel.push(...e.cel);
  };
  if (schema.not) merge(walk(ctx, schema.not, `${path}.not`, undefined, uncorrelatable));
  (schema.allOf ?? []).forEach((s, i) => merge(walk(ctx, s, `${path}.allOf[${i}]`, undefined, uncorrelatable)));
  (schema.oneOf ?? []).forEach((s, i) => merge(walk(ctx, s, `${path}.oneOf[${i}]`, undefined, uncorrelatable)));
  (schema.anyOf ?? []).forEach((s, i) => merge(walk(ctx, s, `${path}.anyOf[${i}]`, undefined, uncorrelatable)));
  const decl = scope?.decl;
  if (typeof schema.additionalProperties === 'object') {
    const sub = scope ? child(schema, scope, decl?.elem ?? schemaDeclType(schema.additionalProperties, isEmbedded(schema.additionalProperties))) : undefined;
    merge(walk(ctx, schema.additionalProperties, `${path}.additionalProperties`, sub, uncorrelatable));
  }
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    const escaped = escapePropertyName(name);
    const fieldDecl = escaped !== undefined ? decl?.fields?.get(escaped) : undefined;
    const sub = scope ? child(schema, scope, fieldDecl ?? schemaDeclType(prop, isEmbedded(prop))) : undefined;
    merge(walk(ctx, prop, `${path}.properties[${name}]`, sub, uncorrelatable));
  }
  if (schema.items) {
    const itemsUncorrelatable = uncorrelatable ?? (schema['x-kubernetes-list-type'] === 'map' ? undefined : `${path}.items`);
    const sub = scope ? child(schema, scope, decl?.elem ?? schemaDeclType(schema.items, isEmbedded(schema.items))) : undefined;
    merge(walk(ctx, schema.items, `${path}.items`, sub, itemsUncorrelatable));
  }
  const rules = schema['x-kubernetes-validations'] ?? [];
  if (rules.length === 0) return errs;
  const rulePath = (i: number, f: string): string => `${path}.x-kubernetes-validations[${i}].${f}`;
  rules.forEach((rule, i) => {
    const trimmedRule = (rule.rule ?? '').trim();
    const message = rule.message ?? '';
    const trimmedMsg = message.trim();
    if (trimmedRule.length === 0) errs.schema.push(required(rulePath(i, 'rule'), 'rule is not specified'));
    else if (message.length > 0 && trimmedMsg.length === 0) {
      errs.schema.push(invalid(rulePath(i, 'message'), message, 'message must be non-empty if specified'));
    } else if (message.length > 2048) {
      errs.schema.push(invalid(rulePath(i, 'message'), `${message.slice(0, 10)}...`, 'message must have a maximum length of 2048 characters'));
    } else if (hasNewlines(trimmedMsg)) {
      errs.schema.push(invalid(rulePath(i, 'message'), message, 'message must not contain line breaks'));
    } else if (hasNewlines(trimmedRule) && trimmedMsg.length === 0) {
      errs.schema.push(required(rulePath(i, 'message'), 'message must be specified if rule contains line breaks'));
    }
    if ((rule.messageExpression ?? '').length > 0 && rule.messageExpression!.trim().length === 0) {
      errs.schema.push(required(rulePath(i, 'messageExpression'), 'messageExpression must be non-empty if specified'));
    }
    if (rule.reason !== undefined && !supportedReasons.includes(rule.reason)) {
      errs.schema.push(notSupported(rulePath(i, 'reason'), rule.reason, supportedReasons));
    }
    const fp = rule.fieldPath ?? '';
    if (fp.length > 0 && fp.trim().length === 0) errs.schema.push(invalid(rulePath(i, 'fieldPath'), fp, 'fieldPath must be non-empty if specified'));
    if (hasNewlines(fp)) errs.schema.push(invalid(rulePath(i, 'fieldPath'), fp, 'fieldPath must not contain line breaks'));
    if (fp.length > 0) {
      const valid = validFieldPath(fp, schema);
      if (valid.error !== undefined) errs.schema.push(invalid(rulePath(i, 'fieldPath'), fp, `fieldPath must be a valid path: ${valid.error}`));
    }
  });
  if (errs.schema.length === 0 && scope !== undefined) {
    const nodeDecl = decl ?? schemaDeclType(schema, resourceRoot || isEmbedded(schema));
    if (!nodeDecl) {
      errs.cel.push(invalid(`${path}.x-kubernetes-validations`, '', 'internal error: failed to construct type information for x-kubernetes-validations rules: unable to convert structural schema to CEL declarations'));
    } else {
      const compiled = compileRules(schema, nodeDecl, ctx.env);
      compiled.forEach((cr, i) => {
        const cardinality = scope.maxCardinality ?? cr.maxCardinality;
        const cost = mulGuard(cr.maxCost, cardinality);
        if (cost > STATIC_ESTIMATED_COST_LIMIT) {
          errs.cel.push(forbidden(rulePath(i, 'rule'), costErrorMessage('estimated rule cost', cost, STATIC_ESTIMATED_COST_LIMIT)));
        }
        observe(ctx.total, rulePath(i, 'rule'), cost);
        if (cr.error) errs.cel.push(invalidRule(rulePath(i, 'rule'), cr.rule, cr.error.detail));
        if (cr.messageError) {
          errs.cel.push(invalidRule(rulePath(i, 'messageExpression'), cr.rule, cr.messageError.detail));
        } else if (cr.messageProgram) {
          const msgCost = cr.messageMaxCost;
          if (msgCost > STATIC_ESTIMATED_COST_LIMIT) {
            errs.cel.push(forbidden(rulePath(i, 'messageExpression'), costErrorMessage('estimated messageExpression cost', msgCost, STATIC_ESTIMATED_COST_LIMIT)));
          }
          observe(ctx.total, rulePath(i, 'messageExpression'), msgCost);
        }
        if (cr.usesOldSelf && uncorrelatable !== undefined) {
          errs.cel.push(invalid(rulePath(i, 'rule'), cr.rule.rule ?? '', `oldSelf cannot be used on the uncorrelatable portion of the schema within ${uncorrelatable}`));
        }
      });
    }
  }
  if (errs.schema.length + errs.cel.length > 0) return errs;
  // Examples and enum values must satisfy the rules (defaults are checked by structural defaulting).
  if (schema.example !== undefined && schema.example !== null) {
    errs.cel.push(...validateValue(schema, schema.example, undefined, `${path}.example`, ctx.env, resourceRoot));
  }
  (schema.enum ?? []).forEach((value, i) => {
    if (value !== null && value !== undefined) errs.cel.push(...validateValue(schema, value, undefined, `${path}.enum[${i}]`, ctx.env, resourceRoot));
  });
  return errs;
}
