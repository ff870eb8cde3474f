/** Per-cluster and overall summaries of the impacts ("3 clusters will roll workers; 1 control plane rolls"). */
import type { ObjectChange } from '../diff/types.js';
import { worstImpact, type ClusterSummary, type Impact, type ImpactKind, type ProviderSummary, type RolloutSummary } from './types.js';

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

export function summarizeClusters(changes: ObjectChange[]): ClusterSummary[] {
  const by = new Map<string, ClusterSummary & { objects: Set<string>; kinds: ImpactKind[]; orphanHint?: string }>();
  const entry = (id: string) => {
    let e = by.get(id);
    if (!e) {
      e = { cluster: id, impact: 'no-op', controlPlaneRolls: false, workersRoll: [], possibleRollout: false, created: false, deleted: false, objectsChanged: 0, reasons: [], objects: new Set(), kinds: [] };
      by.set(id, e);
    }
    return e;
  };
  for (const c of changes) {
    for (const i of c.impacts) {
      if (!i.cluster) continue;
      const e = entry(i.cluster);
      e.objects.add(c.key);
      const isClusterObject = c.kind === 'Cluster' && c.key.startsWith('cluster.x-k8s.io/');
      if (i.kind === 'create' && isClusterObject) e.created = true;
      if (i.kind === 'deletion' && isClusterObject) e.deleted = true;
      if (i.kind === 'deletion' && isClusterObject && i.pruned) e.pruned = true;
      if (i.kind === 'orphaned' && isClusterObject) e.orphanHint = i.hint ?? '';
      if (i.kind === 'rejected') {
        e.rejected ??= [];
        const object = `${c.kind} ${c.namespace ? `${c.namespace}/` : ''}${c.name}`;
        if (!e.rejected.some((r) => r.object === object && r.field === i.field && r.message === i.message)) {
          e.rejected.push({ object, field: i.field ?? '', message: i.message ?? i.reason, ...(i.rule !== undefined ? { rule: i.rule } : {}) });
        }
      }
      if (i.possible) e.possibleRollout = true;
      else {
        e.kinds.push(i.kind);
        if (i.kind === 'control-plane-rollout') e.controlPlaneRolls = true;
        if (i.kind === 'worker-rollout' && i.machineDeployment && !e.workersRoll.includes(i.machineDeployment)) e.workersRoll.push(i.machineDeployment);
        if (i.kind === 'worker-rollout' && !i.machineDeployment && !e.workersRoll.includes('*')) e.workersRoll.push('*');
      }
      const reason = `${i.possible ? 'may roll: ' : ''}${i.reason}`;
      if (!e.reasons.includes(reason)) e.reasons.push(reason);
    }
  }
  // Objects a Cluster owns but whose impacts name no cluster (rare) still count.
  for (const c of changes) if (c.owner.type === 'cluster') {
    const id = `${c.owner.namespace}/${c.owner.name}`;
    if (by.has(id)) by.get(id)?.objects.add(c.key);
  }
  return [...by.values()]
    .map(({ objects, kinds, orphanHint, ...rest }) => ({
      ...rest,
      ...(orphanHint !== undefined ? { orphaned: { hint: orphanHint } } : {}),
      // A refused update outranks everything: the sync fails, whatever else the change would do.
      impact: rest.rejected ? 'rejected' : rest.deleted ? 'deletion' : orphanHint !== undefined ? 'orphaned' : rest.created ? 'create' : worstImpact(kinds),
      workersRoll: rest.workersRoll.sort(),
      objectsChanged: objects.size,
    }))
    .sort((a, b) => (a.cluster < b.cluster ? -1 : a.cluster > b.cluster ? 1 : 0));
}

/**
 * The one-sentence summary. `rejected` names the object updates a webhook refuses (`Kind ns/name`), also those of
 * no cluster: they lead, as the sync fails on them whatever else the change does.
 */
