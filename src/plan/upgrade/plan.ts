/**
 * clusterctl's upgrade planner (`upgrader.go`, `client/upgrade.go`) as pure functions over an inventory and
 * repository listings: `plan` (upgrade plan), `applyPlan` (`upgrade apply --contract`), `createCustomPlan` /
 * `applyCustomPlan` (`upgrade apply --core … --infrastructure …`), the checks `doUpgrade` runs before touching the
 * cluster, and `parseUpgradeItem` for `[namespace/]name:version` references.
 */
import { InputError, ResolutionError, UsageError } from '../../errors.js';
import { manifestLabel, providerTypeOrder } from '../../capi/index.js';
import {
  getContractsForUpgrade,
  getLatestNextVersion,
  getUpgradeInfo,
  instanceName,
  releaseSeriesForVersion,
  repositoryKey,
} from './upgrade-info.js';
import {
  defaultContractRules,
  type ContractRules,
  type InventoryProvider,
  type Repositories,
  type UpgradeInfo,
  type UpgradeItem,
  type UpgradePlan,
} from './types.js';
import { parseKubernetesVersion } from '../../capi/index.js';

export interface PlanInput {
  inventory: readonly InventoryProvider[];
  repositories: Repositories;
  rules?: ContractRules;
}

/** Memoises `getUpgradeInfo` per provider for one planning run. */
function infoCache(input: PlanInput): (p: InventoryProvider) => UpgradeInfo {
  const cache = new Map<string, UpgradeInfo>();
  return (p) => {
    const key = `${instanceName(p)}@${p.version}`;
    let info = cache.get(key);
    if (!info) {
      info = getUpgradeInfo(p, input.repositories[repositoryKey(p)]);
      cache.set(key, info);
    }
    return info;
  };
}

function coreProvider(inventory: readonly InventoryProvider[]): InventoryProvider {
  const cores = inventory.filter((p) => p.type === 'CoreProvider');
  if (cores.length !== 1) {
    throw new InputError(`invalid management cluster: there must be one core provider, found ${cores.length}`, {
      hint: 'the inventory (lock or Provider objects) must list exactly one CoreProvider',
    });
  }
  return cores[0] as InventoryProvider;
}

function itemFor(p: InventoryProvider, nextVersion: string): UpgradeItem {
  return { providerName: p.providerName, type: p.type, namespace: p.namespace, currentVersion: p.version, nextVersion };
}

/** `getUpgradePlan`: one item per inventory provider (inventory order) with the next version for the contract. */
export function upgradePlanForContract(input: PlanInput, contract: string): UpgradePlan {
  const rules = input.rules ?? defaultContractRules;
  const info = infoCache(input);
  const compatible = rules.compatibleContracts(contract);
  return {
    contract,
    providers: input.inventory.map((p) => {
      const i = info(p);
      return itemFor(p, getLatestNextVersion(i.nextVersions, i.metadataReleaseSeries, compatible));
    }),
  };
}

export interface PlanResult {
  plans: UpgradePlan[];
  /** Plans clusterctl builds and then drops (partial plans for a contract change), for capiform's own report. */
  droppedPlans: UpgradePlan[];
  /** The core provider's current contract. */
  coreContract: string;
}

/** `Plan` (spec §1.6) with the dropped partial plans kept aside. */
export function planWithDropped(input: PlanInput): PlanResult {
  const core = coreProvider(input.inventory);
  const info = infoCache(input);
  const coreInfo = info(core);
  const contracts = getContractsForUpgrade(core.version, coreInfo.metadataReleaseSeries);
  if (contracts.length === 0) {
    throw new ResolutionError(
      `invalid metadata: unable to find the contract version implemented by the ${instanceName(core)} provider`,
    );
  }
  const plans: UpgradePlan[] = [];
  const droppedPlans: UpgradePlan[] = [];
  const cachedInput: PlanInput = { ...input };
  for (const contract of contracts) {
    const plan = upgradePlanForContract(cachedInput, contract);
    const partial = plan.providers.some((p) => p.nextVersion === '');
    if (partial && coreInfo.currentContract !== contract) droppedPlans.push(plan);
    else plans.push(plan);
  }
  return { plans, droppedPlans, coreContract: coreInfo.currentContract };
}

