/**
 * Between JSON and Go values the way encoding/json decodes into `interface{}`: numbers are float64, objects are
 * `map[string]interface {}`, arrays are `[]interface {}`.
 */
import { goTypeName, sortedKeys } from './types.js';
import { GoNumber, GoObject, isNilSlice, type GoValue } from './value.js';

/** JSON.parse output → the Go value encoding/json would produce in an `interface{}`. */
export function goValueFromJSON(value: unknown): GoValue {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'boolean':
    case 'string':
      return value;
    case 'number':
      return value;
    case 'bigint':
      return Number(value);
  }
  if (Array.isArray(value)) return value.map(goValueFromJSON);
  if (typeof value === 'object') {
    const m = new Map<string, GoValue>();
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) m.set(k, goValueFromJSON(v));
    return m;
  }
  throw new TypeError(`no Go value for JSON value of type ${typeof value}`);
}

/** A Go value → plain JSON data (what encoding/json would marshal), for the kinds JSON can hold. */
export function goValueToJSON(value: GoValue): unknown {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`json: unsupported value: ${value}`);
    return value;
  }
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof GoNumber) return Number(value.value);
  if (Array.isArray(value)) return isNilSlice(value) ? null : value.map(goValueToJSON);
  if (value instanceof Map) {
    // encoding/json writes map keys sorted.
    const out: Record<string, unknown> = {};
    for (const k of sortedKeys(value)) {
      // defineProperty: a key named __proto__ is data, not the object's prototype.
      Object.defineProperty(out, k, { value: goValueToJSON(value.get(k) ?? null), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  // Objects of the model (sprig's *semver.Version) marshal as the text they print.
  if (value instanceof GoObject) return value.format();
  throw new TypeError(`json: unsupported type: ${goTypeName(value)}`);
}
