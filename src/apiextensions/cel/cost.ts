/**
 * Static cost estimation of a checked rule, after cel-go's `checker.Cost` with the Kubernetes library estimator and
 * the schema size estimator (apiextensions `sizeEstimator`): the worst-case cost the API server uses to refuse
 * expensive rules before they run.
 */
import type { Expr } from '@bufbuild/cel-spec/cel/expr/syntax_pb.js';
import type { CelType, DeclType } from './types.js';
import type { CheckedRule } from './checker.js';
import { qualifiedName } from './checker.js';
import { OPTIONAL_SELECT } from './optional-syntax.js';

export const MAX_UINT64 = 18446744073709551615;

export interface Estimate {
  readonly min: number;
  readonly max: number;
}

const clamp = (v: number): number => (v > MAX_UINT64 ? MAX_UINT64 : v);
const fixed = (v: number): Estimate => ({ min: v, max: v });
const add = (a: Estimate, b: Estimate): Estimate => ({ min: clamp(a.min + b.min), max: clamp(a.max + b.max) });
const mul = (a: Estimate, b: Estimate): Estimate => ({ min: clamp(a.min * b.min), max: clamp(a.max * b.max) });
const factor = (a: Estimate, f: number): Estimate => ({ min: clamp(Math.ceil(a.min * f)), max: clamp(Math.ceil(a.max * f)) });
const union = (a: Estimate, b: Estimate): Estimate => ({ min: Math.min(a.min, b.min), max: Math.max(a.max, b.max) });
const UNKNOWN: Estimate = { min: 0, max: MAX_UINT64 };
const TRAVERSAL = 0.1;
const REGEX = 0.25;
const MAX_NAME_FORMAT_REGEX_SIZE = 128;

type Path = readonly string[];

function isScalar(t: CelType | undefined): boolean {
  if (!t) return false;
  if (['bool', 'double', 'duration', 'int', 'timestamp', 'uint'].includes(t.kind)) return true;
  return t.kind === 'opaque' && t.name === 'optional_type' && isScalar(t.params[0]);
}

export class CostEstimator {
  private readonly sizes = new Map<bigint, Estimate>();
  private readonly iterRanges = new Map<string, { range: Expr; role: 'first' | 'second' | 'index' }[]>();

  constructor(
    private readonly checked: CheckedRule,
    private readonly root: DeclType,
  ) {}

  estimate(e: Expr): Estimate {
    return this.cost(e);
  }

  private typeOf(e: Expr): CelType | undefined {
    return this.checked.types.get(e.id);
  }

  private path(e: Expr): Path | undefined {
    if (e.exprKind.case === 'identExpr') {
      const name = e.exprKind.value.name;
      const ranges = this.iterRanges.get(name);
      const bound = ranges?.[ranges.length - 1];
      if (bound) {
        if (bound.role === 'index') return undefined;
        const rangePath = this.path(bound.range);
        const isMap = this.typeOf(bound.range)?.kind === 'map';
        if (!rangePath) return undefined;
        if (bound.role === 'second') return [...rangePath, isMap ? '@values' : '@items'];
        return [...rangePath, isMap ? '@keys' : '@items'];
      }
      return [name];
    }
    if (e.exprKind.case === 'selectExpr') {
      const operand = this.path(e.exprKind.value.operand!);
      return operand ? [...operand, e.exprKind.value.field] : undefined;
    }
    if (e.exprKind.case === 'callExpr' && e.exprKind.value.function === '_[_]' && e.exprKind.value.args[0]) {
      const container = e.exprKind.value.args[0];
      const operand = this.path(container);
      const kind = this.typeOf(container)?.kind;
      if (!operand || (kind !== 'list' && kind !== 'map')) return undefined;
      return [...operand, kind === 'list' ? '@items' : '@values'];
    }
    return undefined;
  }

