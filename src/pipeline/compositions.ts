/**
 * capiform's main job, config → lock → artifacts → tree, composed per command from the stages:
 *   read project (./read-project.ts) → resolve (./resolve-stage.ts) → render (./render-stage.ts) →
 *   assemble (./assemble.ts) → apply (./apply.ts, the only writer).
 * `render` writes the lock and the tree; `render --check` writes nothing and compares with the tree on disk; `lock`
 * resolves and records artifacts only; a render in memory (`diff --render`, `images`) writes nothing in the project and
 * returns every file with its contents. Downloads and tree-cache blobs may still go to the user's cache.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ResolvedConfig } from '../config/index.js';
import { CapiformError, UsageError } from '../errors.js';
import { formatLock, isFleetLock, lockFileName, lockfileVersion, LockStaleError, parseLockFile, readLockFile, type FleetLock, type Lock } from '../lock/index.js';
import { pathInShard, unusedVariableMessage, type Shard, type TreeFile, type UnusedVariable } from '../render/index.js';
import { checkTreePaths, diffTree, type TreeScope } from './tree/index.js';
import { applyLock, applyTree, saveTreeCache } from './apply.js';
import { enforceContract, lintResolvedProviders } from './contract-lint.js';
import { assembleTree, fleetGlue, lockModel, sortTree, type LockModel } from './assemble.js';
import { pipelineContext, type PipelineContext } from './context.js';
import { readProject, type ProjectState } from './read-project.js';
import { recordArtifacts, renderTree, type RenderedTree } from './render-stage.js';
import { resolveProject, type ResolvedProject } from './resolve-stage.js';
import type { ContractFinding, PipelineOptions, PipelineRequest, PipelineResult } from './types.js';

async function resolved(opts: PipelineRequest): Promise<{ ctx: PipelineContext; project: ProjectState; resolved: ResolvedProject }> {
  const ctx = pipelineContext(opts);
  const project = await readProject(ctx);
  return { ctx, project, resolved: await resolveProject(ctx, project) };
}

/**
 * The stages every tree-producing command shares: resolve, render, assemble, the lock model, the tree in path order.
 * `checkPaths`: a file in the way of the tree stops the run before anything is written, so lock and tree still match.
 */
async function assembled(opts: PipelineRequest, render: { contents: boolean; readBytes: boolean }, checkPaths: boolean, fleetMember = false) {
  const run = await resolved(opts);
  const { shard } = opts;
  const rendered = await renderTree(run.ctx, run.resolved, render, shard);
  const unused = rendered.unusedVariables ?? [];
  // A fleet's management clusters share the global variables: the fleet judges those once all are rendered.
  if (!fleetMember) for (const u of unused) run.ctx.log(unusedVariableMessage(u));
  // A shard keeps only the paths it owns (./render/shard.ts): the rest of the tree is other shards'. A management
  // cluster of a fleet renders paths under its `targets/<name>/`, which is where their owner is read from.
  const prefix = run.ctx.config.tree === undefined ? '' : `${run.ctx.config.tree}/`;
  const scope = shardScope(shard, prefix);
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
    unusedVariables: unused,
    ...over,
  });
  return { run, rendered, files, lock, result, scope };
}

/**
 * The cluster and ClusterClass files `render` checks before writing: those whose bytes differ from the tree on disk
 * (an unchanged file was checked when it was written), or all of them when a provider's files changed (new CRDs,
 * other feature gates).
 */
