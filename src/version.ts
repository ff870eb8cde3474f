/**
 * Which capiform this is: its version (package.json, next to src/ or dist/) and, for the caches of rendered output,
 * a fingerprint of the code that renders.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sha256Incremental } from './cache/index.js';

let versionMemo: string | undefined;
let codeMemo: string | undefined;

/** package.json beside src/ or dist/, or two levels up from the bundled CLI (dist/cli-bundle/). */
function packageJsonText(): string {
  try {
    return readFileSync(new URL('../package.json', import.meta.url), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    return readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
  }
}

export function capiformVersion(): string {
  versionMemo ??= (JSON.parse(packageJsonText()) as { version: string }).version;
  return versionMemo;
}

/**
 * Digest of every module of this capiform (src/, dist/, or the bundled CLI's dist/cli-bundle/: the folder of this
 * module; declaration files do not run) and the YAML library's version.
 */
function walkedDigest(base: string): string {
  const h = sha256Incremental();
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
  return h.hex();
}

/**
 * `npm run build` records the digest next to the compiled code (reading and hashing ~2.7 MB of modules costs every
 * command ~20 ms). The stamp counts only when written after this module: a compile without the stamping step leaves
 * an older stamp behind, and the digest is computed afresh. (npm gives every file of a published package one mtime.)
 */
const stampFile = 'code-digest.json';

function stampedDigest(base: string): string | undefined {
  try {
    const stamp = join(base, stampFile);
    if (statSync(fileURLToPath(import.meta.url)).mtimeMs > statSync(stamp).mtimeMs) return undefined;
    const digest = (JSON.parse(readFileSync(stamp, 'utf8')) as { digest?: unknown }).digest;
    return typeof digest === 'string' && /^[0-9a-f]{64}$/.test(digest) ? digest : undefined;
  } catch {
    return undefined;
  }
}

function codeDigest(): string {
  if (codeMemo) return codeMemo;
  const base = dirname(fileURLToPath(import.meta.url));
  codeMemo = stampedDigest(base) ?? walkedDigest(base);
  return codeMemo;
}

/**
 * Writes the stamp `codeDigest` reads into `dir` (this module's folder unless given: the bundled CLI's folder has its
 * own), as the build's last step (scripts/stamp-code-digest.mjs). Returns the digest.
 */
export function stampCodeDigest(dir?: string): string {
  const base = dir ?? dirname(fileURLToPath(import.meta.url));
  const digest = walkedDigest(base);
  writeFileSync(join(base, stampFile), `${JSON.stringify({ digest })}\n`);
  return digest;
}

/**
 * What renders, as one cache key part: capiform's version and a digest of its code. The version counts on its own,
 * so a release whose output differs only through something the code digest cannot see still renders afresh.
 */
export function codeFingerprint(): string {
  return `${capiformVersion()}+${codeDigest()}`;
}
