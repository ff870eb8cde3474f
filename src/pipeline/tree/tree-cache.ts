/**
 * Incremental rendering: the pipeline is the only memoizer of the tree. For every directory of the tree, the
 * machine-local tree cache remembers what it was rendered to: the key of its inputs record (./dir-key.ts: everything
 * the directory's files are a function of, with capiform's version and code) and a digest of the files produced. The
 * render builds each record afresh on every run from the current config, lock and artifacts (render's
 * tree/dir-inputs.ts) and asks this cache through the TreeMemo it is handed; only a directory whose key is the
 * same as a recorded one and whose files on disk still hold the recorded bytes is taken from disk instead of being
 * rendered again. So a stale entry can cost a render but never stand in for one.
 * The cache lives outside the tree (never committed), so a fresh clone simply renders everything.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { defaultCacheDir, sha256Hex, sha256Incremental, writeFileAtomic } from '../../cache/index.js';
import type { DirInputs, TreeFile, TreeMemo } from '../../render/index.js';
import { dirInputsKey } from './dir-key.js';

/** Bump when the entry format or the meaning of a field changes: older files are then ignored. */
const formatVersion = 2;
/** Input variants remembered per directory, so switching between a few branches reuses each one's renders. */
const variantsPerDir = 4;

export interface TreeCacheEntry {
  inputs: string;
  outputs: string;
  /** File names inside the directory. */
  files: string[];
  /**
   * Identity of each file when last verified (`ino:size:mtimeNs:ctimeNs`, like git's index). Any write, rename or
   * `touch` changes the ctime, which no user tool can set back, so an unchanged identity means unchanged bytes.
   */
  stats?: string[];
  /** sha256 of each file, when its content is also kept in the cache (big directories: providers). */
  blobs?: string[];
  /** Anything the renderer needs to replay (omitted objects, ClusterClass references). */
  extra?: unknown;
}

