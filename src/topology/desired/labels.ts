/** The labels and annotations CAPI's topology controller reads and writes (`api/core/v1beta2/common_types.go`). */
export const labels = {
  clusterName: 'cluster.x-k8s.io/cluster-name',
  owned: 'topology.cluster.x-k8s.io/owned',
  deploymentName: 'topology.cluster.x-k8s.io/deployment-name',
  poolName: 'topology.cluster.x-k8s.io/pool-name',
  controlPlane: 'cluster.x-k8s.io/control-plane',
} as const;

export const annotations = {
  clonedFromName: 'cluster.x-k8s.io/cloned-from-name',
  clonedFromGroupKind: 'cluster.x-k8s.io/cloned-from-groupkind',
  lastApplied: 'kubectl.kubernetes.io/last-applied-configuration',
  conversionData: 'cluster.x-k8s.io/conversion-data',
  holdUpgradeSequence: 'topology.cluster.x-k8s.io/hold-upgrade-sequence',
  deferUpgrade: 'topology.cluster.x-k8s.io/defer-upgrade',
  upgradeStep: 'topology.internal.cluster.x-k8s.io/upgrade-step',
} as const;
