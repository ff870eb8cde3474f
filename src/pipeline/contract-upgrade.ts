/**
 * `capiform lock --upgrade --contract <c>`: the versions `capiform plan upgrade` proposes for contract `c`, applied
 * to the lock. The plan comes from the upgrade planner itself (clusterctl's `upgrade plan` rules: the newest
 * non-pre-release version whose release series implements a contract compatible with `c`, read from the metadata of
 * each repository's newest release), over the lock's providers as inventory; this module only checks that the config
 * lets every provider make the move and turns the plan into version pins for resolution.
 */
import { parseKubernetesVersion } from '../capi/index.js';
import { ConfigError, ResolutionError } from '../errors.js';
import type { ResolvedConfig, ResolvedProvider } from '../config/index.js';
import { satisfiesConstraint } from '../config/index.js';
import { repositoryListing } from './plan-inputs/index.js';
import {
  checkUpgradePaths,
  defaultContractRules,
  getContractsForUpgrade,
  getUpgradeInfo,
  planWithDropped,
  releaseSeriesForVersion,
  repositoryKey,
  upgradePlanForContract,
  type InventoryProvider,
  type Repositories,
} from '../plan/upgrade/index.js';
import type { RepositoryRef } from '../resolve/index.js';
import type { Lock } from '../lock/index.js';

export interface ContractUpgrade {
  /** Version pins by provider label, for every provider of the lock that is still in the config. */
  pinned: Map<string, string>;
  /** capiform's upgrade-path warnings and errors for the plan (skipped minors, major changes), one line each. */
  notes: string[];
}

/**
 * The versions `plan upgrade` lists for `contract`, checked against the config's constraints. Providers that are not
 * in the lock yet are left to resolution (newest version in their constraint for the contract).
 */
export async function contractUpgradeVersions(
  config: ResolvedConfig,
  lock: Lock,
  repositories: ReadonlyMap<string, RepositoryRef>,
  contract: string,
): Promise<ContractUpgrade> {
  const entries: { provider: ResolvedProvider; inventory: InventoryProvider }[] = [];
  for (const p of config.providers) {
    const l = lock.providers.find((x) => x.label === p.label);
    if (l) entries.push({ provider: p, inventory: { providerName: p.name, type: p.type, version: l.version, namespace: p.targetNamespace ?? '' } });
  }
  const inventory = entries.map((e) => e.inventory);
  const listings: Repositories = {};
  for (const e of entries) listings[repositoryKey(e.inventory)] = await repositoryListing(repositories.get(e.provider.label)!.repo, e.inventory);
  const input = { inventory, repositories: listings };

  const core = entries.find((e) => e.provider.type === 'CoreProvider');
  if (!core) throw new ResolutionError('the lock has no core provider to plan the upgrade from', { hint: 'run `capiform lock` first' });
  const offered = getContractsForUpgrade(core.inventory.version, getUpgradeInfo(core.inventory, listings[repositoryKey(core.inventory)]).metadataReleaseSeries);
  if (!offered.includes(contract)) {
    throw new ResolutionError(`no release of ${core.provider.label} newer than ${core.inventory.version} implements contract ${contract}`, {
      where: `${core.provider.configPath}.version`,
      hint: `\`capiform plan upgrade\` offers: ${offered.join(', ')}`,
    });
  }

  const compatible = defaultContractRules.compatibleContracts(contract);
  const plan = upgradePlanForContract(input, contract);
  const pinned = new Map<string, string>();
  const blocked: string[] = [];
  const behind: string[] = [];
  let example = '';
  plan.providers.forEach((item, i) => {
    const { provider } = entries[i]!;
    const target = item.nextVersion || item.currentVersion;
    const series = getUpgradeInfo(entries[i]!.inventory, listings[repositoryKey(item)]).metadataReleaseSeries;
    const v = parseKubernetesVersion(target);
    const implemented = v ? (releaseSeriesForVersion(series, v)?.contract ?? null) : null;
    const required = provider.type === 'CoreProvider' ? [contract] : compatible;
    if (implemented === null || !required.includes(implemented)) {
      behind.push(`${provider.label} ${target} implements ${implemented ?? 'no known contract'} and has no newer release for ${contract}`);
      return;
    }
    if (!satisfiesConstraint(target, provider.constraint)) {
      blocked.push(`${provider.label} (${provider.configPath}.version): "${provider.constraint}" does not allow ${target}, which contract ${contract} needs`);
      if (!example && v) example = `${provider.configPath}.version: '~${v.major}.${v.minor}.0'`;
      return;
    }
    pinned.set(provider.label, target);
  });
  if (behind.length > 0) {
    throw new ResolutionError(`cannot upgrade to contract ${contract}: not every provider has a release for it:\n  ${behind.join('\n  ')}`, {
      hint: `remove these providers, or wait for releases that implement ${contract} (\`capiform plan upgrade\` lists what each provider offers)`,
    });
  }
  if (blocked.length > 0) {
    throw new ConfigError(`cannot upgrade to contract ${contract}: the config's version constraints block it:\n  ${blocked.join('\n  ')}`, {
      where: config.file,
      hint: `widen these constraints (e.g. ${example}) and run the command again`,
    }, 'E_CONSTRAINT_BLOCKS_UPGRADE');
  }

  // A lock moves every provider at once, so "contract changes must happen together" is already satisfied.
  const findings = checkUpgradePaths(planWithDropped(input), inventory, listings).filter(
    (f) => f.contract === contract && f.severity !== 'info' && f.code !== 'contract-change',
  );
  // The lock knows no install namespaces: drop the empty `<namespace>/` of clusterctl's instance names.
  const line = (f: (typeof findings)[number]): string => `${f.message.replace(/(^|\s)\/(?=[a-z])/g, '$1')} (${f.reason})`;
  // What `clusterctl upgrade apply` refuses (the skip-minor guard), the lock refuses too: applying it would commit a
  // stack the management cluster cannot be moved to in one step.
  const refused = findings.filter((f) => f.severity === 'error');
  if (refused.length > 0) {
    throw new ResolutionError(`cannot upgrade to contract ${contract} in one step:\n  ${refused.map(line).join('\n  ')}`, {
      hint: 'upgrade through an intermediate minor first: narrow the provider\'s version constraint in the config (e.g. \'~1.12.0\'), run `capiform lock --upgrade`, render and sync, then widen it again',
    }, 'E_UPGRADE_PATH');
  }
  const notes = findings.map((f) => `${f.severity}: ${line(f)}`);
  return { pinned, notes };
}
