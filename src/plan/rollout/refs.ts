/** Who uses what inside a rendered tree: Clusters of a ClusterClass, templates of a class, users of a template. */
import { groupOf, isRecord, type TreeIndex, type TreeObject } from '../diff/objects.js';

export const capiGroup = 'cluster.x-k8s.io';

export type ClassTemplateRole =
  | 'infrastructure'
  | 'controlPlane'
  | 'controlPlaneMachine'
  | 'mdBootstrap'
  | 'mdInfrastructure'
  | 'mpBootstrap'
  | 'mpInfrastructure';

export interface ClassTemplateRef {
  role: ClassTemplateRole;
  /** Worker class name for the worker (md/mp) roles. */
  workerClass?: string;
  group: string;
  kind: string;
  name: string;
}

export function get(obj: unknown, ...path: string[]): unknown {
  let cur: unknown = obj;
  for (const p of path) {
    if (!isRecord(cur)) return undefined;
    cur = cur[p];
  }
  return cur;
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function refOf(v: unknown): { group: string; kind: string; name: string } | null {
  if (!isRecord(v) || typeof v.kind !== 'string' || typeof v.name !== 'string') return null;
  const group = typeof v.apiGroup === 'string' ? v.apiGroup : typeof v.apiVersion === 'string' ? groupOf(v.apiVersion) : '';
  return { group, kind: v.kind, name: v.name };
}

/** The templates a ClusterClass refers to (v1beta2 `templateRef` and v1beta1 `ref` shapes). */
export function classTemplateRefs(cc: Pick<TreeObject, 'object'>): ClassTemplateRef[] {
  const spec = get(cc.object, 'spec');
  const out: ClassTemplateRef[] = [];
  const add = (role: ClassTemplateRole, v: unknown, workerClass?: string): void => {
    const r = refOf(v);
    if (r) out.push(workerClass === undefined ? { role, ...r } : { role, workerClass, ...r });
  };
  const either = (o: unknown, ...p: string[]): unknown => get(o, ...p, 'templateRef') ?? get(o, ...p, 'ref');
  add('infrastructure', either(spec, 'infrastructure'));
  add('controlPlane', either(spec, 'controlPlane'));
  add('controlPlaneMachine', either(spec, 'controlPlane', 'machineInfrastructure'));
  for (const [list, b, i] of [
    ['machineDeployments', 'mdBootstrap', 'mdInfrastructure'],
    ['machinePools', 'mpBootstrap', 'mpInfrastructure'],
  ] as const) {
    const items = get(spec, 'workers', list);
    if (!Array.isArray(items)) continue;
    for (const item of items) {
      const cls = str(get(item, 'class')) ?? str(get(item, 'name')) ?? '';
      add(b, either(item, 'bootstrap') ?? either(item, 'template', 'bootstrap'), cls);
      add(i, either(item, 'infrastructure') ?? either(item, 'template', 'infrastructure'), cls);
    }
  }
  return out;
}

/** The class a topology Cluster uses: `{ name, namespace }` (v1beta2 classRef, v1beta1 class/classNamespace). */
export function clusterClassOf(cluster: Pick<TreeObject, 'object' | 'namespace'>): { name: string; namespace: string } | null {
  const topo = get(cluster.object, 'spec', 'topology');
  if (!isRecord(topo)) return null;
  const name = str(get(topo, 'classRef', 'name')) ?? str(topo.class);
  if (!name) return null;
  const namespace = str(get(topo, 'classRef', 'namespace')) ?? str(topo.classNamespace) ?? cluster.namespace;
  return { name, namespace };
}

export interface WorkerTopology {
  name: string;
  class: string;
  pool: boolean;
}

export function workerTopologies(cluster: TreeObject | undefined): WorkerTopology[] {
  if (!cluster) return [];
  const out: WorkerTopology[] = [];
  for (const [list, pool] of [
    ['machineDeployments', false],
    ['machinePools', true],
  ] as const) {
    const items = get(cluster.object, 'spec', 'topology', 'workers', list);
    if (!Array.isArray(items)) continue;
    for (const item of items) {
      const name = str(get(item, 'name'));
      if (name) out.push({ name, class: str(get(item, 'class')) ?? '', pool });
    }
  }
  return out;
}

export function isCluster(o: { group: string; kind: string }): boolean {
  return o.group === capiGroup && o.kind === 'Cluster';
}

export function clusterId(namespace: string, name: string): string {
  return `${namespace}/${name}`;
}

/** Lookups over one tree; each parses only the files a text search points at. */
export class TreeLookup {
  private refCache = new WeakMap<TreeObject, { kind: string; name: string; path: string }[]>();

  constructor(readonly index: TreeIndex) {}

  /** Whether `clusters/<ns>/<name>/` holds that Cluster: a text check first, so no file is parsed for it. */
  hasClusterDir(namespace: string, name: string): boolean {
    const re = /^kind: *["']?Cluster["']? *$/m;
    return this.index.filesUnder(`clusters/${namespace}/${name}/`).some((p) => {
      const text = this.index.files.get(p) ?? '';
      return re.test(text) && text.includes(name);
    });
  }

  /** The Cluster object, looked up in its folder `clusters/<ns>/<name>/`, else in files naming it. */
  cluster(namespace: string, name: string): TreeObject | undefined {
    const key = `${capiGroup}/Cluster/${namespace}/${name}`;
    this.index.under(`clusters/${namespace}/${name}/`);
    if (!this.index.objects.has(key)) this.index.where(`text:${name}`, (_p, t) => t.includes(name));
    return this.index.objects.get(key);
  }

  /** Clusters whose topology uses the class. */
  classUsers(className: string, classNamespace: string): TreeObject[] {
    return this.index
      .where(`text:${className}`, (_p, t) => t.includes(className))
      .filter(isCluster)
      .filter((c) => {
        const cls = clusterClassOf(c);
        return cls !== null && cls.name === className && cls.namespace === classNamespace;
      });
  }

  classes(namespace: string): TreeObject[] {
    return this.index
      .where('text:ClusterClass', (_p, t) => t.includes('ClusterClass'))
      .filter((o) => o.group === capiGroup && o.kind === 'ClusterClass' && o.namespace === namespace);
  }

  /** Every `{kind, name}` reference inside an object's spec, with its path. */
  refsOf(o: TreeObject): { kind: string; name: string; path: string }[] {
    const hit = this.refCache.get(o);
    if (hit) return hit;
    const out: { kind: string; name: string; path: string }[] = [];
    const walk = (v: unknown, path: string): void => {
      if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}[${i}]`));
      else if (isRecord(v)) {
        if (typeof v.kind === 'string' && typeof v.name === 'string') out.push({ kind: v.kind, name: v.name, path });
        for (const [k, x] of Object.entries(v)) walk(x, `${path}.${k}`);
      }
    };
    walk(o.object.spec, '.spec');
    this.refCache.set(o, out);
    return out;
  }

  /** Objects in the template's namespace that refer to it by kind and name (MachineDeployments, control planes, classes). */
  usersOf(t: { kind: string; name: string; namespace: string }): { user: TreeObject; path: string }[] {
    const out: { user: TreeObject; path: string }[] = [];
    for (const o of this.index.where(`text:${t.name}`, (_p, text) => text.includes(t.name))) {
      if (o.namespace !== t.namespace) continue;
      for (const r of this.refsOf(o)) if (r.kind === t.kind && r.name === t.name) out.push({ user: o, path: r.path });
    }
    return out;
  }
}

/** The cluster an object belongs to: its cluster-name label, `spec.clusterName`, itself, or its folder. */
export function clusterOfObject(o: TreeObject, pathOwner: { namespace: string; name: string } | null): string | undefined {
  const label = str(get(o.object, 'metadata', 'labels', 'cluster.x-k8s.io/cluster-name'));
  if (label) return clusterId(o.namespace, label);
  if (isCluster(o)) return clusterId(o.namespace, o.name);
  const cn = str(get(o.object, 'spec', 'clusterName'));
  if (cn && o.group === capiGroup) return clusterId(o.namespace, cn);
  if (pathOwner) return clusterId(pathOwner.namespace, pathOwner.name);
  return undefined;
}
