/**
 * Small helpers over plain JSON values (objects as parsed from YAML), in the shape of apimachinery's
 * `unstructured.NestedFieldNoCopy` / `SetNestedField`, which CAPI's patch engine uses to move fields around.
 */
export type JsonObject = Record<string, unknown>;

/** A field that cannot be set because a step of its path is not an object (apimachinery's message). */
export class NestedFieldError extends Error {}

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `NestedFieldNoCopy`: the value at `path` (null counts as present), or `found: false` when a step is missing. */
export function nestedField(obj: unknown, path: readonly string[]): { found: boolean; value: unknown } {
  let cur: unknown = obj;
  for (const key of path) {
    if (!isObject(cur) || !Object.hasOwn(cur, key)) return { found: false, value: undefined };
    cur = cur[key];
  }
  return { found: true, value: cur };
}

/** A string field, or undefined when absent or not a string. */
export function nestedString(obj: unknown, path: readonly string[]): string | undefined {
  const { value } = nestedField(obj, path);
  return typeof value === 'string' ? value : undefined;
}

/**
 * `SetNestedField`: sets a deep copy of `value` at `path`, creating missing objects on the way; a step that holds
 * something other than an object is an error, as in apimachinery.
 */
export function setNestedField(obj: JsonObject, value: unknown, path: readonly string[]): void {
  setNestedFieldNoCopy(obj, value, path, true);
}

/**
 * {@link setNestedField} without the deep copy, for a value nothing else holds (a subtree of a patched copy that is
 * dropped afterwards): the copy is most of the cost of moving a template's spec.
 */
export function setNestedFieldNoCopy(obj: JsonObject, value: unknown, path: readonly string[], copy = false): void {
  let cur = obj;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i] as string;
    const next = cur[key];
    if (next === undefined || next === null) {
      const created: JsonObject = {};
      setOwn(cur, key, created);
      cur = created;
    } else if (isObject(next)) {
      cur = next;
    } else {
      throw new NestedFieldError(`value cannot be set because ${formatGoValueOf(next)} is not a map[string]interface{}`);
    }
  }
  setOwn(cur, path[path.length - 1] as string, copy ? cloneJson(value) : value);
}

/** `RemoveNestedField`. */
export function removeNestedField(obj: JsonObject, path: readonly string[]): void {
  const parent = nestedField(obj, path.slice(0, -1));
  if (parent.found && isObject(parent.value)) delete parent.value[path[path.length - 1] as string];
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

function formatGoValueOf(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(formatGoValueOf).join(' ')}]`;
  if (v === null || v === undefined) return '<nil>';
  return String(v);
}
