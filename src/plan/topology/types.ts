/**
 * The ClusterClass review: what the topology controller will do to each Cluster when a change lands, computed by
 * comparing the desired objects of two expansions (base and head) role by role. Data only: `plan topology`, the
 * diff's text, markdown and JSON reports print it. Kept free of imports from the diff so the diff's report can carry
 * it (the diff's types import these, never the other way round).
 */
import type { Impact, ImpactKind } from '../rollout/types.js';
import type { ValueDiff } from '../diff/value-diff.js';

/** One changed field of a desired object, as the diff reports fields. */
export interface TopologyFieldChange {
  /** Readable path, e.g. `.spec.template.spec.customImage`. */
  path: string;
  action: 'added' | 'removed' | 'changed';
  old?: unknown;
  new?: unknown;
  /** What changed inside the value (see the diff's FieldChange). */
  valueDiff?: ValueDiff;
}

/**
 * What happened to the desired object of one role. `rotated`: a template got a new name because its spec changed
 * (CAPI creates the new template, moves the reference and deletes the old one).
 */
export type RoleAction = 'created' | 'deleted' | 'changed' | 'rotated';

export interface RoleChange {
  /** The role, e.g. `controlPlane` or `machineDeployment/md-0` (issue 13's role names). */
  role: string;
  action: RoleAction;
  kind: string;
  /** Name in the head expansion (in the base for deleted roles). */
  name: string;
  /** Name in the base expansion when it differs (rotations). */
  previousName?: string;
  fields: TopologyFieldChange[];
  /** What CAPI does about it, in the diff's impact vocabulary (`cluster` set to the Cluster). */
  impacts: Impact[];
}

/** A Kubernetes version change of the topology, with the upgrade steps CAPI takes. */
export interface TopologyUpgrade {
  from: string;
  to: string;
  /** Intermediate versions from the class's `kubernetesVersions` (chained upgrade), excluding `from` and `to`. */
  hops: string[];
  /** What upgrades, in order: the control plane first, then each MachineDeployment and MachinePool. */
  order: string[];
  /**
   * The runtime extension the class plans upgrades with (`spec.upgrade.external.generateUpgradePlanExtension`): the
   * hops are its answer, unknown offline, so `hops` is empty.
   */
  extension?: string;
}

export interface ClusterTopologyReview {
  /** A fleet's tree: the management cluster that runs it. */
  target?: string;
  /** `ns/name` */
  cluster: string;
  /** `ns/name` of the ClusterClass in the head (the base's for a deleted Cluster). */
  class: string;
  /** The base's class when the Cluster moved to another one (a rebase). */
  previousClass?: string;
  /** `expanded`: both sides expanded and compared; `failed`: a side could not be expanded (see `errors`). */
  status: 'created' | 'deleted' | 'changed' | 'unchanged' | 'failed';
  /** The worst definite impact (as in the diff's cluster summary). */
  impact: ImpactKind;
  controlPlaneRolls: boolean;
  /** Topology names of the MachineDeployments and MachinePools whose Machines roll. */
  workersRoll: string[];
  /** Roles updated in place. */
  inPlace: string[];
  upgrade?: TopologyUpgrade;
  changes: RoleChange[];
  /** Every impact: the role changes', the upgrade's, and the possible ones of external patches. */
  impacts: Impact[];
  /** External (Runtime SDK) patches of the class: they cannot run offline, so what they change is unknown. */
  externalPatches: string[];
  /** Findings a reviewer must see: changes CAPI's webhooks reject, version skips, in-place template edits. */
  warnings: string[];
  /** Why a side could not be expanded (missing class or template, invalid variables). */
  errors: string[];
}

export interface TopologyReview {
  clusters: ClusterTopologyReview[];
  /** Findings that concern no single Cluster (a ClusterClass no Cluster uses). */
  warnings: string[];
}
