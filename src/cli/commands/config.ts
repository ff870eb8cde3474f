/** `capiform config repositories [-o text|yaml] [--config clusterctl.yaml]`: clusterctl's command, same output. */
import type { Command } from 'commander';
import { loadClusterctlConfig } from '../../config/clusterctl/index.js';
import { UsageError } from '../../errors.js';
import { formatRepositoriesText, formatRepositoriesYaml, listProviders, splitUrl } from '../../resolve/index.js';
import type { CliIO, GlobalOptions } from '../context.js';

export function registerConfig(program: Command, io: CliIO): void {
  const config = program
    .command('config')
    .description("Display provider configuration (clusterctl's `config` command)");
  config
    .command('repositories')
    .description('Display the list of providers and their repository configurations')
    .option('-o, --output <format>', 'output format: text or yaml', 'text')
    .option('--config <path>', "path to clusterctl's configuration file (default: clusterctl's default locations)")
    .action((opts: { output: string; config?: string }, cmd: Command) => {
      const globals = cmd.optsWithGlobals<GlobalOptions>();
      if (opts.output !== 'text' && opts.output !== 'yaml') {
        throw new UsageError(`invalid output format "${opts.output}", valid values: [text yaml]`, {
          where: '--output',
          hint: 'use -o text or -o yaml',
        });
      }
      const cfg = loadClusterctlConfig({ path: opts.config, env: io.env, cwd: io.cwd });
      const list = listProviders(cfg.providers);
      if (globals.json) {
        const rows = list.map((p) => ({ name: p.name, type: p.type, ...splitUrlFields(p.url) }));
        io.stdout(`${JSON.stringify(rows, null, 2)}\n`);
        return;
      }
      io.stdout(opts.output === 'yaml' ? formatRepositoriesYaml(list) : formatRepositoriesText(list));
    });
}

function splitUrlFields(url: string): { url: string; file: string } {
  const { dir, file } = splitUrl(url);
  return { url: dir, file };
}
