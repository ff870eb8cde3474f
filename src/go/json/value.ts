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

/**
 * A deep copy by JSON's rules, what `JSON.parse(JSON.stringify(v))` gives, without building the text (the expansion
 * copies every template of every Cluster): keys whose value is undefined, a function or a symbol are left out, such
 * array elements and non-finite numbers become null, -0 becomes 0, and a value with `toJSON` (a Date) is copied
 * through its JSON form. Not {@link cloneJson}, which keeps such values as they are: the topology expansion has
 * always copied by JSON's rules (a YAML timestamp's Date becomes its text, `.nan` becomes null), and its output must
 * not change.
 */
export function cloneAsJsonText<T>(v: T): T {
  return v === undefined ? v : (copyJson(v) as T);
}

function copyJson(v: unknown): unknown {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return v;
    case 'number':
      return Number.isFinite(v) ? (v === 0 ? 0 : v) : null;
    case 'object':
      break;
    case 'bigint':
      return JSON.parse(JSON.stringify(v)) as unknown; // throws JSON's TypeError
    default:
      return undefined;
  }
  if (v === null) return null;
  if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return JSON.parse(JSON.stringify(v)) as unknown;
  if (Array.isArray(v)) {
    const out = new Array<unknown>(v.length);
    for (let i = 0; i < v.length; i++) out[i] = copyJson(v[i]) ?? null;
    return out;
  }
  const src = v as JsonObject;
  const out: JsonObject = {};
  for (const k of Object.keys(src)) {
    const c = copyJson(src[k]);
    if (c === undefined) continue;
    // JSON.parse makes "__proto__" an own key; an assignment would set the prototype instead.
    setOwn(out, k, c);
  }
  return out;
}
