/**
 * The per-Cluster review of a change: the role comparison of the two expansions, the version upgrade, external
 * patches whose effect is unknown offline, and every finding CAPI's webhooks would turn into a rejection.
 */
import { deepEqual } from '../diff/field-diff.js';
import { worstImpact, type Impact } from '../rollout/index.js';
import { checkClasses, classIdOf, idOf, isClusterClass, isTopologyCluster, kubernetesVersionsOf, workerClassesOf } from './class-checks.js';
import { compareRoles, type KubeObject, type RoleObject } from './compare.js';
import { upgradePlanExtensionOf } from '../../topology/index.js';
import { reviewVersionChange } from './versions.js';
import type { ClusterTopologyReview, RoleChange, TopologyReview } from './types.js';
import { asObject as record } from '../../go/index.js';

/** What the review reads of an expanded Cluster (the engine's `ExpandedCluster`). */
export interface ExpandedClusterView {
  cluster: string;
  class: string;
  objects: readonly RoleObject[];
  errors: readonly { message: string }[];
  warnings: readonly string[];
  upgrade?: { from?: string; to: string; hops: readonly string[] };
}

export interface ExpansionSide {
  /** The objects that were expanded: Clusters, ClusterClasses, templates (anything else is ignored). */
  objects: readonly KubeObject[];
  clusters: readonly ExpandedClusterView[];
}

export interface CompareOptions {
  /**
   * The base's Clusters expanded with the head's classes, for classes whose variables changed: CAPI's ClusterClass
   * webhook validates the existing Clusters' values against the new definitions.
   */
  revalidated?: readonly ExpandedClusterView[];
}

function topologyVersion(cluster: KubeObject | undefined): string | undefined {
  const v = record(record(cluster?.spec)?.topology)?.version;
  return typeof v === 'string' ? v : undefined;
}

/** Names of the class's external (Runtime SDK) patches, which cannot run offline. */
export function externalPatchNames(cc: KubeObject | undefined): string[] {
  const patches = record(cc?.spec)?.patches;
  if (!Array.isArray(patches)) return [];
  return patches.map(record).filter((p) => p?.external !== undefined && typeof p.name === 'string').map((p) => p?.name as string);
}

function byId(objects: readonly KubeObject[], test: (o: KubeObject) => boolean): Map<string, KubeObject> {
  return new Map(objects.filter(test).map((o) => [idOf(o), o]));
}

function summarize(review: ClusterTopologyReview, impacts: Impact[]): void {
  const definite = impacts.filter((i) => !i.possible);
  review.controlPlaneRolls = definite.some((i) => i.kind === 'control-plane-rollout');
  const workers = new Set<string>();
  for (const i of definite) if (i.kind === 'worker-rollout' && i.machineDeployment) workers.add(i.machineDeployment);
  review.workersRoll = [...workers];
  review.inPlace = [...new Set(review.changes.filter((c) => c.impacts.some((i) => i.kind === 'in-place')).map((c) => c.role))];
  review.impact = review.status === 'created' ? 'create' : review.status === 'deleted' ? 'deletion' : worstImpact(definite.map((i) => i.kind));
}

