/**
 * ClusterClass changes CAPI refuses (spec/capi-plan.md §3.5; core/webhooks/admission/clusterclass.go and
 * internal/topology/check/compatibility.go): a changed group or kind of a template reference, a removed worker class a
 * Cluster still uses, a Cluster version the class no longer lists, an invalid `kubernetesVersions` list — plus the
 * provider webhooks' refusal of an infrastructure template whose spec is edited under the same name (CAPI expects a
 * new template and the class pointing at it). Messages carry the webhook's field path and text.
 */
import { classTemplateRefs, type ClassTemplateRef } from '../rollout/index.js';
import { deepEqual } from '../diff/field-diff.js';
import { checkKubernetesVersions } from './versions.js';
import { objectKind, objectName, type KubeObject } from './compare.js';
import { asObject as record } from '../../go/index.js';

function namespaceOf(o: KubeObject): string {
  const ns = record(o.metadata)?.namespace;
  return typeof ns === 'string' && ns !== '' ? ns : 'default';
}

function groupOf(o: KubeObject): string {
  const v = typeof o.apiVersion === 'string' ? o.apiVersion : '';
  return v.includes('/') ? v.slice(0, v.indexOf('/')) : '';
}

export function isClusterClass(o: KubeObject): boolean {
  return objectKind(o) === 'ClusterClass' && groupOf(o) === 'cluster.x-k8s.io';
}

export function isTopologyCluster(o: KubeObject): boolean {
  return objectKind(o) === 'Cluster' && groupOf(o) === 'cluster.x-k8s.io' && record(record(o.spec)?.topology) !== undefined;
}

export function idOf(o: KubeObject): string {
  return `${namespaceOf(o)}/${objectName(o)}`;
}

/** `ns/name` of the class a topology Cluster uses (v1beta2 `classRef`, v1beta1 `class` + `classNamespace`). */
export function classIdOf(cluster: KubeObject): string | undefined {
  const topology = record(record(cluster.spec)?.topology);
  if (!topology) return undefined;
  const ref = record(topology.classRef);
  const name = typeof ref?.name === 'string' ? ref.name : typeof topology.class === 'string' ? topology.class : undefined;
  if (!name) return undefined;
  const ns = typeof ref?.namespace === 'string' && ref.namespace ? ref.namespace : typeof topology.classNamespace === 'string' && topology.classNamespace ? topology.classNamespace : namespaceOf(cluster);
  return `${ns}/${name}`;
}

/** Worker topologies of a Cluster: `{ class, pool }` per MachineDeployment / MachinePool. */
export function workerClassesOf(cluster: KubeObject): { name: string; class: string; pool: boolean }[] {
  const workers = record(record(record(cluster.spec)?.topology)?.workers);
  const out: { name: string; class: string; pool: boolean }[] = [];
  for (const [list, pool] of [['machineDeployments', false], ['machinePools', true]] as const) {
    const items = workers?.[list];
    if (!Array.isArray(items)) continue;
    for (const item of items) {
      const r = record(item);
      if (r && typeof r.name === 'string') out.push({ name: r.name, class: typeof r.class === 'string' ? r.class : '', pool });
    }
  }
  return out;
}

function topologyVersion(cluster: KubeObject): string | undefined {
  const v = record(record(cluster.spec)?.topology)?.version;
  return typeof v === 'string' ? v : undefined;
}

export function kubernetesVersionsOf(cc: KubeObject | undefined): string[] {
  const list = record(cc?.spec)?.kubernetesVersions;
  return Array.isArray(list) ? list.filter((v): v is string => typeof v === 'string') : [];
}

function workerClassNames(cc: KubeObject, list: 'machineDeployments' | 'machinePools'): string[] {
  const items = record(record(cc.spec)?.workers)?.[list];
  if (!Array.isArray(items)) return [];
  return items.map((i) => record(i)?.class).filter((c): c is string => typeof c === 'string');
}

const refPaths: Record<ClassTemplateRef['role'], (index: number) => string> = {
  infrastructure: () => 'spec.infrastructure.templateRef',
  controlPlane: () => 'spec.controlPlane.templateRef',
  controlPlaneMachine: () => 'spec.controlPlane.machineInfrastructure.templateRef',
  mdBootstrap: (i) => `spec.workers.machineDeployments[${i}].bootstrap.templateRef`,
  mdInfrastructure: (i) => `spec.workers.machineDeployments[${i}].infrastructure.templateRef`,
  mpBootstrap: (i) => `spec.workers.machinePools[${i}].bootstrap.templateRef`,
  mpInfrastructure: (i) => `spec.workers.machinePools[${i}].infrastructure.templateRef`,
};

