/**
 * The last stage, and the only code that writes the project: the lock alone (`lock`), or the tree and the lock
 * together under the tree writer's journal (`render`).
 */
import { lockFileName, writeLock, type LockFile } from '../lock/index.js';
import type { TreeChanges, TreeFile } from '../render/index.js';
import { repairTree, writeTree, type TreeCache, type TreeScope } from './tree/index.js';
import type { PipelineContext } from './context.js';
import type { PipelineResult } from './types.js';

/** Writes the lock when it changed (one atomic rename); returns whether it did. */
export function applyLock(ctx: PipelineContext, lockPath: string, lock: LockFile, changed: boolean): boolean {
  if (!changed) return false;
  // A render interrupted mid-swap is completed (or discarded) first, so the lock written here cannot be overwritten
  // by the old render's staged one later. The CLI has done this already, under the project lock.
  repairTree(ctx.config.dir);
  writeLock(lockPath, lock);
  return true;
}

/**
 * Writes the tree (sorted files) and swaps the lock in with it, so that no crash leaves a new lock beside an old
 * tree. The caller saves its tree caches afterwards (their entries record the written files' identity).
 */
export function applyTree(
  ctx: PipelineContext,
  files: readonly TreeFile[],
  verified: ReadonlySet<string>,
  lockText: string,
  scope: TreeScope = () => true,
): { changes: TreeChanges; repaired: PipelineResult['repaired'] } {
  const res = writeTree(ctx.config.dir, files, { env: ctx.env ?? {}, verified, lock: { name: lockFileName, content: lockText }, scope });
  return { changes: { added: res.added, changed: res.changed, removed: res.removed }, repaired: res.repaired };
}

/**
 * Saves a tree cache after its files are written. A cache directory (`clusters/<ns>/<name>`, under `prefix` in the
 * project tree) is written when the files in it are, so a shard keeps the entries of the directories it did not write.
 */
export function saveTreeCache(cache: TreeCache, scope: TreeScope = () => true, prefix = ''): void {
  cache.save((dir) => scope(`${prefix}${dir}/-`));
}
