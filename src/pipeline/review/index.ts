/**
 * `capiform diff` as a composition a library user can call: read the two sides (two directories, a git ref and the
 * working tree, or both rendered in memory), notice a change whose tree was not re-rendered, and hand the two object
 * sets to the pure diff (src/plan/diff), which returns the report.
 *
 * A pull request that edits only `capi.config.ts` (a Renovate bump) or only the lock leaves the committed tree as it
 * was: comparing committed trees would say "no changes" for a provider upgrade. When the config or the lock differs
 * between the two sides, the head is rendered in memory (its lock resolved as `capiform lock` would, nothing written);
 * if that is not the committed tree, both sides are reviewed as rendered and the report says so (`stale`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { UsageError } from '../../errors.js';
import { lockFileName } from '../../lock/index.js';
import { diffTrees, topologyScope, type DiffReport, type DiffStale, type RenderedTree } from '../../plan/diff/index.js';
import { parseShard, pathInShard } from '../../render/index.js';
import { readSettled } from '../tree/index.js';
import { gitTopLevel, readFileAtCommit, readTreeFromDir, readTreeFromGit, repositorySalt, resolveCommit } from './git.js';
import { renderSideAt, type RenderAtContext } from './sides.js';

export { extractCommit, gitTopLevel, readFileAtCommit, readTreeFromDir, readTreeFromGit, repositorySalt, resolveCommit } from './git.js';
export { renderSideAt, renderTreeAt, renderedLabel, type RenderAtContext, type RenderedSide } from './sides.js';

export interface ReviewRequest {
  /** Repository folder holding the tree (and capi.config.*, capi.lock.yaml). */
  root: string;
  /** Two tree directories (absolute) and their labels, instead of a git ref. */
  dirs?: readonly [{ path: string; label: string }, { path: string; label: string }];
  /** The git ref of the base side (default `HEAD`). */
  base?: string;
  /** `--render`: both sides rendered from their config and lock instead of reading committed trees. */
  render?: boolean;
  /** How sides are rendered: config path, environment, `--offline`, progress, and a bundle's repositories and cache. */
  sides: Omit<RenderAtContext, 'root' | 'frozen'>;
  /** `--target NAME`: a fleet's management cluster. */
  target?: string;
  /** `--shard I/N`. */
  shard?: string;
  /** Secret values by variable name, never shown. */
  secretValues?: Record<string, string>;
  /** Where the salt for secret hashes comes from when not in the environment (default: `root`). */
  saltDir?: string;
}

/** The fixing command for the head side. */
function fixFor(config: boolean): string {
  return config ? 'capiform lock && capiform render' : 'capiform render';
}

function staleMessage(config: boolean): string {
  return `the tree was not re-rendered; this review shows what \`${fixFor(config)}\` will produce`;
}

function sameFiles(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [p, t] of a) if (b.get(p) !== t) return false;
  return true;
}

/**
 * The project's own inputs a render reads first (the config file and the lock), relative to the repository's top
 * level: a change to either without a change to the tree is what a re-render was forgotten for.
 */
function projectInputs(root: string, top: string, configPath: string | undefined, findConfig: (dir: string) => string): string[] {
  let config: string | undefined = configPath;
  if (config === undefined) {
    try {
      config = findConfig(root);
    } catch {
      config = undefined;
    }
  }
  const rel = (p: string): string => relative(top, p).split(sep).join('/');
  return [...(config !== undefined ? [rel(config)] : []), rel(resolve(config !== undefined ? resolve(config, '..') : root, lockFileName))];
}

/** True when a project input differs between `commit` and the working tree. */
function inputsChanged(top: string, commit: string, inputs: readonly string[]): boolean {
  for (const path of inputs) {
    const abs = resolve(top, ...path.split('/'));
    const head = existsSync(abs) ? readFileSync(abs) : undefined;
    const base = readFileAtCommit(top, commit, path);
    if ((head === undefined) !== (base === undefined)) return true;
    if (head !== undefined && base !== undefined && !head.equals(base)) return true;
  }
  return false;
}

