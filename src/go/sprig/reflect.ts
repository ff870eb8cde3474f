/** reflect.DeepEqual and sprig's `empty` over the Go value model. */
import { GoNumber, GoObject, mapValueType, sliceElemType, type GoValue, goTypeName } from '../template/index.js';


/** A GoObject whose Go type compares by value (its fields) rather than by identity. */
export interface ValueEquality {
  equalTo(other: GoObject): boolean;
}
function hasValueEquality(v: GoObject): v is GoObject & ValueEquality {
  return typeof (v as Partial<ValueEquality>).equalTo === 'function';
}

/** reflect.DeepEqual */
export function deepEqual(x: GoValue, y: GoValue, depth = 0): boolean {
  if (x === null || y === null) return x === y;
  // reflect.DeepEqual treats a pair it is already comparing as equal; identical references cover the cyclic case.
  if (x === y && typeof x === 'object' && !(x instanceof GoNumber)) return true;
  if (depth > 1000) return false;
  if (goTypeName(x) !== goTypeName(y)) return false;
  if (typeof x === 'number') return x === y;
  if (typeof x !== 'object') return x === y;
  if (x instanceof GoNumber) return y instanceof GoNumber && x.value === y.value;
  if (Array.isArray(x)) {
    if (!Array.isArray(y) || x.length !== y.length || sliceElemType(x) !== sliceElemType(y)) return false;
    return x.every((e, i) => deepEqual(e, y[i] ?? null, depth + 1));
  }
  if (x instanceof Map) {
    if (!(y instanceof Map) || x.size !== y.size || mapValueType(x) !== mapValueType(y)) return false;
    for (const [k, v] of x) {
      if (!y.has(k) || !deepEqual(v, y.get(k) ?? null, depth + 1)) return false;
    }
    return true;
  }
  if (x instanceof GoObject && y instanceof GoObject) {
    return x === y || (hasValueEquality(x) && x.equalTo(y));
  }
  return false;
}

/** sprig's empty: nil, zero numbers, false, and empty strings, slices and maps. */
export function isEmpty(v: GoValue | undefined): boolean {
  if (v === undefined || v === null) return true;
  switch (typeof v) {
    case 'string':
      return v.length === 0;
    case 'boolean':
      return !v;
    case 'number':
      return v === 0;
    case 'bigint':
      return v === 0n;
  }
  if (v instanceof GoNumber) return Number(v.value) === 0;
  if (Array.isArray(v)) return v.length === 0;
  if (v instanceof Map) return v.size === 0;
  return false;
}
