/**
 * Two-variable comprehensions (Kubernetes 1.32: `m.all(k, v, v > 0)`, `l.transformList(i, v, v * i)`…). The parser
 * leaves them as plain calls; they are expanded here into comprehensions with a second iteration variable, which the
 * checker types. For evaluation they are lowered to one-variable comprehensions over `@entries(range)`, the
 * `[key, value]` pairs, since the evaluator knows only one iteration variable.
 */
import type { Expr } from '@bufbuild/cel-spec/cel/expr/syntax_pb.js';

export const ENTRIES = '@entries';
export const MAP_INSERT = '@mapInsert';

let nextId = 1n << 41n;

type Node = Expr;
const node = (kind: unknown): Node => {
  nextId += 1n;
  return { id: nextId, exprKind: kind } as unknown as Node;
};
const ident = (name: string): Node => node({ case: 'identExpr', value: { name } });
const call = (fn: string, args: Node[], target?: Node): Node =>
  node({ case: 'callExpr', value: { $typeName: 'cel.expr.Expr.Call', function: fn, args, ...(target ? { target } : {}) } });
const bool = (value: boolean): Node => node({ case: 'constExpr', value: { constantKind: { case: 'boolValue', value } } });
const int = (value: bigint): Node => node({ case: 'constExpr', value: { constantKind: { case: 'int64Value', value } } });
const emptyList = (): Node => node({ case: 'listExpr', value: { elements: [], optionalIndices: [] } });
const emptyMap = (): Node => node({ case: 'structExpr', value: { messageName: '', entries: [] } });
const ACCU = '@result';

function comprehension(range: Node, k: string, v: string, init: Node, cond: Node, step: Node, result: Node): unknown {
  return {
    case: 'comprehensionExpr',
    value: { iterVar: k, iterVar2: v, iterRange: range, accuVar: ACCU, accuInit: init, loopCondition: cond, loopStep: step, result },
  };
}

function expand(fn: string, range: Node, k: string, v: string, rest: Node[]): unknown {
  const accu = (): Node => ident(ACCU);
  switch (fn) {
    case 'all':
      return rest.length === 1
        ? comprehension(range, k, v, bool(true), call('@not_strictly_false', [accu()]), call('_&&_', [accu(), rest[0]!]), accu())
        : undefined;
    case 'exists':
      return rest.length === 1
        ? comprehension(range, k, v, bool(false), call('@not_strictly_false', [call('!_', [accu()])]), call('_||_', [accu(), rest[0]!]), accu())
        : undefined;
    case 'existsOne':
    case 'exists_one':
      return rest.length === 1
        ? comprehension(range, k, v, int(0n), bool(true), call('_?_:_', [rest[0]!, call('_+_', [accu(), int(1n)]), accu()]), call('_==_', [accu(), int(1n)]))
        : undefined;
    case 'transformList': {
      if (rest.length < 1 || rest.length > 2) return undefined;
      const transform = rest[rest.length - 1]!;
      const add = call('_+_', [accu(), node({ case: 'listExpr', value: { elements: [transform], optionalIndices: [] } })]);
      const step = rest.length === 2 ? call('_?_:_', [rest[0]!, add, accu()]) : add;
      return comprehension(range, k, v, emptyList(), bool(true), step, accu());
    }
    case 'transformMap':
    case 'transformMapEntry': {
      if (rest.length < 1 || rest.length > 2) return undefined;
      const transform = rest[rest.length - 1]!;
      const insert = fn === 'transformMap' ? call(MAP_INSERT, [accu(), ident(k), transform]) : call(MAP_INSERT, [accu(), transform]);
      const step = rest.length === 2 ? call('_?_:_', [rest[0]!, insert, accu()]) : insert;
      return comprehension(range, k, v, emptyMap(), bool(true), step, accu());
    }
    default:
      return undefined;
  }
}

function children(e: Expr): (Expr | undefined)[] {
  const k = e.exprKind;
  switch (k.case) {
    case 'selectExpr':
      return [k.value.operand];
    case 'callExpr':
      return [k.value.target, ...k.value.args];
    case 'listExpr':
      return k.value.elements;
    case 'structExpr':
      return k.value.entries.flatMap((en) => [en.keyKind.case === 'mapKey' ? en.keyKind.value : undefined, en.value]);
    case 'comprehensionExpr':
      return [k.value.iterRange, k.value.accuInit, k.value.loopCondition, k.value.loopStep, k.value.result];
    default:
      return [];
  }
}

/** Expands two-variable macro calls in place; synthetic nodes take the position of the call they replace. */
export function expandTwoVarMacros(expr: Expr, positions: Record<string, number>): void {
  const visit = (e: Expr | undefined): void => {
    if (!e) return;
    children(e).forEach(visit);
    const k = e.exprKind;
    if (k.case !== 'callExpr' || !k.value.target || k.value.args.length < 3) return;
    const [a, b, ...rest] = k.value.args;
    if (a?.exprKind.case !== 'identExpr' || b?.exprKind.case !== 'identExpr') return;
    const expanded = expand(k.value.function, k.value.target, a.exprKind.value.name, b.exprKind.value.name, rest);
    if (!expanded) return;
    const at = positions[String(e.id)] ?? 0;
    (e as { exprKind: unknown }).exprKind = expanded;
    const mark = (x: Expr | undefined): void => {
      if (!x) return;
      if (positions[String(x.id)] === undefined) positions[String(x.id)] = at;
      children(x).forEach(mark);
    };
    mark(e);
  };
  visit(expr);
}

/** Rewrites two-variable comprehensions for the one-variable evaluator: iterate `@entries(range)` as `[k, v]` pairs. */
export function lowerTwoVarComprehensions(expr: Expr): void {
  let depth = 0;
  const substitute = (e: Expr | undefined, names: ReadonlyMap<string, () => Node>): void => {
    if (!e) return;
    const k = e.exprKind;
    if (k.case === 'identExpr' && names.has(k.value.name)) {
      (e as { exprKind: unknown }).exprKind = names.get(k.value.name)!().exprKind;
      return;
    }
    if (k.case === 'comprehensionExpr') {
      // An inner comprehension that rebinds a name hides the outer one.
      const inner = new Map([...names].filter(([n]) => n !== k.value.iterVar && n !== k.value.iterVar2 && n !== k.value.accuVar));
      substitute(k.value.iterRange, names);
      substitute(k.value.accuInit, names);
      substitute(k.value.loopCondition, inner);
      substitute(k.value.loopStep, inner);
      substitute(k.value.result, new Map([...names].filter(([n]) => n !== k.value.accuVar)));
      return;
    }
    children(e).forEach((c) => substitute(c, names));
  };
  const visit = (e: Expr | undefined): void => {
    if (!e) return;
    children(e).forEach(visit);
    const k = e.exprKind;
    if (k.case !== 'comprehensionExpr' || !k.value.iterVar2) return;
    depth += 1;
    const pair = `@pair${depth}`;
    const names = new Map<string, () => Node>([
      [k.value.iterVar, () => call('_[_]', [ident(pair), int(0n)])],
      [k.value.iterVar2, () => call('_[_]', [ident(pair), int(1n)])],
    ]);
    substitute(k.value.loopCondition, names);
    substitute(k.value.loopStep, names);
    k.value.iterRange = call(ENTRIES, [k.value.iterRange!]);
    k.value.iterVar = pair;
    k.value.iterVar2 = '';
  };
  visit(expr);
}
