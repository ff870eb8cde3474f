/** `capiform affected --base REF [--json]`: the clusters a change affects, so CI renders and deploys only those. */
import type { Command } from 'commander';
import { resolve } from 'node:path';
import type { CliIO } from '../context.js';
import { requireFolder } from '../paths.js';
import { downloadProgress } from './pipeline-shared.js';

interface AffectedFlags {
  base: string;
  config?: string;
  root?: string;
  offline?: boolean;
}

export function registerAffected(program: Command, io: CliIO): void {
  program
    .command('affected')
    .description('list the clusters whose rendered output or topology-expanded state changes between a git ref and the working tree')
    .requiredOption('--base <ref>', 'git ref to compare the working tree with (e.g. origin/main)')
    .option('--config <file>', 'capi.config.* to use (default: discovered in the root); the same path is read at the ref')
    .option('--root <dir>', 'folder holding capi.config.* (default: the current directory)')
    .option('--offline', 'use only the cache and local repositories')
    .action(async (flags: AffectedFlags, cmd: Command) => {
      const globals = cmd.optsWithGlobals<{ json?: boolean; quiet?: boolean }>();
      const root = flags.root ? requireFolder(io.cwd, flags.root, '--root', 'pass the folder that holds capi.config.*') : resolve(io.cwd, '.');
      const { readSettled } = await import('../../pipeline/tree/index.js');
      const { lockFileName } = await import('../../lock/index.js');
      const { renderTreeAt } = await import('../../pipeline/review/index.js');
      const { affectedClusters, formatAffected } = await import('../../plan/affected/index.js');
      const ctx = {
        root,
        env: io.env,
        offline: flags.offline ?? false,
        onProgress: downloadProgress(io, globals),
        ...(flags.config ? { configPath: resolve(io.cwd, flags.config) } : {}),
      };
      // Both sides render frozen from their own config and lock; the working side from a lock no write is changing.
      const [base, head] = await readSettled(root, async () => [await renderTreeAt(flags.base, ctx), await renderTreeAt(undefined, ctx)] as const, lockFileName);
      const report = affectedClusters(base, head);
      if (globals.json) io.stdout(`${JSON.stringify(report, null, 2)}\n`);
      else {
        io.stdout(formatAffected(report));
        if (report.clusters.length === 0 && !globals.quiet) io.stderr(`no cluster is affected between ${flags.base} and the working tree\n`);
      }
    });
}
