/**
 * Reading a file the project (or a local repository) holds, confined to it. A pull request can commit symbolic links,
 * and a link inside the project may point anywhere on the machine (a credentials file is JSON, and JSON is YAML):
 * so the real path, every link on the way resolved, must lie inside the real root, and only a regular file is read.
 * A FIFO or a device is refused before it is read, and opened without blocking so that it cannot stall the run
 * either. The one owner of "read a project file confined"; the lexical check of a configured path (`../x`) stays
 * where the path is validated, with its config path.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync, realpathSync, statSync, type Stats } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { InputError } from '../errors.js';
import { checkSize } from './input.js';

export interface ConfinedFileOptions {
  /** The folder the file must stay inside once links are resolved. */
  root: string;
  /** The root in messages: `the project`, `the local repository /abs/repo`. */
  rootName: string;
  /** What the file is, in messages: `the template of cluster team-a/dev-1`. */
  what: string;
  /** Where the error points: the config path (`clusters[0].template (…)`); default: the file. */
  where?: string;
  /** Largest size read, checked before reading. */
  maxBytes?: number;
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

function notRegular(file: string, st: Stats, opts: ConfinedFileOptions): InputError {
  return new InputError(`${opts.what} is ${kindOf(st)}, not a regular file: ${file}`, {
    where: opts.where ?? file,
    hint: 'point it at a regular file; capiform never reads pipes, devices or folders as input',
  }, 'E_NOT_A_FILE');
}

/**
 * The bytes of `file` (absolute, or relative to the working directory), refused with an InputError (exit 2) when
 * it leads out of `root` or is not a regular file. A missing file throws the system's ENOENT error, for the caller's
 * own message.
 */
export function readConfinedFile(file: string, opts: ConfinedFileOptions): Buffer {
  const real = checkConfinedFile(file, opts);
  // O_NONBLOCK: a FIFO swapped in after the check still cannot block the open; O_NOFOLLOW: nor can a new link.
  const fd = openSync(real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  try {
    const fst = fstatSync(fd);
    if (!fst.isFile()) throw notRegular(resolve(file), fst, opts);
    if (opts.maxBytes !== undefined) checkSize(fst.size, opts.maxBytes, opts.where ?? resolve(file), opts.what);
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Checks, without reading it, that `file` stays inside `root` once links are resolved and is a regular file (for a
 * reader with its own limits, such as readTextFile); returns its real path.
 */
export function checkConfinedFile(file: string, opts: ConfinedFileOptions): string {
  const abs = resolve(file);
  const root = realpathSync(resolve(opts.root));
  const real = realpathSync(abs);
  if (!inside(root, real)) {
    const lexical = inside(resolve(opts.root), abs);
    throw new InputError(
      lexical
        ? `${opts.what} leads out of ${opts.rootName} through a symbolic link: ${abs} is ${real}`
        : `${opts.what} lies outside ${opts.rootName}: ${abs}`,
      {
        where: opts.where ?? abs,
        hint: lexical
          ? `commit the file itself instead of a link to it; capiform only reads links that stay inside ${opts.rootName} (${root})`
          : `move the file into ${opts.rootName} (${root})`,
      },
      'E_PATH_OUTSIDE',
    );
  }
  const st = statSync(real);
  if (!st.isFile()) throw notRegular(abs, st, opts);
  return real;
}
