/**
 * `capiform diff --render` and the review of a change whose tree was not re-rendered: render a side (a git ref or
 * the working tree) from its config and lock in memory, so a PR that only changes capi.config.ts still gets an object
 * diff.
 *
 * Frozen by default: the side's committed capi.lock.yaml must satisfy its config (a reviewer wants what the PR will
 * deploy). With `frozen: false` a side whose lock the config no longer matches is resolved again in memory, as
 * `capiform lock` would, and says so (`lockStale`). Nothing is written: not the
 * tree, not the lock. A git ref is read with `git ls-tree` + `git cat-file` into a temporary directory (no checkout,
 * the user's index and working tree are untouched), so local repositories named in the config resolve to the ref's
 * own copy.
 */
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative, sep } from 'node:path';
import { CapiformError, InputError, ResolutionError, UsageError } from '../../errors.js';
import { lockFileName, readLockFile, releaseLock, type ArtifactCache, type Lock } from '../../lock/index.js';
import type { ProgressListener, RepositoryFactory } from '../../resolve/index.js';
import { extractCommit, gitTopLevel, resolveCommit } from './git.js';
import { treeRoots } from '../../render/index.js';
import { isTreeFile, sortedFiles, type RenderedTree } from '../../plan/diff/index.js';

export interface RenderAtContext {
  /** Repository directory holding capi.config.* and capi.lock.yaml. */
  root: string;
  /** `--config`, absolute; for a git ref the same path inside the ref. */
  configPath?: string;
  /** Environment for `{ env: NAME }` variables and the cache directory. */
  env?: NodeJS.ProcessEnv;
  /** Repository factory for a side whose config lives in `configDir` (`--bundle`); default: the config's sources. */
  repositories?: (configDir: string) => RepositoryFactory;
  /** `--bundle`: the bundle's lock, to name a release a side pins that the bundle does not carry. */
  bundleLock?: Lock;
  /** Artifact cache (`--bundle`: an empty one); default: the content cache of `env`. */
  cache?: ArtifactCache;
  /** `--offline`: remote repositories answer from the cache only; a missing item fails, named. */
  offline?: boolean;
  /** Download progress (the CLI's reporter). */
  onProgress?: ProgressListener | undefined;
  /** Progress and notes of the pipeline. */
  log?: (line: string) => void;
  /**
   * Default true: each side's committed lock must satisfy its config. False: a side whose lock does not is resolved
   * again in memory (the entries the config changed; the rest keep their pins), as `capiform lock` would.
   */
  frozen?: boolean;
}

/** One side rendered in memory, and whether its lock had to be resolved again (`frozen: false` only). */
export interface RenderedSide {
  tree: RenderedTree;
  /** The side's capi.lock.yaml does not satisfy its config (or is missing): `capiform lock` would change it. */
  lockStale: boolean;
}

/** `HEAD (rendered)`, `working tree (rendered)`. */
export function renderedLabel(ref: string | undefined): string {
  return `${ref ?? 'working tree'} (rendered)`;
}

/** Renders the tree for `ref` (undefined = the working tree) in memory, frozen unless `ctx.frozen` is false. */
export async function renderTreeAt(ref: string | undefined, ctx: RenderAtContext): Promise<RenderedTree> {
  return (await renderSideAt(ref, ctx)).tree;
}

