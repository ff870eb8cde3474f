/**
 * The move set and move order (`objectgraph.go` `getMoveNodes`, `mover.go` `getMoveSequence`), plus what capiform
 * reports on top: objects clusterctl would silently leave behind, and the conditions that stop or delay a move.
 */
import type { MoveGraph, MoveNode, MoveProblem, SkippedObject } from './graph.js';

/** `getMoveNodes`: nodes with at least one tenant, or force-moved. */
export function moveNodes(graph: MoveGraph): MoveNode[] {
  return [...graph.nodes.values()].filter((n) => n.tenants.size > 0 || n.forceMove);
}

/**
 * `getMoveSequence`: group N holds every not-yet-sequenced move node whose owners and soft owners are all in earlier
 * groups; stops at the first empty group. Order inside a group is irrelevant (objects are created in parallel).
 */
export function moveSequence(graph: MoveGraph): MoveNode[][] {
  const candidates = moveNodes(graph);
  const placed = new Set<string>();
  const groups: MoveNode[][] = [];
  for (;;) {
    const group = candidates.filter(
      (n) =>
        !placed.has(n.uid) &&
        [...n.owners.keys()].every((o) => placed.has(o)) &&
        [...n.softOwners].every((o) => placed.has(o)),
    );
    if (group.length === 0) break;
    for (const n of group) placed.add(n.uid);
    groups.push(group);
  }
  return groups;
}

function describe(n: MoveNode): string {
  return `${n.kind} ${n.namespace ? `${n.namespace}/` : ''}${n.name}`;
}

/**
 * Discovered objects clusterctl does not move, with the reason: outside every move hierarchy, or stuck behind an
 * owner that is not moved (virtual owners included).
 */
export function silentlySkipped(graph: MoveGraph, groups: readonly MoveNode[][] = moveSequence(graph)): SkippedObject[] {
  const sequenced = new Set(groups.flat().map((n) => n.uid));
  const moveSet = new Set(moveNodes(graph).map((n) => n.uid));
  const out: SkippedObject[] = [];
  for (const n of graph.nodes.values()) {
    if (n.virtual) continue;
    const base = { apiVersion: n.apiVersion, kind: n.kind, namespace: n.namespace, name: n.name, uid: n.uid };
    if (!moveSet.has(n.uid)) {
      out.push({
        ...base,
        reason: 'not-in-hierarchy',
        message:
          'not owned (directly, or softly by name or reference) by a Cluster, ClusterClass, ClusterResourceSet or move-hierarchy object, and not labelled clusterctl.cluster.x-k8s.io/move',
      });
      continue;
    }
    if (sequenced.has(n.uid)) continue;
    const blockers: string[] = [];
    for (const o of [...n.owners.keys(), ...n.softOwners]) {
      if (sequenced.has(o)) continue;
      const owner = graph.nodes.get(o);
      if (!owner) continue;
      if (owner.virtual) blockers.push(`${owner.kind} ${owner.name} is not among the discovered objects (virtual owner)`);
      else if (!moveSet.has(o)) blockers.push(`${describe(owner)} is not moved`);
      else blockers.push(`${describe(owner)} is itself not moved`);
    }
    out.push({
      ...base,
      reason: 'owner-not-moved',
      message: `never enters a move group: owner ${blockers.join('; owner ')}`,
    });
  }
  return out;
}

/** clusterctl's refusals (paused Clusters/ClusterClasses) and delays (block-move annotations) for the move set. */
export function movePreconditions(graph: MoveGraph): MoveProblem[] {
  const problems: MoveProblem[] = [...graph.problems];
  const nodes = [...graph.nodes.values()].filter((n) => !n.virtual);
  const pausedClusters = nodes.filter((n) => n.kind === 'Cluster' && n.apiVersion.startsWith('cluster.x-k8s.io/') && n.paused);
  if (pausedClusters.length > 0) {
    problems.push({
      severity: 'error',
      message: `cannot start operation while the following Clusters are paused: ${pausedClusters.map((n) => `${n.namespace}/${n.name}`).join(', ')}`,
    });
  }
  const pausedClasses = nodes.filter((n) => n.kind === 'ClusterClass' && n.apiVersion.startsWith('cluster.x-k8s.io/') && n.paused);
  if (pausedClasses.length > 0) {
    problems.push({
      severity: 'error',
      message: `cannot start operation while the following ClusterClasses are paused: ${pausedClasses.map((n) => `${n.namespace}/${n.name}`).join(', ')}`,
    });
  }
  for (const n of moveNodes(graph)) {
    if (n.blockingMove) {
      problems.push({
        severity: 'warning',
        message: `${describe(n)} carries the clusterctl.cluster.x-k8s.io/block-move annotation: clusterctl waits (about 2 minutes, then fails) until a controller removes it`,
      });
    }
  }
  return problems;
}
