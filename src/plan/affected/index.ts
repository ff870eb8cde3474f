/**
 * `capiform affected --base REF`: the clusters whose rendered output or topology-expanded state differs between two
 * rendered trees, so CI renders, checks or deploys only those. A cluster's topology-expanded state (what CAPI's
 * topology controller derives from its Cluster and ClusterClass) changes exactly when one of its inputs does: its
 * own directory, or the ClusterClass its `spec.topology` names. Everything that is not a cluster directory
 * (providers, ClusterClasses, namespaces, Argo CD glue) is reported as `shared`: the paths shard 1 owns.
 */
import { compareBytes } from '../../cache/index.js';
import { shardKey } from '../../render/index.js';
import { parseManifests } from '../../yaml/index.js';
import type { RenderedTree } from '../diff/index.js';

export interface AffectedCluster {
  /** The management cluster (`""`: the single-target form). */
  target: string;
  namespace: string;
  name: string;
  /** The shard key (`<target>/<namespace>/<name>`), as `render --shard` hashes it. */
  key: string;
  /** `added`, `removed`, `rendered output changed`, `ClusterClass <ns>/<name> changed`. */
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
  /** Tree path prefix of the target (`""` or `targets/<t>/`). */
  root: string;
}

/** The cluster a tree path belongs to, or null for shared paths. */
function clusterOf(path: string): ClusterDir | null {
  const s = path.split('/');
  if (s[0] === 'clusters' && s.length >= 4) return { target: '', namespace: s[1]!, name: s[2]!, root: '' };
  if (s[0] === 'targets' && s[2] === 'clusters' && s.length >= 6) return { target: s[1]!, namespace: s[3]!, name: s[4]!, root: `targets/${s[1]!}/` };
  return null;
}

/** The ClusterClasses (`<root>clusterclasses/<ns>/<name>`) the Clusters of a directory's files name in spec.topology. */
function classDirsOf(files: readonly string[], root: string, namespace: string): string[] {
  const out = new Set<string>();
  for (const text of files) {
    let objects: ReturnType<typeof parseManifests>;
    try {
      objects = parseManifests(text);
    } catch {
      continue;
    }
    for (const o of objects) {
      if (o.kind !== 'Cluster') continue;
      const topology = (o.spec as { topology?: Record<string, unknown> } | undefined)?.topology;
      if (!topology) continue;
      const ref = topology.classRef as { name?: unknown; namespace?: unknown } | undefined;
      const name = typeof ref?.name === 'string' ? ref.name : typeof topology.class === 'string' ? topology.class : undefined;
      if (!name) continue;
      const ns = typeof ref?.namespace === 'string' && ref.namespace ? ref.namespace : typeof topology.classNamespace === 'string' && topology.classNamespace ? topology.classNamespace : namespace;
      out.add(`${root}clusterclasses/${ns}/${name}`);
    }
  }
  return [...out];
}

/** Compares two rendered trees cluster by cluster. */
export function affectedClusters(base: RenderedTree, head: RenderedTree): AffectedReport {
  const paths = new Set([...base.files.keys(), ...head.files.keys()]);
  const changed = new Set([...paths].filter((p) => base.files.get(p) !== head.files.get(p)));
  const clusters = new Map<string, { dir: ClusterDir; inBase: boolean; inHead: boolean; changed: boolean; baseFiles: string[]; headFiles: string[] }>();
  const shared: string[] = [];
  for (const p of [...paths].sort(compareBytes)) {
    const dir = clusterOf(p);
    if (!dir) {
      if (changed.has(p)) shared.push(p);
      continue;
    }
    const key = shardKey(dir.target, dir.namespace, dir.name);
    let c = clusters.get(key);
    if (!c) clusters.set(key, (c = { dir, inBase: false, inHead: false, changed: false, baseFiles: [], headFiles: [] }));
    const b = base.files.get(p);
    const h = head.files.get(p);
    if (b !== undefined) {
      c.inBase = true;
      c.baseFiles.push(b);
    }
    if (h !== undefined) {
      c.inHead = true;
      c.headFiles.push(h);
    }
    if (changed.has(p)) c.changed = true;
  }
  const classChanged = (dir: string): boolean => [...changed].some((p) => p.startsWith(`${dir}/`));
  const out: AffectedCluster[] = [];
  for (const [key, c] of [...clusters].sort(([a], [b]) => compareBytes(a, b))) {
    const reasons: string[] = [];
    if (!c.inBase) reasons.push('added');
    else if (!c.inHead) reasons.push('removed');
    else if (c.changed) reasons.push('rendered output changed');
    if (c.inHead) {
      const classes = new Set([...classDirsOf(c.headFiles, c.dir.root, c.dir.namespace), ...classDirsOf(c.baseFiles, c.dir.root, c.dir.namespace)]);
      for (const cls of [...classes].sort(compareBytes)) if (classChanged(cls)) reasons.push(`ClusterClass ${cls.split('/').slice(-2).join('/')} changed`);
    }
    if (reasons.length > 0) out.push({ target: c.dir.target, namespace: c.dir.namespace, name: c.dir.name, key, reasons });
  }
  const targets = new Set(out.map((c) => c.target).filter((t) => t !== ''));
  for (const p of shared) if (p.startsWith('targets/')) targets.add(p.split('/')[1]!);
  return { base: base.label, head: head.label, clusters: out, targets: [...targets].sort(compareBytes), shared };
}

/** One line per affected cluster (`namespace/name`, or `target/namespace/name`), then the shared paths' count. */
export function formatAffected(report: AffectedReport): string {
  const lines = report.clusters.map((c) => `${c.target ? `${c.target}/` : ''}${c.namespace}/${c.name}\t${c.reasons.join('; ')}`);
  if (report.shared.length > 0) lines.push(`(shared: ${report.shared.length} changed file${report.shared.length === 1 ? '' : 's'} outside cluster directories: providers, ClusterClasses, Argo CD glue)`);
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
