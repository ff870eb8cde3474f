/**
 * The CEL type checker for rules: resolves identifiers, fields and overloads against the schema's declared types and
 * the environment's functions, reporting problems with cel-go's wording and positions.
 */
import type { Expr } from '@bufbuild/cel-spec/cel/expr/syntax_pb.js';
import { T, formatType, type CelType } from './types.js';
import type { FunctionTable, Overload } from './declarations.js';
import type { Issue } from './issues.js';
import { OPTIONAL_INDEX, OPTIONAL_SELECT } from './optional-syntax.js';
import { RE2JS } from '@bufbuild/re2';

function validRegex(pattern: string): boolean {
  try {
    RE2JS.compile(pattern);
    return true;
  } catch {
    return false;
  }
}

/** Go's `time.ParseDuration` grammar. */
export function validDuration(text: string): boolean {
  return text === '0' || /^[+-]?(?:(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+$/.test(text);
}

/** RFC 3339 with a real calendar date, years 0001–9999. */
export function validTimestamp(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/.exec(text);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (year < 1 || month < 1 || month > 12 || hour > 23 || minute > 59 || second > 60) return false;
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day >= 1 && day <= days;
}

export interface CheckedRule {
  readonly types: ReadonlyMap<bigint, CelType>;
  /** Overloads a call could bind to (more than one when an argument is dynamic). */
  readonly overloads: ReadonlyMap<bigint, readonly Overload[]>;
  readonly issues: readonly Issue[];
  readonly output: CelType;
  readonly usesOldSelf: boolean;
}

const typeIdents: Record<string, CelType> = {
  int: T.type(T.int),
  uint: T.type(T.uint),
  double: T.type(T.double),
  bool: T.type(T.bool),
  string: T.type(T.string),
  bytes: T.type(T.bytes),
  null_type: T.type(T.null),
  list: T.type(T.list(T.dyn)),
  map: T.type(T.map(T.dyn, T.dyn)),
  type: T.type(T.type(T.dyn)),
  dyn: T.type(T.dyn),
  'google.protobuf.Timestamp': T.type(T.timestamp),
  'google.protobuf.Duration': T.type(T.duration),
};

const isDynLike = (t: CelType): boolean => t.kind === 'dyn' || t.kind === 'error';

type Subst = Map<string, CelType>;

function substitute(t: CelType, s: Subst): CelType {
  switch (t.kind) {
    case 'param':
      return s.has(t.name) ? substitute(s.get(t.name)!, s) : T.dyn;
    case 'list':
      return T.list(substitute(t.elem, s));
    case 'map':
      return T.map(substitute(t.key, s), substitute(t.value, s));
    case 'opaque':
      return t.params.length ? T.opaque(t.name, ...t.params.map((p) => substitute(p, s))) : t;
    case 'type':
      return T.type(substitute(t.of, s));
    default:
      return t;
  }
}

function nullable(t: CelType): boolean {
  return t.kind === 'object' || t.kind === 'null_type' || t.kind === 'timestamp' || t.kind === 'duration' ||
    (t.kind === 'opaque' && t.name === 'optional_type');
}

/** Whether a value of type `arg` may be passed where `param` is declared, binding type parameters in `s`. */
export function assignable(param: CelType, arg: CelType, s: Subst): boolean {
  if (param.kind === 'param') {
    const bound = s.get(param.name);
    if (bound === undefined) {
      s.set(param.name, arg);
      return true;
    }
    if (isDynLike(bound)) return true;
    if (isDynLike(arg)) return true;
    if (assignable(bound, arg, s)) return true;
    if (assignable(arg, bound, new Map(s))) {
      s.set(param.name, arg);
      return true;
    }
    return false;
  }
  if (isDynLike(param) || isDynLike(arg)) return true;
  if (arg.kind === 'null_type') return nullable(param);
  if (param.kind !== arg.kind) return false;
  switch (param.kind) {
    case 'list':
      return assignable(param.elem, (arg as typeof param).elem, s);
    case 'map':
      return assignable(param.key, (arg as typeof param).key, s) && assignable(param.value, (arg as typeof param).value, s);
    case 'object':
      return param === arg || param.name === (arg as typeof param).name;
    case 'opaque': {
      const a = arg as typeof param;
      return param.name === a.name && param.params.length === a.params.length &&
        param.params.every((p, i) => assignable(p, a.params[i]!, s));
    }
    case 'type':
      return assignable(param.of, (arg as typeof param).of, s);
    default:
      return true;
  }
}

interface Scope {
  readonly vars: ReadonlyMap<string, CelType>;
  readonly parent?: Scope;
}

function lookup(scope: Scope | undefined, name: string): CelType | undefined {
  for (let s = scope; s; s = s.parent) {
    const t = s.vars.get(name);
    if (t) return t;
  }
  return undefined;
}

/** The dotted name an expression spells (`sets`, `format.named`), if it is only identifiers and selections. */
export function qualifiedName(e: Expr | undefined): string | undefined {
  if (!e) return undefined;
  if (e.exprKind.case === 'identExpr') return e.exprKind.value.name;
  if (e.exprKind.case === 'selectExpr' && !e.exprKind.value.testOnly) {
    const left = qualifiedName(e.exprKind.value.operand);
    return left === undefined ? undefined : `${left}.${e.exprKind.value.field}`;
  }
  return undefined;
}

export class RuleChecker {
  private readonly types = new Map<bigint, CelType>();
  private readonly overloads = new Map<bigint, readonly Overload[]>();
  private readonly issues: Issue[] = [];
  private usesOldSelf = false;

  constructor(
    private readonly source: string,
    private readonly positions: Readonly<Record<string, number>>,
    private readonly variables: ReadonlyMap<string, CelType>,
    private readonly functions: FunctionTable,
    /** Kubernetes 1.29+ rejects constant regexes, durations and timestamps that cannot parse at compile time. */
    private readonly validateLiterals = false,
  ) {}

  check(expr: Expr): CheckedRule {
    const output = this.visit(expr, undefined);
    return {
      types: this.types,
      overloads: this.overloads,
      issues: this.issues,
      output,
      usesOldSelf: this.usesOldSelf,
    };
  }

  /** cel-go positions calls at their `(` and operators at their token; the parser records where the node starts. */
  private offset(e: Expr): number {
    let off = this.positions[String(e.id)] ?? 0;
    if (e.exprKind.case === 'callExpr') {
      const fn = e.exprKind.value.function;
      if (/^[A-Za-z]/.test(fn)) {
        const paren = this.source.indexOf('(', off);
        if (paren >= 0) off = paren;
      } else {
        while (off < this.source.length && /\s/.test(this.source[off]!)) off++;
      }
    }
    return off;
  }

  private report(e: Expr, message: string): CelType {
    this.issues.push({ offset: this.offset(e), message });
    return T.error;
  }

  private set(e: Expr, t: CelType): CelType {
    this.types.set(e.id, t);
    return t;
  }

  private visit(e: Expr, scope: Scope | undefined): CelType {
    return this.set(e, this.visitKind(e, scope));
  }

  private visitKind(e: Expr, scope: Scope | undefined): CelType {
    switch (e.exprKind.case) {
      case 'constExpr': {
        const c = e.exprKind.value.constantKind;
        switch (c.case) {
          case 'boolValue': return T.bool;
          case 'bytesValue': return T.bytes;
          case 'doubleValue': return T.double;
          case 'int64Value': return T.int;
          case 'uint64Value': return T.uint;
          case 'stringValue': return T.string;
          case 'nullValue': return T.null;
          default: return T.dyn;
        }
      }
      case 'identExpr':
        return this.ident(e, e.exprKind.value.name, scope);
      case 'selectExpr': {
        const sel = e.exprKind.value;
        const qualified = qualifiedName(e);
        if (qualified !== undefined && !lookup(scope, qualified.split('.')[0]!) && !this.variables.has(qualified.split('.')[0]!)) {
          if (typeIdents[qualified]) return typeIdents[qualified]!;
        }
        const operand = this.visit(sel.operand!, scope);
        if (sel.testOnly && !(operand.kind === 'object' || operand.kind === 'map' || isDynLike(operand))) {
          return this.report(e, `invalid argument to has() macro`);
        }
        const fieldType = this.selectField(e, operand, sel.field);
        return sel.testOnly ? T.bool : fieldType;
      }
      case 'callExpr':
        return this.call(e, scope);
      case 'listExpr': {
        let elem: CelType | undefined;
        for (const el of e.exprKind.value.elements) {
          const t = this.visit(el, scope);
          elem = this.joinAggregate(el, elem, t);
        }
        return T.list(elem ?? T.dyn);
      }
      case 'structExpr': {
        const st = e.exprKind.value;
        if (st.messageName) return this.report(e, `undeclared reference to '${st.messageName}' (in container '')`);
        let key: CelType | undefined;
        let value: CelType | undefined;
        for (const entry of st.entries) {
          if (entry.keyKind.case !== 'mapKey') continue;
          const k = this.visit(entry.keyKind.value, scope);
          key = this.joinAggregate(entry.keyKind.value, key, k);
          const v = this.visit(entry.value!, scope);
          value = this.joinAggregate(entry.value!, value, v);
        }
        return T.map(key ?? T.dyn, value ?? T.dyn);
      }
      case 'comprehensionExpr': {
        const c = e.exprKind.value;
        const range = this.visit(c.iterRange!, scope);
        let iterType: CelType;
        let iterType2: CelType | undefined;
        if (range.kind === 'list') {
          iterType = c.iterVar2 ? T.int : range.elem;
          if (c.iterVar2) iterType2 = range.elem;
        } else if (range.kind === 'map') {
          iterType = range.key;
          if (c.iterVar2) iterType2 = range.value;
        } else if (isDynLike(range)) {
          iterType = T.dyn;
          if (c.iterVar2) iterType2 = T.dyn;
        } else {
          this.report(c.iterRange!, `expression of type '${formatType(range)}' cannot be range of a comprehension (must be list, map, or dynamic)`);
          iterType = T.dyn;
        }
        let accu = this.visit(c.accuInit!, scope);
        const accuScope: Scope = { vars: new Map([[c.accuVar, accu]]), parent: scope };
        const iterVars = new Map<string, CelType>([[c.iterVar, iterType]]);
        if (c.iterVar2 && iterType2) iterVars.set(c.iterVar2, iterType2);
        const loopScope: Scope = { vars: iterVars, parent: accuScope };
        this.visit(c.loopCondition!, loopScope);
        const step = this.visit(c.loopStep!, loopScope);
        // An empty-list accumulator (the map and filter macros) takes its element type from the step.
        if (accu.kind === 'list' && isDynLike(accu.elem) && step.kind === 'list') accu = step;
        if (accu.kind === 'map' && isDynLike(accu.key) && step.kind === 'map') accu = step;
        const resultScope: Scope = { vars: new Map([[c.accuVar, accu]]), parent: scope };
        return this.visit(c.result!, resultScope);
      }
      default:
        return T.dyn;
    }
  }

  /** `x.?f` and `x[?k]`: the selection or index, as an optional; an optional operand is looked into. */
  private optionalAccess(e: Expr, name: string, args: readonly Expr[], scope: Scope | undefined): CelType {
    const operand = this.visit(args[0]!, scope);
    const base = operand.kind === 'opaque' && operand.name === 'optional_type' ? operand.params[0]! : operand;
    if (name === OPTIONAL_SELECT) {
      const a = args[1]!;
      const field = a.exprKind.case === 'constExpr' && a.exprKind.value.constantKind.case === 'stringValue' ? a.exprKind.value.constantKind.value : '';
      this.set(a, T.string);
      const t = this.selectField(e, base, field);
      return t.kind === 'error' ? t : T.optional(t);
    }
    const index = this.visit(args[1]!, scope);
    if (base.kind === 'list' && assignable(T.int, index, new Map())) return T.optional(base.elem);
    if (base.kind === 'map' && assignable(base.key, index, new Map())) return T.optional(base.value);
    if (isDynLike(base)) return T.optional(T.dyn);
    return this.report(e, `found no matching overload for '_[?_]' applied to '(${formatType(operand)}, ${formatType(index)})'`);
  }

  private checkLiteral(name: string, target: Expr | undefined, args: readonly Expr[]): void {
    const constant = (x: Expr | undefined): string | undefined =>
      x?.exprKind.case === 'constExpr' && x.exprKind.value.constantKind.case === 'stringValue' ? x.exprKind.value.constantKind.value : undefined;
    if (name === 'matches') {
      const pattern = target ? args[0] : args[1];
      const text = constant(pattern);
      if (text !== undefined && !validRegex(text)) this.report(pattern!, 'invalid matches argument');
    } else if (name === 'duration' && !target) {
      const text = constant(args[0]);
      if (text !== undefined && !validDuration(text)) this.report(args[0]!, 'invalid duration argument');
    } else if (name === 'timestamp' && !target) {
      const text = constant(args[0]);
      if (text !== undefined && !validTimestamp(text)) this.report(args[0]!, 'invalid timestamp');
    }
  }

  private joinAggregate(el: Expr, prev: CelType | undefined, t: CelType): CelType {
    if (prev === undefined || isDynLike(prev)) return t;
    if (isDynLike(t)) return prev;
    if (assignable(prev, t, new Map()) || assignable(t, prev, new Map())) return prev;
    this.report(el, `expected type '${formatType(prev)}' but found '${formatType(t)}'`);
    return prev;
  }

  private ident(e: Expr, name: string, scope: Scope | undefined): CelType {
    const local = lookup(scope, name);
    if (local) return local;
    const global = this.variables.get(name);
    if (global) {
      if (name === 'oldSelf') this.usesOldSelf = true;
      return global;
    }
    const typeIdent = typeIdents[name];
    if (typeIdent) return typeIdent;
    return this.report(e, `undeclared reference to '${name}' (in container '')`);
  }

  private selectField(e: Expr, operand: CelType, field: string): CelType {
    switch (operand.kind) {
      case 'object': {
        const t = operand.fields.get(field);
        return t ?? this.report(e, `undefined field '${field}'`);
      }
      case 'map':
        return operand.value;
      case 'dyn':
      case 'error':
        return T.dyn;
      default:
        return this.report(e, `type '${formatType(operand)}' does not support field selection`);
    }
  }

  private call(e: Expr, scope: Scope | undefined): CelType {
    if (e.exprKind.case !== 'callExpr') return T.dyn;
    const call = e.exprKind.value;
    let name = call.function;
    let target = call.target;
    // `sets.contains(…)`, `format.named(…)`: a namespaced global function, unless the prefix is a variable.
    const prefix = qualifiedName(target);
    if (prefix !== undefined && !lookup(scope, prefix.split('.')[0]!) && !this.variables.has(prefix.split('.')[0]!) &&
      this.functions.has(`${prefix}.${name}`)) {
      name = `${prefix}.${name}`;
      target = undefined;
    }
    if (name === OPTIONAL_SELECT || name === OPTIONAL_INDEX) return this.optionalAccess(e, name, call.args, scope);
    const argTypes = call.args.map((a) => this.visit(a, scope));
    const targetType = target ? this.visit(target, scope) : undefined;
    const overloads = this.functions.get(name);
    if (!overloads) return this.report(e, `undeclared reference to '${name}' (in container '')`);
    const member = targetType !== undefined;
    const all = member ? [targetType, ...argTypes] : argTypes;
    const matched: Overload[] = [];
    const results: CelType[] = [];
    for (const o of overloads) {
      if (o.member !== member || o.args.length !== all.length) continue;
      const s: Subst = new Map();
      if (o.args.every((p, i) => assignable(p, all[i]!, s))) {
        matched.push(o);
        results.push(substitute(o.result, s));
      }
    }
    if (matched.length === 0) {
      const args = `(${argTypes.map(formatType).join(', ')})`;
      const applied = member ? `${formatType(targetType)}.${args}` : args;
      return this.report(e, `found no matching overload for '${name}' applied to '${applied}'`);
    }
    this.overloads.set(e.id, matched);
    if (this.validateLiterals) this.checkLiteral(name, target, call.args);
    const first = results[0]!;
    if (results.every((r) => formatType(r) === formatType(first))) return first;
    return T.dyn;
  }
}
