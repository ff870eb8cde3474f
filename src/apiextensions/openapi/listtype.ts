/**
 * `x-kubernetes-list-type: set` and `map` uniqueness (apiextensions `schema/listtype`): a set may not hold the same
 * element twice, a map list not two entries with the same keys. Reported as `Duplicate value` at the second entry.
 */
import { FieldPath, fieldDuplicate, fieldInvalid, goJsonMarshal, type FieldError } from '../field/index.js';
import type { JSONSchemaProps } from '../schema/index.js';
import { isObject } from './json.js';

const unspecified = Symbol('unspecified key');

/** The indices of first repeated appearances (Go's `validateListSet`). */
function nonUnique(items: unknown[]): number[] {
  if (items.length <= 1) return [];
  const seen = new Map<string, number>();
  const out: number[] = [];
  items.forEach((x, i) => {
    const key = x === unspecified ? 'u:' : Array.isArray(x) || isObject(x) ? `c:${goJsonMarshal(x)}` : `s:${typeof x}:${String(x)}`;
    const times = seen.get(key) ?? 0;
    if (times === 1) out.push(i);
    seen.set(key, times + 1);
  });
  return out;
}

function listMap(path: FieldPath, s: JSONSchemaProps, items: unknown[]): FieldError[] {
  for (let i = 0; i < items.length; i++) {
    const x = items[i];
    if (x !== null && !isObject(x)) return [fieldInvalid(path.index(i), x, 'must be an object for an array of list-type map')];
  }
  if (items.length <= 1) return [];
  const keyFields = s['x-kubernetes-list-map-keys'] ?? [];
  if (keyFields.length === 1) {
    const field = keyFields[0] as string;
    const keys = items.map((x) => (isObject(x) && Object.prototype.hasOwnProperty.call(x, field) ? x[field] : unspecified));
    return nonUnique(keys).map((i) => fieldDuplicate(path.index(i), keys[i] === unspecified ? {} : { [field]: keys[i] }));
  }
  const keys = items.map((x) => {
    const key: Record<string, unknown> = {};
    if (isObject(x)) for (const f of keyFields) if (Object.prototype.hasOwnProperty.call(x, f)) key[f] = x[f];
    return key;
  });
  return nonUnique(keys).map((i) => fieldDuplicate(path.index(i), keys[i]));
}

function walk(path: FieldPath, s: JSONSchemaProps, value: unknown): FieldError[] {
  if (Array.isArray(value)) {
    const errs: FieldError[] = [];
    const type = s['x-kubernetes-list-type'];
    if (type === 'set') errs.push(...nonUnique(value).map((i) => fieldDuplicate(path.index(i), value[i])));
    else if (type === 'map') errs.push(...listMap(path, s, value));
    if (isObject(s.items)) value.forEach((x, i) => errs.push(...walk(path.index(i), s.items as JSONSchemaProps, x)));
    return errs;
  }
  if (isObject(value)) return validateListSetsAndMaps(path, s, value);
  return [];
}

/** `ValidateListSetsAndMaps(fldPath, schema, obj)`. */
export function validateListSetsAndMaps(path: FieldPath, s: JSONSchemaProps, obj: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = [];
  const keys = Object.keys(obj).sort();
  if (isObject(s.additionalProperties)) {
    for (const k of keys) errs.push(...walk(path.key(k), s.additionalProperties as JSONSchemaProps, obj[k]));
  }
  if (s.properties) {
    for (const k of keys) {
      const sub = s.properties[k];
      if (sub) errs.push(...walk(path.child(k), sub, obj[k]));
    }
  }
  return errs;
}
