/**
 * Which part of a tree change the ClusterClass review must expand: the topology Clusters whose files changed, and
 * every topology Cluster of a namespace whose ClusterClass or templates changed (in `clusterclasses/<ns>/` or inside a
 * cluster file). Text only: deciding this must not load the topology engine, which a diff without topology changes
 * never needs.
 */
export interface TopologyScope {
  /** Paths (either side) that differ under `clusters/` or `clusterclasses/`. */
  changed: Set<string>;
  /** Namespaces whose ClusterClass or templates changed. */
  classNamespaces: Set<string>;
}

export const topologyLine = /^\s+topology:\s*$/m;
const classOrTemplate = /^kind:\s*(ClusterClass|\w+Template)\s*$/m;

/** The scope of the review between two trees' files, or `undefined` when no change reaches a topology Cluster or class. */
export function topologyScope(base: ReadonlyMap<string, string>, head: ReadonlyMap<string, string>): TopologyScope | undefined {
  const changed = new Set<string>();
  const relevant = (p: string): boolean => p.startsWith('clusters/') || p.startsWith('clusterclasses/');
  for (const [p, text] of base) if (relevant(p) && head.get(p) !== text) changed.add(p);
  for (const p of head.keys()) if (relevant(p) && !base.has(p)) changed.add(p);
  if (changed.size === 0) return undefined;
  const classNamespaces = new Set<string>();
  let clusterChanged = false;
  for (const p of changed) {
    const parts = p.split('/');
    const texts = [base.get(p) ?? '', head.get(p) ?? ''];
    if (parts[0] === 'clusterclasses' || texts.some((t) => classOrTemplate.test(t))) classNamespaces.add(parts[1] ?? '');
    if (parts[0] === 'clusters' && texts.some((t) => topologyLine.test(t))) clusterChanged = true;
  }
  return classNamespaces.size === 0 && !clusterChanged ? undefined : { changed, classNamespaces };
}