  /** The schema's bound for a value reached from `self` (apiextensions `sizeEstimator.EstimateSize`). */
  private pathSize(e: Expr): Estimate | undefined {
    const path = this.path(e);
    // Like apiextensions, the first step is taken to be `self` whatever the variable is called.
    if (!path || path.length === 0) return undefined;
    let node: DeclType | undefined = this.root;
    for (const name of path.slice(1)) {
      if (name === '@items' || name === '@values') node = node?.elem;
      else if (name === '@keys') node = node?.key;
      else node = node?.fields?.get(name);
      if (!node) return undefined;
    }
    return { min: 0, max: node.maxElements };
  }

  private size(e: Expr): Estimate {
    const computed = this.sizes.get(e.id);
    if (computed) return computed;
    if (e.exprKind.case === 'constExpr') {
      const c = e.exprKind.value.constantKind;
      if (c.case === 'stringValue') return fixed(Array.from(c.value).length);
      if (c.case === 'bytesValue') return fixed(c.value.length);
      return fixed(1);
    }
    if (e.exprKind.case === 'listExpr') return fixed(e.exprKind.value.elements.length);
    if (e.exprKind.case === 'structExpr') return fixed(e.exprKind.value.entries.length);
    const bySchema = this.pathSize(e);
    if (bySchema) {
      this.sizes.set(e.id, bySchema);
      return bySchema;
    }
    if (isScalar(this.typeOf(e))) return fixed(1);
    return UNKNOWN;
  }

  private cost(e: Expr): Estimate {
    switch (e.exprKind.case) {
      case 'constExpr':
        return fixed(0);
      case 'identExpr':
        return fixed(1);
      case 'selectExpr': {
        const sel = e.exprKind.value;
        // has() is free in Kubernetes (PresenceTestHasCost(false)), and so is the variable it tests.
        if (sel.testOnly) return sel.operand?.exprKind.case === 'identExpr' ? fixed(0) : this.cost(sel.operand!);
        const operand = this.cost(sel.operand!);
        const kind = this.typeOf(sel.operand!)?.kind;
        return kind === 'map' || kind === 'object' || kind === 'param' ? add(operand, fixed(1)) : operand;
      }
      case 'listExpr':
        return e.exprKind.value.elements.reduce((sum, el) => add(sum, this.cost(el)), fixed(10));
      case 'structExpr':
        return e.exprKind.value.entries.reduce((sum, entry) => {
          let s = sum;
          if (entry.keyKind.case === 'mapKey') s = add(s, this.cost(entry.keyKind.value));
          return entry.value ? add(s, this.cost(entry.value)) : s;
        }, fixed(e.exprKind.value.messageName ? 40 : 30));
      case 'comprehensionExpr': {
        const c = e.exprKind.value;
        let sum = add(this.cost(c.iterRange!), this.cost(c.accuInit!));
        const isList = this.typeOf(c.iterRange!)?.kind === 'list';
        const bind = (name: string, role: 'first' | 'second' | 'index'): (() => void) => {
          const stack = this.iterRanges.get(name) ?? [];
          stack.push({ range: c.iterRange!, role });
          this.iterRanges.set(name, stack);
          return () => stack.pop();
        };
        const unbind = [bind(c.iterVar, c.iterVar2 && isList ? 'index' : 'first')];
        if (c.iterVar2) unbind.push(bind(c.iterVar2, 'second'));
        const loop = this.cost(c.loopCondition!);
        const step = this.cost(c.loopStep!);
        unbind.forEach((u) => u());
        sum = add(sum, this.cost(c.result!));
        const count = this.size(c.iterRange!);
        this.sizes.set(e.id, count);
        return add(sum, mul(count, add(step, loop)));
      }
      case 'callExpr':
        return this.call(e);
      default:
        return fixed(0);
    }
  }