/** `ClusterClassesAreCompatible`: group and kind of the infrastructure, control plane and worker infrastructure refs. */
function incompatibleRefs(base: KubeObject, head: KubeObject): string[] {
  const out: string[] = [];
  const baseRefs = classTemplateRefs({ object: base });
  const headRefs = classTemplateRefs({ object: head });
  const mdIndex = workerClassNames(head, 'machineDeployments');
  const mpIndex = workerClassNames(head, 'machinePools');
  const compare = (path: string, a: ClassTemplateRef | undefined, b: ClassTemplateRef | undefined): void => {
    const ga = a?.group ?? '';
    const gb = b?.group ?? '';
    const ka = a?.kind ?? '';
    const kb = b?.kind ?? '';
    if (ga !== gb) out.push(`${path}.apiVersion: Forbidden: group of apiVersion cannot be changed from ${JSON.stringify(ga)} to ${JSON.stringify(gb)} to prevent incompatible changes in the Clusters`);
    if (ka !== kb) out.push(`${path}.kind: Forbidden: kind cannot be changed from ${JSON.stringify(ka)} to ${JSON.stringify(kb)} to prevent incompatible changes in the Clusters`);
  };
  for (const role of ['infrastructure', 'controlPlane', 'controlPlaneMachine'] as const) {
    const a = baseRefs.find((r) => r.role === role);
    const b = headRefs.find((r) => r.role === role);
    if (a || b) compare(refPaths[role](0), a, b);
  }
  for (const role of ['mdInfrastructure', 'mpInfrastructure'] as const) {
    const names = role === 'mdInfrastructure' ? mdIndex : mpIndex;
    for (const b of headRefs.filter((r) => r.role === role)) {
      const a = baseRefs.find((r) => r.role === role && r.workerClass === b.workerClass);
      if (a) compare(refPaths[role](names.indexOf(b.workerClass ?? '')), a, b);
    }
  }
  return out;
}

/** Template kinds whose spec provider webhooks treat as immutable. */
export function isImmutableTemplateKind(kind: string): boolean {
  return kind.endsWith('ClusterTemplate') || kind.endsWith('MachineTemplate');
}

export interface ClassFindings {
  /** By ClusterClass `ns/name`. */
  classes: Map<string, string[]>;
  /** By Cluster `ns/name`. */
  clusters: Map<string, string[]>;
}

function push(map: Map<string, string[]>, key: string, text: string): void {
  const list = map.get(key);
  if (list) list.push(text);
  else map.set(key, [text]);
}

/**
 * Findings about the ClusterClasses of `head` (compared with `base` where the class exists there). `head` holds the
 * Clusters, classes and templates after the change.
 */
export function checkClasses(base: readonly KubeObject[], head: readonly KubeObject[]): ClassFindings {
  const out: ClassFindings = { classes: new Map(), clusters: new Map() };
  const baseClasses = new Map(base.filter(isClusterClass).map((c) => [idOf(c), c]));
  const headClusters = head.filter(isTopologyCluster);
  const usersOf = (classId: string): KubeObject[] => headClusters.filter((c) => classIdOf(c) === classId);
  for (const cc of head.filter(isClusterClass)) {
    const id = idOf(cc);
    const before = baseClasses.get(id);
    const rejected = (text: string): void => push(out.classes, id, `CAPI's ClusterClass webhook rejects this change: ${text}`);
    for (const e of checkKubernetesVersions(kubernetesVersionsOf(cc))) rejected(e);
    const versions = kubernetesVersionsOf(cc);
    if (before) {
      for (const e of incompatibleRefs(before, cc)) rejected(e);
      for (const [list, what] of [['machineDeployments', 'MachineDeploymentClass'], ['machinePools', 'MachinePoolClass']] as const) {
        const kept = new Set(workerClassNames(cc, list));
        for (const removed of workerClassNames(before, list).filter((n) => !kept.has(n))) {
          for (const user of usersOf(id)) {
            if (!workerClassesOf(user).some((w) => w.pool === (list === 'machinePools') && w.class === removed)) continue;
            const text = `spec.workers.${list}: Forbidden: ${what} ${JSON.stringify(removed)} cannot be deleted because it is used by Cluster ${JSON.stringify(objectName(user))}`;
            rejected(text);
            push(out.clusters, idOf(user), `ClusterClass ${id} removes ${what} ${removed}, which this Cluster uses: CAPI's webhook rejects the class change`);
          }
        }
      }
      if (versions.length > 0 && !deepEqual(kubernetesVersionsOf(before), versions)) {
        for (const user of usersOf(id)) {
          const v = topologyVersion(user);
          if (v !== undefined && !versions.includes(v)) {
            rejected(`spec.kubernetesVersions: Forbidden: Kubernetes Version ${v} is used by Cluster ${JSON.stringify(objectName(user))} but not set in ClusterClass`);
          }
        }
      }
    }
  }
  // Infrastructure templates edited under the same name.
  const key = (o: KubeObject): string => `${groupOf(o)}/${objectKind(o)}/${namespaceOf(o)}/${objectName(o)}`;
  const baseTemplates = new Map(base.filter((o) => isImmutableTemplateKind(objectKind(o))).map((o) => [key(o), o]));
  const classesOfTemplate = (o: KubeObject): string[] =>
    head
      .filter(isClusterClass)
      .filter((cc) => namespaceOf(cc) === namespaceOf(o) && classTemplateRefs({ object: cc }).some((r) => r.kind === objectKind(o) && r.name === objectName(o)))
      .map(idOf);
  for (const o of head) {
    if (!isImmutableTemplateKind(objectKind(o))) continue;
    const before = baseTemplates.get(key(o));
    if (!before || deepEqual(record(before.spec), record(o.spec))) continue;
    const text = `${objectKind(o)} ${namespaceOf(o)}/${objectName(o)}: spec changed under the same name; the provider's webhook rejects changes to this immutable template — create a template with a new name and point the ClusterClass at it (CAPI then rotates the clusters' templates)`;
    const users = classesOfTemplate(o);
    if (users.length === 0) push(out.classes, '', text);
    for (const cc of users) push(out.classes, cc, text);
  }
  return out;
}
