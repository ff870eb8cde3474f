/**
 * Field paths in decoded JSON objects, in two named flavours: apimachinery's `unstructured` helpers
 * (k8s.io/apimachinery/pkg/apis/meta/v1/unstructured/helpers.go `NestedFieldNoCopy`, `SetNestedField`,
 * `RemoveNestedField`), which CAPI's patch engine uses to move fields around, and the lenient ones below them.
 */
import { cloneJson, isObject, setOwn, type JsonObject } from './value.js';

/** A field that cannot be set because a step of its path is not an object (apimachinery's message). */
export class NestedFieldError extends Error {}

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

function formatGoValueOf(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(formatGoValueOf).join(' ')}]`;
  if (v === null || v === undefined) return '<nil>';
  return String(v);
}

/**
 * The lenient path helpers the topology expansion builds objects with: a missing or non-object step reads as
 * absent and is replaced by a new object when setting. Unlike apimachinery's {@link nestedField} and
 * {@link setNestedField} above, which the patch engine needs: those count only own keys, copy the value, and refuse
 * to step through a scalar with apimachinery's error.
 */

/** Reads a nested field. */
export function getPath(o: unknown, path: readonly string[]): unknown {
  let cur: unknown = o;
  for (const k of path) {
    if (!isObject(cur)) return undefined;
    cur = cur[k];
  }
  return cur;
}

/** Sets a nested field, creating objects on the way. */
export function setPath(o: JsonObject, path: readonly string[], value: unknown): void {
  let cur = o;
  for (const k of path.slice(0, -1)) {
    if (!isObject(cur[k])) cur[k] = {};
    cur = cur[k] as JsonObject;
  }
  cur[path[path.length - 1] as string] = value;
}

/** Removes a nested field (no-op when absent). */
export function deletePath(o: JsonObject, path: readonly string[]): void {
  const parent = getPath(o, path.slice(0, -1));
  if (isObject(parent)) delete parent[path[path.length - 1] as string];
}
