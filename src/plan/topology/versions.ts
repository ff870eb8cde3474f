/**
 * Kubernetes version changes of a topology: the upgrade CAPI runs (control plane first, then the workers, through the
 * class's `kubernetesVersions` one minor at a time) and the changes its webhooks reject — a downgrade, a skipped minor
 * without a chain in the class, a version the class does not list (core/webhooks/admission/cluster.go), and a
 * `kubernetesVersions` list that is not ascending in minor steps of 0 or 1 (clusterclass.go).
 */
import { compareKubernetesVersions, formatKubernetesVersion, parseKubernetesVersion, type KubernetesVersion } from '../../capi/index.js';
import type { Impact } from '../rollout/index.js';
import type { TopologyUpgrade } from './types.js';

function parse(v: string): KubernetesVersion | null {
  return parseKubernetesVersion(v.startsWith('v') ? v.slice(1) : v);
}

/** Go's `semver.Version` printed with `%q` (no `v`). */
function quoted(v: KubernetesVersion): string {
  return JSON.stringify(formatKubernetesVersion(v));
}

/** Versions of the class's list strictly between `from` and `to` (the chained upgrade's intermediate steps). */
export function upgradeHops(from: string, to: string, kubernetesVersions: readonly string[]): string[] {
  const a = parse(from);
  const b = parse(to);
  if (!a || !b) return [];
  const between = kubernetesVersions
    .map((v) => ({ v, p: parse(v) }))
    .filter((x): x is { v: string; p: KubernetesVersion } => x.p !== null && compareKubernetesVersions(x.p, a) > 0 && compareKubernetesVersions(x.p, b) < 0);
  // CAPI upgrades through the newest patch of each intermediate minor.
  const newestPerMinor = new Map<string, { v: string; p: KubernetesVersion }>();
  for (const x of between) {
    const key = `${x.p.major}.${x.p.minor}`;
    const cur = newestPerMinor.get(key);
    if (!cur || compareKubernetesVersions(x.p, cur.p) > 0) newestPerMinor.set(key, x);
  }
  return [...newestPerMinor.values()].filter((x) => x.p.minor !== b.minor || x.p.major !== b.major).map((x) => x.v);
}

export interface VersionReview {
  upgrade?: TopologyUpgrade;
  impacts: Impact[];
  warnings: string[];
}

/**
 * The version change of one Cluster from `from` to `to`. `workers` are the topology names of its MachineDeployments
 * and MachinePools (in topology order), `kubernetesVersions` the head class's list, `hops` the engine's chain when it
 * computed one, `extension` the runtime extension the class plans upgrades with (its hops are unknown offline, and
 * CAPI's Cluster webhook then leaves the one-minor ceiling to the extension's own webhook).
 */
export function reviewVersionChange(
  cluster: string,
  from: string | undefined,
  to: string | undefined,
  workers: readonly string[],
  kubernetesVersions: readonly string[],
  hops?: readonly string[],
  extension?: string,
): VersionReview {
  const out: VersionReview = { impacts: [], warnings: [] };
  if (to !== undefined && kubernetesVersions.length > 0 && !kubernetesVersions.includes(to)) {
    out.warnings.push(`spec.topology.version ${to} is not one of the class's kubernetesVersions: CAPI's Cluster webhook rejects it ("version must match one of the versions defined in the ClusterClass")`);
  }
  if (from === undefined || to === undefined || from === to) return out;
  const a = parse(from);
  const b = parse(to);
  if (!a || !b) return out;
  const cmp = compareKubernetesVersions(b, a);
  if (cmp < 0) {
    out.warnings.push(`Kubernetes version downgrade ${from} → ${to}: CAPI's Cluster webhook rejects it (version cannot be decreased from ${quoted(a)} to ${quoted(b)})`);
    return out;
  }
  if (cmp === 0) return out;
  if (extension) {
    const reason = `Kubernetes upgrade ${from} → ${to} through the versions the runtime extension "${extension}" plans (unknown offline)`;
    out.upgrade = { from, to, hops: [], order: ['controlPlane', ...workers], extension };
    out.impacts.push({ kind: 'control-plane-rollout', reason: `${reason}: the control plane upgrades first`, cluster });
    for (const w of workers) out.impacts.push({ kind: 'worker-rollout', reason: `${reason}: ${w} upgrades after the control plane`, cluster, machineDeployment: w });
    return out;
  }
  const chain = hops ? [...hops].filter((h) => h !== from && h !== to) : upgradeHops(from, to, kubernetesVersions);
  if (b.major === a.major && b.minor >= a.minor + 2 && kubernetesVersions.length === 0) {
    out.warnings.push(
      `Kubernetes version ${from} → ${to} skips a minor version: CAPI's Cluster webhook rejects it (version cannot be increased from ${quoted(a)} to ${quoted(b)}); upgrade one minor at a time or list the versions in the class's kubernetesVersions for a chained upgrade`,
    );
  }
  const via = chain.length > 0 ? ` via ${chain.join(', ')}` : '';
  out.upgrade = { from, to, hops: chain, order: ['controlPlane', ...workers] };
  out.impacts.push({ kind: 'control-plane-rollout', reason: `Kubernetes upgrade ${from} → ${to}${via}: the control plane upgrades first`, cluster });
  for (const w of workers) {
    out.impacts.push({ kind: 'worker-rollout', reason: `Kubernetes upgrade ${from} → ${to}${via}: ${w} upgrades after the control plane`, cluster, machineDeployment: w });
  }
  return out;
}

/** CAPI's ClusterClass webhook check of `spec.kubernetesVersions` (`validateKubernetesVersions`). */
export function checkKubernetesVersions(versions: readonly string[]): string[] {
  const out: string[] = [];
  let previous: KubernetesVersion | null = null;
  versions.forEach((v, i) => {
    const p = parse(v);
    if (!p) {
      out.push(`spec.kubernetesVersion[${i}]: Invalid value: ${JSON.stringify(v)}: version must be a valid semantic version`);
      return;
    }
    if (previous) {
      // Same version with other build metadata is tolerated (Go's version.Compare WithBuildTags returns 2 there).
      const sameButBuild = compareKubernetesVersions(p, previous) === 0 && p.buildMetadata !== previous.buildMetadata;
      if (compareKubernetesVersions(p, previous) <= 0 && !sameButBuild) {
        out.push(`spec.kubernetesVersion[${i}]: Invalid value: ${JSON.stringify(v)}: version must be greater than v${formatKubernetesVersion(previous)}`);
      }
      if (previous.minor !== p.minor && previous.minor + 1 !== p.minor) {
        out.push(
          `spec.kubernetesVersion[${i}]: Invalid value: ${JSON.stringify(v)}: expecting a version with minor ${previous.minor} or ${previous.minor + 1}, found version ${formatKubernetesVersion(p)}`,
        );
      }
    }
    previous = p;
  });
  return out;
}
