/** What makes an archive entry name safe to write and to extract: shared by the bundle writer and reader. */
import { InputError } from '../errors.js';

/** Throws InputError when `path` is not a clean relative archive path. */
export function checkEntryPath(path: string): void {
  const problem = pathProblem(path);
  if (problem) throw new InputError(problem, { where: path });
}

export function pathProblem(path: string): string | null {
  if (path === '') return 'an entry has an empty name';
  if (path.includes('\0')) return `entry "${printable(path)}" has a NUL byte in its name`;
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path) || path.startsWith('\\')) return `entry "${printable(path)}" has an absolute path`;
  const segs = path.replace(/\/+$/, '').split('/');
  if (segs.some((s) => s === '..')) return `entry "${printable(path)}" leaves the target directory ("..")`;
  if (path.includes('\\')) return `entry "${printable(path)}" has a backslash in its name`;
  if (segs.some((s) => s === '' || s === '.')) return `entry "${printable(path)}" has an empty or "." path segment`;
  return null;
}

export function printable(s: string): string {
  return JSON.stringify(s).slice(1, -1);
}

