/** `capiform validate [PATH…] [--schemas PATH]… [--json]`: manifests checked against the CRDs they are applied with. */
import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { CliIO, GlobalOptions } from '../context.js';
import { setExitCode } from '../exit-status.js';
import { formatFinding, type ValidationReport } from '../../validate/index.js';
import type { ResolvedConfig } from '../../config/index.js';
import type { LockedVariableUse } from '../../pipeline/index.js';
import { redacting } from './pipeline-shared.js';

interface ValidateOptions {
  schemas?: string[];
  config?: string;
  contract?: boolean;
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

export function registerValidate(program: Command, io: CliIO): void {
  program
    .command('validate')
    .description('check manifests against the CRDs they are applied with (schema, unknown fields, CEL rules); exit 1 when invalid')
    .argument('[paths...]', 'YAML files or folders (default: the rendered tree of the project)')
    .option('--schemas <path>', 'more CRDs (provider components) or Kubernetes OpenAPI v3 documents; repeatable', collect)
    .option('--contract', 'lint provider releases (PATHs: release folders or a local repository; default: the locked providers) against the provider contract')
    .option('--config <file>', 'capi.config.* of the project (default: discovered in the current directory)')
    .action(async (paths: string[], local: ValidateOptions, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions & ValidateOptions>();
      const { lintProviderContracts, providerConfigPathsOf, providerVariablesOf, validateProject } = await import('../../pipeline/validate/index.js');
      let projectDir: string | undefined;
      let providerConfigPaths: ReturnType<typeof providerConfigPathsOf> | undefined;
      let providerVariables: ReturnType<typeof providerVariablesOf> | undefined;
      let config: ResolvedConfig | undefined;
      if (paths.length === 0 || local.config) {
        const { loadPipelineConfig } = await import('./pipeline-shared.js');
        config = await loadPipelineConfig(io, { ...(local.config ? { config: local.config } : {}) });
        projectDir = config.dir;
        providerConfigPaths = providerConfigPathsOf(config);
        providerVariables = providerVariablesOf(config);
      } else if (existsSync(join(io.cwd, 'providers'))) projectDir = io.cwd;
      if (local.contract) {
        const report = lintProviderContracts({ cwd: io.cwd, paths, ...(projectDir ? { projectDir } : {}) });
        if (g.json) io.stdout(`${JSON.stringify({ valid: report.errors === 0, errors: report.errors, warnings: report.warnings, releases: report.releases, skipped: report.skipped, findings: report.findings }, null, 2)}\n`);
        else {
          printFindings(io, report, g.quiet ?? false);
          if (!g.quiet) {
            io.stderr(`${plural(report.errors, 'error')}, ${plural(report.warnings, 'warning')} in ${plural(report.releases.length, 'release')}\n`);
            if (report.skipped.length > 0) io.stderr(`not linted (not in a local folder): ${report.skipped.join(', ')}\n`);
          }
        }
        if (report.errors > 0) setExitCode(cmd, 1);
        return;
      }
      const report = validateProject({ cwd: io.cwd, paths, schemas: local.schemas ?? [], ...(projectDir ? { projectDir } : {}), ...(providerConfigPaths ? { providerConfigPaths } : {}), ...(providerVariables ? { providerVariables } : {}) });
      // The config's variables nothing reads, as `render` and `lock` warn (from the lock and the cache, offline).
      const variables = config ? await unusedVariablesOf(io, config) : undefined;
      if (g.json) io.stdout(`${JSON.stringify({ ...jsonReport(report), ...variableReport(variables) }, null, 2)}\n`);
      else {
        if (variables && !g.quiet) {
          const out = (await redacting(io, config!)).io;
          const { unusedVariableMessage } = await import('../../render/index.js');
          if ('skipped' in variables) out.stderr(`note: unused-variables check skipped: ${variables.skipped}\n`);
          else for (const u of variables.unused) out.stderr(`${unusedVariableMessage(u)}\n`);
        }
        printReport(io, report, g.quiet ?? false);
      }
      if (report.errors > 0) setExitCode(cmd, 1);
    });
}

async function unusedVariablesOf(io: CliIO, config: ResolvedConfig): Promise<LockedVariableUse> {
  const { lockedUnusedVariables } = await import('../../pipeline/index.js');
  return lockedUnusedVariables({ config, env: io.env });
}

function variableReport(v: LockedVariableUse | undefined): Record<string, unknown> {
  if (v === undefined) return {};
  if ('skipped' in v) return { unusedVariablesSkipped: v.skipped };
  return v.unused.length > 0 ? { unusedVariables: v.unused } : {};
}

function jsonReport(r: ValidationReport): Record<string, unknown> {
  return { valid: r.errors === 0, errors: r.errors, warnings: r.warnings, objects: r.objects, checked: r.checked, unchecked: r.unchecked, findings: r.findings };
}

const plural = (n: number, w: string): string => `${n} ${w}${n === 1 ? '' : 's'}`;

function printFindings(io: CliIO, r: Pick<ValidationReport, 'findings'>, quiet: boolean): void {
  for (const f of r.findings) {
    if (quiet && f.severity !== 'error') continue;
    io.stdout(`${formatFinding(f)}\n`);
  }
}

function printReport(io: CliIO, r: ValidationReport, quiet: boolean): void {
  printFindings(io, r, quiet);
  if (quiet) return;
  io.stderr(`${plural(r.errors, 'error')}, ${plural(r.warnings, 'warning')} in ${plural(r.objects, 'object')} (${r.checked} checked against a schema)\n`);
  if (r.unchecked.length > 0) {
    io.stderr(`not checked (no schema for these built-in kinds; pass a Kubernetes OpenAPI v3 document with --schemas): ${r.unchecked.join(', ')}\n`);
  }
}
