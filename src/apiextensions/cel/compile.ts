/**
 * Compiling one schema node's rules (apiextensions `cel.Compile`): parse, type-check against the node's declared
 * type in the environment of a Kubernetes version, require a bool (rule) or string (messageExpression), estimate the
 * cost and plan the program. Results are cached per schema node and environment.
 */
import { celEnv, parse, plan, type CelEnv, type CelResult, type CelInput } from '@bufbuild/cel';
import type { Expr } from '@bufbuild/cel-spec/cel/expr/syntax_pb.js';
import type { JSONSchemaProps, ValidationRule } from '../schema/index.js';
import { T, type CelType, type DeclType, MAX_REQUEST_SIZE_BYTES } from './types.js';
import { functionsFor, LITERAL_VALIDATORS_SINCE, NEWEST_MINOR, OPTIONAL_TYPES_SINCE, TWO_VAR_COMPREHENSIONS_SINCE, type Minor } from './declarations.js';
import { expandTwoVarMacros, lowerTwoVarComprehensions } from './two-var.js';
import { blankOptionalSyntax, restoreOptionalSyntax } from './optional-syntax.js';
import { RuleChecker, type CheckedRule } from './checker.js';
import { formatIssues } from './issues.js';
import { syntaxIssue } from './syntax.js';
import { CostEstimator } from './cost.js';
import { runtimeFunctions } from './library.js';
import { validFieldPath } from './fieldpath.js';
import { RE2JS } from '@bufbuild/re2';

export type Program = (activation: Record<string, CelInput>) => CelResult;

export interface CompileError {
  readonly kind: 'invalid' | 'internal';
  readonly detail: string;
}

export interface CompiledRule {
  readonly rule: ValidationRule;
  /** Undefined for an empty rule, which is skipped. */
  readonly program?: Program;
  readonly error?: CompileError;
  readonly usesOldSelf: boolean;
  readonly maxCost: number;
  /** Worst-case number of times the rule runs when under unbounded lists or maps (apiextensions `maxCardinality`). */
  readonly maxCardinality: number;
  readonly messageProgram?: Program;
  readonly messageError?: CompileError;
  readonly messageMaxCost: number;
  /** The rule's `fieldPath`, normalized (`.a['b']` → `a.b`), when it is valid. */
  readonly normalizedFieldPath?: string;
}

export interface EnvironmentChoice {
  /** Environment for rules and messageExpressions not listed as pre-existing. */
  readonly minor: Minor;
  readonly preexistingRules?: ReadonlySet<string>;
  readonly preexistingMessageExpressions?: ReadonlySet<string>;
}

let runtimeEnv: CelEnv | undefined;
function evaluatorEnv(): CelEnv {
  runtimeEnv ??= celEnv({ funcs: runtimeFunctions, re2: { compile: (p) => ({ test: (t) => re2Test(p, t) }) } });
  return runtimeEnv;
}

const regexCache = new Map<string, RE2JS>();
function re2Test(pattern: string, text: string): boolean {
  let re = regexCache.get(pattern);
  if (!re) {
    re = RE2JS.compile(pattern);
    if (regexCache.size > 1000) regexCache.clear();
    regexCache.set(pattern, re);
  }
  return re.test(text);
}

interface CheckedExpression {
  readonly expr?: Expr;
  readonly checked?: CheckedRule;
  readonly error?: string;
}

function compileExpression(source: string, variables: ReadonlyMap<string, CelType>, minor: Minor): CheckedExpression {
  const optional = blankOptionalSyntax(source);
  if (minor < OPTIONAL_TYPES_SINCE && (optional.selects.size > 0 || optional.indexes.size > 0)) {
    const issues = [
      ...[...optional.selects].map((offset) => ({ offset, message: "unsupported syntax '.?'" })),
      ...[...optional.indexes].map((offset) => ({ offset, message: "unsupported syntax '[?'" })),
    ];
    return { error: formatIssues(source, issues) };
  }
  let parsed;
  try {
    parsed = parse(optional.source);
  } catch (err) {
    return { error: formatIssues(source, [syntaxIssue(source, err)]) };
  }
  const positions: Record<string, number> = {};
  for (const [id, offset] of Object.entries(parsed.sourceInfo?.positions ?? {})) positions[id] = offset;
  restoreOptionalSyntax(parsed.expr!, positions, optional);
  if (minor >= TWO_VAR_COMPREHENSIONS_SINCE) expandTwoVarMacros(parsed.expr!, positions);
  const checker = new RuleChecker(source, positions, variables, functionsFor(minor), minor >= LITERAL_VALIDATORS_SINCE);
  const checked = checker.check(parsed.expr!);
  if (checked.issues.length > 0) return { error: formatIssues(source, checked.issues) };
  return { expr: parsed.expr!, checked };
}

function program(expr: Expr): Program {
  lowerTwoVarComprehensions(expr);
  const planned = plan(evaluatorEnv(), expr);
  return (activation) => planned(activation);
}

