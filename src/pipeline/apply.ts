/**
 * The last stage, and the only code that writes the project: the lock alone (`lock`), or the tree and the lock
 * together under the tree writer's journal (`render`).
 */
import { lockFileName, writeLock } from '../lock/index.js';
import type { TreeCache, TreeChanges, TreeFile } from '../render/index.js';
import { repairTree, writeTree, type TreeScope } from './tree/index.js';
import type { LockModel } from './assemble.js';
import type { PipelineContext } from './context.js';
import type { ProjectState } from './read-project.js';
import type { PipelineResult } from './types.js';

/** Writes the lock when it changed (one atomic rename); returns whether it did. */
export function applyLock(ctx: PipelineContext, project: ProjectState, model: LockModel): boolean {
  if (!model.changed) return false;
  // A render interrupted mid-swap is completed (or discarded) first, so the lock written here cannot be overwritten
  // by the old render's staged one later. The CLI has done this already, under the project lock.
  repairTree(ctx.config.dir);
  writeLock(project.lockPath, model.lock);
  return true;
}

/**
 * Writes the tree (sorted files) and swaps the lock in with it, so that no crash leaves a new lock beside an old
 * tree; then saves the tree cache.
 */
export function applyTree(
  ctx: PipelineContext,
  files: readonly TreeFile[],
  cache: TreeCache,
  model: LockModel,
  scope: TreeScope = () => true,
): { changes: TreeChanges; repaired: PipelineResult['repaired'] } {
  const res = writeTree(ctx.config.dir, files, { env: ctx.env ?? {}, verified: cache.verified, lock: { name: lockFileName, content: model.text }, scope });
  // A cache directory (`clusters/<ns>/<name>`) is written when the files in it are.
  cache.save((dir) => scope(`${dir}/-`));
  return { changes: { added: res.added, changed: res.changed, removed: res.removed }, repaired: res.repaired };
}
