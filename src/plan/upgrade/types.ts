/** Data shapes of the offline upgrade planner (clusterctl `cmd/clusterctl/client/cluster/upgrader*.go`). */

/** An inventory entry: a clusterctl `Provider` object, or a provider pinned in capi.lock.yaml. */
export interface InventoryProvider {
  providerName: string;
  /** `CoreProvider`, `BootstrapProvider`, … */
  type: string;
  version: string;
  namespace: string;
}

/** One `releaseSeries` entry of a provider's metadata.yaml. */
export interface ReleaseSeries {
  major: number;
  minor: number;
  contract: string;
}

/** What the planner needs to know about one provider repository: its version listing and metadata per version. */
export interface RepositoryListing {
  versions: string[];
  /** metadata.yaml `releaseSeries` per version tag; only the latest version's entry is read (spec §1.2). */
  metadata: Record<string, ReleaseSeries[] | undefined>;
}

/** Repositories keyed `"<Type>/<providerName>"` (e.g. `InfrastructureProvider/docker`). */
export type Repositories = Record<string, RepositoryListing | undefined>;

/** clusterctl's `upgradeInfo`. */
export interface UpgradeInfo {
  /** Release series of the latest version's metadata, sorted by major, minor. */
  metadataReleaseSeries: ReleaseSeries[];
  /** Contract of the series the current version belongs to. */
  currentContract: string;
  currentVersion: string;
  /** Repository versions newer than the current one, ascending, as version tags. */
  nextVersions: string[];
}

/** One row of an upgrade plan. `nextVersion` is `""` when the provider is already up to date for the contract. */
export interface UpgradeItem {
  providerName: string;
  type: string;
  namespace: string;
  currentVersion: string;
  nextVersion: string;
}

export interface UpgradePlan {
  contract: string;
  providers: UpgradeItem[];
}

/** Which contract clusterctl implements and which contracts each contract stays compatible with. */
export interface ContractRules {
  /** clusterctl's own contract (`clusterv1.GroupVersion.Version`); `v1beta2` at the spec's snapshot. */
  currentContract: string;
  /** `contract.GetCompatibleVersions(c)`. */
  compatibleContracts: (contract: string) => string[];
}

export const defaultContractRules: ContractRules = {
  currentContract: 'v1beta2',
  compatibleContracts: (c) => (c === 'v1beta2' ? ['v1beta2', 'v1beta1'] : [c]),
};
