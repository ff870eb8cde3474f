/** Rollout impact vocabulary, after CAPI's "effects of changes" (spec/capi-plan.md §3.6). */

export type ImpactKind =
  /** Nothing happens on the management or workload cluster beyond storing the object (annotations, glue). */
  | 'no-op'
  /** The object (and possibly its Machines) is updated in place; no Machine is replaced. */
  | 'in-place'
  /** KubeadmControlPlane Machines are replaced one by one. */
  | 'control-plane-rollout'
  /** MachineDeployment Machines are replaced according to the rollout strategy. */
  | 'worker-rollout'
  /** A machine template is replaced by a new one (new name); the old one goes away. */
  | 'template-rotation'
  /** A new object is created (a new cluster, MachineDeployment, provider component). */
  | 'create'
  /** The object is deleted (for a Cluster or MachineDeployment: its Machines too). */
  | 'deletion'
  /** A provider moves to another version (controllers restart, CRDs change). */
  | 'provider-upgrade'
  /** A provider's components change without a version change (controllers restart). */
  | 'provider-change'
  /**
   * The removed object stays on the management cluster, no longer in git: Argo CD does not prune it (`prune: false`,
   * or its Application is removed without the resources finalizer). It keeps running until deleted by hand.
   */
  | 'orphaned'
  /** CAPI or a provider refuses the update (a validating webhook): Argo CD's sync fails and nothing changes. */
  | 'rejected';

export interface Impact {
  kind: ImpactKind;
  /** Why, in one line a reviewer understands. */
  reason: string;
  /** The cluster affected (`<namespace>/<name>`), when there is one. */
  cluster?: string;
  /** The MachineDeployment (topology name or object name) that rolls, for worker rollouts. */
  machineDeployment?: string;
  /** The provider affected (manifest label), for provider changes. */
  provider?: string;
  /** True when CAPI may or may not roll, depending on what the change produces (patches, class rebase). */
  possible?: boolean;
  /** A warning for the reviewer, e.g. a change CAPI's webhooks reject. */
  warning?: string;
  /** For `rejected`: the field path the webhook reports, e.g. `spec.template.spec`. */
  field?: string;
  /** For `rejected`: the webhook's message. */
  message?: string;
  /** For `rejected`: the rule's stable id, e.g. `immutable/AWSMachineTemplate`. */
  rule?: string;
  /** For `deletion`: Argo CD prunes it for certain (the tree's own Argo CD glue says so). */
  pruned?: boolean;
  /** How to act on it: the fix of a rejection, the command that deletes an orphaned object. */
  hint?: string;
}

export interface ClusterSummary {
  /** A fleet's tree: the management cluster that runs it. */
  target?: string;
  /** `<namespace>/<name>` */
  cluster: string;
  /** The provider release the cluster's templates are pinned to (`clusters[].templateVersion`) on the head side. */
  templateVersion?: string;
  /** The base side's pin, when it differs (absent on a side: not pinned there). */
  previousTemplateVersion?: string;
  /** The worst definite impact, in the order of `impactOrder`. */
  impact: ImpactKind;
  controlPlaneRolls: boolean;
  /** MachineDeployments whose Machines roll. */
  workersRoll: string[];
  possibleRollout: boolean;
  created: boolean;
  deleted: boolean;
  /** Deleted by Argo CD's prune for certain (the tree's own Argo CD glue prunes it), not only if the deployer prunes. */
  pruned?: boolean;
  objectsChanged: number;
  reasons: string[];
  /** Updates of this cluster's objects the management cluster refuses (impact `rejected`). */
  rejected?: { object: string; field: string; message: string; rule?: string }[];
  /** The cluster is removed from git but Argo CD leaves it running (impact `orphaned`): how to delete it. */
  orphaned?: { hint: string };
}

export interface ProviderSummary {
  /** A fleet's tree: the management cluster it is installed in. */
  target?: string;
  label: string;
  providerName?: string;
  type?: string;
  fromVersion?: string;
  toVersion?: string;
  /** Contract (CAPI API version the provider serves as storage version / contract labels), when visible. */
  fromContract?: string;
  toContract?: string;
  impact: ImpactKind;
  crds: { added: string[]; removed: string[]; changed: string[]; versionsAdded: string[]; versionsRemoved: string[]; versionsDeprecated: string[]; storageChanged: string[] };
  images: { from?: string; to?: string; container: string; object: string }[];
  /**
   * Controller flags: `--name=value` compared by name; a changed list value (`--feature-gates=A=true,B=false`) also
   * names the items only the old value has (`removed`) and only the new one has (`added`).
   */
  args: { object: string; container: string; added: string[]; removed: string[]; changed: { flag: string; from: string; to: string; removed?: string[]; added?: string[] }[] }[];
  objectsChanged: number;
}

export interface RolloutSummary {
  /** One sentence, e.g. "3 clusters will roll workers; 1 control plane rolls; 1 provider upgraded". */
  text: string;
  clustersRollingWorkers: number;
  controlPlanesRolling: number;
  clustersPossiblyRolling: number;
  clustersCreated: number;
  clustersDeleted: number;
  /** Removed from git and left running by Argo CD. */
  clustersOrphaned: number;
  /** Clusters with an update a webhook refuses. */
  clustersRejected: number;
  /** Object updates a webhook refuses (also those of no cluster). */
  updatesRejected: number;
  clustersInPlace: number;
  providersUpgraded: number;
  providersChanged: number;
}

/** Severity order, mildest first. */
export const impactOrder: ImpactKind[] = [
  'no-op',
  'in-place',
  'create',
  'template-rotation',
  'provider-change',
  'provider-upgrade',
  'worker-rollout',
  'control-plane-rollout',
  'orphaned',
  'deletion',
  'rejected',
];

export function worstImpact(kinds: Iterable<ImpactKind>): ImpactKind {
  let worst: ImpactKind = 'no-op';
  for (const k of kinds) if (impactOrder.indexOf(k) > impactOrder.indexOf(worst)) worst = k;
  return worst;
}
