/**
 * Where each management cluster's folders lie in a rendered tree: the single form at the top (`providers/`,
 * `clusters/`, …), a fleet under `targets/<name>/`. Bundles and image lists read a fleet's tree per management cluster.
 */
import { compareGoStrings } from '../go/index.js';

/** The management cluster folder a fleet's tree path lies in (`targets/<name>/`), or `''` in the single form. */
export function targetRoot(path: string): string {
  return /^targets\/[^/]+\//.exec(path)?.[0] ?? '';
}

export interface ManagementRoot {
  /** The fleet's management cluster (undefined: the single form). */
  readonly target: string | undefined;
  /** The prefix of its folders: `targets/<name>/`, or `''`. */
  readonly prefix: string;
}

/**
 * The management clusters a tree holds, sorted by name: a fleet's `targets/<name>/` (files beside them, such as the
 * fleet's Argo CD root, belong to none), or the single form's top.
 */
export function managementRoots(paths: Iterable<string>): ManagementRoot[] {
  const targets = new Set<string>();
  for (const p of paths) {
    const root = targetRoot(p);
    if (root !== '') targets.add(root.slice('targets/'.length, -1));
  }
  if (targets.size === 0) return [{ target: undefined, prefix: '' }];
  return [...targets].sort(compareGoStrings).map((t) => ({ target: t, prefix: `targets/${t}/` }));
}
