/** `capiform render [--check] [--frozen] [--target NAME] [--shard I/N]`: config + lock → the committed tree. */
import type { Command } from 'commander';
import { DifferencesFound } from '../../errors.js';
import type { CliIO } from '../context.js';
import { setExitCode } from '../exit-status.js';
import { withBundle } from './bundle-option.js';
import { contractSummary, lockTimeoutOption, asProjectWriter, downloadProgress, loadPipelineConfig, pipelineOptions, printContractFindings, redacting, shortList } from './pipeline-shared.js';

export function registerRender(program: Command, io: CliIO): void {
  program
    .command('render')
    .description('render providers/, clusters/ (and argocd/) from capi.config.* and capi.lock.yaml')
    .option('--check', 'write nothing; exit 1 listing the files that differ from what would be rendered')
    .option('--frozen', 'never change capi.lock.yaml; fail when the config no longer matches it (CI)')
    .option('--config <file>', 'capi.config.* to use (default: discovered in the current directory)')
    .option('--offline', 'use only the cache and local repositories')
    .option('--bundle <file>', 'read every provider release from this air-gapped bundle (no network, no cache)')
    .option('--key <file>', 'with --bundle: refuse the bundle unless <bundle>.sig and <bundle>.intoto.jsonl are signatures by this PEM public key')
    .option('--shard <I/N>', 'render (or check) only shard I of N: the clusters hashed to it; shard 1 also providers, ClusterClasses and Argo CD glue')
    .option('--target <name>', 'a fleet: render (or check) only this management cluster: targets/<name>/ and its lock section')
    .option('--no-validate', 'write the tree without checking the rendered clusters against their CRDs')
    .addOption(lockTimeoutOption())
    .action(async (local: { check?: boolean; frozen?: boolean; lockTimeout?: string; shard?: string; target?: string; validate?: boolean }, cmd: Command) => {
      const opts = pipelineOptions(cmd);
      const { parseShard } = await import('../../render/index.js');
      const shard = local.shard === undefined ? undefined : parseShard(local.shard);
      const config = await loadPipelineConfig(io, opts);
      const { io: out, redactError } = await redacting(io, config);
      const { checkProject, checkTarget, renderProject } = await import('../../pipeline/index.js');
      // Before the writer lock is taken: a wrong name writes nothing.
      if (local.target !== undefined) checkTarget(config, local.target);
      const target = local.target === undefined ? {} : { target: local.target };
      const { readSettled } = await import('../../pipeline/tree/index.js');
      const { lockFileName } = await import('../../lock/index.js');
      const say = (l: string): void => {
        if (!opts.quiet && !opts.json) out.stderr(`${l}\n`);
      };
      try {
        const compose = local.check ? checkProject : renderProject;
        const run = (): ReturnType<typeof compose> =>
          withBundle(io, opts.bundle, config.dir, (b) => compose({ ...b, config, frozen: local.frozen ?? false, ...target, ...(shard ? { shard } : {}), validate: local.validate !== false, env: io.env, offline: opts.offline ?? false, onProgress: downloadProgress(out, opts), log: say }), opts.key);
        // --check only reads: it takes no lock, but compares against one completed write, never a half-swapped tree.
        const res = local.check
          ? await readSettled(config.dir, run, lockFileName)
          : await asProjectWriter(io, config.dir, { ...opts, ...local }, 'render', async (repaired) => {
              const r = await run();
              return r.repaired === 'none' ? { ...r, repaired } : r;
            });
        const ch = res.changes!;
        const findings = res.contractFindings ?? [];
        const differing = [...ch.added, ...ch.changed, ...ch.removed].sort();
        if (local.check && res.lockChanged) differing.unshift('capi.lock.yaml');
        if (opts.json) {
          out.stdout(
            `${JSON.stringify(
              { check: Boolean(local.check), ...target, ...(shard ? { shard: `${shard.index}/${shard.count}` } : {}), upToDate: differing.length === 0, lock: { changed: res.lockChanged, written: res.lockWritten }, ...ch, omitted: res.omitted, repaired: res.repaired, ...(findings.length > 0 ? { contractLint: contractSummary(findings) } : {}), ...((res.unusedVariables ?? []).length > 0 ? { unusedVariables: res.unusedVariables } : {}) },
              null,
              2,
            )}\n`,
          );
        }
        if (!opts.json) printContractFindings(out, findings, opts.quiet ?? false);
        if (res.repaired !== 'none') say(`repaired an interrupted earlier render (${res.repaired} its staged changes)`);
        if (res.omitted.length > 0 && !opts.json && !opts.quiet) {
          out.stderr('objects left out because they would hold credentials; provision them by other means (external-secrets, SOPS):\n');
          for (const o of res.omitted) out.stderr(`  ${o.object} (${o.file}; ${o.variables.join(', ')})\n`);
        }
        if (local.check) {
          if (differing.length > 0) {
            if (!opts.json) out.stderr(`${new DifferencesFound('the rendered tree is out of date').message}:\n${shortList(differing)}run \`capiform render\` and commit the result\n`);
            setExitCode(cmd, 1);
          } else if (!opts.json && !opts.quiet) out.stdout('tree is up to date\n');
          return;
        }
        if (!opts.json && !opts.quiet) {
          if (res.lockWritten) out.stdout('wrote capi.lock.yaml\n');
          out.stdout(
            differing.length === 0
              ? `tree is up to date (${res.files.length} files)\n`
              : `rendered ${res.files.length} files: ${ch.added.length} added, ${ch.changed.length} changed, ${ch.removed.length} removed\n`,
          );
        }
      } catch (err) {
        throw redactError(err);
      }
    });
}
