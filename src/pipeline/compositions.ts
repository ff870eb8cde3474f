/**
 * capiform's main job, config → lock → artifacts → tree, composed per command from the stages:
 *   read project (./read-project.ts) → resolve (./resolve-stage.ts) → render (./render-stage.ts) →
 *   assemble (./assemble.ts) → apply (./apply.ts, the only writer).
 * `render` writes the lock and the tree; `render --check` writes nothing and compares with the tree on disk; `lock`
 * resolves and records artifacts only; a render in memory (`diff --render`, `images`) writes nothing in the project and
 * returns every file with its contents. Downloads and tree-cache blobs may still go to the user's cache.
 */
import { pathInShard } from '../render/index.js';
import { checkTreePaths, diffTree, type TreeScope } from './tree/index.js';
import { applyLock, applyTree } from './apply.js';
import { assembleTree, lockModel, sortTree } from './assemble.js';
import { pipelineContext, type PipelineContext } from './context.js';
import { readProject, type ProjectState } from './read-project.js';
import { recordArtifacts, renderTree } from './render-stage.js';
import { resolveProject, type ResolvedProject } from './resolve-stage.js';
import type { PipelineOptions, PipelineRequest, PipelineResult } from './types.js';

async function resolved(opts: PipelineRequest): Promise<{ ctx: PipelineContext; project: ProjectState; resolved: ResolvedProject }> {
  const ctx = pipelineContext(opts);
  const project = await readProject(ctx);
  return { ctx, project, resolved: await resolveProject(ctx, project) };
}

/**
 * The stages every tree-producing command shares: resolve, render, assemble, the lock model, the tree in path order.
 * `checkPaths`: a file in the way of the tree stops the run before anything is written, so lock and tree still match.
 */
async function assembled(opts: PipelineRequest, render: { contents: boolean; readBytes: boolean }, checkPaths: boolean) {
  const run = await resolved(opts);
  const { shard } = opts;
  const rendered = await renderTree(run.ctx, run.resolved, render, shard);
  // A shard keeps only the paths it owns (./render/shard.ts): the rest of the tree is other shards'.
  const scope: TreeScope = shard ? (path) => pathInShard(shard, path) : () => true;
  const files = assembleTree(rendered, run.resolved.resolution).filter((f) => scope(f.path));
  if (checkPaths) checkTreePaths(run.ctx.config.dir, files.map((f) => f.path));
  const lock = lockModel(run.ctx, run.project, run.resolved, shard !== undefined && shard.index !== 1);
  sortTree(files);
  const result = (over: Pick<PipelineResult, 'lockWritten' | 'changes' | 'repaired'>): PipelineResult => ({
    lock: lock.lock,
    lockChanged: lock.changed,
    drift: run.project.drift,
    files,
    omitted: rendered.omitted,
    ...over,
  });
  return { run, rendered, files, lock, result, scope };
}

/** `capiform render`: writes the tree and the lock. */
export async function renderProject(opts: PipelineRequest): Promise<PipelineResult> {
  const { run, rendered, files, lock, result, scope } = await assembled(opts, { contents: false, readBytes: false }, true);
  const { changes, repaired } = applyTree(run.ctx, files, rendered.cache, lock, scope);
  return result({ lockWritten: lock.changed, changes, repaired });
}

/**
 * `capiform render --check`: what `render` would change; writes nothing in the project. The directories found up to
 * date go to the tree cache, so the next check compares digests instead of rendering them again.
 */
export async function checkProject(opts: PipelineRequest): Promise<PipelineResult> {
  const { run, rendered, files, result, scope } = await assembled(opts, { contents: false, readBytes: true }, true);
  const changes = diffTree(run.ctx.config.dir, files, rendered.cache.verified, scope);
  rendered.cache.saveChecked(new Set([...changes.added, ...changes.changed]));
  return result({ lockWritten: false, changes, repaired: 'none' });
}

/** The tree with every file's contents, in memory (`diff --render`, `images`); writes nothing. */
export async function renderInMemory(opts: PipelineRequest): Promise<PipelineResult> {
  const { result } = await assembled(opts, { contents: true, readBytes: false }, false);
  return result({ lockWritten: false, changes: undefined, repaired: 'none' });
}

/** `capiform lock`: resolves the config and writes the lock alone. */
export async function lockProject(opts: PipelineRequest): Promise<PipelineResult> {
  const run = await resolved(opts);
  await recordArtifacts(run.ctx, run.resolved);
  const lock = lockModel(run.ctx, run.project, run.resolved);
  const lockWritten = applyLock(run.ctx, run.project, lock);
  return { lock: lock.lock, lockChanged: lock.changed, lockWritten, drift: run.project.drift, files: [], changes: undefined, omitted: [], repaired: 'none' };
}

const compositions = { render: renderProject, check: checkProject, memory: renderInMemory, lock: lockProject } as const;

/** One of the compositions above, chosen by `mode`. */
export function runPipeline({ mode, ...request }: PipelineOptions): Promise<PipelineResult> {
  return compositions[mode](request);
}
