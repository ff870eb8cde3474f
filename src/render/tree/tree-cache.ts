/**
 * Incremental rendering. For every directory of the tree, the machine-local tree cache remembers a digest of its
 * inputs (artifact digests, settings, variables, and a fingerprint of capiform's own code and YAML library) and a
 * digest of the files it produced. When a later run has the same inputs and the files on disk still have that
 * digest, the directory is taken from disk instead of being rendered again: a no-op render reads the tree but
 * renders nothing. The cache lives outside the tree (never committed), so a fresh clone simply renders everything.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync, type Stats } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TreeFile } from './write-tree.js';

export interface TreeCacheEntry {
  inputs: string;
  outputs: string;
  /** File names inside the directory. */
  files: string[];
  /** `size:mtimeMs` of each file when last verified (like git's index: unchanged stat = unchanged bytes). */
  stats?: string[];
  /** sha256 of each file, when its content is also kept in the cache (big directories: providers). */
  blobs?: string[];
  /** Anything the renderer needs to replay (omitted objects, ClusterClass references). */
  extra?: unknown;
}

/** `$CAPIFORM_CACHE_DIR`, else `$XDG_CACHE_HOME/capiform`, else `~/.cache/capiform`. */
export function cacheRoot(env: NodeJS.ProcessEnv): string {
  if (env.CAPIFORM_CACHE_DIR) return env.CAPIFORM_CACHE_DIR;
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'capiform');
  return join(env.HOME || homedir(), '.cache', 'capiform');
}

let fingerprintMemo: string | undefined;

/** Digest of the code that renders: every module of this capiform (src/ or dist/) and the YAML library's version. */
export function codeFingerprint(): string {
  if (fingerprintMemo) return fingerprintMemo;
  const h = createHash('sha256');
  const base = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(ts|js)$/.test(name)) h.update(relative(base, p)).update('\0').update(readFileSync(p)).update('\0');
    }
  };
  walk(base);
  try {
    const req = createRequire(import.meta.url);
    h.update((req('yaml/package.json') as { version: string }).version);
  } catch {
    h.update('yaml?');
  }
  fingerprintMemo = h.digest('hex');
  return fingerprintMemo;
}

export function digestOf(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex');
}

