/** Plain JSON values as Go's encoding/json gives them to `interface {}`: objects are maps, so any key is a key. */
export type JsonObject = Record<string, unknown>;

/**
 * A JSON object (a Go map): not null, not an array. The one guard for "is this a map" across capiform; it accepts
 * any non-array object (a Date or class instance too), which never occurs in values decoded from JSON or YAML.
 */
export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The value as a JSON object, or `undefined` when it is not one (a field read like Go's `m["k"].(map[string]any)`). */
export function asObject(v: unknown): JsonObject | undefined {
  return isObject(v) ? v : undefined;
}

/** The value as a JSON object, or a fresh empty object when it is not one (a missing map reads as empty). */
export function objectOrEmpty(v: unknown): JsonObject {
  return isObject(v) ? v : {};
}

/**
 * Sets an own property, also for `__proto__`, an ordinary name in Go maps. Only that key needs defineProperty
 * (on plain objects every other assignment makes or updates an own data property), which is many times slower.
 */
export function setOwn(obj: JsonObject, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

/** A deep copy of a JSON value (much faster than structuredClone for the small objects patches move around). */
export function cloneJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(cloneJson) as T;
  const out: JsonObject = {};
  for (const k of Object.keys(value)) {
    const v = cloneJson((value as JsonObject)[k]);
    if (k === '__proto__') setOwn(out, k, v);
    else out[k] = v;
  }
  return out as T;
}
