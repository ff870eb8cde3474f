/** `capiform diff`: what a change to the rendered tree does, object by object, with its CAPI rollout impact. */
import { Option, type Command } from 'commander';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CliIO } from '../context.js';
import { colorLevel } from '../colors.js';
import { setExitCode } from '../exit-status.js';
import { requireFolder, requireWritableFile } from '../paths.js';
import { writeFileAtomic } from '../../cache/index.js';
import { ExitCode, UsageError } from '../../errors.js';
import {
  defaultMaxSize,
  diffTrees,
  gitTopLevel,
  formatMarkdown,
  formatText,
  readTreeFromDir,
  readTreeFromGit,
  renderTreeAt,
  repositorySalt,
  type DiffReport,
  type RenderAtContext,
  type RenderedTree,
  topologyScope,
} from '../../plan/diff/index.js';
import { bundleRepository } from '../../bundle/index.js';
import { parseShard, pathInShard, treeRoots } from '../../render/index.js';
import { withBundle } from './bundle-option.js';
import { downloadProgress } from './pipeline-shared.js';
import { lockFileName } from '../../lock/index.js';
import { readSettled } from '../../pipeline/tree/index.js';

interface DiffFlags {
  base?: string;
  render?: boolean;
  format: 'text' | 'markdown' | 'json';
  exitCode?: boolean;
  template?: string;
  maxSize?: string;
  secretVar: string[];
  root?: string;
  jsonOut?: string;
  config?: string;
  bundle?: string;
  offline?: boolean;
  shard?: string;
  target?: string;
}

function hasTree(dir: string): boolean {
  return treeRoots.some((t) => existsSync(join(dir, t)));
}

/** Colours as every printer decides them (../colors.ts), for stdout. */
function useColor(io: CliIO): boolean {
  return colorLevel(io.env, io.stdoutIsTTY ?? io.isTTY) > 0;
}

