/**
 * text/template's builtin functions (funcs.go): and, or, not, len, index, slice, call, eq/ne/lt/le/gt/ge, print,
 * printf, println, html, js, urlquery, with Go's error texts. They receive the executor's values unconverted, as
 * Go's take reflect.Value.
 */
import { compareGoStrings } from '../order.js';
import { sprint, sprintf, sprintln } from './fmt.js';
import { isGoPrint } from './lex.js';
import { Iface, NO_VALUE, type RV, concrete, indirectInterface } from './rv.js';
import { assignable, canBeNil, goTypeName, intValue, isGoFunc, isInterfaceType, kindOf, makeInt, zeroValue, floatValue } from './types.js';
import { GoFuncError, GoNumber, type GoFunc, type GoValue, goFunc, mapValueType, sliceElemType, typedSlice } from './value.js';

export interface Builtin {
  /** The Go signature, for the executor's argument-count checks. */
  readonly func: GoFunc;
  readonly call: (args: RV[]) => RV;
}

/** Go's isTrue: undefined when the value has no truth value. */
export function isTrue(v: GoValue | typeof NO_VALUE): boolean | undefined {
  if (v === NO_VALUE || v === null) return false;
  switch (kindOf(v)) {
    case 'bool':
      return v === true;
    case 'string':
      return (v as string).length > 0;
    case 'int':
    case 'uint':
      return intValue(v) !== 0n;
    case 'float':
      return floatValue(v) !== 0;
    case 'slice':
      return (v as GoValue[]).length > 0;
    case 'map':
      return (v as Map<string, GoValue>).size > 0;
    case 'object':
    case 'func':
      return true;
    default:
      return undefined;
  }
}

function truth(v: RV): boolean {
  return isTrue(indirectInterface(v)) ?? false;
}

function fail(msg: string): never {
  throw new GoFuncError(msg);
}

/** Go's indirect for builtins: through an interface; isNil for a nil one. */
function indirect(v: GoValue | typeof NO_VALUE | Iface): { value: GoValue | typeof NO_VALUE; isNil: boolean } {
  if (v instanceof Iface) return v.v === null ? { value: null, isNil: true } : { value: v.v, isNil: false };
  return { value: v, isNil: false };
}

function typeOfValid(v: GoValue | typeof NO_VALUE): string {
  if (v === NO_VALUE) throw new GoFuncError('reflect: call of reflect.Value.Type on zero Value');
  return v === null ? 'interface {}' : goTypeName(v);
}

function indexArg(index: GoValue | typeof NO_VALUE, cap: number): number {
  if (index === NO_VALUE) fail('cannot index slice/array with nil');
  const k = index === null ? 'nil' : kindOf(index);
  if (k !== 'int' && k !== 'uint') fail(`cannot index slice/array with type ${typeOfValid(index)}`);
  const x = intValue(index as GoValue);
  if (x < 0n || x > BigInt(cap)) fail(`index out of range: ${x}`);
  return Number(x);
}

function prepareArg(value: GoValue | typeof NO_VALUE, argType: string): GoValue {
  if (value === NO_VALUE) {
    if (!canBeNil(argType)) fail(`value is nil; should be of type ${argType}`);
    return zeroValue(argType);
  }
  if (assignable(value, argType)) return value;
  const k = kindOf(value);
  if ((k === 'int' || k === 'uint') && (argType.startsWith('int') || argType.startsWith('uint'))) {
    return makeInt(argType, intValue(value));
  }
  return fail(`value has type ${goTypeName(value)}; should be ${argType}`);
}

function index(item0: RV, ...indexes: RV[]): RV {
  let item: RV = indirectInterface(item0);
  if (item === NO_VALUE) fail('index of untyped nil');
  for (const ix of indexes) {
    const idx = indirectInterface(ix);
    const ind = indirect(item);
    if (ind.isNil) fail('index of nil pointer');
    const v = ind.value;
    if (typeof v === 'string') {
      const bytes = new TextEncoder().encode(v);
      const x = indexArg(idx, bytes.length);
      if (x >= bytes.length) fail('reflect: string index out of range');
      item = new GoNumber('uint8', BigInt(bytes[x] ?? 0));
    } else if (Array.isArray(v)) {
      const x = indexArg(idx, v.length);
      if (x >= v.length) fail('reflect: slice index out of range');
      const e = v[x] ?? null;
      item = isInterfaceType(sliceElemType(v)) ? new Iface(e) : e;
    } else if (v instanceof Map) {
      const key = prepareArg(idx, 'string') as string;
      const elemType = mapValueType(v);
      const found = v.get(key);
      const e = found === undefined ? zeroValue(elemType) : found;
      item = isInterfaceType(elemType) ? new Iface(e) : e;
    } else {
      fail(`can't index item of type ${typeOfValid(v)}`);
    }
  }
  return item;
}

