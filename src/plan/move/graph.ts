/**
 * clusterctl move's object graph (`objectgraph.go`) over static manifests: discovery, nodes keyed by UID (synthesised
 * when absent), owner references, virtual owners, soft ownership, tenants, global hierarchies and shouldNotDelete.
 */
import { inferOwners } from './infer-owners.js';
import {
  blockMoveAnnotation,
  crdInfoFromObject,
  discoveryTypes,
  groupOf,
  moveHierarchyLabel,
  moveLabel,
  typeKey,
  type CrdInfo,
  type DiscoveryType,
} from './discovery-types.js';
import { asObject as rec } from '../../go/index.js';

type Obj = Record<string, unknown>;

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

export interface OwnerAttributes {
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface MoveNode {
  uid: string;
  apiVersion: string;
  kind: string;
  name: string;
  /** `""` for cluster-scoped objects and for virtual nodes (clusterctl does not know their namespace). */
  namespace: string;
  /** An owner referenced by some object but not discovered itself. */
  virtual: boolean;
  isGlobal: boolean;
  /** Reached from a global tenant root (e.g. a global identity with the move-hierarchy label). */
  isGlobalHierarchy: boolean;
  forceMove: boolean;
  forceMoveHierarchy: boolean;
  /** Carries the `clusterctl.cluster.x-k8s.io/block-move` annotation. */
  blockingMove: boolean;
  shouldNotDelete: boolean;
  /** Owner UID → ownerReference attributes. */
  owners: Map<string, OwnerAttributes>;
  softOwners: Set<string>;
  /** UIDs of the tenant roots (Clusters, ClusterClasses, ClusterResourceSets, move-hierarchy objects). */
  tenants: Set<string>;
  /** Cluster: `spec.topology.classRef` name and namespace. */
  classRef: { name: string; namespace: string } | undefined;
  /** ClusterResourceSetBinding: `spec.clusterName`. */
  bindingClusterName: string | undefined;
  /** Whether a Cluster or ClusterClass is paused (`spec.paused` / annotation `cluster.x-k8s.io/paused`). */
  paused: boolean;
  /** The manifest the node came from (absent for virtual nodes). */
  object: Obj | undefined;
  /** Owner UIDs that were inferred (see BuildGraphOptions.inferOwners), with the controller behaviour behind each. */
  inferredOwners: Map<string, string>;
}

export type SkipReason = 'not-discovery-type' | 'outside-namespace' | 'not-in-hierarchy' | 'owner-not-moved';

/** An input object that clusterctl would not move, with the reason. */
export interface SkippedObject {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  uid: string;
  reason: SkipReason;
  message: string;
}

/** A condition that makes clusterctl refuse or delay the move, or an input problem the planner found. */
export interface MoveProblem {
  severity: 'error' | 'warning';
  message: string;
}

export interface MoveGraph {
  /** Nodes in discovery order. */
  nodes: Map<string, MoveNode>;
  types: Map<string, DiscoveryType>;
  /** The moved namespace; `""` = all namespaces. */
  namespace: string;
  /** Objects skipped during discovery (not a discovery type, outside the namespace). */
  notDiscovered: SkippedObject[];
  problems: MoveProblem[];
}

export interface InventoryEntry {
  providerName?: string;
  type: string;
  namespace: string;
}

export interface BuildGraphOptions {
  /** CRD table; CRD manifests among the objects are added to it. */
  crds?: readonly CrdInfo[];
  /** Namespace to move; `""` or absent = all namespaces. */
  namespace?: string;
  /** Provider inventory (for infrastructure credentials in provider namespaces); read from `Provider` objects when absent. */
  inventory?: readonly InventoryEntry[];
  /**
   * Add the ownerReferences CAPI controllers set at runtime to objects that have none (static manifests never carry
   * them). Off by default (clusterctl semantics over the objects as given); `capiform plan move` turns it on.
   */
  inferOwners?: boolean;
}

/** The test convention for a node key, used as the synthesised UID: `"<group>/<version>, Kind=<Kind>, <ns>/<name>"`. */
export function synthesizedUid(apiVersion: string, kind: string, namespace: string, name: string): string {
  const gv = apiVersion.includes('/') ? apiVersion : `/${apiVersion}`;
  return `${gv}, Kind=${kind}, ${namespace ? `${namespace}/` : ''}${name}`;
}

function meta(o: Obj): Obj {
  return rec(o.metadata) ?? {};
}

function identity(o: Obj): { apiVersion: string; kind: string; namespace: string; name: string } {
  const m = meta(o);
  return { apiVersion: str(o.apiVersion), kind: str(o.kind), namespace: str(m.namespace), name: str(m.name) };
}

function labelsOf(o: Obj): Obj {
  return rec(meta(o).labels) ?? {};
}
function annotationsOf(o: Obj): Obj {
  return rec(meta(o).annotations) ?? {};
}

/** The inventory entries found among manifests (`Provider` objects of clusterctl.cluster.x-k8s.io). */
export function inventoryFromObjects(objects: readonly Obj[]): InventoryEntry[] {
  return objects
    .filter((o) => o.kind === 'Provider' && groupOf(str(o.apiVersion)) === 'clusterctl.cluster.x-k8s.io')
    .map((o) => ({ providerName: str(o.providerName), type: str(o.type), namespace: str(meta(o).namespace) }));
}

function isKind(n: { apiVersion: string; kind: string }, group: string, kind: string): boolean {
  return n.kind === kind && groupOf(n.apiVersion) === group;
}

function classRefOf(o: Obj, ns: string): { name: string; namespace: string } | undefined {
  const topology = rec(rec(o.spec)?.topology);
  if (!topology) return undefined;
  const ref = rec(topology.classRef);
  const name = str(ref?.name) || str(topology.class);
  if (!name) return undefined;
  return { name, namespace: str(ref?.namespace) || str(topology.classNamespace) || ns };
}

/** `secret.ParseSecretName`: split at the LAST dash; the suffix must be a known purpose. */
export function parseClusterSecretName(name: string): { clusterName: string; purpose: string } | null {
  const i = name.lastIndexOf('-');
  if (i < 0) return null;
  const purpose = name.slice(i + 1);
  const purposes = ['kubeconfig', 'ca', 'etcd', 'sa', 'proxy', 'apiserver-etcd-client'];
  return purposes.includes(purpose) ? { clusterName: name.slice(0, i), purpose } : null;
}

/** Object references a ClusterClass holds to its templates (v1beta2 `templateRef` and v1beta1 `ref`). */
function classTemplateRefs(cc: Obj): { apiVersion: string; kind: string; name: string; namespace: string }[] {
  const spec = rec(cc.spec) ?? {};
  const out: { apiVersion: string; kind: string; name: string; namespace: string }[] = [];
  const add = (holder: Obj | undefined): void => {
    const ref = rec(holder?.templateRef) ?? rec(holder?.ref);
    if (ref && str(ref.name)) {
      out.push({ apiVersion: str(ref.apiVersion), kind: str(ref.kind), name: str(ref.name), namespace: str(ref.namespace) });
    }
  };
  add(rec(spec.infrastructure));
  const cp = rec(spec.controlPlane);
  add(cp);
  add(rec(cp?.machineInfrastructure));
  const workers = rec(spec.workers);
  for (const list of [workers?.machineDeployments, workers?.machinePools]) {
    if (!Array.isArray(list)) continue;
    for (const w of list) {
      const t = rec(rec(w)?.template) ?? rec(w);
      add(rec(t?.bootstrap));
      add(rec(t?.infrastructure));
    }
  }
  return out;
}

/** A node with every field set (one object shape for all nodes). */
function newNode(
  uid: string,
  apiVersion: string,
  kind: string,
  name: string,
  namespace: string,
  virtual: boolean,
  forceMove: boolean,
  forceMoveHierarchy: boolean,
): MoveNode {
  return {
    uid,
    apiVersion,
    kind,
    name,
    namespace,
    virtual,
    isGlobal: false,
    isGlobalHierarchy: false,
    forceMove,
    forceMoveHierarchy,
    blockingMove: false,
    shouldNotDelete: false,
    owners: new Map(),
    softOwners: new Set(),
    tenants: new Set(),
    classRef: undefined,
    bindingClusterName: undefined,
    paused: false,
    object: undefined,
    inferredOwners: new Map(),
  };
}

/** Builds the graph exactly as `Discovery(namespace)` would over a cluster holding `objects`. */
export function buildMoveGraph(objects: readonly Obj[], options: BuildGraphOptions = {}): MoveGraph {
  const namespace = options.namespace ?? '';
  const crds: CrdInfo[] = [...(options.crds ?? [])];
  for (const o of objects) {
    const info = crdInfoFromObject(o);
    if (info) crds.push(info);
  }
  const types = discoveryTypes(crds);
  const inventory = options.inventory ?? inventoryFromObjects(objects);
  const credentialNamespaces = new Set(inventory.filter((p) => p.type === 'InfrastructureProvider').map((p) => p.namespace));

  // Every object's UID (given or synthesised), and an index by group/kind/namespace/name for ownerReferences.
  const uidOf = new Map<Obj, string>();
  const byName = new Map<string, string>();
  const uids = new Set<string>();
  const nameKey = (group: string, kind: string, ns: string, name: string): string => `${group}\u0000${kind}\u0000${ns}\u0000${name}`;
  for (const o of objects) {
    const id = identity(o);
    const uid = str(meta(o).uid) || synthesizedUid(id.apiVersion, id.kind, id.namespace, id.name);
    uidOf.set(o, uid);
    uids.add(uid);
    byName.set(nameKey(groupOf(id.apiVersion), id.kind, id.namespace, id.name), uid);
  }
  const typeOf = (apiVersion: string, kind: string): DiscoveryType | undefined => {
    return types.get(typeKey(apiVersion, kind));
  };
  const resolveOwner = (ref: Obj, ownedNs: string): string => {
    const apiVersion = str(ref.apiVersion);
    const kind = str(ref.kind);
    const name = str(ref.name);
    const uid = str(ref.uid);
    if (uid && uids.has(uid)) return uid;
    const group = groupOf(apiVersion);
    const found = byName.get(nameKey(group, kind, ownedNs, name)) ?? byName.get(nameKey(group, kind, '', name));
    if (found) return found;
    if (uid) return uid;
    const scope = typeOf(apiVersion, kind)?.scope;
    return synthesizedUid(apiVersion, kind, scope === 'Cluster' ? '' : ownedNs, name);
  };

  const inferred = options.inferOwners ? inferOwners(objects) : new Map<number, never[]>();
  const objectIndex = new Map<Obj, number>();
  objects.forEach((o, i) => objectIndex.set(o, i));
  const nodes = new Map<string, MoveNode>();
  const notDiscovered: SkippedObject[] = [];
  const problems: MoveProblem[] = [];

  const flagsFor = (apiVersion: string, kind: string, labels: Obj): { forceMove: boolean; forceMoveHierarchy: boolean } => {
    const t = typeOf(apiVersion, kind);
    const forceMoveHierarchy = moveHierarchyLabel in labels || (t?.forceMoveHierarchy ?? false);
    const forceMove = moveLabel in labels || forceMoveHierarchy || (t?.forceMove ?? false);
    return { forceMove, forceMoveHierarchy };
  };

  const addObj = (o: Obj): void => {
    const id = identity(o);
    const uid = uidOf.get(o) as string;
    const t = typeOf(id.apiVersion, id.kind);
    const labels = labelsOf(o);
    const annotations = annotationsOf(o);
    const flags = flagsFor(id.apiVersion, id.kind, labels);
    let node = nodes.get(uid);
    if (node && !node.virtual) return; // already discovered (e.g. a credentials Secret listed twice)
    if (node) {
      node.virtual = false;
      node.namespace = id.namespace;
      node.forceMove ||= flags.forceMove;
      node.forceMoveHierarchy ||= flags.forceMoveHierarchy;
    } else {
      node = newNode(uid, id.apiVersion, id.kind, id.name, id.namespace, false, flags.forceMove, flags.forceMoveHierarchy);
      nodes.set(uid, node);
    }
    node.object = o;
    node.isGlobal = t?.scope === 'Cluster';
    node.blockingMove = blockMoveAnnotation in annotations;
    if (isKind(id, 'cluster.x-k8s.io', 'Cluster')) {
      node.classRef = classRefOf(o, id.namespace);
      node.paused = rec(o.spec)?.paused === true || 'cluster.x-k8s.io/paused' in annotations;
    }
    if (isKind(id, 'cluster.x-k8s.io', 'ClusterClass')) node.paused = 'cluster.x-k8s.io/paused' in annotations;
    if (isKind(id, 'addons.cluster.x-k8s.io', 'ClusterResourceSetBinding')) {
      const cn = str(rec(o.spec)?.clusterName);
      if (cn) node.bindingClusterName = cn;
    }
    const given = Array.isArray(meta(o).ownerReferences) ? (meta(o).ownerReferences as unknown[]) : [];
    const extra = given.length === 0 ? (inferred.get(objectIndex.get(o) ?? -1) ?? []) : [];
    const refs: unknown[] = given.length > 0 ? given : extra;
    for (const r of refs) {
      const ref = rec(r);
      if (!ref) continue;
      const ownerUid = resolveOwner(ref, id.namespace);
      if (typeof ref.because === 'string') node.inferredOwners.set(ownerUid, ref.because);
      if (!nodes.has(ownerUid)) {
        const apiVersion = str(ref.apiVersion);
        const kind = str(ref.kind);
        const f = flagsFor(apiVersion, kind, {});
        nodes.set(ownerUid, newNode(ownerUid, apiVersion, kind, str(ref.name), '', true, f.forceMove, f.forceMoveHierarchy));
      }
      const attrs: OwnerAttributes = {};
      if (typeof ref.controller === 'boolean') attrs.controller = ref.controller;
      if (typeof ref.blockOwnerDeletion === 'boolean') attrs.blockOwnerDeletion = ref.blockOwnerDeletion;
      node.owners.set(ownerUid, attrs);
    }
  };

  const skip = (o: Obj, reason: SkipReason, message: string): void => {
    notDiscovered.push({ ...identity(o), uid: uidOf.get(o) as string, reason, message });
  };

  // Discovery: every object of a discovery type in the namespace (cluster-scoped types always), plus Secrets in the
  // namespaces of infrastructure providers.
  const discovered = new Set<Obj>();
  for (const o of objects) {
    const id = identity(o);
    if (crdInfoFromObject(o)) continue;
    const t = typeOf(id.apiVersion, id.kind);
    if (!t) {
      const coreOrCrd = groupOf(id.apiVersion) === '' ? 'only Secrets and ConfigMaps of the core group are' : `no CRD labelled clusterctl.cluster.x-k8s.io defines ${id.kind}.${groupOf(id.apiVersion)}; only such types are`;
      skip(o, 'not-discovery-type', `not a type clusterctl move discovers (${coreOrCrd} listed)`);
      continue;
    }
    const inScope =
      namespace === '' ||
      t.scope === 'Cluster' ||
      id.namespace === namespace ||
      (id.kind === 'Secret' && t.group === '' && credentialNamespaces.has(id.namespace));
    if (!inScope) {
      skip(o, 'outside-namespace', `in namespace ${id.namespace || '(none)'}, not the moved namespace ${namespace}`);
      continue;
    }
    addObj(o);
    discovered.add(o);
  }

  // ClusterClasses (and their templates) in other namespaces referenced by discovered Clusters.
  if (namespace !== '') {
    const byKey = new Map<string, Obj>();
    for (const o of objects) {
      const id = identity(o);
      byKey.set(nameKey(groupOf(id.apiVersion), id.kind, id.namespace, id.name), o);
    }
    const findObj = (group: string, kind: string, ns: string, name: string): Obj | undefined => byKey.get(nameKey(group, kind, ns, name));
    for (const n of [...nodes.values()]) {
      if (n.virtual || !n.classRef || n.classRef.namespace === namespace) continue;
      const cc = findObj('cluster.x-k8s.io', 'ClusterClass', n.classRef.namespace, n.classRef.name);
      if (!cc) {
        problems.push({
          severity: 'error',
          message: `failed to fetch ClusterClass references: ClusterClass ${n.classRef.namespace}/${n.classRef.name} (used by Cluster ${n.namespace}/${n.name}) is not among the manifests`,
        });
        continue;
      }
      const toAdd: Obj[] = [cc];
      for (const ref of classTemplateRefs(cc)) {
        const t = findObj(groupOf(ref.apiVersion), ref.kind, ref.namespace || n.classRef.namespace, ref.name);
        if (t) toAdd.push(t);
        else {
          problems.push({
            severity: 'error',
            message: `failed to fetch ClusterClass references: ${ref.kind} ${ref.namespace || n.classRef.namespace}/${ref.name} (referenced by ClusterClass ${n.classRef.namespace}/${n.classRef.name}) is not among the manifests`,
          });
        }
      }
      for (const o of toAdd) {
        if (discovered.has(o)) continue;
        addObj(o);
        discovered.add(o);
        const i = notDiscovered.findIndex((s) => s.uid === uidOf.get(o));
        if (i >= 0) notDiscovered.splice(i, 1);
      }
    }
  }

  if (types.size <= 2 && objects.length > 0) {
    problems.push({
      severity: 'warning',
      message:
        'no CustomResourceDefinition labelled clusterctl.cluster.x-k8s.io among the manifests: only Secrets and ConfigMaps can be discovered; include the providers’ components (the rendered providers/ directory)',
    });
  }
  const graph: MoveGraph = { nodes, types, namespace, notDiscovered, problems };
  setSoftOwnership(graph);
  setTenants(graph);
  setShouldNotDelete(graph, objects);
  return graph;
}

/** `setSoftOwnership`: cluster secrets by name, Cluster → ClusterClass, ClusterResourceSetBinding → Cluster. */
export function setSoftOwnership(graph: MoveGraph): void {
  const all = [...graph.nodes.values()];
  // Clusters and ClusterClasses by `<namespace>/<name>` (several nodes may share one, e.g. a virtual and a real one).
  const index = (kind: string): Map<string, MoveNode[]> => {
    const m = new Map<string, MoveNode[]>();
    for (const n of all) {
      if (!isKind(n, 'cluster.x-k8s.io', kind)) continue;
      const k = `${n.namespace}/${n.name}`;
      m.set(k, [...(m.get(k) ?? []), n]);
    }
    return m;
  };
  const clusters = index('Cluster');
  const classes = index('ClusterClass');
  for (const secret of all) {
    if (!isKind(secret, '', 'Secret') || secret.owners.size > 0) continue;
    const parsed = parseClusterSecretName(secret.name);
    if (!parsed) continue;
    for (const c of clusters.get(`${secret.namespace}/${parsed.clusterName}`) ?? []) secret.softOwners.add(c.uid);
  }
  for (const list of clusters.values()) {
    for (const c of list) {
      if (!c.classRef) continue;
      for (const cc of classes.get(`${c.classRef.namespace}/${c.classRef.name}`) ?? []) c.softOwners.add(cc.uid);
    }
  }
  for (const b of all) {
    if (!isKind(b, 'addons.cluster.x-k8s.io', 'ClusterResourceSetBinding') || !b.bindingClusterName) continue;
    for (const c of clusters.get(`${b.namespace}/${b.bindingClusterName}`) ?? []) b.softOwners.add(c.uid);
  }
}

function dependents(graph: MoveGraph): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const n of graph.nodes.values()) {
    for (const o of [...n.owners.keys(), ...n.softOwners]) {
      const list = out.get(o) ?? [];
      list.push(n.uid);
      out.set(o, list);
    }
  }
  return out;
}

