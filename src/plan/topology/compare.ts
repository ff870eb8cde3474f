/**
 * Compares the desired objects of one Cluster in two expansions, role by role (never by name: CAPI keeps the names
 * of existing objects and gives a template a new one when its spec changes), and says what the topology controller
 * does about each difference (spec/capi-plan.md §3.6):
 * - ControlPlane: spec changes roll its Machines, except the fields KCP updates in place (replicas, metadata,
 *   machine-template metadata, timeouts, strategies); a rotated machine template moves its reference: a rollout.
 * - Machine and bootstrap templates of the control plane and MachineDeployments: a spec change rotates the template
 *   (new name, reference moved, old one deleted) and rolls the Machines that use it; metadata-only changes are
 *   patched in place.
 * - MachineDeployment: `spec.template` changes roll its Machines; replicas, metadata, minReadySeconds, timeouts and
 *   strategies change in place.
 * - MachinePool: its bootstrap config and infrastructure machine pool are objects patched in place; the
 *   infrastructure provider replaces instances for spec changes of its machine pool.
 * - InfrastructureCluster, MachineHealthChecks, the Cluster itself: updated in place.
 */
import { diffFields } from '../diff/field-diff.js';
import type { FieldChange, ObjectChange } from '../diff/types.js';
import { classifyControlPlane, classifyWorkers, metadataOnly, type Impact } from '../rollout/index.js';
import type { RoleChange } from './types.js';
import { asObject as record } from '../../go/index.js';

export type KubeObject = Record<string, unknown>;

export interface RoleObject {
  role: string;
  object: KubeObject;
}

export function objectName(o: KubeObject): string {
  const n = record(o.metadata)?.name;
  return typeof n === 'string' ? n : '';
}

export function objectKind(o: KubeObject): string {
  return typeof o.kind === 'string' ? o.kind : '';
}

/** `machineDeployment/md-0` → `['machineDeployment', 'md-0']`. */
export function splitRole(role: string): { base: string; topologyName?: string } {
  const slash = role.indexOf('/');
  return slash < 0 ? { base: role } : { base: role.slice(0, slash), topologyName: role.slice(slash + 1) };
}

/** Roles whose object is a template CAPI rotates (new name) when its spec changes. */
const templateRoles = new Set(['controlPlaneInfrastructureMachineTemplate', 'machineDeploymentBootstrapTemplate', 'machineDeploymentInfrastructureTemplate']);

const roleLabels: Record<string, string> = {
  cluster: 'Cluster',
  infrastructureCluster: 'InfrastructureCluster',
  controlPlane: 'ControlPlane',
  controlPlaneInfrastructureMachineTemplate: 'control plane machine template',
  controlPlaneMachineHealthCheck: 'control plane MachineHealthCheck',
  machineDeployment: 'MachineDeployment',
  machineDeploymentBootstrapTemplate: 'bootstrap template',
  machineDeploymentInfrastructureTemplate: 'machine template',
  machineDeploymentMachineHealthCheck: 'MachineHealthCheck',
  machinePool: 'MachinePool',
  machinePoolBootstrapConfig: 'bootstrap config',
  machinePoolInfrastructureMachinePool: 'infrastructure machine pool',
};

/** `machine template of md-0`, `ControlPlane`. */
export function describeRole(role: string): string {
  const { base, topologyName } = splitRole(role);
  const label = roleLabels[base] ?? base;
  if (topologyName === undefined) return label;
  return base === 'machineDeployment' || base === 'machinePool' ? `${label} ${topologyName}` : `${label} of ${topologyName}`;
}

function fakeChange(kind: string, name: string, fields: FieldChange[]): ObjectChange {
  return { action: 'changed', key: '', apiVersion: '', kind, namespace: '', name, file: '', owner: { type: 'other' }, fields, impacts: [] };
}

/**
 * A reference moved to a rotated template, said without the names (they are in the change and its fields), so the
 * same change in many Clusters reads as one line.
 */
function refMove(f: FieldChange | undefined): string | undefined {
  if (!f || f.action !== 'changed') return undefined;
  if (/\.(bootstrap\.configRef|infrastructureRef)\.name$/.test(f.path)) {
    return `uses the new ${f.path.includes('bootstrap') ? 'bootstrap' : 'machine'} template`;
  }
  return undefined;
}

