/**
 * `capiform affected --base REF`: the clusters whose rendered output or topology-expanded state differs between two
 * rendered trees, so CI renders, checks or deploys only those. A topology Cluster's expanded state (the desired
 * objects CAPI's topology controller derives from its Cluster and ClusterClass) is computed on both sides with the
 * same engine as `plan topology`, each from its own class, variables and version, and compared role by role: a class
 * edit that changes nothing for a Cluster (a patch disabled for it, a default it overrides, a description) leaves it
 * out. Everything that is not a cluster directory (providers, ClusterClasses, namespaces, Argo CD glue) is reported as
 * `shared`: the paths shard 1 owns.
 */
import { compareGoStrings } from '../../go/index.js';
import { shardKey } from '../../render/index.js';
import { indexTree, targetGroups, type RenderedTree, type TreeIndex } from '../diff/index.js';
import { reviewTreeTopology, type ClusterTopologyReview } from '../topology/index.js';

export interface AffectedCluster {
  /** The management cluster (`""`: the single-target form). */
  target: string;
  namespace: string;
  name: string;
  /** The shard key (`<target>/<namespace>/<name>`), as `render --shard` hashes it. */
  key: string;
  /**
   * `added`, `removed`, `rendered output changed`, `topology-expanded state changed: <roles>`,
   * `topology-expanded state may change: <why>`, `topology expansion failed: <error>`.
   */
  reasons: string[];
}

export interface AffectedReport {
  base: string;
  head: string;
  clusters: AffectedCluster[];
  /** Targets with an affected cluster or changed shared files (empty in the single-target form). */
  targets: string[];
  /** Changed paths outside cluster directories. */
  shared: string[];
}

interface ClusterDir {
  target: string;
  namespace: string;
  name: string;
}

/** The cluster a tree path belongs to, or null for shared paths. */
function clusterOf(path: string): ClusterDir | null {
  const s = path.split('/');
  if (s[0] === 'clusters' && s.length >= 4) return { target: '', namespace: s[1]!, name: s[2]! };
  if (s[0] === 'targets' && s[2] === 'clusters' && s.length >= 6) return { target: s[1]!, namespace: s[3]!, name: s[4]! };
  return null;
}

const failedBefore = 'before the change: ';

/**
 * What the expansion says about one Cluster, or nothing when its desired objects are the same on both sides. A
 * Cluster that fails to expand on either side is affected, unless both sides fail alike and its class did not change
 * (nothing is known to differ then, and its own files decide).
 */
function topologyReason(review: ClusterTopologyReview, classChanged: boolean): string | undefined {
  if (review.status === 'failed') {
    const head = review.errors.filter((e) => !e.startsWith(failedBefore));
    const base = review.errors.filter((e) => e.startsWith(failedBefore)).map((e) => e.slice(failedBefore.length));
    const alike = head.length === base.length && head.every((e, i) => e === base[i]);
    if (alike && !classChanged) return undefined;
    if (alike) return `topology expansion failed on both sides: ${head.join('; ')}`;
    return `topology expansion failed: ${[...head, ...base.map((e) => `${failedBefore}${e}`)].join('; ')}`;
  }
  const roles = [...new Set(review.changes.map((c) => c.role))];
  if (roles.length > 0) return `topology-expanded state changed: ${roles.join(', ')}`;
  const unknown = [...new Set(review.impacts.filter((i) => i.possible).map((i) => i.reason))];
  if (unknown.length > 0) return `topology-expanded state may change: ${unknown.join(', ')}`;
  return undefined;
}

/** The file each Cluster object of the index (`ns/name`) came from: its folder names the cluster the tree gives it. */
function clusterFiles(index: TreeIndex): Map<string, string> {
  const out = new Map<string, string>();
  for (const o of index.objects.values()) {
    if (o.kind === 'Cluster' && o.group === 'cluster.x-k8s.io' && !out.has(`${o.namespace}/${o.name}`)) out.set(`${o.namespace}/${o.name}`, o.file);
  }
  return out;
}

