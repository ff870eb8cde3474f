/** What `capiform lock` and `capiform render` share: loading the config and redacting credentials from output. */
import { Option, type Command } from 'commander';
import { CapiformError, UsageError } from '../../errors.js';
import type { ResolvedConfig } from '../../config/index.js';
import type { CliIO } from '../context.js';
import type { ContractFinding } from '../../pipeline/index.js';
import { progressMode, progressReporter, type ProgressListener } from '../../resolve/http/index.js';
import { defaultLockTimeoutSeconds, withProjectLock, type Repair } from '../../pipeline/tree/index.js';

export interface PipelineCliOptions {
  config?: string;
  offline?: boolean;
  bundle?: string;
  /** With `--bundle`: the public key its signature must verify with. */
  key?: string;
  json?: boolean;
  quiet?: boolean;
}

export function pipelineOptions(cmd: Command): PipelineCliOptions {
  return cmd.optsWithGlobals<PipelineCliOptions>();
}

export async function loadPipelineConfig(io: CliIO, opts: PipelineCliOptions): Promise<ResolvedConfig> {
  const { loadConfig } = await import('../../config/index.js');
  return loadConfig({ cwd: io.cwd, ...(opts.config ? { configFile: opts.config } : {}), env: io.env });
}

/** Output and errors with every credential value of the config replaced by `***`. */
export async function redacting(io: CliIO, config: ResolvedConfig): Promise<{ io: CliIO; redactError: (err: unknown) => unknown }> {
  const { redact, secretValues } = await import('../../config/index.js');
  const values = secretValues(config);
  const r = (t: string): string => redact(t, values);
  return {
    io: { ...io, stdout: (t) => io.stdout(r(t)), stderr: (t) => io.stderr(r(t)) },
    redactError: (err) => {
      if (err instanceof CapiformError) {
        Object.assign(err, { message: r(err.message), where: err.where && r(err.where), hint: err.hint && r(err.hint) });
      }
      return err;
    },
  };
}

export function shortList(paths: readonly string[], max = 20): string {
  const shown = paths.slice(0, max).map((p) => `  ${p}\n`);
  if (paths.length > max) shown.push(`  … and ${paths.length - max} more\n`);
  return shown.join('');
}

/**
 * Download progress for commands that fetch provider releases: an updating line on stderr when stderr is a terminal,
 * nothing with `--quiet`, in CI (`CI` set) or when stderr is not a terminal, and with `--json` one JSON object per
 * finished download on stderr (stdout carries the command's own JSON document, which must stay one valid document).
 */
export function downloadProgress(io: CliIO, opts: { json?: boolean; quiet?: boolean }): ProgressListener | undefined {
  const mode = progressMode({ json: opts.json ?? false, quiet: opts.quiet ?? false, isTTY: io.isTTY, env: io.env });
  return progressReporter(mode, (t) => io.stderr(t));
}

/** `--lock-timeout <seconds>` for the commands that write the project (render, lock, bundle). */
export function lockTimeoutOption(): Option {
  return new Option('--lock-timeout <seconds>', `how long to wait while another capiform writes this project (default ${defaultLockTimeoutSeconds})`);
}

/** The parsed `--lock-timeout`, or the default. */
function lockTimeoutSeconds(value: string | undefined): number {
  if (value === undefined) return defaultLockTimeoutSeconds;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0) {
    throw new UsageError(`--lock-timeout ${JSON.stringify(value)} is not a number of seconds`, { where: '--lock-timeout', hint: '--lock-timeout 120 (0: do not wait)' });
  }
  return n;
}

/**
 * Runs `fn` as the project's only writer (see pipeline/tree/project-lock.ts); the waiting notice goes to stderr unless
 * `--quiet`.
 */
export async function asProjectWriter<T>(
  io: CliIO,
  dir: string,
  opts: PipelineCliOptions & { lockTimeout?: string },
  command: string,
  fn: (repaired: Repair) => Promise<T>,
  extra: { noRepair?: boolean } = {},
): Promise<T> {
  return withProjectLock(
    dir,
    {
      command: `capiform ${command}`,
      timeoutSeconds: lockTimeoutSeconds(opts.lockTimeout),
      env: io.env,
      ...(extra.noRepair ? { noRepair: true } : {}),
      ...(opts.quiet ? {} : { notice: (l: string) => io.stderr(`${l}\n`) }),
    },
    fn,
  );
}

const count = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** `lock --json` (and `render --json` that re-locked): the provider-contract lint's result. */
export function contractSummary(findings: readonly ContractFinding[]): { errors: number; warnings: number; findings: readonly ContractFinding[] } {
  return { errors: findings.filter((f) => f.severity === 'error').length, warnings: findings.filter((f) => f.severity === 'warning').length, findings };
}

/**
 * The provider-contract lint on stderr: one summary line per provider release with findings (its counts and rules);
 * `validate --contract` lists each finding. `--quiet` keeps the releases with MUST violations, and only those.
 * Findings do not fail the run unless the config says `contractLint: "strict"` (then it failed before this).
 */
export function printContractFindings(io: CliIO, findings: readonly ContractFinding[], quiet: boolean): void {
  const shown = quiet ? findings.filter((f) => f.severity === 'error') : findings;
  const releases = new Map<string, ContractFinding[]>();
  for (const f of shown) {
    const [label = '', version = ''] = f.file.split('/');
    const key = `${f.target === undefined ? '' : `${f.target}: `}${label} ${version}`;
    releases.set(key, [...(releases.get(key) ?? []), f]);
  }
  for (const [release, list] of releases) {
    const errors = list.filter((f) => f.severity === 'error').length;
    const warnings = list.length - errors;
    const counts = [...(errors > 0 || warnings === 0 ? [count(errors, 'error')] : []), ...(warnings > 0 ? [count(warnings, 'warning')] : [])].join(', ');
    const byRule = new Map<string, number>();
    for (const f of list) byRule.set(f.rule ?? '', (byRule.get(f.rule ?? '') ?? 0) + 1);
    const rules = [...byRule].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1)).map(([r, n]) => `${r} ×${n}`).join(', ');
    io.stderr(
      `provider contract: ${release}: ${counts} (${rules}); locked anyway (contractLint: "strict" refuses MUST violations, "off" skips the lint); \`capiform validate --contract\` lists each finding\n`,
    );
  }
}
