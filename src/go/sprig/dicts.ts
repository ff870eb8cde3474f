/**
 * sprig's dict functions (dict.go) on `map[string]interface {}`: Go maps are references, so set/unset/merge change
 * the map they are given, as in Go. merge and mergeOverwrite follow mergo v1.0.1's map rules.
 */
import { mapValueType, sliceElemType, sortedKeys, typedMap, typedSlice, type GoValue, goTypeName } from '../template/index.js';
import { strval } from './cast.js';
import { fn, goError, map, str, type FuncTable } from './func.js';
import { isEmpty } from './reflect.js';

const dictType = 'map[string]interface {}';

/** mergo's isEmptyValue for a map element (an interface, dereferenced). */
const emptyElement = (v: GoValue | undefined): boolean => v === undefined || isEmpty(v);

/** mergo.deepMerge for two `map[string]interface {}` values (Merge, or MergeWithOverwrite when overwrite is set). */
function mergeMaps(dst: Map<string, GoValue>, src: Map<string, GoValue>, overwrite: boolean, depth: number): void {
  if (depth > maxDepth) goError('capiform: merge: the maps nest deeper than 1000 levels (a map that contains itself?)');
  for (const [key, srcElement] of src) {
    const has = dst.has(key);
    const dstElement = dst.get(key);
    if (srcElement === null) {
      if (overwrite) dst.set(key, null);
      continue;
    }
    if (srcElement instanceof Map) {
      if (dstElement instanceof Map) mergeMaps(dstElement, srcElement, overwrite, depth + 1);
    } else if (Array.isArray(srcElement)) {
      let dstSlice: GoValue = !has || dstElement === undefined || dstElement === null ? [] : dstElement;
      if (overwrite || isEmpty(dst)) dstSlice = srcElement;
      dst.set(key, dstSlice);
    }
    if (has && !emptyElement(dstElement)) {
      if (Array.isArray(srcElement)) continue;
      if (srcElement instanceof Map && dstElement instanceof Map) continue;
    }
    if (overwrite || !has || emptyElement(dstElement)) dst.set(key, srcElement);
  }
}

/** copystructure.Copy: maps and slices are copied all the way down; other values are immutable here. */
export function deepCopy(v: GoValue, depth = 0): GoValue {
  if (depth > maxDepth) goError('deepCopy error: capiform: the value nests deeper than 1000 levels (a map that contains itself?)');
  if (Array.isArray(v)) return typedSlice(v.map((e) => deepCopy(e, depth + 1)), sliceElemType(v));
  if (v instanceof Map) {
    const out = new Map<string, GoValue>();
    for (const [k, e] of v) out.set(k, deepCopy(e, depth + 1));
    return typedMap(out, mapValueType(v));
  }
  return v;
}
const maxDepth = 1000;

/** The panic of a failed type assertion `x.(T)` on an interface value. */
function assertionPanic(v: GoValue, want: string): never {
  return goError(`interface conversion: interface {} is ${v === null ? 'nil' : goTypeName(v)}, not ${want}`);
}

function dig(ps: GoValue[]): GoValue {
  if (ps.length < 3) goError('dig needs at least three arguments');
  const last = ps[ps.length - 1] ?? null;
  if (!(last instanceof Map) || mapValueType(last) !== 'interface {}') assertionPanic(last, dictType);
  const def = ps[ps.length - 2] ?? null;
  const ks = ps.slice(0, -2).map((k) => (typeof k === 'string' ? k : assertionPanic(k, 'string')));
  let dict = last as Map<string, GoValue>;
  for (let i = 0; ; i++) {
    const k = ks[i] ?? '';
    if (!dict.has(k)) return def;
    const step = dict.get(k) ?? null;
    if (i === ks.length - 1) return step;
    if (!(step instanceof Map) || mapValueType(step) !== 'interface {}') assertionPanic(step, dictType);
    dict = step as Map<string, GoValue>;
  }
}