function maxCardinality(minSerializedSize: number): number {
  return Math.floor(MAX_REQUEST_SIZE_BYTES / (minSerializedSize + 1));
}

export function compileRule(
  schema: JSONSchemaProps,
  rule: ValidationRule,
  decl: DeclType,
  env: EnvironmentChoice,
): CompiledRule {
  const base = { rule, usesOldSelf: false, maxCost: 0, maxCardinality: 0, messageMaxCost: 0 };
  const source = rule.rule ?? '';
  if (source.trim() === '') return base;
  const oldSelfType = rule.optionalOldSelf ? T.optional(decl.type) : decl.type;
  const variables = new Map<string, CelType>([
    ['self', decl.type],
    ['oldSelf', oldSelfType],
  ]);
  const ruleMinor = env.preexistingRules?.has(source) ? NEWEST_MINOR : env.minor;
  const compiled = compileExpression(source, variables, ruleMinor);
  if (compiled.error !== undefined) return { ...base, error: { kind: 'invalid', detail: `compilation failed: ${compiled.error}` } };
  const checked = compiled.checked!;
  if (checked.output.kind !== 'bool') return { ...base, error: { kind: 'invalid', detail: 'cel expression must evaluate to a bool' } };
  const cost = new CostEstimator(checked, decl).estimate(compiled.expr!);
  let result: CompiledRule = {
    ...base,
    usesOldSelf: checked.usesOldSelf,
    program: program(compiled.expr!),
    maxCost: cost.max,
    maxCardinality: maxCardinality(decl.minSerializedSize),
  };
  const message = rule.messageExpression ?? '';
  if (message !== '') {
    const msgMinor = env.preexistingMessageExpressions?.has(message) ? NEWEST_MINOR : env.minor;
    const msg = compileExpression(message, variables, msgMinor);
    if (msg.error !== undefined) {
      return { ...result, messageError: { kind: 'invalid', detail: `messageExpression compilation failed: ${msg.error}` } };
    }
    if (msg.checked!.output.kind !== 'string') {
      return { ...result, messageError: { kind: 'invalid', detail: 'messageExpression must evaluate to a string' } };
    }
    const msgCost = new CostEstimator(msg.checked!, decl).estimate(msg.expr!);
    result = { ...result, messageProgram: program(msg.expr!), messageMaxCost: msgCost.max };
  }
  if (rule.fieldPath) {
    const valid = validFieldPath(rule.fieldPath, schema);
    if (valid.path !== undefined) result = { ...result, normalizedFieldPath: valid.path };
  }
  return result;
}

const cache = new WeakMap<JSONSchemaProps, Map<string, readonly CompiledRule[]>>();
/** Schemas rebuilt per call (same text, new objects) still compile once: a bounded cache by schema text. */
const byText = new Map<string, readonly CompiledRule[]>();
const BY_TEXT_LIMIT = 512;

/** The compiled rules of one schema node (`schema['x-kubernetes-validations']`), cached per node and environment. */
export function compileRules(schema: JSONSchemaProps, decl: DeclType, env: EnvironmentChoice): readonly CompiledRule[] {
  const rules = schema['x-kubernetes-validations'] ?? [];
  if (rules.length === 0) return [];
  // Per schema node the rules are fixed: the environment alone tells compilations apart.
  const key = `${env.minor}|${[...(env.preexistingRules ?? [])].join('\u0000')}|${[...(env.preexistingMessageExpressions ?? [])].join('\u0000')}`;
  let perSchema = cache.get(schema);
  if (!perSchema) {
    perSchema = new Map();
    cache.set(schema, perSchema);
  }
  const hit = perSchema.get(key);
  if (hit) return hit;
  const textKey = `${key}|${JSON.stringify(schema)}|${JSON.stringify(declShape(decl))}`;
  const byTextHit = byText.get(textKey);
  if (byTextHit) {
    perSchema.set(key, byTextHit);
    return byTextHit;
  }
  const compiled = rules.map((rule): CompiledRule => {
    try {
      return compileRule(schema, rule, decl, env);
    } catch (err) {
      // A rule this implementation cannot handle is reported on the rule, never as a crash of the whole validation.
      const detail = `unexpected compilation error: ${err instanceof Error ? err.message : String(err)}`;
      return { rule, usesOldSelf: false, maxCost: 0, maxCardinality: 0, messageMaxCost: 0, error: { kind: 'internal', detail } };
    }
  });
  perSchema.set(key, compiled);
  if (byText.size >= BY_TEXT_LIMIT) byText.delete(byText.keys().next().value!);
  byText.set(textKey, compiled);
  return compiled;
}

/** What of a declared type a compilation depends on besides the schema text: its bounds (resource roots differ). */
function declShape(decl: DeclType): unknown {
  return { t: decl.type.kind, m: decl.maxElements, s: decl.minSerializedSize, f: decl.fields ? [...decl.fields.keys()] : undefined };
}
