import { cloneAsJsonText as cloneJson, isObject as isObj, objectOrEmpty as asObj } from '../../go/index.js';

/** Plain-JSON helpers for objects as parsed from YAML. */
export type Obj = Record<string, unknown>;

export { asObj, cloneJson, isObj };

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
