/**
 * The ClusterClass review (issue 13): what the topology controller does to each Cluster when a class, a template, a
 * patch or a Cluster's topology changes — the desired objects of two expansions compared by role, the upgrade, and
 * the changes CAPI's webhooks reject. Pure: `plan topology` and `diff` read the inputs and print the result.
 */
export type { ClusterTopologyReview, RoleAction, RoleChange, TopologyFieldChange, TopologyReview, TopologyUpgrade } from './types.js';
export { compareExpansions, externalPatchNames, type CompareOptions, type ExpandedClusterView, type ExpansionSide } from './review.js';
export { compareRoles, describeRole, splitRole, type RoleObject } from './compare.js';
export { checkClasses, isImmutableTemplateKind } from './class-checks.js';
export { reviewVersionChange, upgradeHops } from './versions.js';
export { planTopology, reviewTopology, type TopologyPlan, type TopologyPlanCluster } from './expand.js';
export { patchedValues, type PatchedValue } from './patched-values.js';
export { reviewTreeTopology } from './tree-review.js';