/** `Plan`: one plan per contract the core provider can reach; partial plans for another contract are dropped. */
export function plan(input: PlanInput): UpgradePlan[] {
  return planWithDropped(input).plans;
}

/** Sort order of `upgrade plan` output: type string, then inventory name, then namespace (byte-wise). */
export function sortUpgradeItemsForOutput(items: readonly UpgradeItem[]): UpgradeItem[] {
  const s = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  return [...items].sort(
    (a, b) =>
      s(a.type, b.type) ||
      s(manifestLabel(a.providerName, a.type), manifestLabel(b.providerName, b.type)) ||
      s(a.namespace, b.namespace),
  );
}

/** Sort order of `doUpgrade`: Core, Bootstrap, ControlPlane, Infrastructure, IPAM, RuntimeExtension, Addon (stable). */
export function sortUpgradeItemsForApply(items: readonly UpgradeItem[]): UpgradeItem[] {
  return [...items].sort((a, b) => providerTypeOrder(a.type) - providerTypeOrder(b.type));
}

/** `CheckSingleProviderInstance`: the same manifest label in two namespaces is not supported. */
export function checkSingleProviderInstance(inventory: readonly InventoryProvider[]): void {
  const groups = new Map<string, string[]>();
  for (const p of inventory) {
    const label = manifestLabel(p.providerName, p.type);
    const list = groups.get(label) ?? [];
    list.push(`${p.namespace}/${label}`);
    groups.set(label, list);
  }
  const errs = [...groups.entries()]
    .filter(([, list]) => list.length > 1)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([label, list]) => `multiple instance of provider type "${label}" found: [${list.join(' ')}]`);
  if (errs.length > 0) {
    const inner = errs.length === 1 ? (errs[0] as string) : `[${errs.join(', ')}]`;
    throw new InputError(
      `detected multiple instances of the same provider, but clusterctl does not support this use case. See https://cluster-api.sigs.k8s.io/developer/core/support-multiple-instances for more details: ${inner}`,
      { hint: 'keep one instance of each provider in the inventory' },
    );
  }
}

/** The providers `doUpgrade` refuses to move more than 3 minor versions at once. */
export function hasSkipVersionGuard(item: { providerName: string; type: string }): boolean {
  return (
    (item.providerName === 'cluster-api' && item.type === 'CoreProvider') ||
    (item.providerName === 'kubeadm' && (item.type === 'BootstrapProvider' || item.type === 'ControlPlaneProvider'))
  );
}

/** Whether `doUpgrade`'s skip-version guard rejects moving from `current` to `next` (current ≥ 1.10.0, > 3 minors). */
export function skipsTooManyMinors(current: string, next: string): boolean {
  const c = parseKubernetesVersion(current);
  const n = parseKubernetesVersion(next);
  if (!c || !n) return false;
  const atLeast110 = c.major > 1 || (c.major === 1 && c.minor >= 10);
  return atLeast110 && n.minor > c.minor + 3;
}

/**
 * The checks `doUpgrade` runs before changing anything (spec §1.11 steps 1–3): single instances (only for the current
 * contract), the skip-version guard, then the apply order. Returns the items that would be upgraded, in order.
 */
export function doUpgradeChecks(
  upgradePlan: UpgradePlan,
  inventory: readonly InventoryProvider[],
  rules: ContractRules = defaultContractRules,
): UpgradeItem[] {
  if (upgradePlan.contract === rules.currentContract) checkSingleProviderInstance(inventory);
  for (const item of upgradePlan.providers) {
    if (item.nextVersion === '') continue;
    if (hasSkipVersionGuard(item)) {
      const current = item.currentVersion || inventory.find((p) => instanceName(p) === instanceName(item))?.version || '';
      if (skipsTooManyMinors(current, item.nextVersion)) {
        throw new InputError(`upgrade for ${instanceName(item)} provider can't skip more than 3 versions`, {
          hint: `upgrade through an intermediate minor release first (at most 3 minor versions per step)`,
        });
      }
    }
  }
  return sortUpgradeItemsForApply(upgradePlan.providers.filter((p) => p.nextVersion !== ''));
}

