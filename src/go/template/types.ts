/**
 * Go type names of the values in the model, and the few questions text/template and fmt ask about types: what
 * `%T` prints, assignability to a parameter type, whether nil converts to it, and its zero value.
 */
import { compareGoStrings } from '../order.js';
import { GoNumber, GoObject, type GoFunc, type GoValue, mapValueType, sliceElemType } from './value.js';

export function isGoFunc(v: GoValue): v is GoFunc {
  return typeof v === 'object' && v !== null && 'kind' in v && v.kind === 'func';
}

/** The signature `%T` prints for a function, e.g. `func(string, ...interface {}) string`. */
export function funcTypeName(f: GoFunc): string {
  const params = f.params.map((p, i) => (f.variadic && i === f.params.length - 1 ? `...${p}` : p));
  const results = f.results.length === 0 ? '' : f.results.length === 1 ? ` ${f.results[0]}` : ` (${f.results.join(', ')})`;
  return `func(${params.join(', ')})${results}`;
}

/** reflect.TypeOf(v).String(); nil (no dynamic type) is `<nil>`. */
export function goTypeName(v: GoValue): string {
  if (v === null) return '<nil>';
  switch (typeof v) {
    case 'boolean':
      return 'bool';
    case 'string':
      return 'string';
    case 'number':
      return 'float64';
    case 'bigint':
      return 'int';
  }
  if (v instanceof GoNumber) return v.type;
  if (Array.isArray(v)) return `[]${sliceElemType(v)}`;
  if (v instanceof Map) return `map[string]${mapValueType(v)}`;
  if (v instanceof GoObject) return v.goType;
  return funcTypeName(v);
}

/** Interface types: anything is assignable to them and nil converts to them. */
export function isInterfaceType(t: string): boolean {
  return t === 'any' || t.startsWith('interface') || t === 'error' || t === 'fmt.Stringer';
}

/** Go's canBeNil: chan, func, interface, map, pointer, slice (and reflect.Value, which the builtins take). */
export function canBeNil(t: string): boolean {
  return (
    isInterfaceType(t) ||
    t === 'reflect.Value' ||
    t.startsWith('[]') ||
    t.startsWith('map[') ||
    t.startsWith('*') ||
    t.startsWith('func') ||
    t.startsWith('chan ')
  );
}

/** Whether a value of dynamic type `from` may be passed where Go expects `to`. */
export function assignable(v: GoValue, to: string): boolean {
  if (isInterfaceType(to)) return true;
  // The model keeps no type for nil: take it as the nil of whatever nillable type is expected.
  if (v === null) return canBeNil(to);
  const from = goTypeName(v);
  if (from === to) return true;
  return (to === 'interface {}' || to === 'any') && v !== null;
}

export const intKinds = new Set(['int', 'int8', 'int16', 'int32', 'int64']);
export const uintKinds = new Set(['uint', 'uint8', 'uint16', 'uint32', 'uint64', 'uintptr']);
export const floatKinds = new Set(['float32', 'float64']);

const intBits: Record<string, number> = {
  int: 64,
  int8: 8,
  int16: 16,
  int32: 32,
  int64: 64,
  uint: 64,
  uint8: 8,
  uint16: 16,
  uint32: 32,
  uint64: 64,
  uintptr: 64,
};

/** A Go integer of the given kind, wrapping as Go's conversions do. */
export function makeInt(type: string, n: bigint): GoValue {
  const bits = intBits[type] ?? 64;
  if (type === 'int') return BigInt.asIntN(64, n);
  const v = uintKinds.has(type) ? BigInt.asUintN(bits, n) : BigInt.asIntN(bits, n);
  return new GoNumber(type as GoNumber['type'], v);
}

export function makeFloat(type: string, f: number): GoValue {
  return type === 'float32' ? new GoNumber('float32', Math.fround(f)) : f;
}

/** reflect.Zero(t) for the types the model has; nil for the rest. */
export function zeroValue(t: string): GoValue {
  if (t === 'string') return '';
  if (t === 'bool') return false;
  if (intKinds.has(t) || uintKinds.has(t)) return makeInt(t, 0n);
  if (floatKinds.has(t)) return makeFloat(t, 0);
  return null;
}

/** The Go kind family of a value, as fmt and the comparison builtins classify it. */
export type Kind = 'nil' | 'bool' | 'int' | 'uint' | 'float' | 'string' | 'slice' | 'map' | 'object' | 'func';

export function kindOf(v: GoValue): Kind {
  if (v === null) return 'nil';
  switch (typeof v) {
    case 'boolean':
      return 'bool';
    case 'string':
      return 'string';
    case 'number':
      return 'float';
    case 'bigint':
      return 'int';
  }
  if (v instanceof GoNumber) return v.type === 'float32' ? 'float' : uintKinds.has(v.type) ? 'uint' : 'int';
  if (Array.isArray(v)) return 'slice';
  if (v instanceof Map) return 'map';
  if (v instanceof GoObject) return 'object';
  return 'func';
}

/** reflect.Value.Kind().String() (sprig's kindOf): `invalid` for nil; the model's basic types are unnamed, so their kind is their type name. */
export function reflectKind(v: GoValue): string {
  const k = kindOf(v);
  switch (k) {
    case 'nil':
      return 'invalid';
    case 'object':
      return (v as GoObject).goType.startsWith('*') ? 'ptr' : 'struct';
    case 'int':
    case 'uint':
    case 'float':
      return goTypeName(v);
    default:
      return k;
  }
}

/** The integer held by an int or uint kind value. */
export function intValue(v: GoValue): bigint {
  if (typeof v === 'bigint') return v;
  if (v instanceof GoNumber && typeof v.value === 'bigint') return v.value;
  throw new Error('not an integer');
}

/** The float held by a float kind value. */
export function floatValue(v: GoValue): number {
  if (typeof v === 'number') return v;
  if (v instanceof GoNumber && typeof v.value === 'number') return v.value;
  throw new Error('not a float');
}

/** The keys of a Go map in fmtsort's order (strings, by bytes). */
export function sortedKeys(m: Map<string, GoValue>): string[] {
  return [...m.keys()].sort(compareGoStrings);
}