/**
 * The topology reasons of every Cluster a change can reach, by shard key. Each management cluster's tree is expanded
 * on its own (its classes and Clusters are its own); only the Clusters whose files or classes changed are expanded.
 */
function topologyReasons(base: RenderedTree, head: RenderedTree): Map<string, string> {
  const out = new Map<string, string>();
  const groups = targetGroups(base, head) ?? [{ target: undefined, base, head }];
  for (const g of groups) {
    const baseIndex = indexTree(g.base);
    const headIndex = indexTree(g.head);
    const review = reviewTreeTopology(baseIndex, headIndex);
    if (!review) continue;
    const files = new Map([...clusterFiles(baseIndex), ...clusterFiles(headIndex)]);
    const changedClasses = new Set<string>();
    for (const p of new Set([...g.base.files.keys(), ...g.head.files.keys()])) {
      const s = p.split('/');
      if (s[0] === 'clusterclasses' && s.length >= 4 && g.base.files.get(p) !== g.head.files.get(p)) changedClasses.add(`${s[1]!}/${s[2]!}`);
    }
    const classDirChanged = (classId: string): boolean => changedClasses.has(classId);
    for (const c of review.clusters) {
      const file = files.get(c.cluster);
      const dir = file === undefined ? null : clusterOf(file);
      if (!dir) continue;
      const reason = topologyReason(c, classDirChanged(c.class) || (c.previousClass !== undefined && classDirChanged(c.previousClass)));
      if (reason !== undefined) out.set(shardKey(g.target ?? '', dir.namespace, dir.name), reason);
    }
  }
  return out;
}

/** Compares two rendered trees cluster by cluster. */
export function affectedClusters(base: RenderedTree, head: RenderedTree): AffectedReport {
  const paths = new Set([...base.files.keys(), ...head.files.keys()]);
  const clusters = new Map<string, { dir: ClusterDir; inBase: boolean; inHead: boolean; changed: boolean }>();
  const shared: string[] = [];
  for (const p of [...paths].sort(compareGoStrings)) {
    const b = base.files.get(p);
    const h = head.files.get(p);
    const dir = clusterOf(p);
    if (!dir) {
      if (b !== h) shared.push(p);
      continue;
    }
    const key = shardKey(dir.target, dir.namespace, dir.name);
    let c = clusters.get(key);
    if (!c) clusters.set(key, (c = { dir, inBase: false, inHead: false, changed: false }));
    if (b !== undefined) c.inBase = true;
    if (h !== undefined) c.inHead = true;
    if (b !== h) c.changed = true;
  }
  const topology = topologyReasons(base, head);
  const out: AffectedCluster[] = [];
  for (const [key, c] of [...clusters].sort(([a], [b]) => compareGoStrings(a, b))) {
    const reasons: string[] = [];
    if (!c.inBase) reasons.push('added');
    else if (!c.inHead) reasons.push('removed');
    else {
      if (c.changed) reasons.push('rendered output changed');
      const expanded = topology.get(key);
      if (expanded !== undefined) reasons.push(expanded);
    }
    if (reasons.length > 0) out.push({ target: c.dir.target, namespace: c.dir.namespace, name: c.dir.name, key, reasons });
  }
  const targets = new Set(out.map((c) => c.target).filter((t) => t !== ''));
  for (const p of shared) if (p.startsWith('targets/')) targets.add(p.split('/')[1]!);
  return { base: base.label, head: head.label, clusters: out, targets: [...targets].sort(compareGoStrings), shared };
}

/** One line per affected cluster (`namespace/name`, or `target/namespace/name`), then the shared paths' count. */
export function formatAffected(report: AffectedReport): string {
  const lines = report.clusters.map((c) => `${c.target ? `${c.target}/` : ''}${c.namespace}/${c.name}\t${c.reasons.join('; ')}`);
  if (report.shared.length > 0) lines.push(`(shared: ${report.shared.length} changed file${report.shared.length === 1 ? '' : 's'} outside cluster directories: providers, ClusterClasses, Argo CD glue)`);
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