export function dictFuncs(): FuncTable {
  const merger = (name: string, overwrite: boolean, must: boolean) =>
    fn(
      name,
      [dictType, dictType],
      must ? ['interface {}', 'error'] : ['interface {}'],
      (a) => {
        let dst = map(a[0]);
        for (const src of a.slice(1)) {
          const s = map(src);
          if (s === null) continue;
          dst ??= new Map();
          mergeMaps(dst, s, overwrite, 0);
        }
        return dst ?? new Map();
      },
      true,
    );
  return {
    dict: fn(
      'dict',
      ['interface {}'],
      [dictType],
      (a) => {
        const d = new Map<string, GoValue>();
        for (let i = 0; i < a.length; i += 2) d.set(strval(a[i] ?? null), i + 1 >= a.length ? '' : (a[i + 1] ?? null));
        return d;
      },
      true,
    ),
    get: fn('get', [dictType, 'string'], ['interface {}'], (a) => {
      const d = map(a[0]);
      const k = str(a[1]);
      return d !== null && d.has(k) ? (d.get(k) ?? null) : '';
    }),
    set: fn('set', [dictType, 'string', 'interface {}'], [dictType], (a) => {
      const d = map(a[0]);
      if (d === null) return goError('assignment to entry in nil map');
      d.set(str(a[1]), a[2] ?? null);
      return d;
    }),
    unset: fn('unset', [dictType, 'string'], [dictType], (a) => {
      const d = map(a[0]);
      d?.delete(str(a[1]));
      return d ?? new Map();
    }),
    hasKey: fn('hasKey', [dictType, 'string'], ['bool'], (a) => map(a[0])?.has(str(a[1])) ?? false),
    pluck: fn(
      'pluck',
      ['string', dictType],
      ['[]interface {}'],
      (a) => {
        const k = str(a[0]);
        const out: GoValue[] = [];
        for (const d of a.slice(1)) {
          const m = map(d);
          if (m?.has(k)) out.push(m.get(k) ?? null);
        }
        return out;
      },
      true,
    ),
    // Go ranges over a map in random order; capiform lists keys sorted (see nondeterministicSprigFunctions).
    keys: fn(
      'keys',
      [dictType],
      ['[]string'],
      (a) => typedSlice(a.flatMap((d) => sortedKeys(map(d) ?? new Map())), 'string'),
      true,
    ),
    pick: fn(
      'pick',
      [dictType, 'string'],
      [dictType],
      (a) => {
        const d = map(a[0]) ?? new Map<string, GoValue>();
        const res = new Map<string, GoValue>();
        for (const k of a.slice(1).map(str)) if (d.has(k)) res.set(k, d.get(k) ?? null);
        return res;
      },
      true,
    ),
    omit: fn(
      'omit',
      [dictType, 'string'],
      [dictType],
      (a) => {
        const d = map(a[0]) ?? new Map<string, GoValue>();
        const omit = new Set(a.slice(1).map(str));
        const res = new Map<string, GoValue>();
        for (const [k, v] of d) if (!omit.has(k)) res.set(k, v);
        return res;
      },
      true,
    ),
    merge: merger('merge', false, false),
    mustMerge: merger('mustMerge', false, true),
    mergeOverwrite: merger('mergeOverwrite', true, false),
    mustMergeOverwrite: merger('mustMergeOverwrite', true, true),
    values: fn('values', [dictType], ['[]interface {}'], (a) => {
      const d = map(a[0]) ?? new Map<string, GoValue>();
      return sortedKeys(d).map((k) => d.get(k) ?? null);
    }),
    deepCopy: fn('deepCopy', ['interface {}'], ['interface {}'], (a) => deepCopy(a[0] ?? null)),
    mustDeepCopy: fn('mustDeepCopy', ['interface {}'], ['interface {}', 'error'], (a) => deepCopy(a[0] ?? null)),
    dig: fn('dig', ['interface {}'], ['interface {}', 'error'], dig, true),
  };
}