  private call(e: Expr): Estimate {
    if (e.exprKind.case !== 'callExpr') return fixed(0);
    const call = e.exprKind.value;
    let fn = call.function;
    let target = call.target;
    const prefix = qualifiedName(target);
    if (prefix !== undefined && !['self', 'oldSelf'].includes(prefix.split('.')[0]!) && !this.iterRanges.has(prefix.split('.')[0]!) &&
      target && this.typeOf(target) === undefined) {
      fn = `${prefix}.${fn}`;
      target = undefined;
    }
    const args = call.args;
    const argCosts = [...(target ? [this.cost(target)] : []), ...args.map((a) => this.cost(a))];
    const argSum = argCosts.reduce(add, fixed(0));
    const overloads = this.checked.overloads.get(e.id) ?? [];
    const overloadArgs = overloads[0]?.args ?? [];
    const first = target ?? args[0];
    const firstArgKind = (first ? this.typeOf(first) : undefined)?.kind ?? 'dyn';
    if (fn === OPTIONAL_SELECT) return add(argCosts[0]!, fixed(1));
    const k8s = this.kubernetesCall(fn, target, args, overloadArgs);
    if (k8s) return add(k8s, argSum);
    switch (fn) {
      case 'format':
        if (target) return add(factor(this.size(target), TRAVERSAL), argSum);
        break;
      case 'bytes':
      case 'strings.quote':
        if (args.length === 1 && firstArgKind === 'string') {
          const sz = this.size(args[0]!);
          this.sizes.set(e.id, fn === 'bytes' ? { min: sz.min, max: clamp(sz.max * 4) } : { min: sz.min + 2, max: clamp(sz.max * 2 + 2) });
          return add(factor(sz, TRAVERSAL), argSum);
        }
        break;
      case 'string':
        if (args.length === 1 && firstArgKind === 'bytes') {
          const sz = this.size(args[0]!);
          this.sizes.set(e.id, { min: Math.floor(sz.min / 4), max: sz.max });
          return add(factor(sz, TRAVERSAL), argSum);
        }
        break;
      case 'startsWith':
      case 'endsWith':
        if (target && args.length === 1) return add(factor(this.size(args[0]!), TRAVERSAL), argSum);
        break;
      case '@in':
        if (args.length === 2 && this.typeOf(args[1]!)?.kind !== 'map') return add(this.size(args[1]!), argSum);
        break;
      case 'matches': {
        const str = target ?? args[0];
        const re = target ? args[0] : args[1];
        if (str && re) {
          const strCost = factor(add(this.size(str), fixed(1)), TRAVERSAL);
          return add(mul(strCost, factor(this.size(re), REGEX)), argSum);
        }
        break;
      }
      case 'contains':
        if (target && args.length === 1) {
          return add(mul(factor(this.size(target), TRAVERSAL), factor(this.size(args[0]!), TRAVERSAL)), argSum);
        }
        break;
      case '_&&_':
      case '_||_': {
        const [lhs, rhs] = argCosts as [Estimate, Estimate];
        return { min: lhs.min, max: add(lhs, rhs).max };
      }
      case '_?_:_': {
        const [c, t, f] = argCosts as [Estimate, Estimate, Estimate];
        this.sizes.set(e.id, union(this.size(args[1]!), this.size(args[2]!)));
        return add(c, union(t, f));
      }
      case '_+_':
        if (args.length === 2 && ['string', 'bytes', 'list'].includes(firstArgKind)) {
          const result = add(this.size(args[0]!), this.size(args[1]!));
          this.sizes.set(e.id, result);
          if (firstArgKind === 'list') return add(fixed(1), argSum);
          return add(factor(result, TRAVERSAL), argSum);
        }
        break;
      case '_<_':
      case '_>_':
      case '_<=_':
      case '_>=_':
      case '_==_':
      case '_!=_': {
        if (!fn.includes('=') && !['string', 'bytes'].includes(firstArgKind)) break;
        if ((fn === '_<=_' || fn === '_>=_') && !['string', 'bytes'].includes(firstArgKind)) break;
        const smallest = Math.min(this.size(args[0]!).max, this.size(args[1]!).max);
        return add(factor({ min: smallest > 0 ? 1 : 0, max: smallest }, TRAVERSAL), argSum);
      }
    }
    return add(fixed(1), argSum);
  }

