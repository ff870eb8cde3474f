/**
 * How a lock and its config agree: why a lock no longer matches (phrased for people, with the command that fixes it),
 * which of its versions a run keeps, and whether a contract upgrade conflicts with the config's pin.
 */
import semver from 'semver';
import { ConfigError } from '../errors.js';
import type { ResolvedConfig } from '../config/index.js';
import { resolutionDigest } from './digest.js';
import { templatePinDrift } from './template-pins.js';
import { isUpgrading } from './upgrade-names.js';

export { isUpgrading };
import type { Lock, LockedSource } from './model.js';
import { satisfiesConstraint } from '../config/index.js';

export class LockStaleError extends ConfigError {
  constructor(message: string, entry: string, hint = 'run `capiform lock` (or `capiform render` without --frozen) and commit capi.lock.yaml') {
    super(`capi.lock.yaml is out of date: ${message}`, { where: `capi.lock.yaml ${entry}`, hint }, 'E_LOCK_STALE');
  }
}

export interface LockDrift {
  /** The lock entry: `providers.infrastructure-docker`, `certManager`, `contract`, `templatePins.infrastructure-docker@~1.12.0`. */
  entry: string;
  /** `provider added`, `range changed`, `source moved`, … */
  reason: string;
  detail: string;
  /** The provider label to re-resolve, when the drift concerns one provider. */
  label?: string;
}

/** Differences between the config and the lock, in config order. `sources` gives each provider's source as the lock would record it. */
export function lockDrift(config: ResolvedConfig, lock: Lock, sources: ReadonlyMap<string, LockedSource>): LockDrift[] {
  const out: LockDrift[] = [];
  if ((config.contract ?? null) !== null && config.contract !== lock.contract) {
    out.push({ entry: 'contract', reason: 'contract pin changed', detail: `lock has ${lock.contract}, config pins ${config.contract}` });
  }
  for (const p of config.providers) {
    const entry = `providers.${p.label}`;
    const l = lock.providers.find((x) => x.label === p.label);
    if (!l) {
      out.push({ entry, reason: 'provider added', detail: `${p.label} (${p.configPath}) is not in the lock`, label: p.label });
      continue;
    }
    if (l.constraint !== p.constraint) {
      out.push({ entry, reason: 'range changed', detail: `${p.label}: "${l.constraint}" → "${p.constraint}"`, label: p.label });
    } else if (!satisfiesConstraint(l.version, p.constraint)) {
      out.push({ entry, reason: 'version outside range', detail: `${p.label}: locked ${l.version} does not satisfy "${p.constraint}"`, label: p.label });
    }
    const s = sources.get(p.label);
    if (s && (s.kind !== l.source.kind || s.url !== l.source.url)) {
      out.push({ entry, reason: 'source moved', detail: `${p.label}: ${l.source.url} → ${s.url}`, label: p.label });
    }
  }
  for (const l of lock.providers) {
    if (!config.providers.some((p) => p.label === l.label)) {
      out.push({ entry: `providers.${l.label}`, reason: 'provider removed', detail: `${l.label} is no longer in the config`, label: l.label });
    }
  }
  const cm = config.certManager;
  if (cm && !lock.certManager) out.push({ entry: 'certManager', reason: 'cert-manager added', detail: `cert-manager ${cm.version}` });
  if (!cm && lock.certManager) out.push({ entry: 'certManager', reason: 'cert-manager removed', detail: 'cert-manager is no longer in the config' });
  if (cm && lock.certManager) {
    if (semver.valid(cm.version) && cm.version !== lock.certManager.version) {
      out.push({ entry: 'certManager', reason: 'version changed', detail: `cert-manager ${lock.certManager.version} → ${cm.version}` });
    } else if (!semver.valid(cm.version) && !satisfiesConstraint(lock.certManager.version, cm.version)) {
      out.push({ entry: 'certManager', reason: 'version outside range', detail: `cert-manager: locked ${lock.certManager.version} does not satisfy "${cm.version}"` });
    }
    const s = sources.get('cert-manager');
    if (s && s.url !== lock.certManager.source.url) {
      out.push({ entry: 'certManager', reason: 'source moved', detail: `cert-manager: ${lock.certManager.source.url} → ${s.url}` });
    }
  }
  out.push(...templatePinDrift(config, lock, sources));
  if (out.length === 0 && lock.configDigest !== resolutionDigest(config)) {
    out.push({ entry: 'configDigest', reason: 'config changed', detail: 'the resolution inputs changed' });
  }
  return out;
}

export function staleLockError(drift: readonly LockDrift[]): LockStaleError {
  const lines = drift.map((d) => `  ${d.reason}: ${d.detail}`);
  return new LockStaleError(`the config no longer matches it:\n${lines.join('\n')}`, [...new Set(drift.map((d) => d.entry))].join(', '));
}

/** The config must not pin another contract: the next `lock` or `render` would undo the upgrade. */
export function checkContractPin(config: ResolvedConfig, contract: string): void {
  if (config.contract !== undefined && config.contract !== contract) {
    throw new ConfigError(`--contract ${contract} conflicts with the config, which pins contract ${config.contract}`, {
      where: `${config.file}: contract`,
      hint: `set \`contract: '${contract}'\` in the config (or remove the pin), then run \`capiform lock --upgrade --contract ${contract}\` again`,
    });
  }
}


/** Lock entries that can be kept: present, same constraint and source, version inside the constraint, not being upgraded. */
export function pinnedVersions(
  config: ResolvedConfig,
  lock: Lock | undefined,
  repositories: ReadonlyMap<string, { readonly source: LockedSource }>,
  upgrade: 'all' | readonly string[] | undefined,
): Map<string, string> {
  const pinned = new Map<string, string>();
  if (!lock || upgrade === 'all') return pinned;
  if (config.contract && config.contract !== lock.contract) return pinned;
  for (const p of config.providers) {
    if (isUpgrading(p, upgrade)) continue;
    const l = lock.providers.find((x) => x.label === p.label);
    const s = repositories.get(p.label)?.source;
    if (!l || l.constraint !== p.constraint || !satisfiesConstraint(l.version, p.constraint)) continue;
    if (s && (s.kind !== l.source.kind || s.url !== l.source.url)) continue;
    pinned.set(p.label, l.version);
  }
  return pinned;
}
