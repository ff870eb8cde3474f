/**
 * The values the class's inline patches set in each desired object, as the engine applied them (`patchChanges`): a
 * reviewer reads which patch wrote what, in the order CAPI applies them. Fields the topology controller owns itself
 * are never in the list, because the engine restores them after patching (spec/capi-plan.md §3.4.6).
 */
import type { ExpandedCluster } from '../../topology/index.js';

export interface PatchedValue {
  /** Path in the desired object, e.g. `.spec.template.spec.customImage`. */
  path: string;
  /** The value written; undefined for a `remove`. */
  value: unknown;
  /** The ClusterClass patch (`spec.patches[].name`) that wrote it. */
  patch: string;
  op: string;
}

/** A JSON pointer (`/spec/files/0`) as the dotted path the review prints (`.spec.files[0]`). */
export function pointerToPath(pointer: string): string {
  let out = '';
  for (const raw of pointer.split('/').slice(1)) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^(?:0|[1-9]\d*|-)$/.test(seg) ? `[${seg}]` : `.${seg}`;
  }
  return out || '.';
}

/** The patch changes of one expanded Cluster, grouped by role in object order. */
export function patchedValues(cluster: Pick<ExpandedCluster, 'objects' | 'patchChanges'>): { role: string; values: PatchedValue[] }[] {
  const byRole = new Map<string, PatchedValue[]>();
  for (const c of cluster.patchChanges ?? []) {
    const list = byRole.get(c.role) ?? [];
    list.push({ path: pointerToPath(c.path), value: c.op === 'remove' ? undefined : c.value, patch: c.patch, op: c.op });
    byRole.set(c.role, list);
  }
  return cluster.objects.filter((o) => byRole.has(o.role)).map((o) => ({ role: o.role, values: byRole.get(o.role) ?? [] }));
}