function outputsDigest(files: readonly { name: string; content: string | Buffer }[]): string {
  const h = createHash('sha256');
  for (const f of [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) h.update(f.name).update('\0').update(f.content).update('\0');
  return h.digest('hex');
}

export class TreeCache {
  private entries: Record<string, TreeCacheEntry> = {};
  private readonly next: Record<string, TreeCacheEntry> = {};
  private readonly file: string | undefined;
  private readonly blobDir: string | undefined;
  /** Paths whose on-disk bytes were verified equal to what this run produces. */
  readonly verified = new Set<string>();

  /**
   * `contents`: reused files carry their bytes (read from disk, or from the blob store), for callers that keep the
   * tree in memory instead of writing it (`capiform diff --render`).
   */
  constructor(
    private readonly root: string,
    env: NodeJS.ProcessEnv | undefined,
    private readonly opts: { contents?: boolean } = {},
  ) {
    if (!env || env.CAPIFORM_NO_TREE_CACHE === '1') return;
    this.file = join(cacheRoot(env), 'trees', `${createHash('sha256').update(root).digest('hex').slice(0, 32)}.json`);
    this.blobDir = join(cacheRoot(env), 'rendered');
    try {
      if (existsSync(this.file)) this.entries = (JSON.parse(readFileSync(this.file, 'utf8')) as { entries: Record<string, TreeCacheEntry> }).entries ?? {};
    } catch {
      this.entries = {};
    }
  }

  /**
   * The directory's files when its inputs are unchanged and its files are intact on disk (same size and mtime as
   * when verified, else the same digest); else null. Reused files are marked verified and carry no content: the
   * tree writer neither compares nor rewrites them.
   */
  reuse(dir: string, inputs: string): { files: TreeFile[]; extra: unknown } | null {
    const e = this.entries[dir];
    if (!this.file || !e || e.inputs !== inputs) return null;
    const stats: string[] = [];
    for (const name of e.files) {
      let st: Stats;
      try {
        st = statSync(join(this.root, dir, name));
      } catch {
        return this.fromBlobs(dir, e);
      }
      stats.push(`${st.size}:${st.mtimeMs}`);
    }
    const unchanged = e.stats !== undefined && e.stats.join('|') === stats.join('|');
    let read: { name: string; content: Buffer }[] | undefined;
    if (!unchanged || this.opts.contents) {
      read = [];
      for (const name of e.files) {
        try {
          read.push({ name, content: readFileSync(join(this.root, dir, name)) });
        } catch {
          return this.fromBlobs(dir, e);
        }
      }
      if (!unchanged && outputsDigest(read) !== e.outputs) return this.fromBlobs(dir, e);
    }
    this.next[dir] = { ...e, stats };
    const files = e.files.map((name, i) => ({ path: `${dir}/${name}`, content: this.opts.contents && read ? read[i]!.content.toString('utf8') : '' }));
    for (const f of files) this.verified.add(f.path);
    return { files, extra: e.extra };
  }

  /** The directory's files from the blob store (the tree lost or changed them); null when not kept or damaged. */
  private fromBlobs(dir: string, e: TreeCacheEntry): { files: TreeFile[]; extra: unknown } | null {
    if (!e.blobs || !this.blobDir) return null;
    const files: TreeFile[] = [];
    for (const [i, name] of e.files.entries()) {
      const sha = e.blobs[i]!;
      let bytes: Buffer;
      try {
        bytes = readFileSync(join(this.blobDir, sha.slice(0, 2), sha));
      } catch {
        return null;
      }
      if (createHash('sha256').update(bytes).digest('hex') !== sha) return null;
      files.push({ path: `${dir}/${name}`, content: bytes.toString('utf8') });
    }
    this.next[dir] = { ...e, stats: undefined };
    delete this.next[dir].stats;
    return { files, extra: e.extra };
  }

  /**
   * Remembers what `dir` was rendered to from `inputs`. With `keep`, the contents also go to the blob store, so a
   * deleted or damaged tree gets them back without rendering (used for provider directories, the expensive ones).
   */
  record(dir: string, inputs: string, files: readonly TreeFile[], extra?: unknown, keep = false): void {
    if (!this.file) return;
    const own = files.filter((f) => f.path.startsWith(`${dir}/`)).map((f) => ({ name: f.path.slice(dir.length + 1), content: f.content }));
    own.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const entry: TreeCacheEntry = { inputs, outputs: outputsDigest(own), files: own.map((f) => f.name), ...(extra === undefined ? {} : { extra }) };
    if (keep && this.blobDir) {
      try {
        entry.blobs = own.map((f) => {
          const sha = createHash('sha256').update(f.content).digest('hex');
          const p = join(this.blobDir!, sha.slice(0, 2), sha);
          if (!existsSync(p)) {
            mkdirSync(dirname(p), { recursive: true });
            const tmp = `${p}.${process.pid}.tmp`;
            writeFileSync(tmp, f.content);
            renameSync(tmp, p);
          }
          return sha;
        });
      } catch {
        delete entry.blobs;
      }
    }
    this.next[dir] = entry;
  }

  /** Writes the entries of this run (after the tree is written), with the files' current stat. */
  save(): void {
    if (!this.file) return;
    try {
      for (const [dir, e] of Object.entries(this.next)) {
        if (e.stats) continue;
        e.stats = e.files.map((name) => {
          const st = statSync(join(this.root, dir, name), { throwIfNoEntry: false });
          return st ? `${st.size}:${st.mtimeMs}` : 'missing';
        });
      }
      mkdirSync(dirname(this.file), { recursive: true });
      const tmp = `${this.file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify({ version: 1, root: this.root, entries: this.next }));
      renameSync(tmp, this.file);
    } catch {
      // The cache is an optimisation: a read-only or full cache directory must not fail the render.
    }
  }
}