function outputsDigest(files: readonly { name: string; content: string | Buffer }[]): string {
  const h = sha256Incremental();
  for (const f of [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) h.update(f.name).update('\0').update(f.content).update('\0');
  return h.hex();
}

function identity(path: string): string | undefined {
  const st = statSync(path, { bigint: true, throwIfNoEntry: false });
  return st?.isFile() ? `${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}` : undefined;
}

export interface TreeCacheOptions {
  /**
   * Reused files carry their bytes (read from disk, or from the blob store), for callers that keep the tree in memory
   * instead of writing it (`capiform diff --render`).
   */
  contents?: boolean;
  /** Compare the bytes on disk with the recorded digest even when the files' identity is unchanged (`--check`). */
  readBytes?: boolean;
}

export class TreeCache implements TreeMemo {
  private entries: Record<string, TreeCacheEntry[]> = {};
  private readonly next: Record<string, TreeCacheEntry> = {};
  private readonly file: string | undefined;
  private readonly blobDir: string | undefined;
  /** Paths whose on-disk bytes were verified equal to what this run produces. */
  readonly verified = new Set<string>();

  constructor(
    private readonly root: string,
    env: NodeJS.ProcessEnv | undefined,
    private readonly opts: TreeCacheOptions = {},
  ) {
    if (!env || env.CAPIFORM_NO_TREE_CACHE === '1') return;
    const dir = defaultCacheDir(env);
    this.file = join(dir, 'trees', `${sha256Hex(root).slice(0, 32)}.json`);
    this.blobDir = join(dir, 'rendered');
    try {
      if (existsSync(this.file)) {
        const saved = JSON.parse(readFileSync(this.file, 'utf8')) as { version?: unknown; entries?: Record<string, TreeCacheEntry[]> };
        if (saved.version === formatVersion && saved.entries) this.entries = saved.entries;
      }
    } catch {
      this.entries = {};
    }
  }

  key(inputs: DirInputs): string {
    return dirInputsKey(inputs);
  }

  /** A tree file's text as it is on disk (a reused file carries no content when the tree holds its bytes). */
  read(path: string): string {
    return readFileSync(join(this.root, path), 'utf8');
  }

  /**
   * The directory's files when `inputs` is one it was rendered from and its files are intact on disk (the same
   * identity as when verified, else the same digest); else null. Reused files are marked verified and carry no
   * content: the tree writer neither compares nor rewrites them.
   */
  reuse(dir: string, inputs: string): { files: TreeFile[]; extra: unknown } | null {
    const e = this.file ? this.entries[dir]?.find((x) => x.inputs === inputs) : undefined;
    if (!e) return null;
    const stats: string[] = [];
    for (const name of e.files) {
      const id = identity(join(this.root, dir, name));
      if (id === undefined) return this.fromBlobs(dir, e);
      stats.push(id);
    }
    const unchanged = !this.opts.readBytes && e.stats !== undefined && e.stats.join('|') === stats.join('|');
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
      if (sha256Hex(bytes) !== sha) return null;
      files.push({ path: `${dir}/${name}`, content: bytes.toString('utf8') });
    }
    if (outputsDigest(files.map((f, i) => ({ name: e.files[i]!, content: f.content }))) !== e.outputs) return null;
    const restored: TreeCacheEntry = { ...e };
    delete restored.stats;
    this.next[dir] = restored;
    return { files, extra: e.extra };
  }

  /**
   * Remembers what `dir` was rendered to from `inputs`. With `keep`, the contents also go to the blob store, so a
   * deleted or damaged tree gets them back without rendering (used for provider directories, the expensive ones).
   * Contents are the tree's own text: credentials in it are markers, never values (see config/secrets.ts).
   */
  record(dir: string, inputs: string, files: readonly TreeFile[], extra?: unknown, keep = false): void {
    if (!this.file) return;
    const own = files.filter((f) => f.path.startsWith(`${dir}/`)).map((f) => ({ name: f.path.slice(dir.length + 1), content: f.content }));
    own.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const entry: TreeCacheEntry = { inputs, outputs: outputsDigest(own), files: own.map((f) => f.name), ...(extra === undefined ? {} : { extra }) };
    if (keep && this.blobDir) {
      try {
        entry.blobs = own.map((f) => {
          const sha = sha256Hex(f.content);
          const p = join(this.blobDir!, sha.slice(0, 2), sha);
          if (!existsSync(p)) writeFileAtomic(p, f.content);
          return sha;
        });
      } catch {
        delete entry.blobs;
      }
    }
    this.next[dir] = entry;
  }

  /**
   * Records nothing for `dir` in this run: its files were changed after rendering by something its inputs digest does
   * not cover (what other directories hold), so it is rendered again next time.
   */
  forget(dir: string): void {
    delete this.next[dir];
  }

  /**
   * After a check (`render --check`), which writes no tree: remembers the directories whose files on disk hold exactly
   * what this run rendered, so the next check or render reuses them instead of rendering again. A directory with a
   * file in `differing` (tree paths) records nothing, and every directory keeps its earlier entries.
   */
  saveChecked(differing: ReadonlySet<string>): void {
    for (const [dir, e] of Object.entries(this.next)) {
      if (e.files.some((name) => differing.has(`${dir}/${name}`))) delete this.next[dir];
    }
    this.save((dir) => dir in this.next);
  }

  /**
   * Writes the entries of this run (after the tree is written), with the files' current identity, each in front of
   * the directory's other recorded variants. `written`: the directories this run wrote (default: all).
   */
  save(written: (dir: string) => boolean = () => true): void {
    if (!this.file) return;
    try {
      const out: Record<string, TreeCacheEntry[]> = {};
      // A partial write (one shard) keeps the entries of the directories it did not write, and records none for
      // them: what it rendered there is not what is on disk.
      for (const [dir, entries] of Object.entries(this.entries)) if (!written(dir)) out[dir] = entries;
      for (const [dir, e] of Object.entries(this.next)) {
        if (!written(dir)) continue;
        if (!e.stats) {
          e.stats = e.files.map((name) => identity(join(this.root, dir, name)) ?? 'missing');
        }
        const others = (this.entries[dir] ?? []).filter((x) => x.inputs !== e.inputs);
        out[dir] = [e, ...others].slice(0, variantsPerDir);
      }
      writeFileAtomic(this.file, JSON.stringify({ version: formatVersion, root: this.root, entries: out }));
    } catch {
      // The cache is an optimisation: a read-only or full cache directory must not fail the render.
    }
  }
}
