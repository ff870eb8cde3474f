/**
 * The one way capiform replaces a file: write a temporary sibling, then rename it over the target. A reader sees the
 * old bytes or the new ones, never a prefix; a crash leaves at most a stray temporary file, never a torn target.
 * The temporary name is derived from the pid and a per-process counter (no randomness: nothing here reaches output).
 * It is created exclusively, so two writers that share a pid (containers sharing a cache folder) never write into one
 * temporary file: the second moves on to the next name.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export interface AtomicWriteOptions {
  /** fsync the new bytes before the rename, so a power loss cannot leave an empty file under the final name. */
  durable?: boolean;
  /** File mode of the new file (default 0o666 less the umask); 0o600 for files that may hold anything private. */
  mode?: number;
  /**
   * The folder for the temporary file, instead of beside the target (the content cache keeps its temporaries out of
   * the blob folders). It must be on the target's file system, or the rename fails.
   */
  tempDir?: string;
  /** Create the target's missing folders (default true); false where a missing folder is the caller's error. */
  createFolders?: boolean;
}

let counter = 0;

/** The temporary sibling `writeFileAtomic` would use for `path` next (exposed for callers that stage several files). */
export function temporarySibling(path: string, tempDir: string = dirname(path)): string {
  counter += 1;
  return join(tempDir, `.${basename(path)}.tmp-${process.pid}-${counter}`);
}

/** Whether `name` (a file name in the target's folder) is a temporary sibling of a file named `target`. */
export function isTemporarySibling(name: string, target: string): boolean {
  return name.startsWith(`.${target}.tmp-`);
}

/**
 * The file a temporary sibling stands for (`/p/.capi.lock.yaml.tmp-12-3` → `/p/capi.lock.yaml`), or undefined for any
 * other path: an error about the temporary file is an error about writing its target, and names the target.
 */
export function temporaryTarget(path: string): string | undefined {
  const m = /^\.(.+)\.tmp-\d+-\d+$/.exec(basename(path));
  return m ? join(dirname(path), m[1]!) : undefined;
}

/** Creates a new temporary file for `path`, skipping names that exist (another writer's, or a crash's leftover). */
function openTemporary(path: string, opts: AtomicWriteOptions): { tmp: string; fd: number } {
  for (;;) {
    const tmp = temporarySibling(path, opts.tempDir);
    try {
      return { tmp, fd: openSync(tmp, 'wx', opts.mode ?? 0o666) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}

export function writeFileAtomic(path: string, data: string | Uint8Array, opts: AtomicWriteOptions = {}): void {
  if (opts.createFolders !== false) mkdirSync(dirname(path), { recursive: true });
  if (opts.tempDir !== undefined) mkdirSync(opts.tempDir, { recursive: true });
  const { tmp, fd } = openTemporary(path, opts);
  try {
    try {
      const bytes = typeof data === 'string' ? Buffer.from(data) : data;
      let off = 0;
      while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
      if (opts.durable) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}