/** The impacts of one role's change, for Cluster `cluster` (one per field for the ControlPlane and workers). */
export function roleImpacts(cluster: string, change: Omit<RoleChange, 'impacts'>, fields: FieldChange[]): Impact[] {
  const { base, topologyName } = splitRole(change.role);
  const what = describeRole(change.role);
  const worker = topologyName !== undefined ? { machineDeployment: topologyName } : {};
  const at = (kind: Impact['kind'], reason: string, extra: Partial<Impact> = {}): Impact => ({ kind, reason, cluster, ...worker, ...extra });
  if (change.action === 'created') {
    if (base === 'machineDeployment' || base === 'machinePool') return [at('create', `new ${what}: its Machines are created`)];
    return [at('create', `${what} ${change.name} created`)];
  }
  if (change.action === 'deleted') {
    if (base === 'machineDeployment' || base === 'machinePool') return [at('deletion', `${what} and its Machines are deleted`)];
    return [at('in-place', `${what} ${change.name} deleted`)];
  }
  if (change.action === 'rotated') {
    return [at('template-rotation', `${what} rotated (spec changed): a new template is created, the reference moves to it and the old one is deleted`)];
  }
  const meta = metadataOnly(fields);
  switch (base) {
    case 'controlPlane':
      return classifyControlPlane({ change: fakeChange(change.kind, change.name, fields), cluster }).map((i, n) => ({
        ...i,
        reason: `ControlPlane: ${refMove(fields[n]) ?? i.reason}${i.kind === 'control-plane-rollout' ? ': its Machines roll' : ''}`,
      }));
    case 'machineDeployment':
    case 'machinePool':
      return classifyWorkers({ change: fakeChange(change.kind, topologyName ?? change.name, fields), cluster }).map((i, n) => ({
        ...i,
        cluster,
        ...worker,
        reason: `${what}: ${refMove(fields[n]) ?? i.reason}${i.kind === 'worker-rollout' ? ': its Machines roll' : ''}`,
      }));
    case 'cluster':
      return [at(meta ? 'no-op' : 'in-place', meta ? 'Cluster metadata updated; no Machine is touched' : 'Cluster updated in place')];
    case 'machinePoolInfrastructureMachinePool':
      if (meta) return [at('in-place', `${what}: metadata updated in place`)];
      return [at('worker-rollout', `${what} updated in place (${fields.map((f) => f.path).join(', ')}): the infrastructure provider replaces the pool's instances`)];
    case 'machinePoolBootstrapConfig':
      return [at('in-place', `${what} updated in place${meta ? ' (metadata)' : ': new instances bootstrap with the new configuration'}`)];
    default:
      if (templateRoles.has(base) && !meta) {
        // Same name, new spec: the engine names templates from their spec, so only an unchanged name with a changed
        // spec gets here (an input that pins the name); CAPI would patch an immutable template, which its webhook rejects.
        return [at('in-place', `${what} spec changed under the same name ${change.name}`, { warning: 'machine templates are immutable: a spec change needs a new template name' })];
      }
      return [at('in-place', `${what} updated in place${meta ? ' (metadata)' : ''}`)];
  }
}

/** Field changes between two desired objects of a role (`metadata.name` left out for rotations: the change says it). */
function roleFields(a: KubeObject, b: KubeObject, rotated: boolean): FieldChange[] {
  const fields = diffFields(a, b);
  return rotated ? fields.filter((f) => f.path !== '.metadata.name') : fields;
}

function publicFields(fields: FieldChange[]): RoleChange['fields'] {
  return fields.map(({ path, action, old, new: n }) => {
    const f: RoleChange['fields'][number] = { path, action };
    if (old !== undefined) f.old = old;
    if (n !== undefined) f.new = n;
    return f;
  });
}

/** Role changes from `base` to `head` (head order, then roles only the base had). */
export function compareRoles(cluster: string, base: readonly RoleObject[], head: readonly RoleObject[]): RoleChange[] {
  const byRole = new Map(base.map((o) => [o.role, o.object]));
  const headRoles = new Set(head.map((o) => o.role));
  const out: RoleChange[] = [];
  const add = (c: Omit<RoleChange, 'impacts' | 'fields'>, fields: FieldChange[]): void => {
    const partial = { ...c, fields: publicFields(fields) };
    out.push({ ...partial, impacts: roleImpacts(cluster, partial, fields) });
  };
  for (const { role, object } of head) {
    const before = byRole.get(role);
    const kind = objectKind(object);
    const name = objectName(object);
    if (!before) {
      add({ role, action: 'created', kind, name }, []);
      continue;
    }
    const previousName = objectName(before);
    const rotated = previousName !== name && templateRoles.has(splitRole(role).base);
    const fields = roleFields(before, object, rotated);
    if (fields.length === 0 && !rotated) continue;
    add(rotated ? { role, action: 'rotated', kind, name, previousName } : { role, action: 'changed', kind, name }, fields);
  }
  for (const { role, object } of base) {
    if (!headRoles.has(role)) add({ role, action: 'deleted', kind: objectKind(object), name: objectName(object) }, []);
  }
  return out;
}