/** `setTenants`: every forceMoveHierarchy node is a tenant root of everything it owns or soft-owns, transitively. */
export function setTenants(graph: MoveGraph): void {
  const deps = dependents(graph);
  for (const root of graph.nodes.values()) {
    if (!root.forceMoveHierarchy) continue;
    const stack = [root.uid];
    while (stack.length > 0) {
      const uid = stack.pop() as string;
      const n = graph.nodes.get(uid);
      if (!n || n.tenants.has(root.uid)) continue;
      n.tenants.add(root.uid);
      n.isGlobalHierarchy ||= root.isGlobal;
      for (const d of deps.get(uid) ?? []) stack.push(d);
    }
  }
}

/**
 * `setShouldNotDelete` (namespace moves only): ClusterClasses outside the namespace, and ClusterClasses in it used by
 * Clusters of other namespaces, stay in the source together with what they own.
 */
export function setShouldNotDelete(graph: MoveGraph, allObjects: readonly Obj[] = []): void {
  if (graph.namespace === '') return;
  const owned = new Map<string, string[]>();
  for (const n of graph.nodes.values()) {
    for (const o of n.owners.keys()) {
      const list = owned.get(o) ?? [];
      list.push(n.uid);
      owned.set(o, list);
    }
  }
  const mark = (uid: string): void => {
    const stack = [uid];
    while (stack.length > 0) {
      const n = graph.nodes.get(stack.pop() as string);
      if (!n || n.shouldNotDelete) continue;
      n.shouldNotDelete = true;
      stack.push(...(owned.get(n.uid) ?? []));
    }
  };
  const externalRefs = new Set<string>();
  for (const o of allObjects) {
    const id = identity(o);
    if (!isKind(id, 'cluster.x-k8s.io', 'Cluster') || id.namespace === graph.namespace) continue;
    const ref = classRefOf(o, id.namespace);
    if (ref) externalRefs.add(`${ref.namespace}/${ref.name}`);
  }
  for (const n of graph.nodes.values()) {
    if (!isKind(n, 'cluster.x-k8s.io', 'ClusterClass') || n.virtual) continue;
    if (n.namespace !== graph.namespace || externalRefs.has(`${n.namespace}/${n.name}`)) mark(n.uid);
  }
}