function renderedObjectsToCheck(dir: string, files: readonly TreeFile[]): TreeFile[] {
  const same = (f: TreeFile): boolean => {
    try {
      return readFileSync(join(dir, f.path), 'utf8') === f.content;
    } catch {
      return false;
    }
  };
  const rendered = files.filter((f) => f.content !== '' && /^(clusters|clusterclasses)\//.test(f.path));
  const providersChanged = files.some((f) => f.content !== '' && f.path.startsWith('providers/') && !same(f));
  if (!providersChanged) return rendered.filter((f) => !same(f));
  // New CRDs or feature gates judge the files the tree cache kept too (their content is not in memory): read from disk.
  const kept = files
    .filter((f) => f.content === '' && /^(clusters|clusterclasses)\/.*\.ya?ml$/.test(f.path))
    .map((f) => ({ ...f, content: existsSync(join(dir, f.path)) ? readFileSync(join(dir, f.path), 'utf8') : '' }))
    .filter((f) => f.content !== '');
  return [...rendered, ...kept];
}

/** Each provider's config entry by label, for the fix of a feature-gate finding. */
function providerConfigPaths(config: ResolvedConfig): Record<string, string> {
  return Object.fromEntries(config.providers.map((p) => [p.label, p.configPath]));
}

/** Each provider's variables by label (global under its own): what an operator provider's config Secret holds. */
function providerVariables(config: ResolvedConfig): Record<string, Readonly<Record<string, string | undefined>>> {
  return Object.fromEntries(config.providers.map((p) => [p.label, { ...config.variables, ...p.variables }]));
}

/** The tree paths (relative to `prefix`) a run writes or compares: those its shard owns, or all. */
function shardScope(shard: Shard | undefined, prefix = ''): TreeScope {
  return shard ? (path) => pathInShard(shard, prefix + path) : () => true;
}

/**
 * A fleet's stages: each management cluster is resolved and rendered on its own (its lock section, its tree cache,
 * files under `targets/<name>/`), then the sections become one lock and the trees one tree, written in one swap.
 */
async function assembledFleet(opts: PipelineRequest, render: { contents: boolean; readBytes: boolean } | undefined, checkPaths: boolean) {
  const fleet = opts.config;
  const upgrades = targetUpgrades(opts);
  // `render --target NAME` renders (or checks) that management cluster alone; `lock --target` only limits --upgrade.
  const only = render ? opts.target : undefined;
  const targets = (fleet.targets ?? []).filter((t) => only === undefined || t.target === only);
  const runs: FleetRun[] = [];
  for (const config of targets) {
    const request: PipelineRequest = { ...opts, config, upgrade: upgrades.get(config.target!) };
    if (!render) {
      const run = await resolved(request);
      const unused = await recordArtifacts(run.ctx, run.resolved);
      const findings = await lintResolvedProviders(config, run.resolved);
      runs.push({ config, run, rendered: undefined, files: [], lock: lockModel(run.ctx, run.project, run.resolved), findings, unused });
      continue;
    }
    const one = await assembled(request, render, false, true);
    const prefix = `${config.tree!}/`;
    const files = one.files.map((f) => ({ ...f, path: prefix + f.path }));
    runs.push({ config, run: one.run, rendered: one.rendered, files, lock: one.lock, findings: [], unused: one.rendered.unusedVariables ?? [] });
  }
  const scope = targetScope(only === undefined ? undefined : targets[0]?.tree, shardScope(opts.shard));
  const files = runs.flatMap((r) => r.files);
  if (render) files.push(...fleetGlue(fleet).filter((f) => scope(f.path)));
  sortTree(files);
  if (checkPaths) checkTreePaths(fleet.dir, files.map((f) => f.path));
  const lockPath = join(fleet.dir, lockFileName);
  const before = existsSync(lockPath) ? readLockFile(lockPath).text : undefined;
  // With --target, the other management clusters' sections stay as they are on disk.
  const kept = only === undefined || before === undefined ? [] : [...lockSectionsOf(before, lockPath)].filter(([n]) => n !== only);
  const lock: FleetLock = { lockfileVersion, targets: new Map([...kept, ...runs.map((r) => [r.config.target!, r.lock.lock] as const)]) };
  const text = formatLock(lock);
  const changed = before !== text;
  if (changed && opts.frozen) {
    const gone = before === undefined ? [] : lockSectionsOf(before, lockPath).map(([n]) => n).filter((n) => !lock.targets.has(n));
    throw new LockStaleError(
      gone.length > 0 ? `it has sections for management clusters the config no longer has: ${gone.join(', ')}` : 'rendering needs entries the lock does not have',
      gone.length > 0 ? `targets.${gone[0]!}` : 'targets',
      'run `capiform lock` and commit capi.lock.yaml',
    );
  }
  // Each section was checked on its own (lockModel); what is left is a section of a management cluster that is gone.
  if (changed && render && opts.shard !== undefined && opts.shard.index !== 1) {
    throw new LockStaleError(
      'a shard other than 1 renders from the lock as it is, and this config needs a different one',
      'targets',
      'run `capiform lock` (or `capiform render --shard 1/N`) and commit capi.lock.yaml before rendering the other shards',
    );
  }
  const unused = opts.shard === undefined || opts.shard.index === 1 ? fleetUnusedVariables(fleet, runs, only === undefined) : [];
  const fleetCtx = pipelineContext(opts);
  for (const u of unused) fleetCtx.log(unusedVariableMessage(u));
  const verified = new Set<string>();
  for (const r of runs) for (const p of r.rendered?.cache.verified ?? []) verified.add(`${r.config.tree!}/${p}`);
  const result = (over: Pick<PipelineResult, 'lockWritten' | 'changes' | 'repaired'>): PipelineResult => ({
    lock,
    lockChanged: changed,
    drift: runs.flatMap((r) => r.run.project.drift.map((d) => ({ ...d, entry: `targets.${r.config.target!}.${d.entry}` }))),
    files,
    omitted: runs.flatMap((r) => (r.rendered?.omitted ?? []).map((o) => ({ ...o, file: `${r.config.tree!}/${o.file}` }))),
    targets: runs.map((r) => r.config.target!),
    unusedVariables: unused,
    ...over,
  });
  return { ctx: pipelineContext(opts), runs, files, lock, text, changed, verified, lockPath, result, scope };
}

/**
 * The unused variables of a fleet: each management cluster's own, and a shared global variable only when no
 * management cluster reads it (judged only when every management cluster was rendered). A global variable a
 * management cluster sets (or changes) itself is its own.
 */
function fleetUnusedVariables(fleet: ResolvedConfig, runs: readonly FleetRun[], everyTarget: boolean): UnusedVariable[] {
  const out: UnusedVariable[] = [];
  const shared = new Map<string, { count: number; u: UnusedVariable }>();
  for (const r of runs) {
    const own = r.config.variables;
    for (const u of r.unused) {
      if (!u.global) {
        out.push(u);
        continue;
      }
      if (Object.hasOwn(fleet.variables, u.variable) && fleet.variables[u.variable] === own[u.variable]) {
        const have = shared.get(u.variable);
        const didYouMean = [...new Set([...(have?.u.didYouMean ?? []), ...u.didYouMean])].slice(0, 3);
        shared.set(u.variable, { count: (have?.count ?? 0) + 1, u: { ...u, didYouMean } });
      } else {
        out.push({ ...u, path: `managementClusters.${r.config.target!}.${u.path}`, global: false, entry: `any provider or cluster of management cluster ${r.config.target!}` });
      }
    }
  }
  // With --target, the other management clusters were not read: a shared variable is not judged.
  if (everyTarget) for (const { count, u } of shared.values()) if (count === runs.length) out.push({ ...u, entry: 'any provider or cluster of any management cluster' });
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

interface FleetRun {
  config: ResolvedConfig;
  run: { ctx: PipelineContext; project: ProjectState; resolved: ResolvedProject };
  rendered: RenderedTree | undefined;
  files: TreeFile[];
  lock: LockModel;
  /** `lock`: the provider-contract findings of this management cluster's providers. */
  findings: ContractFinding[];
  /** The variables this management cluster's config sets and nothing it renders reads. */
  unused: UnusedVariable[];
}

function lockSectionsOf(text: string, where: string): [string, Lock][] {
  const lock = parseLockFile(text, where);
  return isFleetLock(lock) ? [...lock.targets] : [];
}

/**
 * A fleet's tree paths one run writes or compares, within `scope`: with `--target`, that management cluster's folder
 * and the fleet's own files (the one ApplicationSet, which depends on no management cluster), never another's folder.
 */
function targetScope(tree: string | undefined, scope: TreeScope): TreeScope {
  if (tree === undefined) return scope;
  const prefix = `${tree}/`;
  return (path) => (path.startsWith(prefix) || !path.startsWith('targets/')) && scope(path);
}

/**
 * `--upgrade` per management cluster: `--target` limits it to one; provider names apply to every management cluster
 * that has them, and a name none has is a usage error.
 */
function targetUpgrades(opts: PipelineRequest): Map<string, PipelineRequest['upgrade']> {
  const targets = opts.config.targets ?? [];
  const out = new Map<string, PipelineRequest['upgrade']>();
  if (opts.target !== undefined) checkTarget(opts.config, opts.target);
  if (opts.upgrade === undefined) return out;
  const chosen = targets.filter((t) => opts.target === undefined || t.target === opts.target);
  if (opts.upgrade === 'all') {
    for (const t of chosen) out.set(t.target!, 'all');
    return out;
  }
  for (const n of opts.upgrade) {
    if (!chosen.some((t) => t.providers.some((p) => p.name === n || p.label === n))) {
      const labels = [...new Set(chosen.flatMap((t) => t.providers.map((p) => p.label)))];
      throw new UsageError(`--upgrade ${n}: no such provider in ${opts.target === undefined ? 'any management cluster' : `management cluster "${opts.target}"`}`, {
        hint: `use a name or label of: ${labels.join(', ')}`,
      });
    }
  }
  for (const t of chosen) {
    const names = opts.upgrade.filter((n) => t.providers.some((p) => p.name === n || p.label === n));
    if (names.length > 0) out.set(t.target!, names);
  }
  return out;
}

/** `--target NAME` must name a management cluster of a fleet config. */
export function checkTarget(config: ResolvedConfig, target: string): void {
  if (!config.targets) {
    throw new UsageError(`--target ${target}: the config has one management cluster (no managementClusters)`, {
      hint: 'drop --target, or declare managementClusters in the config',
    });
  }
  if (!config.targets.some((t) => t.target === target)) {
    throw new UsageError(`--target ${target}: no such management cluster in the config`, {
      hint: `use one of: ${config.targets.map((t) => t.target!).join(', ')}`,
    });
  }
}

/** `capiform render`: writes the tree and the lock. */
export async function renderProject(opts: PipelineRequest): Promise<PipelineResult> {
  if (opts.target !== undefined) checkTarget(opts.config, opts.target);
  if (opts.config.targets) {
    const { ctx, runs, files, text, changed, verified, result, scope } = await assembledFleet(opts, { contents: false, readBytes: false }, true);
    const contractFindings = await lintRelocked(runs);
    await enforceContract(opts.config, contractFindings);
    if (opts.validate !== false) await validateFleet(opts.config.dir, runs);
    const { changes, repaired } = applyTree(ctx, files, verified, text, scope);
    for (const r of runs) if (r.rendered) saveTreeCache(r.rendered.cache, scope, `${r.config.tree!}/`);
    return { ...result({ lockWritten: changed, changes, repaired }), contractFindings };
  }
  const { run, rendered, files, lock, result, scope } = await assembled(opts, { contents: false, readBytes: false }, true);
  const contractFindings = await lintRelocked([{ config: opts.config, run, lock }]);
  await enforceContract(opts.config, contractFindings);
  if (opts.validate !== false) {
    const toCheck = renderedObjectsToCheck(run.ctx.config.dir, files);
    // Loaded only when there is something to check: the schema and CEL checks cost a few hundred ms to load.
    if (toCheck.length > 0) (await import('./validate/index.js')).validateRendered(run.ctx.config.dir, files, toCheck, providerConfigPaths(opts.config), providerVariables(opts.config));
  }
  const { changes, repaired } = applyTree(run.ctx, files, rendered.cache.verified, lock.text, scope);
  saveTreeCache(rendered.cache, scope);
  return { ...result({ lockWritten: lock.changed, changes, repaired }), contractFindings };
}

/**
 * A `render` that writes a new or changed lock (section) resolves like `lock`, so it lints the providers it pins like
 * `lock` does; a render from the lock as it is lints nothing (the lock was linted when it was written).
 */
async function lintRelocked(runs: ReadonlyArray<{ config: ResolvedConfig; run: { resolved: ResolvedProject }; lock: LockModel }>): Promise<ContractFinding[]> {
  const out: ContractFinding[] = [];
  for (const r of runs) if (r.lock.changed) out.push(...(await lintResolvedProviders(r.config, r.run.resolved)));
  return out;
}

/**
 * A fleet's `render` validates each management cluster's tree as the single form does its own: the changed cluster
 * and ClusterClass files of `targets/<name>/`, against the CRDs of that management cluster's providers.
 */
async function validateFleet(dir: string, runs: readonly FleetRun[]): Promise<void> {
  const trees = runs.map((r) => {
    const prefix = `${r.config.tree!}/`;
    const own = r.files.map((f) => ({ ...f, path: f.path.slice(prefix.length) }));
    return { dir: join(dir, r.config.tree!), files: own, toCheck: renderedObjectsToCheck(join(dir, r.config.tree!), own), prefix, target: r.config.target!, providerConfigPaths: providerConfigPaths(r.config), providerVariables: providerVariables(r.config) };
  });
  if (trees.every((t) => t.toCheck.length === 0)) return;
  (await import('./validate/index.js')).validateRenderedTrees(trees);
}

/**
 * `capiform render --check`: what `render` would change; writes nothing in the project. The directories found up to
 * date go to the tree cache, so the next check compares digests instead of rendering them again.
 */
export async function checkProject(opts: PipelineRequest): Promise<PipelineResult> {
  if (opts.target !== undefined) checkTarget(opts.config, opts.target);
  if (opts.config.targets) {
    const { files, verified, result, scope } = await assembledFleet(opts, { contents: false, readBytes: true }, true);
    return result({ lockWritten: false, changes: diffTree(opts.config.dir, files, verified, scope), repaired: 'none' });
  }
  const { run, rendered, files, result, scope } = await assembled(opts, { contents: false, readBytes: true }, true);
  const changes = diffTree(run.ctx.config.dir, files, rendered.cache.verified, scope);
  rendered.cache.saveChecked(new Set([...changes.added, ...changes.changed]));
  return result({ lockWritten: false, changes, repaired: 'none' });
}

/** The tree with every file's contents, in memory (`diff --render`, `images`); writes nothing. */
export async function renderInMemory(opts: PipelineRequest): Promise<PipelineResult> {
  if (opts.target !== undefined) checkTarget(opts.config, opts.target);
  if (opts.config.targets) {
    const { result } = await assembledFleet(opts, { contents: true, readBytes: false }, false);
    return result({ lockWritten: false, changes: undefined, repaired: 'none' });
  }
  const { result } = await assembled(opts, { contents: true, readBytes: false }, false);
  return result({ lockWritten: false, changes: undefined, repaired: 'none' });
}

/** `capiform lock`: resolves the config and writes the lock alone. */
export async function lockProject(opts: PipelineRequest): Promise<PipelineResult> {
  if (opts.config.targets) {
    const { ctx, runs, lock, changed, lockPath, result } = await assembledFleet(opts, undefined, false);
    const contractFindings = runs.flatMap((r) => r.findings);
    await enforceContract(opts.config, contractFindings);
    return { ...result({ lockWritten: applyLock(ctx, lockPath, lock, changed), changes: undefined, repaired: 'none' }), contractFindings };
  }
  const run = await resolved(opts);
  const unused = await recordArtifacts(run.ctx, run.resolved);
  for (const u of unused) run.ctx.log(unusedVariableMessage(u));
  const lock = lockModel(run.ctx, run.project, run.resolved);
  // The lint reads the release but never the lock: its findings cannot change the lock's bytes.
  const contractFindings = await lintResolvedProviders(opts.config, run.resolved);
  await enforceContract(opts.config, contractFindings);
  const lockWritten = applyLock(run.ctx, run.project.lockPath, lock.lock, lock.changed);
  return { lock: lock.lock, lockChanged: lock.changed, lockWritten, drift: run.project.drift, files: [], changes: undefined, omitted: [], repaired: 'none', contractFindings, unusedVariables: unused };
}

/** What `validate` says about the config's variables: the unused ones, or why they could not be judged. */
export type LockedVariableUse = { unused: UnusedVariable[] } | { skipped: string };

/**
 * `validate`'s unused-variables check: the files the lock pins, read from the content cache (local repositories from
 * their folder) exactly as `lock` reads them, never from the network (frozen and offline). A locked file the cache
 * lacks, a missing or stale lock: the check is skipped with the reason, never an error (validate's verdict is about the
 * manifests). Nothing is logged or written: the caller prints the warnings.
 */
export async function lockedUnusedVariables(opts: PipelineRequest): Promise<LockedVariableUse> {
  if (!existsSync(join(opts.config.dir, lockFileName))) return { skipped: `no ${lockFileName} (run \`capiform lock\` first)` };
  const request: PipelineRequest = { ...opts, frozen: true, offline: true };
  try {
    if (opts.config.targets) {
      // A fleet as `lock` judges it: every management cluster's section, the shared variables once.
      const { result } = await assembledFleet(request, undefined, false);
      return { unused: result({ lockWritten: false, changes: undefined, repaired: 'none' }).unusedVariables ?? [] };
    }
    const run = await resolved(request);
    return { unused: await recordArtifacts(run.ctx, run.resolved) };
  } catch (err) {
    if (!(err instanceof CapiformError)) throw err;
    const fix = err.code === 'E_OFFLINE' ? '; `capiform render` or `capiform lock` fills the cache' : '';
    return { skipped: `${err.message.split('\n')[0]!}${fix}` };
  }
}

const compositions = { render: renderProject, check: checkProject, memory: renderInMemory, lock: lockProject } as const;

/** One of the compositions above, chosen by `mode`. */
export function runPipeline({ mode, ...request }: PipelineOptions): Promise<PipelineResult> {
  return compositions[mode](request);
}
