/**
 * The workload clusters' namespaces as objects of the tree. Components carry their own Namespace, templates do not:
 * without these a ClusterClass or Cluster Application syncs into a namespace that does not exist. One folder per
 * namespace, `clusters/<namespace>/`, whose kustomization lists only `namespace.yaml` (the cluster folders below it
 * are Applications of their own), so each Namespace has exactly one owner however many clusters share it.
 */
import { compareGoStrings } from '../../go/index.js';
import { emitYaml } from './emit.js';

/** Namespaces every cluster has from the start; declaring them would make an Application own them. */
const builtinNamespaces = new Set(['default', 'kube-system', 'kube-public', 'kube-node-lease']);

/**
 * The namespaces to declare for these clusters: each once, in byte order. `declared` are Namespaces the tree already
 * has (a provider's components): a cluster living there must not make a second Application own it.
 */
export function workloadNamespaces(clusters: readonly { namespace: string }[], declared: ReadonlySet<string> = new Set()): string[] {
  return [...new Set(clusters.map((c) => c.namespace))].filter((ns) => !builtinNamespaces.has(ns) && !declared.has(ns)).sort(compareGoStrings);
}

/** Names of the Namespace objects in manifest text (a cheap scan: components are large and their Namespaces plain). */
export function declaredNamespaces(text: string): string[] {
  const out: string[] = [];
  for (const doc of text.split(/^---[ \t]*(?:#.*)?$/m)) {
    if (!/^kind:[ \t]*["']?Namespace["']?[ \t]*$/m.test(doc)) continue;
    const name = /^metadata:[ \t]*\n(?:[ \t]+.*\n)*?[ \t]+name:[ \t]*["']?([^"'\s#]+)/m.exec(doc);
    if (name) out.push(name[1]!);
  }
  return out;
}

export function namespaceDir(namespace: string): string {
  return `clusters/${namespace}`;
}

export const namespaceFile = 'namespace.yaml';

export function namespaceYaml(namespace: string): string {
  return emitYaml([{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } }]);
}
