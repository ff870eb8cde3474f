/**
 * Template pins (`clusters[].templateVersion`): a cluster renders its template and ClusterClasses from another release
 * of its infrastructure provider than the one installed. The lock keeps one entry per provider and constraint, like a
 * provider entry: its version stays while it fits the constraint, and `lock --upgrade` (all, or naming the provider)
 * moves a range to its newest release.
 */
import { compareGoStrings } from '../go/index.js';
import { satisfiesConstraint, type ResolvedConfig } from '../config/index.js';
import type { Lock, LockedSource } from './model.js';
import { isUpgrading } from './upgrade-names.js';

/** One pin the config asks for: a provider label and constraint, with the clusters that use it. */
export interface TemplatePinRequest {
  readonly label: string;
  /** The provider's name (`docker`), for `--upgrade` names. */
  readonly name: string;
  readonly constraint: string;
  /** Config paths of the clusters' `templateVersion` (`clusters[2].templateVersion`). */
  readonly configPaths: readonly string[];
}

/** The pins of the config, by label then constraint; clusters whose provider is not configured are left to checkConfig. */
export function templatePinRequests(config: ResolvedConfig): TemplatePinRequest[] {
  const byKey = new Map<string, { label: string; name: string; constraint: string; configPaths: string[] }>();
  for (const c of config.clusters) {
    if (c.templateVersion === undefined) continue;
    const p = config.providers.find((x) => x.type === 'InfrastructureProvider' && x.name === c.infrastructure);
    if (!p) continue;
    const key = `${p.label}\0${c.templateVersion}`;
    let req = byKey.get(key);
    if (!req) byKey.set(key, (req = { label: p.label, name: p.name, constraint: c.templateVersion, configPaths: [] }));
    req.configPaths.push(`${c.configPath}.templateVersion`);
  }
  return [...byKey.values()].sort((a, b) => compareGoStrings(a.label, b.label) || compareGoStrings(a.constraint, b.constraint));
}

/** The key of a pin among the lock's and the resolution's: label and constraint. */
export function templatePinKey(label: string, constraint: string): string {
  return `${label}\0${constraint}`;
}

/** How the lock's template pins differ from the config's (`lockDrift`'s entries for them). */
export function templatePinDrift(
  config: ResolvedConfig,
  lock: Lock,
  sources: ReadonlyMap<string, LockedSource>,
): { entry: string; reason: string; detail: string; label: string }[] {
  const out: { entry: string; reason: string; detail: string; label: string }[] = [];
  const requests = templatePinRequests(config);
  const locked = lock.templatePins ?? [];
  for (const r of requests) {
    const entry = `templatePins.${r.label}@${r.constraint}`;
    const l = locked.find((x) => x.label === r.label && x.constraint === r.constraint);
    if (!l) {
      out.push({ entry, reason: 'template pin added', detail: `${r.label} "${r.constraint}" (${r.configPaths.join(', ')}) is not in the lock`, label: r.label });
      continue;
    }
    if (!satisfiesConstraint(l.version, r.constraint)) {
      out.push({ entry, reason: 'version outside range', detail: `${r.label} template pin: locked ${l.version} does not satisfy "${r.constraint}"`, label: r.label });
    }
    const s = sources.get(r.label);
    if (s && (s.kind !== l.source.kind || s.url !== l.source.url)) {
      out.push({ entry, reason: 'source moved', detail: `${r.label} template pin: ${l.source.url} → ${s.url}`, label: r.label });
    }
  }
  for (const l of locked) {
    if (!requests.some((r) => r.label === l.label && r.constraint === l.constraint)) {
      out.push({
        entry: `templatePins.${l.label}@${l.constraint}`,
        reason: 'template pin removed',
        detail: `no cluster pins ${l.label} "${l.constraint}" any more`,
        label: l.label,
      });
    }
  }
  return out;
}

/**
 * Pins whose locked version can be kept, by `templatePinKey`: present, same source, version inside the constraint, and
 * not being upgraded (`--upgrade` without names, or naming the provider).
 */
export function pinnedTemplateVersions(
  config: ResolvedConfig,
  lock: Lock | undefined,
  sources: ReadonlyMap<string, { readonly source: LockedSource }>,
  upgrade: 'all' | readonly string[] | undefined,
): Map<string, string> {
  const kept = new Map<string, string>();
  if (!lock) return kept;
  for (const r of templatePinRequests(config)) {
    if (isUpgrading({ name: r.name, label: r.label }, upgrade)) continue;
    const l = lock.templatePins?.find((x) => x.label === r.label && x.constraint === r.constraint);
    if (!l || !satisfiesConstraint(l.version, r.constraint)) continue;
    const s = sources.get(r.label)?.source;
    if (s && (s.kind !== l.source.kind || s.url !== l.source.url)) continue;
    kept.set(templatePinKey(r.label, r.constraint), l.version);
  }
  return kept;
}
