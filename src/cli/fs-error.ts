/**
 * The safety net for file-system errors no command turned into a message of its own: a read-only tree, a full disk,
 * a folder where a file should be. They are about the user's machine, not a bug, so they print as an error naming
 * the path (exit 2) instead of an internal error with a stack.
 */
import { temporaryTarget } from '../cache/index.js';
import { InputError, type CapiformError } from '../errors.js';

const kinds: Record<string, (path: string, verb: string) => { message: string; hint: string }> = {
  EACCES: (p, v) => ({ message: `cannot ${v} ${p}: permission denied`, hint: `make ${p} ${v === 'read' ? 'readable' : 'writable'} for this user, or run from a folder you own` }),
  EPERM: (p, v) => ({ message: `cannot ${v} ${p}: operation not permitted`, hint: `check the permissions and attributes of ${p}` }),
  EROFS: (p, v) => ({ message: `cannot ${v} ${p}: the file system is read-only`, hint: 'run where the tree, lock and cache are writable (or use `render --check`, which writes nothing)' }),
  ENOSPC: (p, v) => ({ message: `cannot ${v} ${p}: no space left on the device`, hint: 'free some space and run the command again' }),
  EDQUOT: (p, v) => ({ message: `cannot ${v} ${p}: disk quota exceeded`, hint: 'free some space and run the command again' }),
  EISDIR: (p) => ({ message: `${p} is a folder, where a file is expected`, hint: `move the folder ${p} away (capiform reads or writes a file there)` }),
  ENOTDIR: (p) => ({ message: `a part of ${p} is a file, where a folder is expected`, hint: 'move that file away (capiform reads or writes a folder there)' }),
  ELOOP: (p) => ({ message: `${p}: too many levels of symbolic links`, hint: 'fix the symbolic link loop' }),
  // mkdir of a folder where a file (or anything that is not a folder) already is.
  EEXIST: (p) => ({ message: `${p} exists and is not a folder, where a folder is expected`, hint: `move ${p} away, or give a folder` }),
  ENAMETOOLONG: (p) => ({ message: `${p}: the file name is too long`, hint: 'use a shorter path' }),
};

/** What a syscall was doing, for the message. */
function verbOf(syscall: string | undefined): string {
  return syscall === 'read' || syscall === 'scandir' || syscall === 'stat' || syscall === 'lstat' ? 'read' : 'write';
}

/** The user error for a Node file-system error with a path, or undefined for anything else. */
export function fsUserError(err: unknown): CapiformError | undefined {
  if (!(err instanceof Error)) return undefined;
  const e = err as NodeJS.ErrnoException;
  const kind = e.code ? kinds[e.code] : undefined;
  if (!kind || typeof e.path !== 'string') return undefined;
  if (e.code === 'EEXIST' && e.syscall !== 'mkdir') return undefined;
  // The temporary sibling of an atomic write is an implementation detail: the user's file is the one not written.
  const path = temporaryTarget(e.path) ?? e.path;
  const { message, hint } = kind(path, verbOf(e.syscall));
  return new InputError(message, { where: path, hint, cause: err }, 'E_FILESYSTEM');
}
