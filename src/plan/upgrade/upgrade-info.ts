/**
 * Per-provider upgrade information (`upgrader_info.go`): the latest metadata, the current contract, the versions newer
 * than the current one, the contracts a core provider can move to, and the next version for a contract.
 */
import { ResolutionError } from '../../errors.js';
import { manifestLabel } from '../../capi/index.js';
import type { InventoryProvider, ReleaseSeries, RepositoryListing, UpgradeInfo } from './types.js';
import { compareKubernetesVersions, parseKubernetesVersion, versionTag, type KubernetesVersion } from '../../capi/index.js';

/** `Provider.InstanceName()`: `<namespace>/<manifest label>`, as clusterctl's error messages show it. */
export function instanceName(p: { providerName: string; type: string; namespace: string }): string {
  return `${p.namespace}/${manifestLabel(p.providerName, p.type)}`;
}

/** The key of a provider's repository in a `Repositories` table. */
export function repositoryKey(p: { providerName: string; type: string }): string {
  return `${p.type}/${p.providerName}`;
}

/** `GetReleaseSeriesForVersion`: the first series with the version's major and minor (patch and pre-release ignored). */
export function releaseSeriesForVersion(series: readonly ReleaseSeries[], v: KubernetesVersion): ReleaseSeries | null {
  return series.find((s) => s.major === v.major && s.minor === v.minor) ?? null;
}

/** `GetReleaseSeriesForContract`: among the series with that contract, the newest major.minor; null if none. */
export function releaseSeriesForContract(series: readonly ReleaseSeries[], contract: string): ReleaseSeries | null {
  let best: ReleaseSeries | null = null;
  for (const s of series) {
    if (s.contract !== contract) continue;
    if (!best || s.major > best.major || (s.major === best.major && s.minor > best.minor)) best = s;
  }
  return best;
}

function sortSeries(series: readonly ReleaseSeries[]): ReleaseSeries[] {
  return [...series].sort((a, b) => a.major - b.major || a.minor - b.minor);
}

/** `getUpgradeInfo` (spec §1.3), with clusterctl's error texts. */
export function getUpgradeInfo(provider: InventoryProvider, repository: RepositoryListing | undefined): UpgradeInfo {
  const name = instanceName(provider);
  const versions = repository?.versions ?? [];
  if (versions.length === 0) {
    throw new ResolutionError(`failed to get available versions for the ${name} provider`, {
      hint: `make the release listing of ${manifestLabel(provider.providerName, provider.type)} available (repository or lock)`,
    });
  }
  const parsed: KubernetesVersion[] = [];
  for (const v of versions) {
    const s = parseKubernetesVersion(v);
    if (!s) throw new ResolutionError(`failed to parse available version for the ${name} provider`, { where: v });
    parsed.push(s);
  }
  let latest = parsed[0] as KubernetesVersion;
  for (const s of parsed) if (compareKubernetesVersions(latest, s) < 0) latest = s;
  const latestTag = versionTag(latest);
  const series = repository?.metadata[latestTag];
  if (!series) {
    throw new ResolutionError(
      `failed to read "metadata.yaml" from the repository for provider "${manifestLabel(provider.providerName, provider.type)}"`,
      { where: latestTag, hint: `the metadata of the latest version (${latestTag}) decides every upgrade; make it available` },
    );
  }
  const current = parseKubernetesVersion(provider.version);
  if (!current) {
    throw new ResolutionError(`failed to parse current version for the ${name} provider`, { where: provider.version });
  }
  const currentSeries = releaseSeriesForVersion(series, current);
  if (!currentSeries) {
    throw new ResolutionError(
      `invalid provider metadata: version ${provider.version} (the current version) for the provider ${name} does not match any release series`,
    );
  }
  const next: KubernetesVersion[] = [];
  for (const v of parsed) {
    if (compareKubernetesVersions(current, v) >= 0) continue;
    if (!releaseSeriesForVersion(series, v)) {
      throw new ResolutionError(
        `invalid provider metadata: version ${versionTag(v)} (one of the available versions) for the provider ${name} does not match any release series`,
      );
    }
    next.push(v);
  }
  next.sort(compareKubernetesVersions);
  return {
    metadataReleaseSeries: sortSeries(series),
    currentContract: currentSeries.contract,
    currentVersion: provider.version,
    nextVersions: next.map(versionTag),
  };
}

/**
 * `getContractsForUpgrade` (spec §1.4): contracts of the release series not older than the current version,
 * deduplicated and sorted as plain strings.
 */
export function getContractsForUpgrade(currentVersion: string, releaseSeries: readonly ReleaseSeries[]): string[] {
  const current = parseKubernetesVersion(currentVersion);
  const contracts = new Set<string>();
  for (const s of releaseSeries) {
    if (current && (s.major < current.major || (s.major === current.major && s.minor < current.minor))) continue;
    contracts.add(s.contract);
  }
  return [...contracts].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * `getLatestNextVersion` (spec §1.5): the highest next version without pre-release whose release series implements
 * one of `contracts`; `""` when there is none.
 */
export function getLatestNextVersion(
  nextVersions: readonly string[],
  releaseSeries: readonly ReleaseSeries[],
  contracts: readonly string[],
): string {
  let best: KubernetesVersion | null = null;
  for (const s of releaseSeries) {
    if (!contracts.includes(s.contract)) continue;
    for (const tag of nextVersions) {
      const v = parseKubernetesVersion(tag);
      if (!v || v.major !== s.major || v.minor !== s.minor || v.preRelease !== '') continue;
      if (!best || compareKubernetesVersions(best, v) < 0) best = v;
    }
  }
  return best ? versionTag(best) : '';
}
