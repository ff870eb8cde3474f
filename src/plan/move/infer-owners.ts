/**
 * Owner references the Cluster API controllers add at runtime, inferred for static manifests (which never carry them).
 * clusterctl move only follows ownerReferences, so without these a rendered tree would move little more than the
 * Clusters. Each inferred reference names the controller behaviour it stands for.
 */
import { asObject as rec } from '../../go/index.js';

type Obj = Record<string, unknown>;

export interface InferredOwner {
  apiVersion: string;
  kind: string;
  name: string;
  /** Which controller sets this reference at runtime. */
  because: string;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}
function groupOf(apiVersion: string): string {
  const i = apiVersion.indexOf('/');
  return i < 0 ? '' : apiVersion.slice(0, i);
}

interface Ref {
  group: string;
  kind: string;
  name: string;
  namespace: string;
}

/** A v1beta1 ObjectReference (`apiVersion`) or a v1beta2 contract reference (`apiGroup`). */
function refOf(v: unknown, ns: string): Ref | null {
  const r = rec(v);
  if (!r || !str(r.kind) || !str(r.name)) return null;
  const group = str(r.apiGroup) || groupOf(str(r.apiVersion));
  return { group, kind: str(r.kind), name: str(r.name), namespace: str(r.namespace) || ns };
}

function at(o: unknown, ...path: string[]): unknown {
  let cur: unknown = o;
  for (const p of path) cur = rec(cur)?.[p];
  return cur;
}

/**
 * For every object without ownerReferences, the owners CAPI controllers would give it. Keyed by the object's index
 * in `objects`.
 */
export function inferOwners(objects: readonly Obj[]): Map<number, InferredOwner[]> {
  const index = new Map<string, number>();
  const key = (group: string, kind: string, ns: string, name: string): string => `${group}\u0000${kind}\u0000${ns}\u0000${name}`;
  objects.forEach((o, i) => {
    index.set(key(groupOf(str(o.apiVersion)), str(o.kind), str(rec(o.metadata)?.namespace), str(rec(o.metadata)?.name)), i);
  });
  const out = new Map<number, InferredOwner[]>();
  const add = (ref: Ref | null, owner: Obj, because: string): void => {
    if (!ref) return;
    const i = index.get(key(ref.group, ref.kind, ref.namespace, ref.name));
    if (i === undefined) return;
    const target = objects[i] as Obj;
    const existing = rec(target.metadata)?.ownerReferences;
    if (Array.isArray(existing) && existing.length > 0) return;
    const list = out.get(i) ?? [];
    const name = str(rec(owner.metadata)?.name);
    if (!list.some((l) => l.kind === owner.kind && l.name === name)) {
      list.push({ apiVersion: str(owner.apiVersion), kind: str(owner.kind), name, because });
    }
    out.set(i, list);
  };
  const clusters = new Map<string, Obj>();
  // A rendered KubeadmControlPlane has neither `spec.clusterName` nor the cluster-name label (the Cluster controller
  // adds it at runtime): its Cluster is the one whose controlPlaneRef names it.
  const byControlPlane = new Map<string, Obj>();
  for (const o of objects) {
    if (o.kind === 'Cluster' && groupOf(str(o.apiVersion)) === 'cluster.x-k8s.io') {
      const ns = str(rec(o.metadata)?.namespace);
      clusters.set(`${ns}/${str(rec(o.metadata)?.name)}`, o);
      const cp = refOf(at(o, 'spec', 'controlPlaneRef'), ns);
      if (cp) byControlPlane.set(key(cp.group, cp.kind, cp.namespace, cp.name), o);
    }
  }
  for (const o of objects) {
    const group = groupOf(str(o.apiVersion));
    const ns = str(rec(o.metadata)?.namespace);
    const kind = str(o.kind);
    if (group === 'cluster.x-k8s.io' && kind === 'Cluster') {
      add(refOf(at(o, 'spec', 'infrastructureRef'), ns), o, 'the Cluster controller owns spec.infrastructureRef');
      add(refOf(at(o, 'spec', 'controlPlaneRef'), ns), o, 'the Cluster controller owns spec.controlPlaneRef');
    }
    const clusterName =
      str(rec(rec(o.metadata)?.labels)?.['cluster.x-k8s.io/cluster-name']) || str(at(o, 'spec', 'clusterName'));
    const cluster = clusterName
      ? clusters.get(`${ns}/${clusterName}`)
      : byControlPlane.get(key(group, kind, ns, str(rec(o.metadata)?.name)));
    if (group === 'cluster.x-k8s.io' && cluster && ['MachineDeployment', 'MachinePool', 'MachineHealthCheck', 'MachineSet', 'Machine'].includes(kind)) {
      const self: Ref = { group, kind, name: str(rec(o.metadata)?.name), namespace: ns };
      add(self, cluster, `the ${kind} controller sets the Cluster as owner`);
    }
    if (group === 'cluster.x-k8s.io' && kind === 'MachineDeployment' && cluster) {
      const spec = at(o, 'spec', 'template', 'spec');
      add(refOf(at(spec, 'bootstrap', 'configRef'), ns), cluster, 'the MachineDeployment controller sets the Cluster as owner of its templates');
      add(refOf(at(spec, 'infrastructureRef'), ns), cluster, 'the MachineDeployment controller sets the Cluster as owner of its templates');
    }
    if (group === 'cluster.x-k8s.io' && kind === 'MachinePool') {
      const spec = at(o, 'spec', 'template', 'spec');
      add(refOf(at(spec, 'bootstrap', 'configRef'), ns), o, 'the MachinePool controller owns its bootstrap config');
      add(refOf(at(spec, 'infrastructureRef'), ns), o, 'the MachinePool controller owns its infrastructure machine pool');
    }
    if (group === 'controlplane.cluster.x-k8s.io' && cluster) {
      add(refOf(at(o, 'spec', 'machineTemplate', 'spec', 'infrastructureRef'), ns), cluster, 'the control plane controller sets the Cluster as owner of its machine template');
      add(refOf(at(o, 'spec', 'machineTemplate', 'infrastructureRef'), ns), cluster, 'the control plane controller sets the Cluster as owner of its machine template');
    }
    if (group === 'cluster.x-k8s.io' && kind === 'ClusterClass') {
      const spec = rec(o.spec) ?? {};
      const holders: unknown[] = [spec.infrastructure, spec.controlPlane, at(spec, 'controlPlane', 'machineInfrastructure')];
      const workers = rec(spec.workers);
      for (const list of [workers?.machineDeployments, workers?.machinePools]) {
        if (!Array.isArray(list)) continue;
        for (const w of list) {
          const t = rec(rec(w)?.template) ?? rec(w);
          holders.push(t?.bootstrap, t?.infrastructure);
        }
      }
      for (const h of holders) {
        add(refOf(rec(h)?.templateRef ?? rec(h)?.ref, ns), o, 'the ClusterClass controller owns the templates it references');
      }
    }
    if (group === 'addons.cluster.x-k8s.io' && kind === 'ClusterResourceSet') {
      const resources = at(o, 'spec', 'resources');
      if (Array.isArray(resources)) {
        for (const r of resources) {
          const e = rec(r);
          if (!e || !str(e.name)) continue;
          add({ group: '', kind: str(e.kind) || 'Secret', name: str(e.name), namespace: ns }, o, 'the ClusterResourceSet controller owns its resources');
        }
      }
    }
  }
  return out;
}
