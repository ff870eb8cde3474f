/**
 * The workload clusters' namespaces as objects of the tree. Components carry their own Namespace, templates do not:
 * without these a ClusterClass or Cluster Application syncs into a namespace that does not exist. One folder per
 * namespace, `clusters/<namespace>/`, whose kustomization lists only `namespace.yaml` (the cluster folders below it
 * are Applications of their own), so each Namespace has exactly one owner however many clusters share it.
 */
import { compareBytes } from './kustomization.js';
import { emitYaml } from './emit.js';

/** Namespaces every cluster has from the start; declaring them would make an Application own them. */
const builtinNamespaces = new Set(['default', 'kube-system', 'kube-public', 'kube-node-lease']);

/** The namespaces to declare for these clusters: each once, in byte order. */
export function workloadNamespaces(clusters: readonly { namespace: string }[]): string[] {
  return [...new Set(clusters.map((c) => c.namespace))].filter((ns) => !builtinNamespaces.has(ns)).sort(compareBytes);
}

export function namespaceDir(namespace: string): string {
  return `clusters/${namespace}`;
}

export const namespaceFile = 'namespace.yaml';

export function namespaceYaml(namespace: string): string {
  return emitYaml([{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } }]);
}
