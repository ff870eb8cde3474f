/**
 * The executor of Go's text/template (exec.go) over the value model: field and map-key lookup with the missingkey
 * options, pipelines with the final-argument rule, function and method calls with Go's argument checks and
 * conversions, if/with/range (slices, maps in key order, integers), break/continue, variables and nested
 * templates, and Go's `template: <name>:<line>:<col>: executing "<name>" at <<node>>: <msg>` errors.
 */
import { defaultWorkBounds, workBounds } from '../bounds.js';
import { goQuote } from '../quote.js';
import { badFuncSignature, builtinFuncs, type Builtin, isTrue } from './builtins.js';
import { formatGoValue } from './fmt.js';
import { type ArgNode, type BranchNode, type ChainNode, type CommandNode, type FieldNode, type IdentifierNode, type Node, type NumberNode, type PipeNode, type Tree, type VariableNode, nodeString } from './parse.js';
import { chargeValues, metered, TemplateBoundError } from './meter.js';
import { NO_VALUE, Iface, type RV, concrete, indirectInterface, rvTypeName } from './rv.js';
import {
  assignable,
  canBeNil,
  floatKinds,
  goTypeName,
  intKinds,
  isGoFunc,
  isInterfaceType,
  makeFloat,
  makeInt,
  sortedKeys,
  uintKinds,
  zeroValue,
} from './types.js';
import { GoFuncError, GoObject, type GoFunc, type GoValue, mapValueType, sliceElemType } from './value.js';

export type MissingKey = 'default' | 'invalid' | 'zero' | 'error';

/** Go's maxExecDepth on wasm: JavaScript's stack cannot hold the 100000 nested templates native Go allows. */
export const maxExecDepth = 1000;
/**
 * Output larger than this is an error: templates render values of a Kubernetes object, never megabytes. The default
 * of `CAPIFORM_TEMPLATE_MAX_OUTPUT` (../bounds.ts), as is the step bound.
 */
export const maxOutputBytes = defaultWorkBounds.templateOutputBytes;

export class ExecFailure extends Error {}

class BreakSignal {}
class ContinueSignal {}
const walkBreak = new BreakSignal();
const walkContinue = new ContinueSignal();

interface Variable {
  readonly name: string;
  value: RV;
}

export interface ExecContext {
  readonly trees: ReadonlyMap<string, Tree>;
  readonly funcs: Readonly<Record<string, GoFunc>>;
  readonly missingKey: MissingKey;
}

interface Shared {
  out: string;
  bytes: number;
  steps: number;
  readonly maxSteps: number;
  readonly maxOutputBytes: number;
}

/** UTF-8 length without encoding (a lone surrogate counts 3, as its U+FFFD replacement would). */
function byteLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** Go's Tree.ErrorContext: `name:line:byteColumn` and the node's text. */
function errorContext(tree: Tree, node: Node): { location: string; context: string } {
  const text = tree.text.slice(0, node.pos);
  const nl = text.lastIndexOf('\n');
  const byteNum = nl === -1 ? byteLength(text) : byteLength(text.slice(nl + 1));
  let lineNum = 1;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lineNum++;
  return { location: `${tree.parseName}:${lineNum}:${byteNum}`, context: nodeString(node) };
}

export function execute(ctx: ExecContext, tree: Tree, data: GoValue): string {
  const bounds = workBounds();
  const shared: Shared = { out: '', bytes: 0, steps: 0, maxSteps: bounds.templateSteps, maxOutputBytes: bounds.templateOutputBytes };
  const dot: RV = data === null ? NO_VALUE : data;
  const s = new State(ctx, tree, shared, [{ name: '$', value: dot }], 0);
  return metered(() => {
    s.walk(dot, tree.root);
    return shared.out;
  });
}

class State {
  private node: Node | null = null;

  constructor(
    private readonly ctx: ExecContext,
    private readonly tree: Tree,
    private readonly shared: Shared,
    private vars: Variable[],
    private readonly depth: number,
  ) {}

  at(node: Node): void {
    this.node = node;
  }

  /** Go's `template: <name>:<line>:<col>: executing "<name>" at <<node>>: <msg>`. */
  private located(msg: string): string {
    const name = this.tree.name;
    if (this.node === null) return `template: ${name}: ${msg}`;
    const { location, context } = errorContext(this.tree, this.node);
    return `template: ${location}: executing ${goQuote(name)} at <${context}>: ${msg}`;
  }

