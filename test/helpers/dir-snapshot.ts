/** Every path under a folder with its content digest (or `dir`/`link → target`), to prove a failed command changed nothing. */
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join, relative } from 'node:path';

export function snapshotDir(root: string, dir = root, out: Record<string, string> = {}): Record<string, string> {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    const rel = relative(root, path);
    const st = lstatSync(path);
    if (st.isSymbolicLink()) out[rel] = `link → ${readlinkSync(path)}`;
    else if (st.isDirectory()) {
      out[rel] = `dir ${(st.mode & 0o777).toString(8)}`;
      snapshotDir(root, path, out);
    } else if (!st.isFile()) out[rel] = st.isFIFO() ? 'fifo' : 'special'; // never read: a FIFO would block
    else out[rel] = createHash('sha256').update(readFileSync(path)).digest('hex');
  }
  return out;
}
