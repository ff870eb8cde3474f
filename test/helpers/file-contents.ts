/** The text of every file under a folder, by path relative to `root`: what a test compares to prove a state. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export function fileContents(root: string, opts: { dir?: string; skip?: (rel: string) => boolean } = {}, out: Record<string, string> = {}): Record<string, string> {
  for (const name of readdirSync(opts.dir ?? root)) {
    const p = join(opts.dir ?? root, name);
    const rel = relative(root, p);
    if (opts.skip?.(rel)) continue;
    if (statSync(p).isDirectory()) fileContents(root, { ...opts, dir: p }, out);
    else out[rel] = readFileSync(p, 'utf8');
  }
  return out;
}