  errorf(msg: string): never {
    throw new ExecFailure(this.located(msg));
  }

  /** A bound error with Go's location prefix, once (the innermost call names the place). */
  private boundError(e: TemplateBoundError): TemplateBoundError {
    if (e.message.startsWith('template: ')) return e;
    return new TemplateBoundError(this.located(e.message), e.envName, { hint: e.hint });
  }

  private step(): void {
    if (++this.shared.steps > this.shared.maxSteps) this.errorf(`execution exceeds ${this.shared.maxSteps} steps`);
  }

  private write(s: string): void {
    if (s.length > 0) {
      try {
        chargeValues([s]);
      } catch (e) {
        if (e instanceof TemplateBoundError) throw this.boundError(e);
        throw e;
      }
    }
    this.shared.out += s;
    this.shared.bytes += byteLength(s);
    if (this.shared.bytes > this.shared.maxOutputBytes) this.errorf(`output exceeds ${this.shared.maxOutputBytes} bytes`);
  }

  // Variables.

  private mark(): number {
    return this.vars.length;
  }
  private pop(mark: number): void {
    this.vars.length = mark;
  }
  private push(name: string, value: RV): void {
    this.vars.push({ name, value });
  }
  private setVar(name: string, value: RV): void {
    for (let i = this.vars.length - 1; i >= 0; i--) {
      const v = this.vars[i];
      if (v !== undefined && v.name === name) {
        v.value = value;
        return;
      }
    }
    this.errorf(`undefined variable: ${name}`);
  }
  private setTopVar(n: number, value: RV): void {
    const v = this.vars[this.vars.length - n];
    if (v !== undefined) v.value = value;
  }
  private varValue(name: string): RV {
    for (let i = this.vars.length - 1; i >= 0; i--) {
      const v = this.vars[i];
      if (v !== undefined && v.name === name) return v.value;
    }
    this.errorf(`undefined variable: ${name}`);
  }

  // Walking.

  walk(dot: RV, node: Node): void {
    this.step();
    this.at(node);
    switch (node.type) {
      case 'action': {
        const val = this.evalPipeline(dot, node.pipe);
        if (node.pipe.decl.length === 0) this.printValue(node, val);
        return;
      }
      case 'break':
        throw walkBreak;
      case 'continue':
        throw walkContinue;
      case 'comment':
        return;
      case 'if':
      case 'with':
        return this.walkIfOrWith(node, dot);
      case 'list':
        for (const n of node.nodes) this.walk(dot, n);
        return;
      case 'range':
        return this.walkRange(dot, node);
      case 'template':
        return this.walkTemplate(dot, node);
      case 'text':
        this.write(node.text);
        return;
      default:
        this.errorf(`unknown node: ${nodeString(node)}`);
    }
  }

  private walkIfOrWith(node: BranchNode, dot: RV): void {
    const mark = this.mark();
    try {
      const val = this.evalPipeline(dot, node.pipe);
      const truth = isTrue(indirectInterface(val));
      if (truth === undefined) this.errorf(`if/with can't use ${formatRV(val)}`);
      if (truth) {
        this.walk(node.type === 'with' ? val : dot, node.list);
      } else if (node.elseList !== null) {
        this.walk(dot, node.elseList);
      }
    } finally {
      this.pop(mark);
    }
  }