/** Renders the tree for `ref` (undefined = the working tree) in memory; says whether its lock was out of date. */
export async function renderSideAt(ref: string | undefined, ctx: RenderAtContext): Promise<RenderedSide> {
  const label = renderedLabel(ref);
  if (ref === undefined) return renderDir(ctx.root, ctx.configPath, label, ctx);
  const top = gitTopLevel(ctx.root);
  const commit = resolveCommit(top, ref);
  const prefix = relative(top, ctx.root).split(sep).join('/');
  let configRel: string | undefined;
  if (ctx.configPath !== undefined) {
    configRel = relative(top, ctx.configPath).split(sep).join('/');
    if (configRel.startsWith('../') || isAbsolute(configRel)) {
      throw new UsageError(`--config ${ctx.configPath} is outside the git repository ${top}, so it cannot be read at "${ref}"`, {
        hint: 'pass a config file that is committed in the repository, or compare two rendered directories',
      });
    }
  }
  const tmp = mkdtempSync(join(tmpdir(), 'capiform-diff-'));
  try {
    const inTree = (path: string): boolean => {
      const rel = prefix === '' ? path : path.startsWith(`${prefix}/`) ? path.slice(prefix.length + 1) : null;
      return rel !== null && (treeRoots as readonly string[]).includes(rel.split('/', 1)[0] ?? '');
    };
    // The rendered tree is left out: a render in memory never reads it.
    extractCommit(top, ref, commit, tmp, inTree);
    linkNodeModules(top, tmp);
    const root = prefix === '' ? tmp : join(tmp, ...prefix.split('/'));
    if (prefix !== '') linkNodeModules(ctx.root, root);
    if (configRel !== undefined && !existsSync(join(tmp, ...configRel.split('/')))) {
      throw new InputError(`${configRel} does not exist at "${ref}", so that side cannot be rendered`, {
        where: `${ref}:${configRel}`,
        hint: 'commit the config on that ref first, or compare the committed trees: capiform diff --base <ref> (without --render)',
      });
    }
    // Paths inside the temporary copy read as `<ref>:<path>` in messages.
    const at = { where: `${ref}:${prefix === '' ? '.' : prefix}`, rewrite: (text: string): string => text.split(`${tmp}${sep}`).join(`${ref}:`).split(tmp).join(`${ref}:.`) };
    return await renderDir(root, configRel === undefined ? undefined : join(tmp, ...configRel.split('/')), label, ctx, at);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * A TypeScript config imports packages (`capiform` itself is aliased, others are not): the ref's copy resolves them
 * from the working tree's node_modules, as a checkout of the ref next to it would.
 */
function linkNodeModules(from: string, to: string): void {
  const src = join(from, 'node_modules');
  const dest = join(to, 'node_modules');
  if (existsSync(src) && !existsSync(dest)) {
    try {
      symlinkSync(src, dest, 'junction');
    } catch {
      // no symlinks (a restricted file system): a config importing packages fails with the loader's message
    }
  }
}

async function renderDir(
  root: string,
  configPath: string | undefined,
  label: string,
  ctx: RenderAtContext,
  at?: { where: string; rewrite: (text: string) => string },
): Promise<RenderedSide> {
  const { loadConfig, findConfigFile } = await import('../../config/index.js');
  // Loaded when a side is rendered: reading committed trees needs none of the pipeline's stages.
  const { renderInMemory } = await import('../compositions.js');
  const env = ctx.env ?? {};
  try {
    if (at !== undefined && configPath === undefined) {
      try {
        findConfigFile(root);
      } catch {
        throw new InputError(`${label}: there is no capiform config (capi.config.ts, .mts, .js, .mjs, .json or .yaml) at ${at.where}`, {
          where: at.where,
          hint: 'compare with a ref that has a config (--base), or compare the committed trees: capiform diff --base <ref> (without --render)',
        });
      }
    }
    const config = await loadConfig({ cwd: root, ...(configPath !== undefined ? { configFile: configPath } : {}), env });
    if (ctx.bundleLock) checkBundleCarries(ctx.bundleLock, join(config.dir, lockFileName));
    const res = await renderInMemory({
      config,
      frozen: ctx.frozen ?? true,
      env,
      offline: ctx.offline ?? false,
      onProgress: ctx.onProgress,
      ...(ctx.repositories ? { repositories: ctx.repositories(config.dir) } : {}),
      ...(ctx.cache ? { cache: ctx.cache } : {}),
      ...(ctx.log ? { log: ctx.log } : {}),
    });
    const files = new Map<string, string>();
    for (const f of res.files) if (isTreeFile(f.path)) files.set(f.path, f.content);
    return { tree: { label, files: sortedFiles(files) }, lockStale: res.lockChanged };
  } catch (err) {
    // Say which side failed: the base and the head have their own config and lock.
    if (err instanceof CapiformError && !err.message.startsWith(`${label}: `)) {
      const r = at?.rewrite ?? ((t: string): string => t);
      Object.assign(err, { message: `${label}: ${r(err.message)}`, where: err.where && r(err.where), hint: err.hint && r(err.hint) });
    }
    throw err;
  }
}

/** Every release the side's lock pins must be in the bundle (built from one lock, it carries that lock's releases). */
function checkBundleCarries(bundle: Lock, lockPath: string): void {
  if (!existsSync(lockPath)) return; // the frozen render says a lock is missing
  const side = releaseLock(readLockFile(lockPath).lock, lockPath);
  const carried = new Map(bundle.providers.map((p) => [p.label, p.version]));
  if (bundle.certManager) carried.set('cert-manager', bundle.certManager.version);
  const pinned = side.providers.map((p) => [p.label, p.version] as const);
  if (side.certManager) pinned.push(['cert-manager', side.certManager.version]);
  const missing = pinned.filter(([label, version]) => carried.get(label) !== version);
  if (missing.length === 0) return;
  throw new ResolutionError(
    `the bundle does not carry ${missing.map(([l, v]) => `${l} ${v}`).join(', ')} (pinned by capi.lock.yaml; the bundle has ${missing.map(([l]) => `${l} ${carried.get(l) ?? 'none'}`).join(', ')})`,
    {
      where: lockPath,
      hint: 'a bundle carries the releases of the lock it was built from: build one from this lock, or compare the committed trees with `capiform diff --base <ref>`',
    },
    'E_BUNDLE_RELEASE_MISSING',
  );
}