function slice(item0: RV, ...indexes: RV[]): RV {
  const item = indirectInterface(item0);
  if (item === NO_VALUE) fail('slice of untyped nil');
  if (indexes.length > 3) fail(`too many slice indexes: ${indexes.length}`);
  let len: number;
  if (typeof item === 'string') {
    if (indexes.length === 3) fail('cannot 3-index slice a string');
    len = new TextEncoder().encode(item).length;
  } else if (Array.isArray(item)) {
    len = item.length;
  } else {
    return fail(`can't slice item of type ${typeOfValid(item)}`);
  }
  const idx = [0, len, 0];
  indexes.forEach((ix, i) => {
    idx[i] = indexArg(indirectInterface(ix), len);
  });
  const [i0 = 0, i1 = len, i2 = 0] = idx;
  if (i0 > i1) fail(`invalid slice index: ${i0} > ${i1}`);
  if (indexes.length === 3 && i1 > i2) fail(`invalid slice index: ${i1} > ${i2}`);
  if (typeof item === 'string') {
    const bytes = new TextEncoder().encode(item);
    return new TextDecoder().decode(bytes.slice(i0, i1));
  }
  const arr = item as GoValue[];
  return typedSlice(arr.slice(i0, i1), sliceElemType(arr));
}

function length(item0: RV): RV {
  const { value, isNil } = indirect(item0);
  if (isNil) fail('len of nil pointer');
  if (typeof value === 'string') return BigInt(new TextEncoder().encode(value).length);
  if (Array.isArray(value)) return BigInt(value.length);
  if (value instanceof Map) return BigInt(value.size);
  return fail(`len of type ${typeOfValid(value)}`);
}

type BasicKind = 'invalid' | 'bool' | 'int' | 'uint' | 'float' | 'string';

function basicKind(v: GoValue | typeof NO_VALUE): BasicKind {
  if (v === NO_VALUE || v === null) return 'invalid';
  const k = kindOf(v);
  return k === 'bool' || k === 'int' || k === 'uint' || k === 'float' || k === 'string' ? k : 'invalid';
}

function isNilValue(v: GoValue | typeof NO_VALUE): boolean {
  return v === NO_VALUE || v === null;
}

function eq(arg1r: RV, ...arg2: RV[]): boolean {
  const arg1 = indirectInterface(arg1r);
  if (arg2.length === 0) fail('missing argument for comparison');
  const k1 = basicKind(arg1);
  for (const ar of arg2) {
    const arg = indirectInterface(ar);
    const k2 = basicKind(arg);
    let t = false;
    if (k1 !== k2) {
      if (k1 === 'int' && k2 === 'uint') {
        t = intValue(arg1 as GoValue) >= 0n && intValue(arg1 as GoValue) === intValue(arg as GoValue);
      } else if (k1 === 'uint' && k2 === 'int') {
        t = intValue(arg as GoValue) >= 0n && intValue(arg1 as GoValue) === intValue(arg as GoValue);
      } else if (arg1 !== NO_VALUE && arg !== NO_VALUE) {
        fail(`incompatible types for comparison: ${typeOfValid(arg1)} and ${typeOfValid(arg)}`);
      }
    } else {
      switch (k1) {
        case 'bool':
        case 'string':
          t = arg1 === arg;
          break;
        case 'float':
          t = floatValue(arg1 as GoValue) === floatValue(arg as GoValue);
          break;
        case 'int':
        case 'uint':
          t = intValue(arg1 as GoValue) === intValue(arg as GoValue);
          break;
        default: {
          const sameKind = arg1 === NO_VALUE || arg === NO_VALUE || kindOf(arg1 as GoValue) === kindOf(arg as GoValue);
          if (!sameKind) {
            fail(`non-comparable types ${sprint(concrete(arg1))}: ${typeOfValid(arg1)}, ${typeOfValid(arg)}: ${sprint(concrete(arg))}`);
          }
          if (isNilValue(arg1) || isNilValue(arg)) {
            t = isNilValue(arg) === isNilValue(arg1);
          } else {
            const v = arg as GoValue;
            if (Array.isArray(v) || v instanceof Map || isGoFunc(v)) {
              fail(`non-comparable type ${sprint(v)}: ${goTypeName(v)}`);
            }
            t = arg1 === arg;
          }
        }
      }
    }
    if (t) return true;
  }
  return false;
}