  private walkRange(dot: RV, r: BranchNode): void {
    this.at(r);
    const outer = this.mark();
    try {
      const val = indirect(this.evalPipeline(dot, r.pipe)).value;
      const mark = this.mark();
      const decl = r.pipe.decl;
      const oneIteration = (index: RV, elem: RV): void => {
        if (decl.length > 0) {
          if (r.pipe.isAssign) {
            this.setVar(decl[0]?.ident[0] ?? '', decl.length > 1 ? index : elem);
          } else {
            this.setTopVar(1, elem);
          }
        }
        if (decl.length > 1) {
          if (r.pipe.isAssign) this.setVar(decl[1]?.ident[0] ?? '', elem);
          else this.setTopVar(2, index);
        }
        try {
          this.walk(elem, r.list);
        } catch (e) {
          if (e !== walkContinue) throw e;
        } finally {
          this.pop(mark);
        }
      };
      try {
        if (Array.isArray(val)) {
          if (val.length > 0) {
            const boxed = isInterfaceType(sliceElemType(val));
            for (let i = 0; i < val.length; i++) {
              const e = val[i] ?? null;
              oneIteration(BigInt(i), boxed ? new Iface(e) : e);
            }
            return;
          }
        } else if (val instanceof Map) {
          if (val.size > 0) {
            const boxed = isInterfaceType(mapValueType(val));
            for (const k of sortedKeys(val)) {
              const e = val.get(k) ?? null;
              oneIteration(k, boxed ? new Iface(e) : e);
            }
            return;
          }
        } else if (typeof val === 'bigint' || (isIntLike(val) && val !== NO_VALUE)) {
          if (decl.length > 1) this.errorf(`can't use ${formatRV(val)} to iterate over more than one variable`);
          const n = intOf(val as GoValue);
          let run = false;
          for (let i = 0n; i < n; i++) {
            run = true;
            const v = typeof val === 'bigint' ? i : makeInt(goTypeName(val as GoValue), i);
            oneIteration(v, v);
          }
          if (run) return;
        } else if (val !== NO_VALUE && val !== null) {
          this.errorf(`range can't iterate over ${formatRV(val)}`);
        }
      } catch (e) {
        if (e !== walkBreak) throw e;
        return;
      }
      if (r.elseList !== null) this.walk(dot, r.elseList);
    } finally {
      this.pop(outer);
    }
  }

  private walkTemplate(dot: RV, t: Extract<Node, { type: 'template' }>): void {
    this.at(t);
    const tmpl = this.ctx.trees.get(t.name);
    if (tmpl === undefined) this.errorf(`template ${goQuote(t.name)} not defined`);
    if (this.depth >= maxExecDepth) this.errorf(`exceeded maximum template depth (${maxExecDepth})`);
    const newDot = t.pipe === null ? NO_VALUE : this.evalPipeline(dot, t.pipe);
    const inner = new State(this.ctx, tmpl, this.shared, [{ name: '$', value: newDot }], this.depth + 1);
    inner.walk(newDot, tmpl.root);
  }

  // Evaluation.

  evalPipeline(dot: RV, pipe: PipeNode): RV {
    this.at(pipe);
    let final: RV | typeof MISSING = MISSING;
    let value: RV = NO_VALUE;
    for (const cmd of pipe.cmds) {
      value = this.evalCommand(dot, cmd, final);
      // A value of type interface{} is replaced by the value inside it.
      if (value instanceof Iface) value = value.v === null ? NO_VALUE : value.v;
      final = value;
    }
    for (const variable of pipe.decl) {
      if (pipe.isAssign) this.setVar(variable.ident[0] ?? '', value);
      else this.push(variable.ident[0] ?? '', value);
    }
    return value;
  }

  private notAFunction(args: readonly ArgNode[], final: RV | typeof MISSING): void {
    if (args.length > 1 || final !== MISSING) {
      this.errorf(`can't give argument to non-function ${nodeString(args[0] as Node)}`);
    }
  }

  private evalCommand(dot: RV, cmd: CommandNode, final: RV | typeof MISSING): RV {
    this.step();
    const firstWord = cmd.args[0];
    if (firstWord === undefined) this.errorf('empty command');
    switch (firstWord.type) {
      case 'field':
        return this.evalFieldNode(dot, firstWord, cmd.args, final);
      case 'chain':
        return this.evalChainNode(dot, firstWord, cmd.args, final);
      case 'identifier':
        return this.evalFunction(dot, firstWord, cmd, cmd.args, final);
      case 'pipe':
        this.notAFunction(cmd.args, final);
        return this.evalPipeline(dot, firstWord);
      case 'variable':
        return this.evalVariableNode(dot, firstWord, cmd.args, final);
    }
    this.at(firstWord);
    this.notAFunction(cmd.args, final);
    switch (firstWord.type) {
      case 'bool':
        return firstWord.value;
      case 'dot':
        return dot;
      case 'nil':
        this.errorf('nil is not a command');
      // falls through: errorf never returns
      case 'number':
        return this.idealConstant(firstWord);
      case 'string':
        return firstWord.text;
    }
  }

  private idealConstant(constant: NumberNode): RV {
    this.at(constant);
    if (constant.isComplex) this.errorf(`complex constant ${constant.text} is not supported`);
    const isHexInt = /^0[xX]/.test(constant.text) && !/[pP]/.test(constant.text);
    const isRuneInt = constant.text.startsWith("'");
    if (constant.isFloat && !isHexInt && !isRuneInt && /[.eEpP]/.test(constant.text)) return constant.float64;
    if (constant.isInt) return constant.int64;
    if (constant.isUint) this.errorf(`${constant.text} overflows int`);
    return NO_VALUE;
  }

