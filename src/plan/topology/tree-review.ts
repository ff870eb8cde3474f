/**
 * The ClusterClass review of a diff between two rendered trees. Only what a change can reach is expanded: the
 * topology Clusters whose files changed, and every topology Cluster of a namespace whose ClusterClass or templates
 * changed (in `clusterclasses/<ns>/` or inside a cluster file), plus Clusters elsewhere that name that namespace.
 * A 1,000-cluster tree where one Cluster changed expands one Cluster per side.
 */
import type { TreeIndex } from '../diff/objects.js';
import { topologyLine, topologyScope } from '../diff/topology-scope.js';
import type { KubeObject } from './compare.js';
import { reviewTopology } from './expand.js';
import type { TopologyReview } from './types.js';

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The files of one side that the review reads. */
function filesToExpand(index: TreeIndex, changed: ReadonlySet<string>, classNamespaces: ReadonlySet<string>): string[] {
  const out: string[] = [];
  const mentions = [...classNamespaces].map((ns) => new RegExp(`^\\s+(namespace|classNamespace):\\s*["']?${escape(ns)}["']?\\s*$`, 'm'));
  for (const [path, text] of index.files) {
    const parts = path.split('/');
    if (parts[0] === 'clusterclasses') {
      out.push(path);
      continue;
    }
    if (parts[0] !== 'clusters' || parts.length < 4 || !topologyLine.test(text)) continue;
    const ns = parts[1] ?? '';
    if (changed.has(path) || classNamespaces.has(ns) || mentions.some((m) => m.test(text))) out.push(path);
  }
  return out;
}

function objectsOf(index: TreeIndex, files: readonly string[]): KubeObject[] {
  return files.flatMap((f) => index.objectsOf(f).map((o) => o.object));
}

/**
 * The review of the topology Clusters a change between `base` and `head` reaches, or `undefined` when no change
 * touches a topology Cluster, a ClusterClass or a template.
 */
export function reviewTreeTopology(base: TreeIndex, head: TreeIndex): TopologyReview | undefined {
  const scope = topologyScope(base.files, head.files);
  if (!scope) return undefined;
  const baseObjects = objectsOf(base, filesToExpand(base, scope.changed, scope.classNamespaces));
  const headObjects = objectsOf(head, filesToExpand(head, scope.changed, scope.classNamespaces));
  return reviewTopology(baseObjects, headObjects);
}
