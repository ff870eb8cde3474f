/**
 * Kubernetes CEL for `x-kubernetes-validations`: the rules ClusterClass variable schemas and CRDs carry, compiled
 * against the schema's declared types and evaluated the way the API server's apiextensions validator does.
 */
import type { JSONSchemaProps } from '../schema/index.js';
import type { FieldError } from '../field/index.js';
import { NEWEST_MINOR } from './declarations.js';
import { validateValue } from './validate.js';
import { checkSchema } from './check.js';
import { compileRules } from './compile.js';
import { schemaDeclType } from './types.js';

export interface CelOptions {
  /** Kubernetes minor version whose CEL environment new expressions compile in, e.g. `'1.29'`; default: newest. */
  compatibilityVersion?: string;
  /**
   * Runtime cost limit of one expression evaluation (apiserver's `PerCallLimit`). Accepted for the API's sake:
   * evaluations are not metered yet, only the static estimates are enforced (by {@link checkCelSchema}).
   */
  perCallLimit?: number;
  /**
   * The schema is a whole resource's (a CRD version's): rules at its root also see `apiVersion`, `kind`,
   * `metadata.name` and `metadata.generateName`, as embedded resources always do. Off for ClusterClass variables.
   */
  resourceRoot?: boolean;
}

export interface PreexistingRules {
  /** Rules already stored (on the old object): compiled with the newest environment, not the compatibility one. */
  rules?: Iterable<string>;
  messageExpressions?: Iterable<string>;
}

export interface CheckCelOptions extends CelOptions {
  preexistingRules?: PreexistingRules;
}

/**
 * Evaluates every rule of `schema` (and of its nested schemas) against `value`; `oldValue` enables transition rules.
 * Rules compile in the stored-expressions environment (every library of the newest version), as the API server and
 * CAPI do for values: `compatibilityVersion` restricts only new rules, in {@link checkCelSchema}.
 */
export function validateCelRules(
  schema: JSONSchemaProps,
  value: unknown,
  oldValue: unknown | undefined,
  fieldPath: string,
  options?: CelOptions,
): FieldError[] {
  return validateValue(schema, value, oldValue, fieldPath, { minor: NEWEST_MINOR }, options?.resourceRoot === true);
}

/**
 * Compiles every rule and messageExpression of `schema`, checking field paths, oldSelf placement and cost budgets, and
 * validates `example` and `enum` values with the rules. New expressions compile in the `compatibilityVersion`
 * environment; those listed in `preexistingRules` (already stored) in the newest one.
 */
export function checkCelSchema(schema: JSONSchemaProps, fieldPath: string, options?: CheckCelOptions): FieldError[] {
  return checkSchema(schema, fieldPath, {
    minor: compatibilityMinor(options?.compatibilityVersion),
    preexistingRules: new Set(options?.preexistingRules?.rules ?? []),
    preexistingMessageExpressions: new Set(options?.preexistingRules?.messageExpressions ?? []),
  }, options?.resourceRoot === true);
}

export interface CelRuleCost {
  readonly rule: string;
  /** Worst-case cost of one evaluation, in CEL cost units (cel-go's estimate); undefined if the rule does not compile. */
  readonly maxCost?: number;
  readonly messageExpressionMaxCost?: number;
}

/** The static cost estimate of each rule of the schema node itself (not of nested schemas), as the API server computes it. */
export function estimateCelCost(schema: JSONSchemaProps, options?: CelOptions): CelRuleCost[] {
  const decl = schemaDeclType(schema);
  if (!decl) return [];
  return compileRules(schema, decl, { minor: compatibilityMinor(options?.compatibilityVersion) }).map((c) => ({
    rule: c.rule.rule ?? '',
    ...(c.error ? {} : { maxCost: c.maxCost }),
    ...(c.messageProgram ? { messageExpressionMaxCost: c.messageMaxCost } : {}),
  }));
}

/** The rules and messageExpressions a schema already holds: pass an old schema's to {@link checkCelSchema}. */
export function preexistingRulesOf(schema: JSONSchemaProps | undefined): PreexistingRules {
  const rules = new Set<string>();
  const messageExpressions = new Set<string>();
  const visit = (s: JSONSchemaProps | undefined, depth: number): void => {
    if (!s || depth > 64) return;
    for (const r of s['x-kubernetes-validations'] ?? []) {
      if (r.rule !== undefined) rules.add(r.rule);
      if (r.messageExpression) messageExpressions.add(r.messageExpression);
    }
    for (const p of Object.values(s.properties ?? {})) visit(p, depth + 1);
    if (typeof s.additionalProperties === 'object') visit(s.additionalProperties, depth + 1);
    visit(s.items, depth + 1);
    for (const x of [...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])]) visit(x, depth + 1);
    visit(s.not, depth + 1);
  };
  visit(schema, 0);
  return { rules, messageExpressions };
}

function compatibilityMinor(version: string | undefined): number {
  if (version === undefined) return NEWEST_MINOR;
  const m = /^v?1\.(\d+)/.exec(version);
  if (!m) throw new Error(`CEL compatibility version must be 1.<minor>, got ${JSON.stringify(version)}`);
  return Math.min(Number(m[1]), NEWEST_MINOR);
}
export { isQualifiedName, isValidLabelValue } from './formats.js';
export { parseCIDR, parseIP } from './ip.js';