  private evalFieldNode(dot: RV, field: FieldNode, args: readonly ArgNode[], final: RV | typeof MISSING): RV {
    this.at(field);
    return this.evalFieldChain(dot, dot, field, field.ident, args, final);
  }

  private evalChainNode(dot: RV, chain: ChainNode, args: readonly ArgNode[], final: RV | typeof MISSING): RV {
    this.at(chain);
    if (chain.field.length === 0) this.errorf('internal error: no fields in evalChainNode');
    if (chain.node.type === 'nil') this.errorf(`indirection through explicit nil in ${nodeString(chain)}`);
    const pipe = this.evalArg(dot, null, chain.node);
    return this.evalFieldChain(dot, pipe, chain, chain.field, args, final);
  }

  private evalVariableNode(dot: RV, variable: VariableNode, args: readonly ArgNode[], final: RV | typeof MISSING): RV {
    this.at(variable);
    const value = this.varValue(variable.ident[0] ?? '');
    if (variable.ident.length === 1) {
      this.notAFunction(args, final);
      return value;
    }
    return this.evalFieldChain(dot, value, variable, variable.ident.slice(1), args, final);
  }

  private evalFieldChain(
    dot: RV,
    receiver0: RV,
    node: Node,
    ident: readonly string[],
    args: readonly ArgNode[],
    final: RV | typeof MISSING,
  ): RV {
    let receiver = receiver0;
    const n = ident.length;
    for (let i = 0; i < n - 1; i++) receiver = this.evalField(dot, ident[i] ?? '', node, [], MISSING, receiver);
    return this.evalField(dot, ident[n - 1] ?? '', node, args, final, receiver);
  }

  private evalFunction(
    dot: RV,
    node: IdentifierNode,
    cmd: Node,
    args: readonly ArgNode[],
    final: RV | typeof MISSING,
  ): RV {
    this.at(node);
    const name = node.ident;
    const fn = this.ctx.funcs[name];
    if (fn !== undefined) return this.evalCall(dot, fn, null, cmd, name, args, final);
    const builtin = builtinFuncs.get(name);
    if (builtin !== undefined) return this.evalCall(dot, builtin.func, builtin, cmd, name, args, final);
    this.errorf(`${goQuote(name)} is not a defined function`);
  }

  private evalField(
    dot: RV,
    fieldName: string,
    node: Node,
    args: readonly ArgNode[],
    final: RV | typeof MISSING,
    receiver: RV,
  ): RV {
    if (receiver === NO_VALUE) {
      if (this.ctx.missingKey === 'error') this.errorf(`nil data; no entry for key ${goQuote(fieldName)}`);
      return NO_VALUE;
    }
    const typ = rvTypeName(receiver);
    const { value, isNil } = indirect(receiver);
    if (isNil) this.errorf(`nil pointer evaluating ${typ}.${fieldName}`);
    if (value instanceof GoObject) {
      const method = value.method(fieldName);
      if (method !== undefined) return this.evalCall(dot, method, null, node, fieldName, args, final);
    }
    const hasArgs = args.length > 1 || final !== MISSING;
    if (value instanceof GoObject) {
      const field = value.field(fieldName);
      if (field !== undefined) {
        if (hasArgs) this.errorf(`${fieldName} has arguments but cannot be invoked as function`);
        const declared = value.fieldType(fieldName);
        return (declared !== undefined && isInterfaceType(declared)) || field === null ? new Iface(field) : field;
      }
    } else if (value instanceof Map) {
      if (hasArgs) this.errorf(`${fieldName} is not a method but has arguments`);
      const elemType = mapValueType(value);
      const result = value.get(fieldName);
      if (result === undefined) {
        switch (this.ctx.missingKey) {
          case 'zero':
            return isInterfaceType(elemType) ? new Iface(null) : zeroValue(elemType);
          case 'error':
            this.errorf(`map has no entry for key ${goQuote(fieldName)}`);
          // falls through: errorf never returns
          default:
            return NO_VALUE;
        }
      }
      return isInterfaceType(elemType) ? new Iface(result) : result;
    }
    this.errorf(`can't evaluate field ${fieldName} in type ${typ}`);
  }

