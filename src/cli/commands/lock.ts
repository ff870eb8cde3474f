/** `capiform lock [--upgrade [names…]] [--contract <c>]`: resolve the config and write capi.lock.yaml. */
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { contractPattern } from '../../config/index.js';
import type { CliIO } from '../context.js';
import { withBundle } from './bundle-option.js';
import { lockTimeoutOption, asProjectWriter, downloadProgress, loadPipelineConfig, pipelineOptions, redacting } from './pipeline-shared.js';

export function registerLock(program: Command, io: CliIO): void {
  program
    .command('lock')
    .description('resolve provider versions and write capi.lock.yaml (versions, sources, sha256 of every file)')
    .option('--upgrade [names...]', 're-resolve all providers, or only those named (name or label)')
    .option('--contract <contract>', 'with --upgrade: move every provider to the versions `capiform plan upgrade` proposes for this contract')
    .option('--config <file>', 'capi.config.* to use (default: discovered in the current directory)')
    .option('--offline', 'use only the cache and local repositories')
    .option('--bundle <file>', 'read every provider release from this air-gapped bundle (no network, no cache)')
    .addOption(lockTimeoutOption())
    .action(async (local: { upgrade?: true | string[]; contract?: string; lockTimeout?: string }, cmd: Command) => {
      const { contract } = local;
      if (contract !== undefined) {
        if (!contractPattern.test(contract)) throw new UsageError(`--contract ${JSON.stringify(contract)} is not a contract such as "v1beta2"`);
        if (local.upgrade === undefined) {
          throw new UsageError('--contract can only be used with --upgrade', { hint: `capiform lock --upgrade --contract ${contract}` });
        }
      }
      const opts = pipelineOptions(cmd);
      const config = await loadPipelineConfig(io, opts);
      const { io: out, redactError } = await redacting(io, config);
      const { contractUpgradeVersions, lockProject } = await import('../../pipeline/index.js');
      const upgrade = local.upgrade === true ? 'all' : local.upgrade;
      try {
        const res = await asProjectWriter(io, config.dir, { ...opts, ...local }, 'lock', (repaired) => {
          if (repaired !== 'none' && !opts.quiet && !opts.json) out.stderr(`repaired an interrupted earlier render (${repaired} its staged changes)\n`);
          return withBundle(io, opts.bundle, config.dir, (b) =>
            lockProject({
              ...b,
              config,
              ...(upgrade ? { upgrade } : {}),
              ...(contract !== undefined ? { contract, planContract: contractUpgradeVersions } : {}),
              env: io.env,
              offline: opts.offline ?? false,
              onProgress: downloadProgress(out, opts),
              log: (l) => {
                if (!opts.quiet && !opts.json) out.stderr(`${l}\n`);
              },
            }),
          );
        });
        if (opts.json) {
          out.stdout(`${JSON.stringify({ changed: res.lockChanged, contract: res.lock.contract, providers: res.lock.providers.map((p) => ({ label: p.label, version: p.version, contract: p.contract })) }, null, 2)}\n`);
        } else if (!opts.quiet) {
          for (const p of res.lock.providers) out.stdout(`${p.label} ${p.version} (${p.contract})\n`);
          if (res.lock.certManager) out.stdout(`cert-manager ${res.lock.certManager.version}\n`);
          out.stdout(res.lockChanged ? 'wrote capi.lock.yaml\n' : 'capi.lock.yaml is up to date\n');
        }
      } catch (err) {
        throw redactError(err);
      }
    });
}
