/**
 * The tree and the lock live beside the user's own files, so before anything is written their paths are checked for
 * the wrong kind of thing: a regular file named `providers` (which the writer would otherwise swap out for the
 * rendered folder, losing it), a file where a folder of a rendered path should be, a folder named capi.lock.yaml.
 * Every such path is reported at once (exit 2); nothing has been written yet.
 */
import { statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { compareGoStrings } from '../../go/index.js';
import { InputError } from '../../errors.js';
import { fileKindOf } from '../../yaml/index.js';
import { lstatOrNull, stateDir } from './tree-writer.js';

/** The lock, when it exists, must be a regular file (or a link to one). */
export function checkLockPath(path: string): void {
  let st: Stats | null;
  try {
    st = statSync(path);
  } catch {
    st = lstatOrNull(path);
  }
  if (st === null || st.isFile()) return;
  throw new InputError(`${path} is ${fileKindOf(st)}, where capiform keeps the lock file`, {
    where: path,
    hint: 'move it away; `capiform lock` (or `render`) then writes the lock there',
  }, 'E_TREE_PATH');
}

/**
 * Every folder on the way to each rendered file (`providers`, `providers/cluster-api`, …), and the state folder,
 * must be a real folder or not exist yet, and each file must not be a folder.
 */
export function checkTreePaths(root: string, paths: readonly string[]): void {
  const problems = new Map<string, string>();
  const checked = new Set<string>();
  const folder = (rel: string): boolean => {
    if (checked.has(rel)) return !problems.has(rel);
    checked.add(rel);
    const st = lstatOrNull(join(root, rel));
    if (st === null || st.isDirectory()) return st !== null;
    problems.set(rel, `${rel} is ${fileKindOf(st)}, where capiform writes the folder ${rel}/`);
    return false;
  };
  folder(stateDir);
  for (const p of paths) {
    const segs = p.split('/');
    let exists = true;
    for (let i = 1; i < segs.length && exists; i++) exists = folder(segs.slice(0, i).join('/'));
    if (!exists) continue;
    const st = lstatOrNull(join(root, p));
    if (st !== null && !st.isFile()) problems.set(p, `${p} is ${fileKindOf(st)}, where capiform writes a file`);
  }
  if (problems.size === 0) return;
  const sorted = [...problems].sort(([a], [b]) => compareGoStrings(a, b));
  const list = sorted.map(([, message]) => message);
  const first = sorted[0]![0];
  throw new InputError(
    list.length === 1 ? `cannot write the tree: ${list[0]}` : `cannot write the tree (${list.length} paths are in the way):\n${list.map((l) => `  ${l}`).join('\n')}`,
    {
      where: join(root, first),
      hint: 'move or rename your own files there; capiform owns providers/, clusterclasses/, clusters/ and argocd/ beside the config and writes them as folders',
    },
    'E_TREE_PATH',
  );
}
