/**
 * Rollout impact of one object change, following CAPI's semantics (spec/capi-plan.md §3.6 and the
 * KubeadmControlPlane / MachineDeployment rollout rules):
 * - KubeadmControlPlane: replicas, metadata, machine-template metadata, timeouts, rollout/remediation strategy are
 *   in place; version, kubeadmConfigSpec, the machine template reference and anything else in spec roll the
 *   control plane.
 * - MachineDeployment: replicas, metadata, template metadata, minReadySeconds, timeouts, strategy are in place;
 *   anything else in spec.template (version, bootstrap/infrastructure refs, failure domain) rolls the workers.
 * - Machine templates are immutable: a spec change arrives as a rotation (new name + new reference).
 * - ClusterClass and its templates: every Cluster of the class is affected as the docs' table says.
 */
import type { FieldChange, ObjectChange, PathSegment } from '../diff/types.js';
import type { TreeObject } from '../diff/objects.js';
import type { Impact } from './types.js';
import type { RemovalFate } from './argocd.js';
import {
  capiGroup,
  classTemplateRefs,
  clusterClassOf,
  clusterId,
  get,
  str,
  workerTopologies,
  type ClassTemplateRole,
  type TreeLookup,
} from './refs.js';

export interface ClassifyInput {
  change: ObjectChange;
  base?: TreeObject;
  head?: TreeObject;
  /** The object's cluster (`ns/name`) when it belongs to one. */
  cluster?: string;
}

export interface ClassifyContext {
  base: TreeLookup;
  head: TreeLookup;
}

/** `spec.topology.workers.machineDeployments[].replicas` */
export function normalPath(segments: PathSegment[] | undefined): string {
  let out = '';
  for (const s of segments ?? []) out += typeof s === 'string' ? (out ? `.${s}` : s) : '[]';
  return out;
}

export function under(path: string, ...prefixes: string[]): boolean {
  return prefixes.some((p) => path === p || path.startsWith(`${p}.`) || path.startsWith(`${p}[]`));
}

function keyAt(segments: PathSegment[] | undefined, index: number): string | undefined {
  const s = segments?.[index];
  return typeof s === 'object' ? s.value : typeof s === 'number' ? String(s) : undefined;
}

