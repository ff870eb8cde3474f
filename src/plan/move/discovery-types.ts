/**
 * clusterctl move's discovery types (`objectgraph.go` `getDiscoveryTypes`): CRDs labelled
 * `clusterctl.cluster.x-k8s.io`, storage version only, keyed `<lowercase kind>s.<group>` (naive plural), plus core
 * Secret and ConfigMap.
 */
import { asObject as rec } from '../../go/index.js';

export const clusterctlLabel = 'clusterctl.cluster.x-k8s.io';
export const moveLabel = 'clusterctl.cluster.x-k8s.io/move';
export const moveHierarchyLabel = 'clusterctl.cluster.x-k8s.io/move-hierarchy';
export const blockMoveAnnotation = 'clusterctl.cluster.x-k8s.io/block-move';

/** A CRD as the planner needs it: from a CRD manifest (`crdInfoFromObject`) or a type table. */
export interface CrdInfo {
  group: string;
  kind: string;
  /** `Namespaced` or `Cluster`. */
  scope?: string;
  labels?: Record<string, string>;
  /** Either the storage version name… */
  storageVersion?: string;
  /** …or the CRD's versions with their `storage` flag. */
  versions?: { name: string; storage?: boolean }[];
}

export interface DiscoveryType {
  /** `<lowercase kind>s.<group>` (`secrets.v1` for Secret). */
  key: string;
  apiVersion: string;
  group: string;
  kind: string;
  forceMove: boolean;
  forceMoveHierarchy: boolean;
  /** The CRD's `spec.scope`; `""` for Secret and ConfigMap. */
  scope: string;
}

/** `getKindAPIString`: `<lowercase kind>s.<first segment of apiVersion>`. */
export function typeKey(apiVersion: string, kind: string): string {
  const slash = apiVersion.indexOf('/');
  return `${kind.toLowerCase()}s.${slash < 0 ? apiVersion : apiVersion.slice(0, slash)}`;
}

/** The group of an apiVersion (`""` for core `v1`). */
export function groupOf(apiVersion: string): string {
  const i = apiVersion.indexOf('/');
  return i < 0 ? '' : apiVersion.slice(0, i);
}

/** Reads a `CustomResourceDefinition` manifest into a CrdInfo; `null` for anything else. */
export function crdInfoFromObject(obj: Record<string, unknown>): CrdInfo | null {
  if (obj.kind !== 'CustomResourceDefinition' || groupOf(String(obj.apiVersion ?? '')) !== 'apiextensions.k8s.io') return null;
  const spec = rec(obj.spec);
  const names = rec(spec?.names);
  const labels = rec(rec(obj.metadata)?.labels) as Record<string, string> | undefined;
  const versions = Array.isArray(spec?.versions)
    ? (spec.versions as unknown[]).map((v) => ({ name: String(rec(v)?.name ?? ''), storage: rec(v)?.storage === true }))
    : [];
  if (typeof spec?.version === 'string' && versions.length === 0) versions.push({ name: spec.version, storage: true });
  return {
    group: String(spec?.group ?? ''),
    kind: String(names?.kind ?? ''),
    scope: String(spec?.scope ?? ''),
    labels: labels ?? {},
    versions,
  };
}

function storageVersions(crd: CrdInfo): string[] {
  if (crd.versions && crd.versions.length > 0) return crd.versions.filter((v) => v.storage).map((v) => v.name);
  return crd.storageVersion ? [crd.storageVersion] : [];
}

/** The discovery type table for a set of CRDs (those without the clusterctl label are not listed by clusterctl). */
export function discoveryTypes(crds: readonly CrdInfo[]): Map<string, DiscoveryType> {
  const types = new Map<string, DiscoveryType>();
  for (const crd of crds) {
    const labels = crd.labels ?? {};
    if (!(clusterctlLabel in labels)) continue;
    for (const version of storageVersions(crd)) {
      let forceMoveHierarchy =
        (crd.group === 'cluster.x-k8s.io' && (crd.kind === 'Cluster' || crd.kind === 'ClusterClass')) ||
        (crd.group === 'addons.cluster.x-k8s.io' && crd.kind === 'ClusterResourceSet');
      if (moveHierarchyLabel in labels) forceMoveHierarchy = true;
      const forceMove = forceMoveHierarchy || moveLabel in labels;
      const apiVersion = crd.group === '' ? version : `${crd.group}/${version}`;
      const key = typeKey(apiVersion, crd.kind);
      types.set(key, {
        key,
        apiVersion,
        group: crd.group,
        kind: crd.kind,
        forceMove,
        forceMoveHierarchy,
        scope: crd.scope ?? '',
      });
    }
  }
  for (const kind of ['Secret', 'ConfigMap']) {
    const key = typeKey('v1', kind);
    types.set(key, { key, apiVersion: 'v1', group: '', kind, forceMove: false, forceMoveHierarchy: false, scope: '' });
  }
  return types;
}
