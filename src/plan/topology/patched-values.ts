/**
 * The values the class's patches (and variables) set in a desired object: where the object differs from the
 * ClusterClass template it was cloned from (`cluster.x-k8s.io/cloned-from-name` / `-groupkind`). Fields the topology
 * controller owns itself (replicas, version, references, timeouts, metadata) are left out: patches cannot set them
 * (spec/capi-plan.md §3.4.6).
 */
import { diffFields } from '../diff/field-diff.js';
import { objectKind, objectName, type KubeObject } from './compare.js';

export interface PatchedValue {
  /** Path in the desired object, e.g. `.spec.template.spec.customImage`. */
  path: string;
  value: unknown;
}

function record(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

function annotation(o: KubeObject, key: string): string | undefined {
  const v = record(record(o.metadata)?.annotations)?.[key];
  return typeof v === 'string' ? v : undefined;
}

function namespaceOf(o: KubeObject): string {
  const ns = record(o.metadata)?.namespace;
  return typeof ns === 'string' && ns ? ns : 'default';
}

function groupOf(o: KubeObject): string {
  const v = typeof o.apiVersion === 'string' ? o.apiVersion : '';
  return v.includes('/') ? v.slice(0, v.indexOf('/')) : '';
}

/** Paths under the object's spec the topology controller sets (never a patch). */
const ownedPaths = [
  '.spec.replicas',
  '.spec.version',
  '.spec.machineTemplate.metadata',
  '.spec.machineTemplate.infrastructureRef',
  '.spec.machineTemplate.spec.infrastructureRef',
  '.spec.machineTemplate.spec.deletion',
  '.spec.machineTemplate.spec.readinessGates',
  '.spec.machineTemplate.spec.taints',
  '.spec.machineTemplate.nodeDrainTimeout',
  '.spec.machineTemplate.nodeVolumeDetachTimeout',
  '.spec.machineTemplate.nodeDeletionTimeout',
  '.spec.machineTemplate.readinessGates',
  '.spec.rollout.after',
];

const owned = (path: string): boolean => ownedPaths.some((p) => path === p || path.startsWith(`${p}.`) || path.startsWith(`${p}[`));

/**
 * The values set in `desired` that its source template does not have. `templates` are the objects the expansion
 * read (the template is looked up by the cloned-from annotations in the object's namespace or the class's).
 */
export function patchedValues(desired: KubeObject, templates: readonly KubeObject[], classNamespace: string): PatchedValue[] {
  const name = annotation(desired, 'cluster.x-k8s.io/cloned-from-name');
  const groupKind = annotation(desired, 'cluster.x-k8s.io/cloned-from-groupkind');
  if (!name || !groupKind) return [];
  const dot = groupKind.indexOf('.');
  const kind = dot < 0 ? groupKind : groupKind.slice(0, dot);
  const group = dot < 0 ? '' : groupKind.slice(dot + 1);
  const template = templates.find((t) => objectName(t) === name && objectKind(t) === kind && groupOf(t) === group && namespaceOf(t) === classNamespace);
  if (!template) return [];
  const source = record(record(record(template.spec)?.template)?.spec) ?? {};
  // A template-from-template copy keeps the template's shape; an object takes the template's spec.template.spec as its spec.
  const isTemplate = objectKind(desired) === kind;
  const target = isTemplate ? (record(record(record(desired.spec)?.template)?.spec) ?? {}) : (record(desired.spec) ?? {});
  const prefix = isTemplate ? ['spec', 'template', 'spec'] : ['spec'];
  const out: PatchedValue[] = [];
  for (const f of diffFields(source, target, prefix)) if (f.action !== 'removed') leaves(f.path, f.new, out);
  return out.filter((v) => !owned(v.path));
}

/** A whole added object as its leaf values, so the owned fields inside it can be left out. */
function leaves(path: string, value: unknown, out: PatchedValue[]): void {
  const r = record(value);
  if (!r || Object.keys(r).length === 0) {
    out.push({ path, value });
    return;
  }
  for (const [k, v] of Object.entries(r)) leaves(/^[A-Za-z_][A-Za-z0-9_]*$/.test(k) ? `${path}.${k}` : `${path}[${JSON.stringify(k)}]`, v, out);
}