/** Compares two expansions Cluster by Cluster. Pure: the objects and expansions are data. */
export function compareExpansions(base: ExpansionSide, head: ExpansionSide, opts: CompareOptions = {}): TopologyReview {
  const baseExpanded = new Map(base.clusters.map((c) => [c.cluster, c]));
  const headExpanded = new Map(head.clusters.map((c) => [c.cluster, c]));
  const baseClusters = byId(base.objects, isTopologyCluster);
  const headClusters = byId(head.objects, isTopologyCluster);
  const baseClasses = byId(base.objects, isClusterClass);
  const headClasses = byId(head.objects, isClusterClass);
  const findings = checkClasses(base.objects, head.objects);
  const revalidated = new Map((opts.revalidated ?? []).map((c) => [c.cluster, c]));
  const ids = [...new Set([...baseExpanded.keys(), ...headExpanded.keys()])].sort();
  const clusters: ClusterTopologyReview[] = [];
  for (const id of ids) {
    const b = baseExpanded.get(id);
    const h = headExpanded.get(id);
    const headCluster = headClusters.get(id);
    const baseCluster = baseClusters.get(id);
    const classId = h?.class ?? b?.class ?? '';
    const headClass = headClasses.get(classId);
    const review: ClusterTopologyReview = {
      cluster: id,
      class: classId,
      status: 'unchanged',
      impact: 'no-op',
      controlPlaneRolls: false,
      workersRoll: [],
      inPlace: [],
      changes: [],
      impacts: [],
      externalPatches: externalPatchNames(headClass ?? baseClasses.get(classId)),
      warnings: [...(h?.warnings ?? b?.warnings ?? [])],
      errors: [],
    };
    if (b && h && b.class !== h.class) review.previousClass = b.class;
    review.warnings.push(...(findings.clusters.get(id) ?? []));
    const again = revalidated.get(id);
    for (const e of again?.errors ?? []) {
      review.warnings.push(`the Cluster's current value is invalid under the new variable definitions of ClusterClass ${classId}, so CAPI's ClusterClass webhook rejects the class change: ${e.message}`);
    }
    const extra: Impact[] = [];
    const workers = workerClassesOf(headCluster ?? {}).map((w) => w.name);
    const version = reviewVersionChange(
      id,
      topologyVersion(baseCluster) ?? b?.upgrade?.to,
      topologyVersion(headCluster) ?? h?.upgrade?.to,
      workers,
      kubernetesVersionsOf(headClass),
      h?.upgrade?.hops,
      upgradePlanExtensionOf(headClass),
    );
    if (b && h) review.warnings.push(...version.warnings);
    if ((h?.errors.length ?? 0) > 0 || (b?.errors.length ?? 0) > 0) {
      review.status = 'failed';
      review.errors.push(...(h?.errors ?? []).map((e) => e.message));
      review.errors.push(...(b?.errors ?? []).map((e) => `before the change: ${e.message}`));
    } else if (!b && h) {
      review.status = 'created';
      review.changes = compareRoles(id, [], h.objects);
    } else if (b && !h) {
      review.status = 'deleted';
      review.changes = compareRoles(id, b.objects, []);
    } else if (b && h) {
      review.changes = compareRoles(id, b.objects, h.objects);
      if (version.upgrade) review.upgrade = version.upgrade;
      extra.push(...version.impacts);
      const inputsChanged = !deepEqual(baseCluster, headCluster) || !deepEqual(baseClasses.get(b.class), headClass);
      if (review.externalPatches.length > 0 && (inputsChanged || review.changes.length > 0)) {
        for (const patch of review.externalPatches) {
          const reason = `external patch "${patch}" (Runtime SDK) cannot run offline: what it changes is unknown`;
          extra.push({ kind: 'control-plane-rollout', possible: true, reason, cluster: id });
          for (const w of workers) extra.push({ kind: 'worker-rollout', possible: true, reason, cluster: id, machineDeployment: w });
        }
      }
      review.status = review.changes.length > 0 || extra.length > 0 ? 'changed' : 'unchanged';
    }
    review.impacts = [...review.changes.flatMap((c: RoleChange) => c.impacts), ...extra];
    summarize(review, review.impacts);
    clusters.push(review);
  }
  const warnings: string[] = [];
  for (const [classId, texts] of [...findings.classes.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    for (const t of texts) warnings.push(classId ? `ClusterClass ${classId}: ${t}` : t);
  }
  return { clusters, warnings };
}

/** Clusters of `objects` whose class is `classId`. */
export function clustersOfClass(objects: readonly KubeObject[], classId: string): KubeObject[] {
  return objects.filter((o) => isTopologyCluster(o) && classIdOf(o) === classId);
}