/** `ApplyPlan` (`upgrade apply --contract c`): returns the ordered items that would be upgraded. */
export function applyPlan(input: PlanInput, contract: string): UpgradeItem[] {
  const rules = input.rules ?? defaultContractRules;
  if (contract !== rules.currentContract) {
    throw new UsageError(
      `current version of clusterctl could only upgrade to ${rules.currentContract} contract, requested ${contract}`,
      { hint: `use --contract ${rules.currentContract}` },
    );
  }
  const p = upgradePlanForContract(input, contract);
  return doUpgradeChecks(p, input.inventory, rules);
}

function contractByVersion(
  input: PlanInput,
  info: (p: InventoryProvider) => UpgradeInfo,
  provider: InventoryProvider,
  targetVersion: string,
): string {
  const v = parseKubernetesVersion(targetVersion);
  if (!v) {
    throw new InputError(`failed to parse target version for the ${instanceName(provider)} provider`, {
      where: targetVersion,
      hint: 'use a semantic version such as v1.2.3',
    });
  }
  const series = releaseSeriesForVersion(info(provider).metadataReleaseSeries, v);
  if (!series) {
    throw new ResolutionError(
      `invalid target version: version ${targetVersion} for the provider ${instanceName(provider)} does not match any release series`,
    );
  }
  return series.contract;
}

/** `createCustomPlan` (spec §1.10): validates explicit `provider:version` items against the core provider's contract. */
export function createCustomPlan(input: PlanInput, upgradeItems: readonly UpgradeItem[]): UpgradePlan {
  const rules = input.rules ?? defaultContractRules;
  const core = coreProvider(input.inventory);
  const info = infoCache(input);
  let targetCoreVersion = core.version;
  for (const item of upgradeItems) {
    if (instanceName(item) === instanceName(core)) {
      targetCoreVersion = item.nextVersion;
      break;
    }
  }
  const targetContract = contractByVersion(input, info, core, targetCoreVersion);
  if (targetContract !== rules.currentContract) {
    throw new InputError(
      `current version of clusterctl could only upgrade the core provider to ${rules.currentContract} contract version, requested ${targetContract}`,
    );
  }
  const compatible = rules.compatibleContracts(targetContract);
  const listed = new Set<string>();
  const providers: UpgradeItem[] = [];
  for (const item of upgradeItems) {
    const provider = input.inventory.find((p) => instanceName(p) === instanceName(item));
    if (!provider) {
      throw new InputError(
        `unable to perform upgrade: the provider ${instanceName(item)} in not part of the management cluster`,
      );
    }
    const c = contractByVersion(input, info, provider, item.nextVersion);
    if (!compatible.includes(c)) {
      throw new InputError(
        `unable to perform upgrade: the target version for the provider ${instanceName(item)} implements the ${c} contract version, while the core provider supports ${compatible.join(', ')} contract versions`,
      );
    }
    providers.push({ ...item, currentVersion: item.currentVersion || provider.version });
    listed.add(instanceName(item));
  }
  for (const provider of input.inventory) {
    if (listed.has(instanceName(provider))) continue;
    const c = contractByVersion(input, info, provider, provider.version);
    if (!compatible.includes(c)) {
      const name = instanceName(provider);
      throw new InputError(
        `unable to perform upgrade: the provider ${name} implements the ${c} contract version, while the core provider is getting updated to a version that supports ${compatible.join(', ')} contract versions. Please include the ${name} provider in the upgrade`,
      );
    }
  }
  return { contract: targetContract, providers };
}

/** `ApplyCustomPlan`: `createCustomPlan` then `doUpgrade`'s checks; returns the ordered items. */
export function applyCustomPlan(input: PlanInput, upgradeItems: readonly UpgradeItem[]): UpgradeItem[] {
  const p = createCustomPlan(input, upgradeItems);
  return doUpgradeChecks(p, input.inventory, input.rules ?? defaultContractRules);
}

const dns1123LabelRE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

function dns1123LabelErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!dns1123LabelRE.test(value)) {
    errs.push(
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    );
  }
  return errs;
}

