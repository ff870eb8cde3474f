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
import { defaultMaxSize, formatMarkdown, formatText, type DiffReport } from '../../plan/diff/index.js';
import { bundleRepository } from '../../bundle/index.js';
import { parseShard, treeRoots } from '../../render/index.js';
import { withBundle } from './bundle-option.js';
import { downloadProgress } from './pipeline-shared.js';

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
    .option('--offline', 'when a side is rendered (--render, or a config change whose tree was not re-rendered): use only the cache and local repositories')
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
          const { gitTopLevel } = await import('../../pipeline/review/index.js');
          const top = gitTopLevel(root);
          if (hasTree(top)) root = top;
        } catch {
          // not a git repository: the errors below say what is missing
        }
      }
      const secretValues: Record<string, string> = {};
      const warnings: string[] = [];
      for (const name of flags.secretVar) {
        const value = io.env[name];
        if (value) secretValues[name] = value;
        else warnings.push(`--secret-var ${name}: not set in the environment, so its value cannot be recognised in the tree`);
      }
      const { reviewChange } = await import('../../pipeline/review/index.js');
      const sides = {
        env: io.env,
        offline: flags.offline ?? false,
        onProgress: downloadProgress(io, cmd.optsWithGlobals()),
        ...(flags.config ? { configPath: resolve(io.cwd, flags.config) } : {}),
      };
      const report: DiffReport = await withBundle(io, flags.bundle, root, (opts, bundle) =>
        reviewChange({
          root,
          ...(dirs.length === 2 ? { dirs: [{ path: resolve(io.cwd, dirs[0]!), label: dirs[0]! }, { path: resolve(io.cwd, dirs[1]!), label: dirs[1]! }] as const, saltDir: io.cwd } : {}),
          ...(flags.base !== undefined ? { base: flags.base } : {}),
          render: flags.render ?? false,
          sides: bundle
            ? { ...sides, bundleLock: bundle.lock, repositories: (configDir: string) => (p: Parameters<typeof bundleRepository>[3]) => bundleRepository(bundle.dir, bundle.lock, configDir, p), ...(opts.cache ? { cache: opts.cache } : {}) }
            : sides,
          ...(flags.target !== undefined ? { target: flags.target } : {}),
          ...(flags.shard !== undefined ? { shard: flags.shard } : {}),
          secretValues,
        }),
      );
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
