/**
 * The one way capiform replaces a file: write a temporary sibling, then rename it over the target. A reader sees the
 * old bytes or the new ones, never a prefix; a crash leaves at most a stray temporary file, never a torn target.
 * The temporary name is derived from the pid and a per-process counter (no randomness: nothing here reaches output).
 */
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export interface AtomicWriteOptions {
  /** fsync the new bytes before the rename, so a power loss cannot leave an empty file under the final name. */
  durable?: boolean;
  /** File mode of the new file (default 0o666 less the umask); 0o600 for files that may hold anything private. */
  mode?: number;
}

let counter = 0;

/** The temporary sibling `writeFileAtomic` would use for `path` next (exposed for callers that stage several files). */
export function temporarySibling(path: string): string {
  counter += 1;
  return join(dirname(path), `.${basename(path)}.tmp-${process.pid}-${counter}`);
}

export function writeFileAtomic(path: string, data: string | Uint8Array, opts: AtomicWriteOptions = {}): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = temporarySibling(path);
  try {
    const fd = openSync(tmp, 'w', opts.mode ?? 0o666);
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