/** The two sides as the review compares them, and whether the head's tree was stale. */
export async function reviewSides(req: ReviewRequest): Promise<{ base: RenderedTree; head: RenderedTree; allowEmptyBase: boolean; stale?: DiffStale }> {
  const { root } = req;
  if (req.dirs) {
    const [a, b] = req.dirs;
    return {
      base: await readSettled(a.path, () => readTreeFromDir(a.path, a.label)),
      head: await readSettled(b.path, () => readTreeFromDir(b.path, b.label)),
      allowEmptyBase: false,
    };
  }
  const baseRef = req.base ?? 'HEAD';
  const ctx: RenderAtContext = { ...req.sides, root };
  // A bundle carries the releases of the lock it was built from: its sides render from their locks as they are.
  const relock = req.sides.bundleLock === undefined;
  if (req.render) {
    // The working side renders from the lock on disk: one a completed write left, never a half-swapped one.
    const [base, head] = await readSettled(root, async () => [await renderSideAt(baseRef, { ...ctx, frozen: !relock }), await renderSideAt(undefined, { ...ctx, frozen: !relock })] as const, lockFileName);
    if (!head.lockStale && !base.lockStale) return { base: base.tree, head: head.tree, allowEmptyBase: true };
    const stale: DiffStale = { config: head.lockStale, lock: head.lockStale, message: staleMessage(head.lockStale), fix: fixFor(head.lockStale) };
    if (base.lockStale) stale.base = { config: true, lock: true };
    return { base: base.tree, head: head.tree, allowEmptyBase: true, stale };
  }
  const base = readTreeFromGit(root, baseRef);
  const head = await readSettled(root, () => readTreeFromDir(root, 'working tree'));
  const { findConfigFile } = await import('../../config/index.js');
  const top = gitTopLevel(root);
  const inputs = projectInputs(root, top, req.sides.configPath, findConfigFile);
  if (!existsSync(resolve(top, ...inputs[0]!.split('/'))) || !inputsChanged(top, resolveCommit(top, baseRef), inputs)) {
    return { base, head, allowEmptyBase: true };
  }
  // The config or the lock changed: is the committed tree what they render?
  const renderedHead = await readSettled(root, () => renderSideAt(undefined, { ...ctx, frozen: !relock }), lockFileName);
  // Re-rendered: the lock fits and the committed tree is what it renders, or the tree moved on from the base (a render
  // then edited by hand is compared as committed: that is what Argo CD would sync, and `render --check` reports it).
  const treeStale = !sameFiles(renderedHead.tree.files, head.files);
  if (!renderedHead.lockStale && (!treeStale || !sameFiles(head.files, base.files))) return { base, head, allowEmptyBase: true };
  const renderedBase = await renderBase(baseRef, { ...ctx, frozen: !relock });
  const stale: DiffStale = {
    config: renderedHead.lockStale,
    lock: treeStale,
    message: staleMessage(renderedHead.lockStale),
    fix: fixFor(renderedHead.lockStale),
  };
  if (renderedBase && (renderedBase.lockStale || !sameFiles(renderedBase.tree.files, base.files))) {
    stale.base = { config: renderedBase.lockStale, lock: !sameFiles(renderedBase.tree.files, base.files) };
  }
  return { base: renderedBase?.tree ?? { ...base, label: `${baseRef} (rendered)` }, head: renderedHead.tree, allowEmptyBase: true, stale };
}

/** The base side rendered, or undefined when the ref has no config (a first commit before `capiform init`). */
async function renderBase(ref: string, ctx: RenderAtContext): Promise<Awaited<ReturnType<typeof renderSideAt>> | undefined> {
  const top = gitTopLevel(ctx.root);
  const commit = resolveCommit(top, ref);
  const prefix = relative(top, ctx.root).split(sep).join('/');
  const { configFileNames } = await import('../../config/index.js');
  const at = (name: string): string => (prefix === '' ? name : `${prefix}/${name}`);
  const configAt = ctx.configPath !== undefined ? relative(top, ctx.configPath).split(sep).join('/') : undefined;
  const has = configAt !== undefined ? readFileAtCommit(top, commit, configAt) !== undefined : configFileNames.some((n) => readFileAtCommit(top, commit, at(n)) !== undefined);
  return has ? renderSideAt(ref, ctx) : undefined;
}

/** Only the files of a fleet's management cluster `target` (and the fleet's own files, which belong to every one). */
function targetFiles(target: string, base: RenderedTree, head: RenderedTree): (t: RenderedTree) => RenderedTree {
  const names = new Set<string>();
  for (const t of [base, head]) for (const p of t.files.keys()) if (p.startsWith('targets/')) names.add(p.split('/')[1]!);
  // The name must be a management cluster of one of the two trees: a tree on disk or in git has no config to ask.
  if (names.size === 0) {
    throw new UsageError(`--target ${target}: neither tree is a fleet's (no targets/ folder)`, { hint: 'drop --target: the trees have one management cluster' });
  }
  if (!names.has(target)) {
    throw new UsageError(`--target ${target}: no such management cluster in either tree`, { hint: `use one of: ${[...names].sort().join(', ')}` });
  }
  const prefix = `targets/${target}/`;
  return (t) => ({ ...t, files: new Map([...t.files].filter(([p]) => p.startsWith(prefix) || !p.startsWith('targets/'))) });
}

/**
 * `capiform diff`: the report for two sides. A change whose tree was not re-rendered is reviewed as rendered, and
 * the report's `stale` says so with the fixing command.
 */
export async function reviewChange(req: ReviewRequest): Promise<DiffReport> {
  const sides = await reviewSides(req);
  let { base, head } = sides;
  if (req.target !== undefined) {
    const own = targetFiles(req.target, base, head);
    base = own(base);
    head = own(head);
  }
  if (req.shard !== undefined) {
    const shard = parseShard(req.shard);
    const own = (t: RenderedTree): RenderedTree => ({ ...t, files: new Map([...t.files].filter(([p]) => pathInShard(shard, p))) });
    base = own(base);
    head = own(head);
  }
  // The ClusterClass review loads the topology engine only when a change reaches a topology Cluster or class.
  const topology = topologyScope(base.files, head.files) ? (await import('../../plan/topology/index.js')).reviewTreeTopology : undefined;
  const report = diffTrees(base, head, {
    salt: repositorySalt(req.saltDir ?? req.root, req.sides.env ?? {}),
    secretValues: req.secretValues ?? {},
    allowEmptyBase: sides.allowEmptyBase,
    ...(topology ? { topology } : {}),
  });
  if (sides.stale) report.stale = sides.stale;
  return report;
}