function show(v: unknown): string {
  if (v === undefined) return '(unset)';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function fromTo(f: FieldChange): string {
  if (f.redacted) return 'changed';
  return `${show(f.old)} → ${show(f.new)}`;
}

const timeoutFields = ['nodeDrainTimeout', 'nodeVolumeDetachTimeout', 'nodeDeletionTimeout', 'nodeDrainTimeoutSeconds', 'nodeVolumeDetachTimeoutSeconds', 'nodeDeletionTimeoutSeconds', 'deletion'];

export function isMachineTemplateKind(group: string, kind: string): boolean {
  return (
    (group === `infrastructure.${capiGroup}` && kind.endsWith('MachineTemplate')) ||
    (group === `bootstrap.${capiGroup}` && kind.endsWith('ConfigTemplate'))
  );
}

function isTemplateKind(group: string, kind: string): boolean {
  return group.endsWith(capiGroup) && group !== capiGroup && kind.endsWith('Template');
}

function isControlPlaneKind(group: string, kind: string): boolean {
  return group === `controlplane.${capiGroup}` && !kind.endsWith('Template');
}

export function metadataOnly(fields: FieldChange[]): boolean {
  return fields.every((f) => under(normalPath(f.segments), 'metadata'));
}

/** Impacts of a changed object (same name in both trees). */
export function classifyChanged(input: ClassifyInput, ctx: ClassifyContext): Impact[] {
  const { change } = input;
  const g = input.head?.group ?? input.base?.group ?? '';
  const kind = change.kind;
  if (g === capiGroup && kind === 'Cluster') return classifyCluster(input);
  if (isControlPlaneKind(g, kind)) return classifyControlPlane(input);
  if (g === capiGroup && (kind === 'MachineDeployment' || kind === 'MachinePool' || kind === 'MachineSet')) return classifyWorkers(input);
  if (g === capiGroup && kind === 'ClusterClass') return classifyClass(input, ctx);
  if (isTemplateKind(g, kind)) return classifyTemplate(input, ctx);
  if (g === capiGroup && kind === 'MachineHealthCheck') return [inPlace(input, 'MachineHealthCheck updated in place')];
  if (kind === 'Kustomization' || g === 'argoproj.io') return [{ kind: 'no-op', reason: 'GitOps glue changed (what Argo CD applies, not the objects)' }];
  if (metadataOnly(change.fields)) return [inPlace(input, 'metadata updated in place')];
  return [inPlace(input, `${kind} updated in place`)];
}

function withCluster(input: ClassifyInput, i: Impact): Impact {
  return input.cluster && !i.cluster ? { ...i, cluster: input.cluster } : i;
}

function inPlace(input: ClassifyInput, reason: string, extra: Partial<Impact> = {}): Impact {
  return withCluster(input, { kind: 'in-place', reason, ...extra });
}

function classifyCluster(input: ClassifyInput): Impact[] {
  const out: Impact[] = [];
  const mds = workerTopologies(input.head).filter((w) => !w.pool);
  for (const f of input.change.fields) {
    const p = normalPath(f.segments);
    const at = (r: Omit<Impact, 'cluster'>): void => void out.push(withCluster(input, r as Impact));
    if (under(p, 'metadata')) at({ kind: 'no-op', reason: `Cluster ${p.startsWith('metadata.labels') ? 'labels' : 'metadata'} changed; no Machine is touched` });
    else if (under(p, 'spec.topology.version')) {
      at({ kind: 'control-plane-rollout', reason: `Kubernetes version ${fromTo(f)}: the control plane upgrades first` });
      for (const md of mds) at({ kind: 'worker-rollout', machineDeployment: md.name, reason: `Kubernetes version ${fromTo(f)}: workers upgrade after the control plane` });
    } else if (under(p, 'spec.topology.classRef', 'spec.topology.class', 'spec.topology.classNamespace')) {
      at({ kind: 'control-plane-rollout', possible: true, reason: `ClusterClass changed (${fromTo(f)}): objects are regenerated from the new class; Machines roll where its templates differ` });
      for (const md of mds) at({ kind: 'worker-rollout', possible: true, machineDeployment: md.name, reason: 'ClusterClass rebase' });
    } else if (under(p, 'spec.topology.controlPlane.replicas')) at({ kind: 'in-place', reason: `control plane scales ${fromTo(f)}` });
    else if (under(p, 'spec.topology.controlPlane.metadata')) at({ kind: 'in-place', reason: 'control plane metadata updated in place (Machines too)' });
    else if (timeoutFields.some((t) => under(p, `spec.topology.controlPlane.${t}`))) at({ kind: 'in-place', reason: 'control plane node drain/deletion timeouts updated in place' });
    else if (under(p, 'spec.topology.controlPlane.variables')) at({ kind: 'control-plane-rollout', possible: true, reason: 'control plane variable overrides changed: patches may change its templates' });
    else if (under(p, 'spec.topology.controlPlane')) at({ kind: 'control-plane-rollout', possible: true, reason: `control plane topology ${p.slice('spec.topology.controlPlane.'.length)} changed` });
    else if (under(p, 'spec.topology.workers.machineDeployments', 'spec.topology.workers.machinePools')) {
      const name = keyAt(f.segments, 4) ?? '?';
      const rest = p.replace(/^spec\.topology\.workers\.machine(Deployments|Pools)\[\]\.?/, '');
      const what = p.includes('machinePools') ? 'MachinePool' : 'MachineDeployment';
      if (rest === '' && f.action === 'added') at({ kind: 'create', machineDeployment: name, reason: `new ${what} ${name}` });
      else if (rest === '' && f.action === 'removed') at({ kind: 'deletion', machineDeployment: name, reason: `${what} ${name} and its Machines are deleted` });
      else if (under(rest, 'replicas')) at({ kind: 'in-place', machineDeployment: name, reason: `${name} scales ${fromTo(f)}` });
      else if (under(rest, 'metadata', 'minReadySeconds', 'rollout.strategy', 'strategy', 'deletion.order', 'remediation', 'machineHealthCheck', 'healthCheck') || timeoutFields.some((t) => under(rest, t))) {
        at({ kind: 'in-place', machineDeployment: name, reason: `${name} ${rest} updated in place` });
      } else if (under(rest, 'variables')) at({ kind: 'worker-rollout', possible: true, machineDeployment: name, reason: `${name} variable overrides changed: patches may change its templates` });
      else at({ kind: 'worker-rollout', machineDeployment: name, reason: `${name} ${rest} ${fromTo(f)}` });
    } else if (under(p, 'spec.topology.variables')) {
      at({ kind: 'control-plane-rollout', possible: true, reason: 'topology variables changed: patches may change the templates' });
      for (const md of mds) at({ kind: 'worker-rollout', possible: true, machineDeployment: md.name, reason: 'topology variables changed' });
    } else if (under(p, 'spec.topology.rollout', 'spec.topology.rolloutAfter')) {
      at({ kind: 'control-plane-rollout', reason: 'topology rollout.after changed' });
      for (const md of mds) at({ kind: 'worker-rollout', machineDeployment: md.name, reason: 'topology rollout.after changed' });
    } else if (under(p, 'spec.controlPlaneRef', 'spec.infrastructureRef')) {
      at({ kind: 'in-place', reason: `${p} ${fromTo(f)}`, warning: 'Cluster references are immutable once set; the webhook rejects this change' });
    } else if (under(p, 'spec.clusterNetwork')) {
      at({ kind: 'in-place', reason: `${p} ${fromTo(f)}`, warning: 'cluster networking cannot change on a running cluster for most providers' });
    } else at({ kind: 'in-place', reason: `${p} ${fromTo(f)}` });
  }
  return out;
}

/** Impacts of a changed control plane object (KubeadmControlPlane rules; the topology review uses them too). */
export function classifyControlPlane(input: ClassifyInput): Impact[] {
  const out: Impact[] = [];
  for (const f of input.change.fields) {
    const p = normalPath(f.segments);
    if (under(p, 'metadata')) out.push(inPlace(input, 'control plane metadata updated in place'));
    else if (under(p, 'apiVersion')) out.push(inPlace(input, `apiVersion ${fromTo(f)} (same object, converted)`));
    else if (under(p, 'spec.replicas')) out.push(inPlace(input, `control plane scales ${fromTo(f)}`));
    else if (under(p, 'spec.machineTemplate.metadata')) out.push(inPlace(input, 'machine template metadata propagated in place'));
    else if (timeoutFields.some((t) => under(p, `spec.machineTemplate.${t}`, `spec.machineTemplate.spec.${t}`))) out.push(inPlace(input, `${p} propagated in place`));
    else if (under(p, 'spec.rolloutStrategy', 'spec.rollout.strategy', 'spec.remediationStrategy', 'spec.remediation', 'spec.machineNaming')) out.push(inPlace(input, `${p} updated in place`));
    else if (under(p, 'spec.version')) out.push(withCluster(input, { kind: 'control-plane-rollout', reason: `Kubernetes version ${fromTo(f)}` }));
    else if (under(p, 'spec.machineTemplate.infrastructureRef', 'spec.machineTemplate.spec.infrastructureRef')) {
      out.push(withCluster(input, { kind: 'control-plane-rollout', reason: `machine template ${fromTo(f)}` }));
    } else if (under(p, 'spec.kubeadmConfigSpec')) out.push(withCluster(input, { kind: 'control-plane-rollout', reason: `${p} changed` }));
    else if (under(p, 'spec.rolloutAfter', 'spec.rollout.after', 'spec.rolloutBefore', 'spec.rollout.before')) {
      out.push(withCluster(input, { kind: 'control-plane-rollout', reason: `${p} ${fromTo(f)}: Machines older than that roll` }));
    } else if (under(p, 'spec')) out.push(withCluster(input, { kind: 'control-plane-rollout', reason: `${p} changed` }));
    else out.push(inPlace(input, `${p} changed`));
  }
  return out;
}

/** Impacts of a changed MachineDeployment, MachinePool or MachineSet (the topology review uses them too). */
export function classifyWorkers(input: ClassifyInput): Impact[] {
  const out: Impact[] = [];
  const md = input.change.name;
  const kind = input.change.kind;
  for (const f of input.change.fields) {
    const p = normalPath(f.segments);
    const roll = (reason: string): void => void out.push(withCluster(input, { kind: 'worker-rollout', machineDeployment: md, reason }));
    if (under(p, 'metadata')) out.push(inPlace(input, `${kind} metadata updated in place`, { machineDeployment: md }));
    else if (under(p, 'apiVersion')) out.push(inPlace(input, `apiVersion ${fromTo(f)} (same object, converted)`));
    else if (under(p, 'spec.replicas')) out.push(inPlace(input, `${md} scales ${fromTo(f)}`, { machineDeployment: md }));
    else if (under(p, 'spec.template.metadata')) out.push(inPlace(input, 'Machine labels/annotations propagated in place', { machineDeployment: md }));
    else if (under(p, 'spec.minReadySeconds', 'spec.template.spec.minReadySeconds')) out.push(inPlace(input, `minReadySeconds ${fromTo(f)}`, { machineDeployment: md }));
    else if (timeoutFields.some((t) => under(p, `spec.template.spec.${t}`))) out.push(inPlace(input, `${p} propagated in place`, { machineDeployment: md }));
    else if (under(p, 'spec.rolloutAfter', 'spec.rollout.after')) roll(`${p} ${fromTo(f)}: Machines older than that roll`);
    else if (under(p, 'spec.template.spec.bootstrap', 'spec.template.spec.infrastructureRef')) roll(`${p.replace('spec.template.spec.', '')} ${fromTo(f)}`);
    else if (under(p, 'spec.template.spec.version')) roll(`Kubernetes version ${fromTo(f)}`);
    else if (under(p, 'spec.template')) roll(`${p} ${fromTo(f)}`);
    else if (under(p, 'spec.selector', 'spec.clusterName')) out.push(inPlace(input, `${p} changed`, { warning: `${p} is immutable; the webhook rejects this change` }));
    else out.push(inPlace(input, `${p} ${fromTo(f)}`, { machineDeployment: md }));
  }
  return out;
}

interface ClassEffect {
  kind: Impact['kind'];
  reason: string;
  possible?: boolean;
  /** Only clusters using this worker class, and only their MachineDeployments of it. */
  workerClass?: string;
  controlPlane?: boolean;
  allWorkers?: boolean;
  warning?: string;
}

/** Fans class-level effects out to every Cluster of the class (in the head tree, else the base tree). */
function fanOut(classObj: TreeObject, effects: ClassEffect[], ctx: ClassifyContext): Impact[] {
  const users = ctx.head.classUsers(classObj.name, classObj.namespace);
  const clusters = users.length > 0 ? users : ctx.base.classUsers(classObj.name, classObj.namespace);
  const out: Impact[] = [];
  for (const e of effects) {
    if (clusters.length === 0) {
      out.push({ kind: e.kind === 'deletion' ? 'deletion' : 'no-op', reason: `${e.reason} (no Cluster in the tree uses ClusterClass ${classObj.name})` });
      continue;
    }
    for (const c of clusters) {
      const cid = clusterId(c.namespace, c.name);
      const base = { reason: e.reason, cluster: cid, ...(e.possible ? { possible: true } : {}), ...(e.warning ? { warning: e.warning } : {}) };
      const mds = workerTopologies(c).filter((w) => (e.workerClass === undefined ? true : w.class === e.workerClass));
      if (e.workerClass !== undefined && mds.length === 0) continue;
      if (e.kind === 'worker-rollout' || (e.kind === 'template-rotation' && (e.workerClass !== undefined || e.allWorkers))) {
        for (const md of mds) out.push({ ...base, kind: e.kind, machineDeployment: md.name });
      } else out.push({ ...base, kind: e.kind });
    }
  }
  return out;
}

function classifyClass(input: ClassifyInput, ctx: ClassifyContext): Impact[] {
  const obj = input.head ?? input.base;
  if (!obj) return [];
  const effects: ClassEffect[] = [];
  for (const f of input.change.fields) {
    const p = normalPath(f.segments);
    if (under(p, 'metadata', 'spec.kubernetesVersions', 'spec.upgrade', 'spec.availabilityGates')) {
      effects.push({ kind: 'no-op', reason: `ClusterClass ${p} changed` });
    } else if (under(p, 'spec.controlPlane.metadata')) effects.push({ kind: 'in-place', reason: 'ClusterClass controlPlane.metadata: control plane and its Machines updated in place' });
    else if (timeoutFields.some((t) => under(p, `spec.controlPlane.${t}`))) effects.push({ kind: 'in-place', reason: `ClusterClass ${p}: propagated in place` });
    else if (under(p, 'spec.controlPlane.machineInfrastructure')) {
      effects.push({ kind: 'template-rotation', reason: `ClusterClass control plane machine template ${fromTo(f)}` });
      effects.push({ kind: 'control-plane-rollout', reason: `ClusterClass control plane machine template ${fromTo(f)}` });
    } else if (under(p, 'spec.controlPlane.templateRef', 'spec.controlPlane.ref')) {
      effects.push({ kind: 'control-plane-rollout', possible: true, reason: `ClusterClass control plane template ${fromTo(f)}: the control plane is updated; spec changes roll its Machines` });
    } else if (under(p, 'spec.infrastructure')) effects.push({ kind: 'in-place', reason: `ClusterClass infrastructure template ${fromTo(f)}: InfrastructureCluster updated in place` });
    else if (under(p, 'spec.workers.machineDeployments', 'spec.workers.machinePools')) {
      const cls = keyAt(f.segments, 3) ?? '?';
      const rest = p.replace(/^spec\.workers\.machine(Deployments|Pools)\[\]\.?/, '');
      if (rest === '' && f.action === 'added') effects.push({ kind: 'no-op', reason: `worker class ${cls} added: no change to Clusters` });
      else if (rest === '' && f.action === 'removed') effects.push({ kind: 'no-op', reason: `worker class ${cls} removed`, warning: `if a Cluster still uses ${cls}, the ClusterClass webhook rejects the change` });
      else if (under(rest, 'template.metadata', 'metadata')) effects.push({ kind: 'in-place', workerClass: cls, reason: `worker class ${cls} metadata: MachineDeployments and Machines updated in place` });
      else if (under(rest, 'bootstrap', 'infrastructure', 'template.bootstrap', 'template.infrastructure')) {
        effects.push({ kind: 'template-rotation', workerClass: cls, reason: `worker class ${cls} template ${fromTo(f)}` });
        effects.push({ kind: 'worker-rollout', workerClass: cls, reason: `worker class ${cls} template ${fromTo(f)}` });
      } else if (under(rest, 'minReadySeconds', 'strategy', 'rollout.strategy', 'deletion.order', 'machineHealthCheck', 'healthCheck', 'remediation') || timeoutFields.some((t) => under(rest, t))) {
        effects.push({ kind: 'in-place', workerClass: cls, reason: `worker class ${cls} ${rest} updated in place` });
      } else effects.push({ kind: 'worker-rollout', workerClass: cls, possible: true, reason: `worker class ${cls} ${rest} changed` });
    } else if (under(p, 'spec.variables', 'spec.patches')) {
      effects.push({ kind: 'control-plane-rollout', possible: true, reason: `ClusterClass ${p.split('[')[0]} changed: patches may change the templates` });
      effects.push({ kind: 'worker-rollout', possible: true, allWorkers: true, reason: `ClusterClass ${p.split('[')[0]} changed` });
    } else effects.push({ kind: 'in-place', reason: `ClusterClass ${p} changed` });
  }
  return fanOut(obj, effects, ctx);
}

function roleEffects(role: ClassTemplateRole, workerClass: string | undefined, what: string): ClassEffect[] {
  switch (role) {
    case 'controlPlane':
      return [{ kind: 'control-plane-rollout', reason: `${what}: control plane spec changes roll its Machines` }];
    case 'controlPlaneMachine':
      return [
        { kind: 'template-rotation', reason: `${what}: control plane machine template rotated in every cluster` },
        { kind: 'control-plane-rollout', reason: `${what}: control plane Machines roll` },
      ];
    case 'infrastructure':
      return [{ kind: 'in-place', reason: `${what}: InfrastructureCluster updated in place` }];
    default:
      return [
        { kind: 'template-rotation', workerClass, reason: `${what}: worker template rotated in every cluster (class ${workerClass})` },
        { kind: 'worker-rollout', workerClass, reason: `${what}: worker Machines roll (class ${workerClass})` },
      ];
  }
}

function classifyTemplate(input: ClassifyInput, ctx: ClassifyContext): Impact[] {
  const obj = input.head ?? input.base;
  if (!obj) return [];
  const metaOnly = metadataOnly(input.change.fields.filter((f) => !under(normalPath(f.segments), 'apiVersion')));
  const out: Impact[] = [];
  // Templates of a ClusterClass: the topology controller rotates them in every Cluster of the class.
  const lookup = input.head ? ctx.head : ctx.base;
  for (const cc of lookup.classes(obj.namespace)) {
    for (const ref of classTemplateRefs(cc)) {
      if (ref.kind !== obj.kind || ref.name !== obj.name) continue;
      const what = `${obj.kind} ${obj.name} of ClusterClass ${cc.name} changed`;
      const effects: ClassEffect[] = metaOnly ? [{ kind: 'in-place', reason: `${what} (metadata only): template updated in place` }] : roleEffects(ref.role, ref.workerClass, what);
      out.push(...fanOut(cc, effects, ctx));
    }
  }
  // Templates referenced directly by MachineDeployments or control planes.
  for (const { user, path } of lookup.usersOf(obj)) {
    if (user.kind === 'ClusterClass') continue;
    const cluster = str(get(user.object, 'metadata', 'labels', 'cluster.x-k8s.io/cluster-name')) ?? str(get(user.object, 'spec', 'clusterName')) ?? input.cluster?.split('/')[1];
    const cid = cluster ? clusterId(user.namespace, cluster) : input.cluster;
    const base = cid ? { cluster: cid } : {};
    if (metaOnly) out.push({ ...base, kind: 'in-place', reason: `${obj.kind} ${obj.name} metadata updated in place` });
    else {
      out.push({
        ...base,
        kind: 'in-place',
        reason: `${obj.kind} ${obj.name} spec changed in place (used by ${user.kind} ${user.name} at ${path})`,
        // Kinds whose webhook refuses the update are reported as rejected (src/validate/admission); these are not.
        warning: isMachineTemplateKind(obj.group, obj.kind) || obj.kind.endsWith('MachineTemplate')
          ? 'existing Machines do not roll: only new Machines use the changed template; to roll them create a new template (templates: { hashNames: true } does this)'
          : 'existing Machines do not pick this up; only new Machines use it',
      });
    }
  }
  if (out.length === 0) out.push(inPlace(input, `${obj.kind} ${obj.name} updated (not referenced in the tree)`));
  return out;
}

/** Impacts of an added object. */
export function classifyAdded(input: ClassifyInput): Impact[] {
  const { change } = input;
  const g = input.head?.group ?? '';
  if (g === capiGroup && change.kind === 'Cluster') return [withCluster(input, { kind: 'create', reason: 'new cluster: control plane and workers are created' })];
  if (g === capiGroup && (change.kind === 'MachineDeployment' || change.kind === 'MachinePool')) {
    return [withCluster(input, { kind: 'create', machineDeployment: change.name, reason: `new ${change.kind} ${change.name}` })];
  }
  if (change.kind === 'Kustomization' || g === 'argoproj.io') return [{ kind: 'no-op', reason: 'GitOps glue added' }];
  return [withCluster(input, { kind: 'create', reason: `${change.kind} created` })];
}

/**
 * Impacts of a removed object: what Argo CD does with it (`fate`, from the tree's Argo CD glue), never an update.
 * Without glue on either side the tree's deployer decides, and the reason says so.
 */
export function classifyRemoved(input: ClassifyInput, fate?: RemovalFate): Impact[] {
  const { change } = input;
  const g = input.base?.group ?? '';
  if (change.kind === 'Kustomization' || g === 'argoproj.io') return [{ kind: 'no-op', reason: 'GitOps glue removed' }];
  const what =
    g === capiGroup && change.kind === 'Cluster'
      ? { deleted: 'cluster deleted: CAPI tears down its control plane, workers and infrastructure', left: 'cluster removed from git but left running (control plane, workers and infrastructure stay)' }
      : g === capiGroup && (change.kind === 'MachineDeployment' || change.kind === 'MachinePool')
        ? { deleted: `${change.kind} ${change.name} deleted with its Machines`, left: `${change.kind} ${change.name} removed from git but left running with its Machines` }
        : isControlPlaneKind(g, change.kind)
          ? { deleted: 'control plane deleted', left: 'control plane removed from git but left running' }
          : { deleted: `${change.kind} deleted`, left: `${change.kind} removed from git but left running` };
  const md = g === capiGroup && (change.kind === 'MachineDeployment' || change.kind === 'MachinePool') ? { machineDeployment: change.name } : {};
  if (!fate) return [withCluster(input, { kind: 'deletion', ...md, reason: `${what.deleted} if the tree's deployer prunes (no Argo CD glue in the tree); else ${what.left}` })];
  if (fate.kind === 'deletion') return [withCluster(input, { kind: 'deletion', ...md, pruned: true, reason: `${what.deleted}: ${fate.why}` })];
  return [withCluster(input, { kind: 'orphaned', ...md, reason: `${what.left}: ${fate.why}`, ...(fate.hint ? { hint: fate.hint } : {}) })];
}

/** Impacts of a template rotation (old name → new name). The referencing objects' changes carry the rollout. */
export function classifyRotated(input: ClassifyInput): Impact[] {
  const { change } = input;
  if (change.renamedBy) {
    const how = change.renamedBy === 'hash-names-on' ? 'switched on' : 'switched off';
    const spec = change.fields.length === 0 ? 'same spec' : 'spec changed too';
    return [withCluster(input, { kind: 'template-rotation', reason: `${change.kind} renamed ${change.previousName} → ${change.name} (template hash naming ${how}; ${spec})` })];
  }
  return [withCluster(input, { kind: 'template-rotation', reason: `${change.kind} ${change.previousName} → ${change.name} (spec changed)` })];
}

export { clusterClassOf };
