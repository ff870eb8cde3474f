/**
 * The review's use of the topology engine: `plan topology` expands one set of objects; a diff expands the base, then
 * the head with the base's expansion as the previous state (CAPI keeps the names its Cluster already references,
 * so objects match by role and a template whose spec changed shows as a rotation).
 */
import { expandTopology, type ExpandedCluster, type TopologyObject } from '../../topology/index.js';
import { deepEqual } from '../diff/field-diff.js';
import { checkClasses, classIdOf, idOf, isClusterClass, isTopologyCluster, kubernetesVersionsOf } from './class-checks.js';
import type { KubeObject } from './compare.js';
import { patchedValues, type PatchedValue } from './patched-values.js';
import { compareExpansions } from './review.js';
import type { TopologyReview } from './types.js';
import { reviewVersionChange } from './versions.js';

/** What `plan topology --json` prints per Cluster; `patched` is for the text output only. */
export interface TopologyPlanCluster {
  cluster: string;
  class: string;
  objects: TopologyObject[];
  /** Findings and, for a Cluster that cannot be expanded, why (`error: …`). */
  warnings: string[];
  /** Values the class's patches set, per role (not part of the JSON). */
  patched: { role: string; values: PatchedValue[] }[];
  /** True when the Cluster could not be expanded. */
  failed: boolean;
  /** Why it could not (the field, the rule and the value, as CAPI's webhook words it); not part of the JSON. */
  errors: string[];
}

export interface TopologyPlan {
  clusters: TopologyPlanCluster[];
  /** Findings about the input as a whole (duplicate objects, invalid classes). */
  warnings: string[];
}

function variablesOf(cc: KubeObject | undefined): unknown {
  return (cc?.spec as Record<string, unknown> | undefined)?.variables;
}

/** Every topology Cluster of `objects`, expanded, with what a reviewer must know about each. */
export function planTopology(objects: readonly KubeObject[]): TopologyPlan {
  const result = expandTopology([...objects]);
  const findings = checkClasses(objects, objects);
  const classes = new Map(objects.filter(isClusterClass).map((c) => [idOf(c), c]));
  const clusters = new Map(objects.filter(isTopologyCluster).map((c) => [idOf(c), c]));
  const warnings = result.problems.map((p) => p.message);
  for (const [id, texts] of findings.classes) for (const t of texts) warnings.push(id ? `ClusterClass ${id}: ${t}` : t);
  return {
    warnings,
    clusters: result.clusters.map((c) => {
      const cluster = clusters.get(c.cluster);
      const version = cluster ? ((cluster.spec as { topology?: { version?: unknown } }).topology?.version as string | undefined) : undefined;
      const versionWarnings = reviewVersionChange(c.cluster, version, version, [], kubernetesVersionsOf(classes.get(c.class))).warnings;
      return {
        cluster: c.cluster,
        class: c.class,
        objects: c.objects,
        warnings: [...c.errors.map((e) => `error: ${e.message}`), ...c.warnings, ...(findings.clusters.get(c.cluster) ?? []), ...versionWarnings],
        patched: patchedValues(c),
        failed: c.errors.length > 0,
        errors: c.errors.map((e) => e.message),
      };
    }),
  };
}

/**
 * Expands both sides and compares them Cluster by Cluster. Where a class's variable definitions changed, the
 * base's Clusters are also validated against the head's definitions, as CAPI's ClusterClass webhook does.
 */
export function reviewTopology(baseObjects: readonly KubeObject[], headObjects: readonly KubeObject[]): TopologyReview {
  const base = expandTopology([...baseObjects]);
  const head = expandTopology([...headObjects], { previous: base.clusters });
  const baseClasses = new Map(baseObjects.filter(isClusterClass).map((c) => [idOf(c), c]));
  const redefined = new Set(
    headObjects.filter(isClusterClass).filter((c) => {
      const before = baseClasses.get(idOf(c));
      return before !== undefined && !deepEqual(variablesOf(before), variablesOf(c));
    }).map(idOf),
  );
  let revalidated: ExpandedCluster[] = [];
  if (redefined.size > 0) {
    const oldClusters = baseObjects.filter((o) => isTopologyCluster(o) && redefined.has(classIdOf(o) ?? ''));
    const oldIds = new Set(oldClusters.map(idOf));
    const mixed = [...headObjects.filter((o) => !(isTopologyCluster(o) && oldIds.has(idOf(o)))), ...oldClusters];
    revalidated = expandTopology(mixed, { previous: base.clusters })
      .clusters.filter((c) => oldIds.has(c.cluster))
      .map((c) => ({ ...c, errors: c.errors.filter((e) => e.field.includes('variables')) }))
      .filter((c) => c.errors.length > 0);
  }
  const review = compareExpansions({ objects: baseObjects, clusters: base.clusters }, { objects: headObjects, clusters: head.clusters }, { revalidated });
  review.warnings.unshift(...head.problems.map((p) => p.message));
  return review;
}