/** clusterctl's `parseProviderName` (`client/common.go`): `name[:version]`, lowercased. */
export function parseProviderName(provider: string): { name: string; version: string } {
  const t = provider.toLowerCase().split(':');
  if (t.length > 2) {
    throw new UsageError(`invalid provider name "${provider}". Provider name should be in the form name[:version]`);
  }
  const name = t[0] ?? '';
  if (name === '') {
    throw new UsageError(
      `invalid provider name "${provider}". Provider name should be in the form name[:version] and name cannot be empty`,
    );
  }
  const errs = dns1123LabelErrors(name);
  if (errs.length > 0) {
    throw new UsageError(
      `invalid provider name "${provider}". Provider name should be in the form name[:version] and the name should be valid: ${errs.join('; ')}`,
    );
  }
  let version = '';
  if (t.length > 1) {
    version = t[1] ?? '';
    if (version === '') {
      throw new UsageError(
        `invalid provider name "${provider}". Provider name should be in the form name[:version] and version cannot be empty`,
      );
    }
  }
  return { name, version };
}

/** A parsed `--core`/`--infrastructure`/… reference. `name` is the inventory name (manifest label). */
export interface ParsedUpgradeItem {
  namespace: string;
  name: string;
  providerName: string;
  type: string;
  nextVersion: string;
}

const refFormHint = 'Provider name should be in the form namespace/provider:version or provider:version';

/**
 * `parseUpgradeItem`: `namespace/name[:version]`, or `name:version` with the namespace taken from the inventory.
 * An empty version is accepted here and rejected by `addUpgradeItems`.
 */
export function parseUpgradeItem(
  ref: string,
  providerType: string,
  inventory: readonly InventoryProvider[],
): ParsedUpgradeItem {
  const wrap = (err: unknown): never => {
    const msg = err instanceof Error ? err.message : String(err);
    throw new UsageError(`invalid provider name "${ref}". ${refFormHint}: ${msg}`);
  };
  if (ref.includes('/')) {
    const parts = ref.toLowerCase().split('/');
    if (parts.length !== 2 || parts[0] === '') throw new UsageError(`invalid provider name "${ref}". ${refFormHint}`);
    let parsed: { name: string; version: string } = { name: '', version: '' };
    try {
      parsed = parseProviderName(parts[1] ?? '');
    } catch (err) {
      wrap(err);
    }
    return {
      namespace: parts[0] as string,
      name: manifestLabel(parsed.name, providerType),
      providerName: parsed.name,
      type: providerType,
      nextVersion: parsed.version,
    };
  }
  if (!ref.includes(':')) {
    throw new UsageError(`invalid provider name "${ref}". Provider name should be in the form provider:version`);
  }
  let parsed: { name: string; version: string } = { name: '', version: '' };
  try {
    parsed = parseProviderName(ref);
  } catch (err) {
    wrap(err);
  }
  const namespace = inventory.find((p) => p.providerName === parsed.name && p.type === providerType)?.namespace ?? '';
  if (namespace === '') {
    throw new InputError(`unable to find default namespace for provider "${ref}"`, {
      hint: 'the provider is not in the inventory; use namespace/name:version or check the name and type',
    });
  }
  return {
    namespace,
    name: manifestLabel(parsed.name, providerType),
    providerName: parsed.name,
    type: providerType,
    nextVersion: parsed.version,
  };
}

/** `addUpgradeItems`: parses references of one provider type and requires a version on each. */
export function addUpgradeItems(
  refs: readonly string[],
  providerType: string,
  inventory: readonly InventoryProvider[],
): UpgradeItem[] {
  return refs.map((ref) => {
    const item = parseUpgradeItem(ref, providerType, inventory);
    if (item.nextVersion === '') {
      throw new UsageError(
        `invalid provider name "${ref}". Provider name should be in the form namespace/name:version and version cannot be empty`,
      );
    }
    const current = inventory.find(
      (p) => p.providerName === item.providerName && p.type === providerType && p.namespace === item.namespace,
    );
    return {
      providerName: item.providerName,
      type: providerType,
      namespace: item.namespace,
      currentVersion: current?.version ?? '',
      nextVersion: item.nextVersion,
    };
  });
}
