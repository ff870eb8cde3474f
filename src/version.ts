/**
 * Which capiform this is: its version (package.json, next to src/ or dist/) and, for the caches of rendered output,
 * a fingerprint of the code that renders.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

let versionMemo: string | undefined;
let codeMemo: string | undefined;

export function capiformVersion(): string {
  versionMemo ??= (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  return versionMemo;
}

/** Digest of every module of this capiform (src/ or dist/; declaration files do not run) and the YAML library's version. */
function codeDigest(): string {
  if (codeMemo) return codeMemo;
  const h = createHash('sha256');
  const base = dirname(fileURLToPath(import.meta.url));
  const walk = (dir: string): void => {
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|js)$/.test(e.name) && !e.name.endsWith('.d.ts')) h.update(relative(base, p)).update('\0').update(readFileSync(p)).update('\0');
    }
  };
  walk(base);
  try {
    const req = createRequire(import.meta.url);
    h.update((req('yaml/package.json') as { version: string }).version);
  } catch {
    h.update('yaml?');
  }
  codeMemo = h.digest('hex');
  return codeMemo;
}

/**
 * What renders, as one cache key part: capiform's version and a digest of its code. The version counts on its own,
 * so a release whose output differs only through something the code digest cannot see still renders afresh.
 */
export function codeFingerprint(): string {
  return `${capiformVersion()}+${codeDigest()}`;
}
