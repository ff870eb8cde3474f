/** `capiform lock [--upgrade [names…]] [--contract <c>]`: resolve the config and write capi.lock.yaml. */
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { contractPattern } from '../../config/index.js';
import type { Lock } from '../../lock/index.js';
import type { CliIO } from '../context.js';
import { withBundle } from './bundle-option.js';
import { contractSummary, lockTimeoutOption, asProjectWriter, downloadProgress, loadPipelineConfig, pipelineOptions, printContractFindings, redacting } from './pipeline-shared.js';

export function registerLock(program: Command, io: CliIO): void {
  program
    .command('lock')
    .description('resolve provider versions and write capi.lock.yaml (versions, sources, sha256 of every file)')
    .option('--upgrade [names...]', 're-resolve all providers, or only those named (name or label)')
    .option('--target <name>', 'a fleet: upgrade only this management cluster (its lock section; the others stay as locked)')
    .option('--contract <contract>', 'with --upgrade: move every provider to the versions `capiform plan upgrade` proposes for this contract')
    .option('--config <file>', 'capi.config.* to use (default: discovered in the current directory)')
    .option('--offline', 'use only the cache and local repositories')
    .option('--bundle <file>', 'read every provider release from this air-gapped bundle (no network, no cache)')
    .addOption(lockTimeoutOption())
    .action(async (local: { upgrade?: true | string[]; contract?: string; target?: string; lockTimeout?: string }, cmd: Command) => {
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
      const { isFleetLock } = await import('../../lock/index.js');
      const upgrade = local.upgrade === true ? 'all' : local.upgrade;
      try {
        const res = await asProjectWriter(io, config.dir, { ...opts, ...local }, 'lock', (repaired) => {
          if (repaired !== 'none' && !opts.quiet && !opts.json) out.stderr(`repaired an interrupted earlier render (${repaired} its staged changes)\n`);
          return withBundle(io, opts.bundle, config.dir, (b) =>
            lockProject({
              ...b,
              config,
              ...(upgrade ? { upgrade } : {}),
              ...(local.target !== undefined ? { target: local.target } : {}),
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
        const findings = res.contractFindings ?? [];
        const sections = isFleetLock(res.lock) ? [...res.lock.targets] : [[undefined, res.lock] as const];
        const summary = (l: Lock) => ({
          contract: l.contract,
          providers: l.providers.map((p) => ({ label: p.label, version: p.version, contract: p.contract })),
          ...(l.templatePins ? { templatePins: l.templatePins.map((t) => ({ label: t.label, constraint: t.constraint, version: t.version })) } : {}),
        });
        if (opts.json) {
          const body = isFleetLock(res.lock)
            ? { targets: Object.fromEntries([...res.lock.targets].map(([name, l]) => [name, summary(l)])) }
            : summary(res.lock);
          out.stdout(`${JSON.stringify({ changed: res.lockChanged, ...body, contractLint: contractSummary(findings), ...((res.unusedVariables ?? []).length > 0 ? { unusedVariables: res.unusedVariables } : {}) }, null, 2)}\n`);
        } else {
          printContractFindings(out, findings, opts.quiet ?? false);
        }
        if (!opts.json && !opts.quiet) {
          for (const [name, l] of sections) {
            const at = name === undefined ? '' : `${name}: `;
            for (const p of l.providers) out.stdout(`${at}${p.label} ${p.version} (${p.contract})\n`);
            if (l.certManager) out.stdout(`${at}cert-manager ${l.certManager.version}\n`);
            for (const t of l.templatePins ?? []) out.stdout(`${at}${t.label} ${t.version} templates (templateVersion "${t.constraint}")\n`);
          }
          out.stdout(res.lockChanged ? 'wrote capi.lock.yaml\n' : 'capi.lock.yaml is up to date\n');
        }
      } catch (err) {
        throw redactError(err);
      }
    });
}
