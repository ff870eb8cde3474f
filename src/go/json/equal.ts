/**
 * Equality of decoded JSON values (key order ignored, arrays in order). Three named variants, because callers
 * differ on the few values where "equal" is a choice: NaN against NaN (YAML's `.nan`) and the Date a YAML timestamp
 * may become. Each keeps the rule its caller has always had; for values JSON can spell (no NaN, no Date) all three
 * agree.
 */
import { isObject } from './value.js';

/**
 * `reflect.DeepEqual` of two `interface {}` values from encoding/json: scalars compare with Go's `==`, so
 * -0 equals 0 and NaN equals nothing (k8s.io/apimachinery's validation and defaulting use it, e.g.
 * apiextensions-apiserver's `uniqueItems` and `default` checks).
 */
export function goDeepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => goDeepEqual(x, b[i]));
  }
  if (isObject(a)) {
    if (!isObject(b)) return false;
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && goDeepEqual(a[k], b[k]));
  }
  return false;
}

/**
 * Equality where NaN equals NaN (scalars that are not `===` compare with `Object.is`; -0 and 0 are `===`), and any
 * two objects that are not arrays compare by their own keys (a Date has none). For "may the source text of this
 * value be kept" (src/yaml/splice.ts): a `.nan` that stayed `.nan` is unchanged.
 */
export function sameValueDeepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return Object.is(a, b);
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameValueDeepEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao);
  if (ak.length !== Object.keys(bo).length) return false;
  for (const k of ak) {
    if (!Object.prototype.hasOwnProperty.call(bo, k)) return false;
    if (!sameValueDeepEqual(ao[k], bo[k])) return false;
  }
  return true;
}

/**
 * Equality of values as a reader of a manifest sees them: -0 equals 0, NaN equals NaN (`.nan` did not change), and
 * Dates (YAML timestamps) compare by their text. For reporting what changed between two renders.
 */
export function readerDeepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') {
    return typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b);
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!readerDeepEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  if (a instanceof Date || b instanceof Date) return String(a) === String(b);
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const ka = Object.keys(ra);
  if (ka.length !== Object.keys(rb).length) return false;
  for (const k of ka) if (!Object.prototype.hasOwnProperty.call(rb, k) || !readerDeepEqual(ra[k], rb[k])) return false;
  return true;
}
