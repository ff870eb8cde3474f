/**
 * The provider-contract lint at lock time: every provider `lock` resolved is checked on the release files the lock
 * pins (its components, metadata.yaml and the templates the clusters use), with the rules of `validate --contract`
 * (but for `template.topology-class`, which needs the whole release: a class file the lock does not pin may exist).
 * Real releases break MUST rules (CAPA's contract labels, CAPZ's template names), so by default the findings are only
 * reported; `contractLint: "strict"` turns a MUST violation into a failed lock. Findings never change the lock.
 */
import type { ResolvedConfig } from '../config/index.js';
import { InputError } from '../errors.js';
import type { Finding } from '../validate/index.js';
import { decodeUtf8 } from '../yaml/index.js';
import type { ResolvedProject } from './resolve-stage.js';
import type { ContractFinding } from './types.js';

/**
 * Lints the providers of `resolved` (cert-manager is no CAPI provider). Reads through the artifact store, which has
 * the bytes already: `lock` read every file it pins.
 */
export async function lintResolvedProviders(config: ResolvedConfig, resolved: ResolvedProject): Promise<ContractFinding[]> {
  if ((config.contractLint ?? 'warn') === 'off') return [];
  // Loaded only here: the validate layer's door also brings the schema and CEL checks.
  const { lintProviderRelease, sortFindings } = await import('../validate/index.js');
  const { store } = resolved;
  const findings: Finding[] = [];
  for (const r of resolved.resolution.providers) {
    const source = { label: r.provider.label, repo: r.repo };
    const files: Array<{ name: string; text: string }> = [];
    for (const { name } of store.filesFor(r.provider.label, r.version)) {
      const bytes = await store.read(source, r.version, name);
      if (bytes !== null) files.push({ name, text: decodeUtf8(bytes, r.repo.fileLocation(r.version, name), { keepBom: true }) });
    }
    findings.push(...lintProviderRelease({ label: r.provider.label, version: r.version, files, partial: true }));
  }
  const sorted = sortFindings(findings);
  return config.target === undefined ? sorted : sorted.map((f) => ({ ...f, target: config.target! }));
}

/** Most findings the error of a strict lock lists. */
const maxListed = 20;

/** `contractLint: "strict"`: a MUST violation fails the run before the lock is written (exit 2). */
export async function enforceContract(config: ResolvedConfig, findings: readonly ContractFinding[]): Promise<void> {
  if (config.contractLint !== 'strict') return;
  const errors = findings.filter((f) => f.severity === 'error');
  if (errors.length === 0) return;
  const listed = (await formatContractFindings(errors.slice(0, maxListed))).map((l) => `  ${l}`);
  if (errors.length > maxListed) listed.push(`  … and ${errors.length - maxListed} more`);
  const providers = [...new Set(errors.map((f) => `${f.target === undefined ? '' : `${f.target}: `}${f.file.split('/').slice(0, 2).join(' ')}`))];
  throw new InputError(
    `${providers.join(', ')} ${providers.length === 1 ? 'violates' : 'violate'} the provider contract (${errors.length} ${errors.length === 1 ? 'error' : 'errors'}); capi.lock.yaml was not changed:\n${listed.join('\n')}`,
    {
      where: 'contractLint',
      hint: 'pin a provider version that follows the contract, or set contractLint: "warn" in the config to lock it anyway (`capiform validate --contract` lists every finding)',
    },
    'E_PROVIDER_CONTRACT',
  );
}

/** One line per finding, prefixed with its management cluster in a fleet (`us-east: infrastructure-aws/v2.10.3/…`). */
export async function formatContractFindings(findings: readonly ContractFinding[]): Promise<string[]> {
  if (findings.length === 0) return [];
  const { formatFinding } = await import('../validate/index.js');
  return findings.map((f) => `${f.target === undefined ? '' : `${f.target}: `}${formatFinding(f)}`);
}