export function summarize(clusters: ClusterSummary[], providers: ProviderSummary[], anyChange: boolean, rejected: readonly string[] = []): RolloutSummary {
  const live = clusters.filter((c) => !c.created && !c.deleted && c.orphaned === undefined);
  const s: RolloutSummary = {
    text: '',
    clustersCreated: clusters.filter((c) => c.created).length,
    clustersDeleted: clusters.filter((c) => c.deleted).length,
    clustersOrphaned: clusters.filter((c) => !c.deleted && c.orphaned !== undefined).length,
    clustersRejected: clusters.filter((c) => c.impact === 'rejected').length,
    updatesRejected: rejected.length,
    clustersRollingWorkers: live.filter((c) => c.workersRoll.length > 0).length,
    controlPlanesRolling: live.filter((c) => c.controlPlaneRolls).length,
    clustersPossiblyRolling: live.filter((c) => c.possibleRollout && !c.controlPlaneRolls && c.workersRoll.length === 0).length,
    // Clusters that only lose objects (deleted or left running) or whose update is refused do not "change in place".
    clustersInPlace: live.filter((c) => !c.controlPlaneRolls && c.workersRoll.length === 0 && !c.possibleRollout && !['no-op', 'rejected', 'deletion', 'orphaned'].includes(c.impact)).length,
    providersUpgraded: providers.filter((p) => p.impact === 'provider-upgrade').length,
    providersChanged: providers.filter((p) => p.impact !== 'provider-upgrade').length,
  };
  const parts: string[] = [];
  if (rejected.length) {
    const shown = rejected.slice(0, 3).join(', ') + (rejected.length > 3 ? `, … ${rejected.length - 3} more` : '');
    parts.push(`${plural(rejected.length, 'update', 'updates')} rejected by admission webhooks (${shown})${s.clustersRejected ? `, in ${plural(s.clustersRejected, 'cluster', 'clusters')}` : ''}: the Argo CD sync will fail`);
  }
  const pruned = clusters.filter((c) => c.deleted && c.pruned).length;
  if (pruned) parts.push(`⚠️ ${plural(pruned, 'cluster', 'clusters')} DELETED (Argo CD prunes): machines and infrastructure of the workload cluster are destroyed`);
  if (s.clustersDeleted - pruned) parts.push(`${plural(s.clustersDeleted - pruned, 'cluster', 'clusters')} deleted`);
  const objectsDeleted = live.filter((c) => c.impact === 'deletion').length;
  if (objectsDeleted) parts.push(`${plural(objectsDeleted, 'cluster loses', 'clusters lose')} objects (deleted: Argo CD prunes)`);
  if (s.clustersOrphaned) parts.push(`${plural(s.clustersOrphaned, 'cluster', 'clusters')} orphaned: removed from git, still running until deleted by hand`);
  const objectsOrphaned = live.filter((c) => c.impact === 'orphaned').length;
  if (objectsOrphaned) parts.push(`${plural(objectsOrphaned, 'cluster keeps', 'clusters keep')} removed objects running (Argo CD does not prune)`);
  if (s.clustersRollingWorkers) parts.push(`${plural(s.clustersRollingWorkers, 'cluster', 'clusters')} will roll workers`);
  if (s.controlPlanesRolling) parts.push(`${plural(s.controlPlanesRolling, 'control plane rolls', 'control planes roll')}`);
  if (s.clustersPossiblyRolling) parts.push(`${plural(s.clustersPossiblyRolling, 'cluster', 'clusters')} may roll (variables, patches or class changed)`);
  if (s.clustersInPlace) parts.push(`${plural(s.clustersInPlace, 'cluster changes', 'clusters change')} in place`);
  if (s.clustersCreated) parts.push(`${plural(s.clustersCreated, 'cluster', 'clusters')} created`);
  const upgrades = providers.filter((p) => p.impact === 'provider-upgrade');
  if (upgrades.length) {
    parts.push(`${plural(upgrades.length, 'provider', 'providers')} upgraded (${upgrades.map((p) => `${p.label} ${p.fromVersion} → ${p.toVersion}`).join(', ')})`);
  }
  if (s.providersChanged) parts.push(`${plural(s.providersChanged, 'provider changes', 'providers change')}`);
  s.text = parts.length ? parts.join('; ') : anyChange ? 'no rollout: only no-op changes' : 'no changes';
  return s;
}

export interface ImpactGroup {
  kind: Impact['kind'];
  reason: string;
  possible: boolean;
  warning?: string;
  hint?: string;
  /** Clusters (and MachineDeployments) sharing this impact, e.g. "team-a/dev-1 (md-0), team-a/dev-2 (md-0)". */
  clusters: string;
  count: number;
}

/** One line per distinct impact of an object, listing the clusters it reaches (a ClusterClass change reaches many). */
export function groupImpacts(impacts: Impact[], maxNames = 10): ImpactGroup[] {
  const groups = new Map<string, { first: Impact; names: string[] }>();
  for (const i of impacts) {
    const key = `${i.kind}\0${i.reason}\0${i.possible ? 1 : 0}\0${i.warning ?? ''}\0${i.hint ?? ''}`;
    const name = i.cluster ? `${i.cluster}${i.machineDeployment && !i.reason.includes(i.machineDeployment) ? ` (${i.machineDeployment})` : ''}` : '';
    const g = groups.get(key);
    if (g) {
      if (name && !g.names.includes(name)) g.names.push(name);
    } else groups.set(key, { first: i, names: name ? [name] : [] });
  }
  return [...groups.values()].map(({ first, names }) => {
    const shown = names.slice(0, maxNames).join(', ') + (names.length > maxNames ? `, … ${names.length - maxNames} more` : '');
    const g: ImpactGroup = { kind: first.kind, reason: first.reason, possible: first.possible ?? false, clusters: shown, count: names.length };
    if (first.warning) g.warning = first.warning;
    if (first.hint) g.hint = first.hint;
    return g;
  });
}

/** ` (templates v1.12.4)` for a cluster pinned by `templateVersion`, with the base side's pin when it moved; else ``. */
export function pinnedLabel(c: Pick<ClusterSummary, 'templateVersion' | 'previousTemplateVersion'>): string {
  if (c.previousTemplateVersion !== undefined) return ` (templates ${c.previousTemplateVersion} → ${c.templateVersion ?? 'unpinned'})`;
  return c.templateVersion !== undefined ? ` (templates ${c.templateVersion})` : '';
}
