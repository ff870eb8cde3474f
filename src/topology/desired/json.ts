import { isObject as isObj, objectOrEmpty as asObj } from '../../go/index.js';

/** Plain-JSON helpers for objects as parsed from YAML. */
export type Obj = Record<string, unknown>;

export { asObj, isObj };

/**
 * A deep copy by JSON's rules, what `JSON.parse(JSON.stringify(v))` gives, without building the text (the expansion
 * copies every template of every Cluster): keys whose value is undefined, a function or a symbol are left out, such
 * array elements and non-finite numbers become null, -0 becomes 0, and a value with `toJSON` (a Date) is copied
 * through its JSON form.
 */
export function cloneJson<T>(v: T): T {
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
  const src = v as Obj;
  const out: Obj = {};
  for (const k of Object.keys(src)) {
    const c = copyJson(src[k]);
    if (c === undefined) continue;
    // JSON.parse makes "__proto__" an own key; an assignment would set the prototype instead.
    if (k === '__proto__') Object.defineProperty(out, k, { value: c, enumerable: true, writable: true, configurable: true });
    else out[k] = c;
  }
  return out;
}

/** The group of an apiVersion (`''` for the core group). */
export function groupOf(apiVersion: string): string {
  const i = apiVersion.indexOf('/');
  return i < 0 ? '' : apiVersion.slice(0, i);
}

/** The version of an apiVersion. */
export function versionOf(apiVersion: string): string {
  const i = apiVersion.indexOf('/');
  return i < 0 ? apiVersion : apiVersion.slice(i + 1);
}

/** `util.MergeMap`: the first map wins on conflicts; nil when every input is empty. */
export function mergeMap(...maps: unknown[]): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  let any = false;
  for (let i = maps.length - 1; i >= 0; i--) {
    for (const [k, v] of Object.entries(asObj(maps[i]))) {
      out[k] = String(v);
      any = true;
    }
  }
  return any ? out : undefined;
}

/** Reads a nested field. */
export function getPath(o: unknown, path: readonly string[]): unknown {
  let cur: unknown = o;
  for (const k of path) {
    if (!isObj(cur)) return undefined;
    cur = cur[k];
  }
  return cur;
}

/** Sets a nested field, creating objects on the way. */
export function setPath(o: Obj, path: readonly string[], value: unknown): void {
  let cur = o;
  for (const k of path.slice(0, -1)) {
    if (!isObj(cur[k])) cur[k] = {};
    cur = cur[k] as Obj;
  }
  cur[path[path.length - 1] as string] = value;
}

/** Removes a nested field (no-op when absent). */
export function deletePath(o: Obj, path: readonly string[]): void {
  const parent = getPath(o, path.slice(0, -1));
  if (isObj(parent)) delete parent[path[path.length - 1] as string];
}
