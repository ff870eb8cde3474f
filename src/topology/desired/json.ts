import { cloneAsJsonText as cloneJson, deletePath, getPath, isObject as isObj, objectOrEmpty as asObj, setPath } from '../../go/index.js';

/** Plain-JSON helpers for objects as parsed from YAML. */
export type Obj = Record<string, unknown>;

export { asObj, cloneJson, deletePath, getPath, isObj, setPath };

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