  /**
   * Calls a function or method. `builtin` marks text/template's own functions, which take their arguments
   * unconverted (Go's reflect.Value parameters).
   */
  private evalCall(
    dot: RV,
    fun: GoFunc,
    builtin: Builtin | null,
    node: Node,
    name: string,
    allArgs: readonly ArgNode[],
    final: RV | typeof MISSING,
  ): RV {
    const args = allArgs.slice(1);
    let numIn = args.length;
    if (final !== MISSING) numIn++;
    const nparams = fun.params.length;
    let numFixed = args.length;
    if (fun.variadic) {
      numFixed = nparams - 1;
      if (numIn < numFixed) {
        this.errorf(`wrong number of args for ${name}: want at least ${nparams - 1} got ${args.length}`);
      }
    } else if (numIn !== nparams) {
      this.errorf(`wrong number of args for ${name}: want ${nparams} got ${numIn}`);
    }
    const results = fun.results;
    const bad = badFuncSignature(name, fun);
    if (bad !== undefined) this.errorf(bad);

    if (builtin !== null && (name === 'and' || name === 'or')) {
      let v: RV = NO_VALUE;
      for (const arg of args) {
        v = this.evalArg(dot, 'reflect.Value', arg);
        if ((isTrue(indirectInterface(v)) ?? false) === (name === 'or')) return v;
      }
      if (final !== MISSING) v = final;
      return v;
    }

    const argv: RV[] = [];
    let i = 0;
    for (; i < numFixed && i < args.length; i++) argv.push(this.evalArg(dot, fun.params[i] ?? 'interface {}', args[i] as ArgNode));
    if (fun.variadic) {
      const argType = fun.params[nparams - 1] ?? 'interface {}';
      for (; i < args.length; i++) argv.push(this.evalArg(dot, argType, args[i] as ArgNode));
    }
    if (final !== MISSING) {
      let t = fun.params[nparams - 1] ?? 'interface {}';
      if (fun.variadic && numIn - 1 < numFixed) t = fun.params[numIn - 1] ?? t;
      argv.push(this.validateType(final, t));
    }
    if (builtin !== null && name === 'call') {
      // Go names the callee by its text, or for a piped function by reflect.Value's String().
      const callee = args[0] !== undefined ? nodeString(args[0]) : reflectValueString(final === MISSING ? NO_VALUE : final);
      argv.unshift(callee);
    }
    let result: RV;
    try {
      chargeValues(argv);
      result = builtin !== null ? builtin.call(argv) : fun.call(argv.map(toArg));
      chargeValues([result]);
    } catch (e) {
      if (e instanceof ExecFailure) throw e;
      if (e instanceof TemplateBoundError) {
        this.at(node);
        throw this.boundError(e);
      }
      const msg = e instanceof GoFuncError || e instanceof Error ? e.message : String(e);
      this.at(node);
      this.errorf(`error calling ${name}: ${msg}`);
    }
    if (builtin === null && isInterfaceType(results[0] ?? '')) {
      return result instanceof Iface || result === NO_VALUE ? result : new Iface(result);
    }
    return result;
  }

  private validateType(value: RV, typ: string | null): RV {
    if (value === NO_VALUE) {
      if (typ === null || typ === 'reflect.Value') return NO_VALUE;
      if (canBeNil(typ)) return isInterfaceType(typ) ? null : zeroValue(typ);
      this.errorf(`invalid value; expected ${typ}`);
    }
    if (typ === null || typ === 'reflect.Value') return value;
    if (value instanceof Iface) {
      if (isInterfaceType(typ)) return value;
      if (value.v === null) this.errorf(`wrong type for value; expected ${typ}; got interface {}`);
      return this.validateType(value.v, typ);
    }
    if (!assignable(value, typ)) this.errorf(`wrong type for value; expected ${typ}; got ${goTypeName(value)}`);
    return value;
  }