function lt(a1: RV, a2: RV): boolean {
  const arg1 = indirectInterface(a1);
  const k1 = basicKind(arg1);
  if (k1 === 'invalid') fail('invalid type for comparison');
  const arg2 = indirectInterface(a2);
  const k2 = basicKind(arg2);
  if (k2 === 'invalid') fail('invalid type for comparison');
  const v1 = arg1 as GoValue;
  const v2 = arg2 as GoValue;
  if (k1 !== k2) {
    if (k1 === 'int' && k2 === 'uint') return intValue(v1) < 0n || intValue(v1) < intValue(v2);
    if (k1 === 'uint' && k2 === 'int') return intValue(v2) >= 0n && intValue(v1) < intValue(v2);
    return fail(`incompatible types for comparison: ${goTypeName(v1)} and ${goTypeName(v2)}`);
  }
  switch (k1) {
    case 'bool':
      return fail('invalid type for comparison');
    case 'float':
      return floatValue(v1) < floatValue(v2);
    case 'int':
    case 'uint':
      return intValue(v1) < intValue(v2);
    default:
      return compareGoStrings(v1 as string, v2 as string) < 0;
  }
}

function le(a: RV, b: RV): boolean {
  return lt(a, b) || eq(a, b);
}

/** html/template-free escaping of text/template's `html`. */
export function htmlEscapeString(s: string): string {
  return s.replace(/[\0"'&<>]/g, (c) => {
    switch (c) {
      case '\0':
        return '\uFFFD';
      case '"':
        return '&#34;';
      case "'":
        return '&#39;';
      case '&':
        return '&amp;';
      case '<':
        return '&lt;';
      default:
        return '&gt;';
    }
  });
}

/** text/template's JSEscapeString. */
export function jsEscapeString(s: string): string {
  let out = '';
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    switch (ch) {
      case '\\':
        out += '\\\\';
        continue;
      case "'":
        out += "\\'";
        continue;
      case '"':
        out += '\\"';
        continue;
      case '<':
        out += '\\u003C';
        continue;
      case '>':
        out += '\\u003E';
        continue;
      case '&':
        out += '\\u0026';
        continue;
      case '=':
        out += '\\u003D';
        continue;
    }
    if (cp < 0x20) {
      out += `\\u00${cp.toString(16).toUpperCase().padStart(2, '0')}`;
    } else if (cp < 0x80 || isGoPrint(ch)) {
      out += ch;
    } else {
      out += `\\u${cp.toString(16).toUpperCase().padStart(4, '0')}`;
    }
  }
  return out;
}

