/**
 * Thin IO adapters for bundles and image lists: find the config, read the lock and the rendered tree from disk, read
 * locked release files (local repository or the content-addressed cache), write the archive atomically.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve as resolvePath } from 'node:path';
import { compareGoStrings } from '../go/index.js';
import { ContentCache, sha256Hex } from '../cache/index.js';
import { InputError, ResolutionError } from '../errors.js';
import { lockFile, type BundleTreeFile } from './layout.js';
import { formatLock, readLockFile, releaseLock, type Lock, type LockedFile } from '../lock/index.js';
import { treeRoots } from '../render/index.js';

export interface ProjectLock {
  readonly path: string;
  /** The fleet's management cluster the bundle is for (undefined: the whole project). */
  readonly target?: string;
  readonly text: string;
  readonly lock: Lock;
}

/**
 * The project's lock as a bundle carries it. A fleet's whole lock carries every section's releases; with `target`,
 * the bundle is that management cluster's: its section, written as a lock of its own.
 */
export function readProjectLock(configDir: string, target?: string): ProjectLock {
  const path = join(configDir, lockFile);
  if (!existsSync(path)) throw new InputError(`there is no ${lockFile} in ${configDir}`, { hint: 'run `capiform lock` (or `capiform render`) first' });
  const doc = readLockFile(path);
  const lock = releaseLock(doc.lock, path, target);
  return { path, text: target === undefined ? doc.text : formatLock(lock), lock, ...(target !== undefined ? { target } : {}) };
}

function walk(root: string, rel: string, out: BundleTreeFile[]): void {
  const abs = join(root, rel);
  for (const name of readdirSync(abs).sort(compareGoStrings)) {
    const r = `${rel}/${name}`;
    const st = statSync(join(root, r));
    if (st.isDirectory()) walk(root, r, out);
    else if (st.isFile()) out.push({ path: r, content: readFileSync(join(root, r), 'utf8') });
  }
}

/**
 * The rendered tree under `dir` (providers/, clusterclasses/, clusters/, argocd/, a fleet's targets/), sorted by path;
 * with `target`, only that management cluster's `targets/<name>/`.
 */
export function readTree(dir: string, target?: string): BundleTreeFile[] {
  const out: BundleTreeFile[] = [];
  const roots = target === undefined ? treeRoots : [`targets/${target}`];
  for (const r of roots) if (existsSync(join(dir, r)) && statSync(join(dir, r)).isDirectory()) walk(dir, r, out);
  return out.sort((a, b) => compareGoStrings(a.path, b.path));
}

/** Reads a locked file: a local path relative to the config, or the cached blob of a remote one. */
export function lockedFileReader(configDir: string, env: NodeJS.ProcessEnv): (label: string, version: string, file: LockedFile) => Uint8Array {
  return (label, version, file) => {
    if (file.path !== undefined) {
      const p = resolvePath(configDir, file.path);
      if (!existsSync(p)) {
        throw new ResolutionError(`${label} ${version}: ${file.name} is pinned by ${lockFile} but ${file.path} does not exist`, { where: p, hint: 'run `capiform lock`' });
      }
      return readFileSync(p);
    }
    const cache = ContentCache.fromEnv(env);
    const bytes = cache.getSync(file.sha256);
    if (bytes === null) {
      throw new ResolutionError(`${label} ${version}: ${file.name} is not in the cache (${file.url ?? file.sha256})`, {
        where: cache.blobPath(file.sha256),
        hint: 'run `capiform render` on a connected machine first, so every release file is downloaded and cached',
      });
    }
    return bytes;
  };
}

/** `capi-<core version>-<8 hex of the lock>`: names the same resolution the same way everywhere. */
export function defaultBundleName(lock: ProjectLock): string {
  const core = lock.lock.providers.find((p) => p.type === 'CoreProvider');
  return `capi-${lock.target ? `${lock.target}-` : ''}${core?.version ?? 'stack'}-${sha256Hex(lock.text).slice(0, 8)}`;
}