  private evalArg(dot: RV, typ: string | null, n: ArgNode): RV {
    this.at(n);
    switch (n.type) {
      case 'dot':
        return this.validateType(dot, typ);
      case 'nil':
        if (typ === null || canBeNil(typ)) return typ === 'reflect.Value' ? NO_VALUE : typ === null || isInterfaceType(typ) ? null : zeroValue(typ);
        this.errorf(`cannot assign nil to ${typ}`);
      // falls through: errorf never returns
      case 'field':
        return this.validateType(this.evalFieldNode(dot, n, [n], MISSING), typ);
      case 'variable':
        return this.validateType(this.evalVariableNode(dot, n, [], MISSING), typ);
      case 'pipe':
        return this.validateType(this.evalPipeline(dot, n), typ);
      case 'identifier':
        return this.validateType(this.evalFunction(dot, n, n, [], MISSING), typ);
      case 'chain':
        return this.validateType(this.evalChainNode(dot, n, [], MISSING), typ);
    }
    if (typ === null || isInterfaceType(typ) || typ === 'reflect.Value') return this.evalEmptyInterface(dot, n);
    if (typ === 'bool') {
      if (n.type === 'bool') return n.value;
      this.errorf(`expected bool; found ${nodeString(n)}`);
    }
    if (typ === 'string') {
      if (n.type === 'string') return n.text;
      this.errorf(`expected string; found ${nodeString(n)}`);
    }
    if (intKinds.has(typ)) {
      if (n.type === 'number' && n.isInt) return makeInt(typ, n.int64);
      this.errorf(`expected integer; found ${nodeString(n)}`);
    }
    if (uintKinds.has(typ)) {
      if (n.type === 'number' && n.isUint) return makeInt(typ, n.uint64);
      this.errorf(`expected unsigned integer; found ${nodeString(n)}`);
    }
    if (floatKinds.has(typ)) {
      if (n.type === 'number' && n.isFloat) return makeFloat(typ, n.float64);
      this.errorf(`expected float; found ${nodeString(n)}`);
    }
    this.errorf(`can't handle ${nodeString(n)} for arg of type ${typ}`);
  }

  private evalEmptyInterface(dot: RV, n: ArgNode): RV {
    this.at(n);
    switch (n.type) {
      case 'bool':
        return n.value;
      case 'dot':
        return dot;
      case 'field':
        return this.evalFieldNode(dot, n, [], MISSING);
      case 'identifier':
        return this.evalFunction(dot, n, n, [], MISSING);
      case 'nil':
        this.errorf("evalEmptyInterface: nil (can't happen)");
      // falls through: errorf never returns
      case 'number':
        return this.idealConstant(n);
      case 'string':
        return n.text;
      case 'variable':
        return this.evalVariableNode(dot, n, [], MISSING);
      case 'pipe':
        return this.evalPipeline(dot, n);
    }
    this.errorf(`can't handle assignment of ${nodeString(n)} to empty interface argument`);
  }

  private printValue(n: Node, v: RV): void {
    this.at(n);
    const inner = indirectInterface(v);
    if (inner === NO_VALUE) {
      this.write('<no value>');
      return;
    }
    if (inner !== null && isGoFunc(inner)) this.errorf(`can't print ${nodeString(n)} of type ${goTypeName(inner)}`);
    this.write(formatGoValue(inner));
  }
}

/** Marks "no final argument" in a pipeline (Go's missingVal). */
const MISSING: unique symbol = Symbol('missing');

/** Go's indirect: through interfaces to the value inside; isNil when that is nil. */
function indirect(v: RV): { value: RV; isNil: boolean } {
  if (v instanceof Iface) return v.v === null ? { value: v, isNil: true } : { value: v.v, isNil: false };
  if (v === null) return { value: v, isNil: true };
  return { value: v, isNil: false };
}

function toArg(v: RV): GoValue {
  return concrete(v);
}

function formatRV(v: RV): string {
  const c = v instanceof Iface ? v.v : v;
  if (c === NO_VALUE) return '<invalid reflect.Value>';
  return formatGoValue(c);
}

function isIntLike(v: RV): boolean {
  if (v === NO_VALUE || v instanceof Iface || v === null) return false;
  const t = goTypeName(v);
  return intKinds.has(t) || uintKinds.has(t);
}

function intOf(v: GoValue): bigint {
  if (typeof v === 'bigint') return v;
  if (v !== null && typeof v === 'object' && 'value' in v && typeof v.value === 'bigint') return v.value;
  return 0n;
}

/** reflect.Value's String(): a string's own text, otherwise `<T Value>`. */
function reflectValueString(v: RV): string {
  const c = v instanceof Iface ? v.v : v;
  if (typeof c === 'string') return c;
  if (c === NO_VALUE) return '<invalid Value>';
  return `<${rvTypeName(v)} Value>`;
}