export function registerDiff(program: Command, io: CliIO): void {
  program
    .command('diff')
    .description('compare two rendered trees object by object, with the CAPI rollout impact of every change')
    .argument('[dirs...]', 'two tree directories to compare (BASE HEAD) instead of a git ref')
    .option('--base <ref>', 'git ref to compare the working tree with (default: HEAD)')
    .option('--render', 'render both sides from their config and lock instead of reading committed trees')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'markdown', 'json']).default('text'))
    .option('--exit-code', 'exit with 1 when anything changed')
    .option('--template <dir>', 'folder with comment.hbs / object.hbs overriding the markdown layout')
    .option('--max-size <n>', `markdown size limit in characters (default ${defaultMaxSize})`)
    .option('--secret-var <name>', 'variable whose value (read from the environment) is never shown; repeatable', (v: string, acc: string[]) => [...acc, v], [] as string[])
    .option('--root <dir>', 'folder holding providers/ and clusters/ (default: the current directory)')
    .option('--json-out <file>', 'also write the full JSON report to this file (for CI artifacts)')
    .option('--config <file>', 'capi.config.* for --render (default: discovered in the tree root)')
    .option('--bundle <file>', 'with --render (implied): read every provider release from this air-gapped bundle (no network, no cache)')
    .option('--offline', 'with --render: use only the cache and local repositories')
    .option('--shard <I/N>', 'compare only the files shard I of N owns (its clusters; shard 1 also everything else)')
    .option('--target <name>', "a fleet: compare only this management cluster's files (targets/<name>/, and the fleet's own argocd/)")
    .action(async (dirs: string[], flags: DiffFlags, cmd: Command) => {
      const globals = cmd.optsWithGlobals<{ json?: boolean }>();
      const format = globals.json ? 'json' : flags.format;
      let maxSize = defaultMaxSize;
      if (flags.maxSize !== undefined) {
        maxSize = Number(flags.maxSize);
        if (!Number.isInteger(maxSize) || maxSize < 1000) {
          throw new UsageError(`invalid --max-size "${flags.maxSize}": expected a whole number of characters ≥ 1000`, { hint: '--max-size 60000' });
        }
      }
      if (dirs.length !== 0 && dirs.length !== 2) {
        throw new UsageError(`capiform diff takes two directories (BASE HEAD) or none, got ${dirs.length}`, { hint: 'capiform diff old-tree/ new-tree/   or   capiform diff --base origin/main' });
      }
      if (dirs.length === 2 && flags.bundle !== undefined) {
        throw new UsageError('--bundle renders both sides from their config and lock; it does not apply to two tree directories', {
          hint: 'capiform diff --bundle FILE [--base <ref>]   or   capiform diff DIR_A DIR_B',
        });
      }
      // A bundle only serves rendering: `--bundle` implies `--render`.
      if (flags.bundle !== undefined) flags.render = true;
      if (dirs.length === 2 && (flags.base !== undefined || flags.render)) {
        throw new UsageError('pass either two directories or --base/--render, not both', { hint: 'capiform diff DIR_A DIR_B   or   capiform diff --base origin/main' });
      }
      if (flags.shard !== undefined) parseShard(flags.shard);
      if (flags.jsonOut) requireWritableFile(io.cwd, flags.jsonOut, '--json-out');
      let root = flags.root ? requireFolder(io.cwd, flags.root, '--root', 'pass the folder that holds providers/ and clusters/') : resolve(io.cwd, '.');
      // Run from a sub-folder of the repository: use the repository's top level when it holds the tree.
      if (!flags.root && dirs.length === 0 && !hasTree(root)) {
        try {
          const top = gitTopLevel(root);
          if (hasTree(top)) root = top;
        } catch {
          // not a git repository: the errors below say what is missing
        }
      }
      let base: RenderedTree;
      let head: RenderedTree;
      let allowEmptyBase = true;
      if (dirs.length === 2) {
        const [a, b] = dirs.map((d) => resolve(io.cwd, d));
        base = await readSettled(a!, () => readTreeFromDir(a!, dirs[0]));
        head = await readSettled(b!, () => readTreeFromDir(b!, dirs[1]));
        allowEmptyBase = false;
      } else if (flags.render) {
        const { renderInMemory } = await import('../../pipeline/index.js');
        const ctx: RenderAtContext = {
          render: renderInMemory,
          root,
          env: io.env,
          offline: flags.offline ?? false,
          onProgress: downloadProgress(io, cmd.optsWithGlobals()),
          ...(flags.config ? { configPath: resolve(io.cwd, flags.config) } : {}),
        };
        // The working side renders from the lock on disk: one a completed write left, never a half-swapped one.
        [base, head] = await readSettled(
          root,
          () =>
            withBundle(io, flags.bundle, root, async (opts, bundle) => {
              const sides: RenderAtContext = bundle
                ? { ...ctx, bundleLock: bundle.lock, repositories: (configDir) => (p) => bundleRepository(bundle.dir, bundle.lock, configDir, p), ...(opts.cache ? { cache: opts.cache } : {}) }
                : ctx;
              return [await renderTreeAt(flags.base ?? 'HEAD', sides), await renderTreeAt(undefined, sides)] as const;
            }),
          lockFileName,
        );
      } else {
        base = readTreeFromGit(root, flags.base ?? 'HEAD');
        head = await readSettled(root, () => readTreeFromDir(root, 'working tree'));
      }
      if (flags.target !== undefined) {
        const own = targetFiles(flags.target, base, head);
        base = own(base);
        head = own(head);
      }
      if (flags.shard !== undefined) {
        const shard = parseShard(flags.shard);
        const own = (t: RenderedTree): RenderedTree => ({ ...t, files: new Map([...t.files].filter(([p]) => pathInShard(shard, p))) });
        base = own(base);
        head = own(head);
      }
      const secretValues: Record<string, string> = {};
      const warnings: string[] = [];
      for (const name of flags.secretVar) {
        const value = io.env[name];
        if (value) secretValues[name] = value;
        else warnings.push(`--secret-var ${name}: not set in the environment, so its value cannot be recognised in the tree`);
      }
      // The ClusterClass review loads the topology engine only when a change reaches a topology Cluster or class.
      const topology = topologyScope(base.files, head.files) ? (await import('../../plan/topology/index.js')).reviewTreeTopology : undefined;
      const report: DiffReport = diffTrees(base, head, { salt: repositorySalt(dirs.length === 2 ? io.cwd : root, io.env), secretValues, allowEmptyBase, ...(topology ? { topology } : {}) });
      report.warnings.push(...warnings);
      if (flags.jsonOut) writeFileAtomic(resolve(io.cwd, flags.jsonOut), `${JSON.stringify(report, null, 2)}\n`);
      if (format === 'json') io.stdout(`${JSON.stringify(report, null, 2)}\n`);
      else if (format === 'markdown') {
        const fullReport = flags.jsonOut ? `The full report is in \`${flags.jsonOut}\`.` : undefined;
        io.stdout(formatMarkdown(report, { maxSize, ...(flags.template ? { templateDir: resolve(io.cwd, flags.template) } : {}), ...(fullReport ? { fullReport } : {}) }));
      } else io.stdout(formatText(report, { color: useColor(io) }));
      if (flags.exitCode && report.changed) setExitCode(cmd, ExitCode.differences);
    });
}

/**
 * `diff --target NAME`: only the files under `targets/<NAME>/` (and the fleet's own). The name must be a management cluster of one of the
 * two trees (a tree on disk or in git has no config to ask).
 */
function targetFiles(target: string, base: RenderedTree, head: RenderedTree): (t: RenderedTree) => RenderedTree {
  const names = new Set<string>();
  for (const t of [base, head]) for (const p of t.files.keys()) if (p.startsWith('targets/')) names.add(p.split('/')[1]!);
  if (names.size === 0) {
    throw new UsageError(`--target ${target}: neither tree is a fleet's (no targets/ folder)`, { hint: 'drop --target: the trees have one management cluster' });
  }
  if (!names.has(target)) {
    throw new UsageError(`--target ${target}: no such management cluster in either tree`, { hint: `use one of: ${[...names].sort().join(', ')}` });
  }
  // The fleet's own files (its one ApplicationSet) belong to every management cluster, as `render --target` has them.
  const prefix = `targets/${target}/`;
  return (t) => ({ ...t, files: new Map([...t.files].filter(([p]) => p.startsWith(prefix) || !p.startsWith('targets/'))) });
}
