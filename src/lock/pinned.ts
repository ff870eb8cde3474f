/** Which versions of an existing lock a run keeps, rather than resolving them again. */
import type { ResolvedConfig } from '../config/types.js';
import { satisfiesConstraint } from '../config/constraints.js';
import { isUpgrading, type RepositoryRef } from '../resolve/resolve-config.js';
import type { Lock } from './model.js';

/** Lock entries that can be kept: present, same constraint and source, version inside the constraint, not being upgraded. */
export function pinnedVersions(
  config: ResolvedConfig,
  lock: Lock | undefined,
  repositories: ReadonlyMap<string, RepositoryRef>,
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
