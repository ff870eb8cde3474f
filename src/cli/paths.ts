/**
 * Paths the user names on the command line that must be a certain kind of thing: a folder to read (`--repository`,
 * `--tree`, `--root`), or a file to write whose folder exists or can be made (`--out`, `--write-to`). Checked before
 * any work, so a wrong path is an error naming the flag and the path (exit 2), never a stack trace or, worse, a run
 * that quietly reads nothing and exits 0.
 */
import { statSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../errors.js';

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

/** `path` (resolved against `cwd`) must be an existing folder. */
export function requireFolder(cwd: string, path: string, flag: string, hint: string): string {
  const abs = resolve(cwd, path);
  const st = statOrNull(abs);
  if (st === null) throw new UsageError(`${flag} ${path} does not exist`, { where: abs, hint });
  if (!st.isDirectory()) throw new UsageError(`${flag} ${path} is a file, not a folder`, { where: abs, hint });
  return abs;
}

/**
 * `path` (resolved against `cwd`) must be somewhere a file can be written: not a folder itself, and no file where one
 * of its folders should be. Folders that do not exist yet are fine (they are created).
 */
export function requireWritableFile(cwd: string, path: string, flag: string): string {
  const abs = resolve(cwd, path);
  const st = statOrNull(abs);
  if (st?.isDirectory()) throw new UsageError(`${flag} ${path} is a folder, not a file`, { where: abs, hint: `${flag} takes the path of a file: give a file inside that folder, or move the folder away` });
  for (let dir = dirname(abs); ; dir = dirname(dir)) {
    const d = statOrNull(dir);
    if (d !== null) {
      if (!d.isDirectory()) {
        throw new UsageError(`${flag} ${path}: ${dir} is a file, not a folder`, { where: dir, hint: `move that file away, or give ${flag} a path in another folder` });
      }
      break;
    }
    if (dirname(dir) === dir) break;
  }
  return abs;
}