/** net/url.QueryEscape. */
export function queryEscape(s: string): string {
  let out = '';
  for (const b of new TextEncoder().encode(s)) {
    const c = String.fromCharCode(b);
    if (/[A-Za-z0-9\-_.~]/.test(c)) out += c;
    else if (c === ' ') out += '+';
    else out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** text/template's evalArgs: one string as is, anything else as fmt.Sprint prints it, `<no value>` for nil. */
function evalArgs(args: RV[]): string {
  if (args.length === 1) {
    const only = concrete(args[0] ?? null);
    if (typeof only === 'string') return only;
  }
  const printable = args.map((a) => {
    const c = concrete(a);
    return c === null ? '<no value>' : c;
  });
  return sprint(...printable);
}

/** Go's goodFunc: one result, or two with an error second; the message when not. */
export function badFuncSignature(name: string, fn: GoFunc): string | undefined {
  const n = fn.results.length;
  if (n === 1 || (n === 2 && fn.results[1] === 'error')) return undefined;
  if (n === 2) return `invalid function signature for ${name}: second return value should be error; is ${fn.results[1] ?? ''}`;
  return `function ${name} has ${n} return values; should be 1 or 2`;
}

function callFn(name: string, fn0: RV, args: RV[]): RV {
  const fn = indirectInterface(fn0);
  if (fn === NO_VALUE) fail('call of nil');
  if (fn === null || !isGoFunc(fn)) return fail(`non-function ${name} of type ${typeOfValid(fn)}`);
  const bad = badFuncSignature(name, fn);
  if (bad !== undefined) fail(bad);
  const numIn = fn.params.length;
  if (fn.variadic) {
    if (args.length < numIn - 1) fail(`wrong number of args for ${name}: got ${args.length} want at least ${numIn - 1}`);
  } else if (args.length !== numIn) {
    fail(`wrong number of args for ${name}: got ${args.length} want ${numIn}`);
  }
  const argv = args.map((a, i) => {
    const t = fn.variadic && i >= numIn - 1 ? (fn.params[numIn - 1] ?? 'interface {}') : (fn.params[i] ?? 'interface {}');
    try {
      return prepareArg(indirectInterface(a), t);
    } catch (e) {
      if (e instanceof GoFuncError) throw new GoFuncError(`arg ${i}: ${e.message}`);
      throw e;
    }
  });
  const result = fn.call(argv);
  return isInterfaceType(fn.results[0] ?? '') ? new Iface(result) : result;
}

const rv = 'reflect.Value';
const any = 'interface {}';

function def(name: string, params: string[], results: string[], variadic: boolean, call: (args: RV[]) => RV): [string, Builtin] {
  return [name, { func: goFunc(name, params, results, () => null, variadic), call }];
}

export const builtinFuncs: ReadonlyMap<string, Builtin> = new Map([
  def('and', [rv, rv], [rv], true, () => NO_VALUE),
  def('or', [rv, rv], [rv], true, () => NO_VALUE),
  // The executor passes the callee's text (`.F`) first, as Go's evalCall does for `call`.
  def('call', [rv, rv], [rv], true, (args) => {
    const [nameArg, fn, ...rest] = args;
    return callFn(String(concrete(nameArg ?? null)), fn ?? NO_VALUE, rest);
  }),
  def('html', [any], ['string'], true, (args) => htmlEscapeString(evalArgs(args))),
  def('index', [rv, rv], [rv, 'error'], true, (args) => index(args[0] ?? NO_VALUE, ...args.slice(1))),
  def('slice', [rv, rv], [rv, 'error'], true, (args) => slice(args[0] ?? NO_VALUE, ...args.slice(1))),
  def('js', [any], ['string'], true, (args) => jsEscapeString(evalArgs(args))),
  def('len', [rv], ['int', 'error'], false, (args) => length(args[0] ?? NO_VALUE)),
  def('not', [rv], ['bool'], false, (args) => !truth(args[0] ?? NO_VALUE)),
  def('print', [any], ['string'], true, (args) => sprint(...args.map(concrete))),
  def('printf', ['string', any], ['string'], true, (args) => sprintf(String(concrete(args[0] ?? '')), ...args.slice(1).map(concrete))),
  def('println', [any], ['string'], true, (args) => sprintln(...args.map(concrete))),
  def('urlquery', [any], ['string'], true, (args) => queryEscape(evalArgs(args))),
  def('eq', [rv, rv], ['bool', 'error'], true, (args) => eq(args[0] ?? NO_VALUE, ...args.slice(1))),
  def('ge', [rv, rv], ['bool', 'error'], false, (args) => !lt(args[0] ?? NO_VALUE, args[1] ?? NO_VALUE)),
  def('gt', [rv, rv], ['bool', 'error'], false, (args) => !le(args[0] ?? NO_VALUE, args[1] ?? NO_VALUE)),
  def('le', [rv, rv], ['bool', 'error'], false, (args) => le(args[0] ?? NO_VALUE, args[1] ?? NO_VALUE)),
  def('lt', [rv, rv], ['bool', 'error'], false, (args) => lt(args[0] ?? NO_VALUE, args[1] ?? NO_VALUE)),
  def('ne', [rv, rv], ['bool', 'error'], false, (args) => !eq(args[0] ?? NO_VALUE, args[1] ?? NO_VALUE)),
]);