  /** apiserver `library.CostEstimator.EstimateCallCost`, without the argument costs. */
  private kubernetesCall(fn: string, target: Expr | undefined, args: readonly Expr[], overloadArgs: readonly CelType[]): Estimate | undefined {
    switch (fn) {
      case 'isSorted':
      case 'sum':
      case 'max':
      case 'min':
      case 'indexOf':
      case 'lastIndexOf':
        if (target) {
          const t = this.typeOf(target);
          if (t?.kind === 'list') {
            let el = fixed(1);
            if (t.elem.kind === 'string' || t.elem.kind === 'bytes') el = add(el, factor(this.elemSize(target), TRAVERSAL));
            return mul(this.size(target), el);
          }
          if (t?.kind === 'string') return factor(this.size(target), TRAVERSAL);
        }
        return undefined;
      case 'url':
        if (args.length === 1) return factor(this.size(args[0]!), TRAVERSAL);
        return undefined;
      case 'lowerAscii':
      case 'upperAscii':
      case 'substring':
      case 'trim':
        if (target) return factor(this.size(target), TRAVERSAL);
        return undefined;
      case 'replace':
      case 'split':
        if (target) return factor(this.size(target), 2 * TRAVERSAL);
        return undefined;
      case 'join':
        if (target) {
          const list = this.size(target);
          let sz = mul(list, this.elemSize(target));
          if (args.length > 0) {
            sz = add(sz, mul(this.size(args[0]!), { min: Math.max(0, list.min - 1), max: Math.max(0, list.max - 1) }));
          }
          return factor(sz, TRAVERSAL);
        }
        return undefined;
      case 'find':
      case 'findAll':
        if (target && args.length >= 1) {
          const strCost = factor(add(this.size(target), fixed(1)), TRAVERSAL);
          return mul(strCost, factor(this.size(args[0]!), REGEX));
        }
        return undefined;
      case 'cidr':
      case 'isIP':
      case 'isCIDR':
      case 'quantity':
      case 'isQuantity':
      case 'semver':
      case 'isSemver':
        if (args.length >= 1) return factor(this.size(args[0]!), TRAVERSAL);
        return undefined;
      case 'ip':
        if (target) return fixed(1);
        if (args.length >= 1) return factor(this.size(args[0]!), TRAVERSAL);
        return undefined;
      case 'ip.isCanonical':
        if (args.length >= 1) return factor(this.size(args[0]!), 2 * TRAVERSAL);
        return undefined;
      case 'masked':
      case 'prefixLength':
      case 'family':
      case 'isUnspecified':
      case 'isLoopback':
      case 'isLinkLocalMulticast':
      case 'isLinkLocalUnicast':
      case 'isGlobalUnicast':
      case 'format.named':
      case 'sign':
      case 'asInteger':
      case 'isInteger':
      case 'asApproximateFloat':
      case 'isGreaterThan':
      case 'isLessThan':
      case 'compareTo':
      case 'add':
      case 'sub':
      case 'major':
      case 'minor':
      case 'patch':
      case 'getScheme':
      case 'getHostname':
      case 'getHost':
      case 'getPort':
      case 'getEscapedPath':
      case 'getQuery':
        return fixed(1);
      case 'containsIP':
      case 'containsCIDR': {
        const sz = { min: 4, max: 16 };
        let c = factor(add(sz, sz), TRAVERSAL);
        if (fn === 'containsCIDR') c = add(add(c, factor(sz, TRAVERSAL)), fixed(1));
        if (overloadArgs[1]?.kind === 'string' && args[0]) c = add(c, factor(this.size(args[0]), TRAVERSAL));
        return c;
      }
      case 'validate':
        if (args.length >= 1) return factor(factor(this.size(args[0]!), TRAVERSAL), MAX_NAME_FORMAT_REGEX_SIZE * REGEX);
        return undefined;
      case '_==_':
        if (args.length === 2) {
          const t = this.typeOf(args[0]!);
          if (t?.kind === 'opaque' && t.name !== 'optional_type') return fixed(1);
        }
        return undefined;
    }
    return undefined;
  }

  private elemSize(list: Expr): Estimate {
    const path = this.path(list);
    if (!path) return UNKNOWN;
    let node: DeclType | undefined = this.root;
    for (const name of path.slice(1)) {
      if (name === '@items' || name === '@values') node = node?.elem;
      else if (name === '@keys') node = node?.key;
      else node = node?.fields?.get(name);
      if (!node) return UNKNOWN;
    }
    return node.elem ? { min: 0, max: node.elem.maxElements } : UNKNOWN;
  }
}
