/** The move plan capiform reports: clusterctl's groups, what stays behind and why, as data, text and JSON. */
import { buildMoveGraph, type BuildGraphOptions, type MoveNode, type MoveProblem, type SkippedObject } from './graph.js';
import { moveSequence, movePreconditions, silentlySkipped } from './sequence.js';

type Obj = Record<string, unknown>;

export interface MovePlanObject {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  uid: string;
  /** Cluster-scoped: created on the target only if missing, never deleted from the source. */
  isGlobal: boolean;
  /** Under a global tenant root: like global objects, not deleted from the source. */
  isGlobalHierarchy: boolean;
  /** Stays in the source (ClusterClass shared with another namespace, and what it owns). */
  shouldNotDelete: boolean;
  /** Carries `clusterctl.cluster.x-k8s.io/block-move`. */
  blockingMove: boolean;
  /** Deleted from the source after the move. */
  deleteFromSource: boolean;
  /** Tenant roots (`Kind ns/name`). */
  tenants: string[];
  /** Owners capiform inferred (runtime ownerReferences the manifests lack), with the controller behaviour behind each. */
  inferredOwners: { owner: string; because: string }[];
}

export interface MovePlan {
  /** `""` = all namespaces. */
  namespace: string;
  groups: MovePlanObject[][];
  /** Objects clusterctl would not move, with the reason (discovery, hierarchy and ordering). */
  skipped: SkippedObject[];
  problems: MoveProblem[];
}

function label(n: { kind: string; namespace: string; name: string }): string {
  return `${n.kind} ${n.namespace ? `${n.namespace}/` : ''}${n.name}`;
}

function byIdentity(a: { kind: string; namespace: string; name: string }, b: { kind: string; namespace: string; name: string }): number {
  const s = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0);
  return s(a.kind, b.kind) || s(a.namespace, b.namespace) || s(a.name, b.name);
}

/**
 * Plans `clusterctl move` over manifests: graph, groups (sorted by kind, namespace, name inside), skips, problems.
 * `inferOwners` defaults to true here: rendered manifests lack the ownerReferences controllers add at runtime.
 */
export function planMove(objects: readonly Obj[], options: BuildGraphOptions = {}): MovePlan {
  const graph = buildMoveGraph(objects, { inferOwners: true, ...options });
  const groups = moveSequence(graph);
  const toObject = (n: MoveNode): MovePlanObject => ({
    apiVersion: n.apiVersion,
    kind: n.kind,
    namespace: n.namespace,
    name: n.name,
    uid: n.uid,
    isGlobal: n.isGlobal,
    isGlobalHierarchy: n.isGlobalHierarchy,
    shouldNotDelete: n.shouldNotDelete,
    blockingMove: n.blockingMove,
    deleteFromSource: !n.isGlobal && !n.isGlobalHierarchy && !n.shouldNotDelete,
    tenants: [...n.tenants]
      .map((t) => graph.nodes.get(t))
      .filter((t): t is MoveNode => t !== undefined)
      .map(label)
      .sort(),
    inferredOwners: [...n.inferredOwners.entries()].map(([uid, because]) => {
      const o = graph.nodes.get(uid);
      return { owner: o ? label(o) : uid, because };
    }),
  });
  const skipped = [...silentlySkipped(graph, groups), ...graph.notDiscovered].sort(byIdentity);
  return {
    namespace: graph.namespace,
    groups: groups.map((g) => g.map(toObject).sort(byIdentity)),
    skipped,
    problems: movePreconditions(graph),
  };
}

/** Human-readable move plan. */
export function formatMovePlan(plan: MovePlan): string {
  const lines: string[] = [];
  const total = plan.groups.reduce((n, g) => n + g.length, 0);
  lines.push(
    `Move plan for ${plan.namespace ? `namespace ${plan.namespace}` : 'all namespaces'}: ${total} object${total === 1 ? '' : 's'} in ${plan.groups.length} group${plan.groups.length === 1 ? '' : 's'} (clusterctl move order)`,
  );
  plan.groups.forEach((group, i) => {
    lines.push('', `Group ${i + 1}:`);
    for (const o of group) {
      const notes: string[] = [];
      if (o.isGlobal) notes.push('global');
      else if (o.isGlobalHierarchy) notes.push('global hierarchy');
      if (o.shouldNotDelete) notes.push('kept in source');
      if (o.blockingMove) notes.push('blocks move');
      lines.push(`  ${label(o)}${notes.length ? `  (${notes.join(', ')})` : ''}`);
    }
  });
  const kept = plan.groups.flat().filter((o) => !o.deleteFromSource);
  if (kept.length > 0) {
    lines.push('', 'Not deleted from the source cluster:');
    for (const o of kept) {
      const why = o.isGlobal ? 'cluster-scoped' : o.isGlobalHierarchy ? 'owned by a cluster-scoped move-hierarchy root' : 'ClusterClass shared with another namespace';
      lines.push(`  ${label(o)}: ${why}`);
    }
  }
  const silent = plan.skipped.filter((s) => s.reason === 'not-in-hierarchy' || s.reason === 'owner-not-moved');
  if (silent.length > 0) {
    lines.push('', 'Not moved (clusterctl skips these silently):');
    for (const s of silent) lines.push(`  ${label(s)}: ${s.message}`);
  }
  const other = plan.skipped.filter((s) => s.reason === 'not-discovery-type' || s.reason === 'outside-namespace');
  if (other.length > 0) {
    const counts = new Map<string, number>();
    for (const s of other) {
      const key = s.reason === 'outside-namespace' ? 'outside the moved namespace' : `not a discovered type: ${s.kind}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    lines.push('', `Not considered (${other.length} object${other.length === 1 ? '' : 's'}; --json lists them):`);
    for (const [k, n] of [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) lines.push(`  ${n} × ${k}`);
  }
  if (plan.problems.length > 0) {
    lines.push('', 'Problems:');
    for (const p of plan.problems) lines.push(`  ${p.severity}: ${p.message}`);
  }
  return `${lines.join('\n')}\n`;
}
