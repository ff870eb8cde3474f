/**
 * The offline move planner: clusterctl move's discovery, object graph, soft ownership, tenants and move order
 * (spec §2) over plain manifests, and what capiform reports on top (silent skips, paused and blocked objects).
 */
import { describe, expect, it } from 'vitest';
import {
  buildMoveGraph,
  crdInfoFromObject,
  discoveryTypes,
  formatMovePlan,
  moveSequence,
  parseClusterSecretName,
  planMove,
  silentlySkipped,
  synthesizedUid,
  type CrdInfo,
} from '../src/plan/move/index.js';

type Obj = Record<string, unknown>;

const labelled = { 'clusterctl.cluster.x-k8s.io': '' };
const crd = (group: string, kind: string, extra: Partial<CrdInfo> = {}): CrdInfo => ({
  group,
  kind,
  scope: 'Namespaced',
  storageVersion: 'v1beta2',
  labels: labelled,
  ...extra,
});
const crds: CrdInfo[] = [
  crd('cluster.x-k8s.io', 'Cluster'),
  crd('cluster.x-k8s.io', 'ClusterClass'),
  crd('cluster.x-k8s.io', 'MachineDeployment'),
  crd('addons.cluster.x-k8s.io', 'ClusterResourceSet'),
  crd('addons.cluster.x-k8s.io', 'ClusterResourceSetBinding'),
  crd('infrastructure.cluster.x-k8s.io', 'DockerCluster'),
  crd('infrastructure.cluster.x-k8s.io', 'DockerClusterTemplate'),
  crd('infrastructure.cluster.x-k8s.io', 'AWSClusterRoleIdentity', {
    scope: 'Cluster',
    labels: { ...labelled, 'clusterctl.cluster.x-k8s.io/move-hierarchy': '' },
  }),
];

function obj(apiVersion: string, kind: string, namespace: string, name: string, extra: Obj = {}, metadata: Obj = {}): Obj {
  return { apiVersion, kind, metadata: { name, ...(namespace ? { namespace } : {}), ...metadata }, ...extra };
}
const cluster = (ns: string, name: string, spec: Obj = {}, metadata: Obj = {}): Obj => obj('cluster.x-k8s.io/v1beta2', 'Cluster', ns, name, { spec }, metadata);
const secret = (ns: string, name: string, metadata: Obj = {}): Obj => obj('v1', 'Secret', ns, name, {}, metadata);
const owner = (kind: string, name: string, apiVersion = 'cluster.x-k8s.io/v1beta2'): Obj => ({ ownerReferences: [{ apiVersion, kind, name }] });
const uid = (o: Obj): string => {
  const m = o.metadata as { namespace?: string; name: string };
  return synthesizedUid(String(o.apiVersion), String(o.kind), m.namespace ?? '', m.name);
};

describe('discovery types', () => {
  it('lists labelled CRDs by storage version with naive plurals, plus Secret and ConfigMap', () => {
    const types = discoveryTypes([
      crd('infrastructure.cluster.x-k8s.io', 'GenericClusterInfrastructureIdentity', { storageVersion: undefined, versions: [{ name: 'v1beta1' }, { name: 'v1beta2', storage: true }] }),
      crd('example.com', 'Unlabelled', { labels: {} }),
    ]);
    expect([...types.keys()]).toEqual(['genericclusterinfrastructureidentitys.infrastructure.cluster.x-k8s.io', 'secrets.v1', 'configmaps.v1']);
    expect(types.get('genericclusterinfrastructureidentitys.infrastructure.cluster.x-k8s.io')?.apiVersion).toBe('infrastructure.cluster.x-k8s.io/v1beta2');
  });
  it('forces the hierarchy of Cluster, ClusterClass and ClusterResourceSet', () => {
    const types = discoveryTypes(crds);
    expect(types.get('clusters.cluster.x-k8s.io')).toMatchObject({ forceMove: true, forceMoveHierarchy: true });
    expect(types.get('clusterresourcesets.addons.cluster.x-k8s.io')).toMatchObject({ forceMove: true, forceMoveHierarchy: true });
    expect(types.get('machinedeployments.cluster.x-k8s.io')).toMatchObject({ forceMove: false, forceMoveHierarchy: false });
  });
  it('reads CRD manifests', () => {
    const info = crdInfoFromObject({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'foos.example.com', labels: labelled },
      spec: { group: 'example.com', names: { kind: 'Foo' }, scope: 'Cluster', versions: [{ name: 'v1', storage: true }] },
    });
    expect(info).toEqual({ group: 'example.com', kind: 'Foo', scope: 'Cluster', labels: labelled, versions: [{ name: 'v1', storage: true }] });
  });
});

describe('the object graph', () => {
  it('synthesises UIDs and resolves ownerReferences by group, kind, namespace and name', () => {
    const c = cluster('ns1', 'c1');
    const dc = obj('infrastructure.cluster.x-k8s.io/v1beta2', 'DockerCluster', 'ns1', 'c1', {}, owner('Cluster', 'c1', 'cluster.x-k8s.io/v1beta1'));
    const g = buildMoveGraph([c, dc], { crds });
    expect(uid(c)).toBe('cluster.x-k8s.io/v1beta2, Kind=Cluster, ns1/c1');
    expect([...(g.nodes.get(uid(dc))?.owners.keys() ?? [])]).toEqual([uid(c)]);
  });

  it('turns an owner that is not discovered into a virtual node, and its dependants are skipped', () => {
    const s = secret('ns1', 'creds', owner('Deployment', 'controller', 'apps/v1'));
    const c = cluster('ns1', 'c1');
    const cm = obj('v1', 'ConfigMap', 'ns1', 'cfg', {}, { labels: { 'clusterctl.cluster.x-k8s.io/move': '' }, ...owner('Deployment', 'controller', 'apps/v1') });
    const g = buildMoveGraph([s, c, cm], { crds });
    const virtual = g.nodes.get('apps/v1, Kind=Deployment, ns1/controller');
    expect(virtual).toMatchObject({ virtual: true, namespace: '' });
    expect(moveSequence(g).flat().map((n) => n.name)).toEqual(['c1']);
    expect(silentlySkipped(g).map((s) => [s.name, s.reason, s.message])).toEqual([
      ['creds', 'not-in-hierarchy', expect.stringContaining('not owned') as string],
      ['cfg', 'owner-not-moved', 'never enters a move group: owner Deployment controller is not among the discovered objects (virtual owner)'],
    ]);
  });

  it('soft-owns cluster secrets by name (split at the last dash), never apiserver-etcd-client, never secrets with owners', () => {
    expect(parseClusterSecretName('my-cluster-kubeconfig')).toEqual({ clusterName: 'my-cluster', purpose: 'kubeconfig' });
    expect(parseClusterSecretName('c1-apiserver-etcd-client')).toBeNull();
    const objs = [
      cluster('ns1', 'c1'),
      secret('ns1', 'c1-ca'),
      secret('ns1', 'c1-apiserver-etcd-client'),
      secret('ns1', 'c1-sa', owner('Cluster', 'c1')),
      secret('ns2', 'c1-etcd'),
    ];
    const g = buildMoveGraph(objs, { crds });
    const soft = (name: string, ns = 'ns1'): string[] => [...(g.nodes.get(synthesizedUid('v1', 'Secret', ns, name))?.softOwners ?? [])];
    expect(soft('c1-ca')).toEqual([uid(objs[0] as Obj)]);
    expect(soft('c1-apiserver-etcd-client')).toEqual([]);
    expect(soft('c1-sa')).toEqual([]);
    expect(soft('c1-etcd', 'ns2')).toEqual([]);
  });

  it('soft-owns Clusters by their ClusterClass (classRef namespace, default the Cluster’s) and bindings by their Cluster', () => {
    const cc = obj('cluster.x-k8s.io/v1beta2', 'ClusterClass', 'ns1', 'quick-start');
    const c1 = cluster('ns1', 'c1', { topology: { classRef: { name: 'quick-start' } } });
    const binding = obj('addons.cluster.x-k8s.io/v1beta2', 'ClusterResourceSetBinding', 'ns1', 'c1', { spec: { clusterName: 'c1' } });
    const g = buildMoveGraph([cc, c1, binding], { crds });
    expect([...(g.nodes.get(uid(c1))?.softOwners ?? [])]).toEqual([uid(cc)]);
    expect([...(g.nodes.get(uid(binding))?.softOwners ?? [])]).toEqual([uid(c1)]);
    expect(moveSequence(g).map((grp) => grp.map((n) => n.kind))).toEqual([['ClusterClass'], ['Cluster'], ['ClusterResourceSetBinding']]);
  });

  it('gives a shared object both tenants, and marks what hangs off a global move-hierarchy root', () => {
    const id = obj('infrastructure.cluster.x-k8s.io/v1beta2', 'AWSClusterRoleIdentity', '', 'id');
    const s = secret('ns1', 'id-secret', owner('AWSClusterRoleIdentity', 'id', 'infrastructure.cluster.x-k8s.io/v1beta2'));
    const shared = secret('ns1', 'shared', { ownerReferences: [
      { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', name: 'a' },
      { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', name: 'b' },
    ] });
    const g = buildMoveGraph([id, s, cluster('ns1', 'a'), cluster('ns1', 'b'), shared], { crds });
    expect(g.nodes.get(uid(id))).toMatchObject({ isGlobal: true, forceMoveHierarchy: true });
    expect(g.nodes.get(uid(s))).toMatchObject({ isGlobal: false, isGlobalHierarchy: true });
    expect(g.nodes.get(uid(shared))?.tenants.size).toBe(2);
    const p = planMove([id, s, cluster('ns1', 'a'), cluster('ns1', 'b'), shared], { crds });
    expect(p.groups.flat().filter((o) => !o.deleteFromSource).map((o) => o.name)).toEqual(['id', 'id-secret']);
  });
});

describe('namespace moves', () => {
  it('discovers one namespace, cluster-scoped objects, and Secrets of infrastructure provider namespaces', () => {
    const objs = [
      obj('clusterctl.cluster.x-k8s.io/v1alpha3', 'Provider', 'capd-system', 'infrastructure-docker', { providerName: 'docker', type: 'InfrastructureProvider', version: 'v1.13.5' }),
      secret('capd-system', 'credentials'),
      secret('other', 'unrelated'),
      cluster('ns1', 'c1'),
      cluster('ns2', 'c2'),
    ];
    const g = buildMoveGraph(objs, { crds, namespace: 'ns1' });
    expect([...g.nodes.values()].map((n) => `${n.namespace}/${n.name}`)).toEqual(['capd-system/credentials', 'ns1/c1']);
    expect(g.notDiscovered.map((s) => `${s.reason} ${s.kind} ${s.namespace}/${s.name}`)).toEqual([
      'not-discovery-type Provider capd-system/infrastructure-docker',
      'outside-namespace Secret other/unrelated',
      'outside-namespace Cluster ns2/c2',
    ]);
  });

  it('brings a ClusterClass of another namespace along, and keeps it (and what it owns) in the source', () => {
    const cc = obj('cluster.x-k8s.io/v1beta2', 'ClusterClass', 'shared', 'qs', { spec: { infrastructure: { templateRef: { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'DockerClusterTemplate', name: 'qs' } } } });
    const t = obj('infrastructure.cluster.x-k8s.io/v1beta2', 'DockerClusterTemplate', 'shared', 'qs', {}, owner('ClusterClass', 'qs'));
    const c = cluster('ns1', 'c1', { topology: { classRef: { name: 'qs', namespace: 'shared' } } });
    const p = planMove([cc, t, c], { crds, namespace: 'ns1', inferOwners: false });
    expect(p.groups.map((g) => g.map((o) => `${o.kind} ${o.shouldNotDelete ? 'kept' : 'deleted'}`))).toEqual([
      ['ClusterClass kept'],
      ['Cluster deleted', 'DockerClusterTemplate kept'],
    ]);
    expect(p.problems).toEqual([]);
  });

  it('reports a missing cross-namespace ClusterClass the way clusterctl fails', () => {
    const c = cluster('ns1', 'c1', { topology: { classRef: { name: 'qs', namespace: 'shared' } } });
    const p = planMove([c], { crds, namespace: 'ns1' });
    expect(p.problems).toContainEqual({
      severity: 'error',
      message: 'failed to fetch ClusterClass references: ClusterClass shared/qs (used by Cluster ns1/c1) is not among the manifests',
    });
  });
});

describe('what stops or delays a move', () => {
  it('refuses paused Clusters and ClusterClasses, and warns about block-move annotations', () => {
    const objs = [
      cluster('ns1', 'c1', { paused: true }),
      obj('cluster.x-k8s.io/v1beta2', 'ClusterClass', 'ns1', 'cc', {}, { annotations: { 'cluster.x-k8s.io/paused': '' } }),
      obj('infrastructure.cluster.x-k8s.io/v1beta2', 'DockerCluster', 'ns1', 'c1', {}, { annotations: { 'clusterctl.cluster.x-k8s.io/block-move': '' }, ...owner('Cluster', 'c1') }),
    ];
    const p = planMove(objs, { crds });
    expect(p.problems.map((x) => `${x.severity}: ${x.message}`)).toEqual([
      'error: cannot start operation while the following Clusters are paused: ns1/c1',
      'error: cannot start operation while the following ClusterClasses are paused: ns1/cc',
      'warning: DockerCluster ns1/c1 carries the clusterctl.cluster.x-k8s.io/block-move annotation: clusterctl waits (about 2 minutes, then fails) until a controller removes it',
    ]);
    expect(formatMovePlan(p)).toContain('  DockerCluster ns1/c1  (blocks move)\n');
  });

  it('warns when no CRD carries the clusterctl label', () => {
    expect(planMove([secret('ns1', 'x')]).problems).toContainEqual({
      severity: 'warning',
      message:
        'no CustomResourceDefinition labelled clusterctl.cluster.x-k8s.io among the manifests: only Secrets and ConfigMaps can be discovered; include the providers’ components (the rendered providers/ directory)',
    });
  });
});

describe('inferred runtime ownerReferences (capiform, on by default in planMove)', () => {
  it('owns the Cluster’s infrastructure and MachineDeployments by the Cluster, CRS resources by the CRS', () => {
    const objs = [
      cluster('ns1', 'c1', { infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'DockerCluster', name: 'c1' } }),
      obj('infrastructure.cluster.x-k8s.io/v1beta2', 'DockerCluster', 'ns1', 'c1'),
      obj('cluster.x-k8s.io/v1beta2', 'MachineDeployment', 'ns1', 'md', { spec: { clusterName: 'c1' } }),
      obj('addons.cluster.x-k8s.io/v1beta2', 'ClusterResourceSet', 'ns1', 'cni', { spec: { resources: [{ kind: 'ConfigMap', name: 'calico' }] } }),
      obj('v1', 'ConfigMap', 'ns1', 'calico'),
    ];
    const p = planMove(objs, { crds });
    expect(p.groups.map((g) => g.map((o) => o.name))).toEqual([['c1', 'cni'], ['calico', 'c1', 'md']]);
    expect(p.groups[1]?.find((o) => o.kind === 'DockerCluster')?.inferredOwners).toEqual([
      { owner: 'Cluster ns1/c1', because: 'the Cluster controller owns spec.infrastructureRef' },
    ]);
    // Without inference clusterctl's view of the bare manifests moves only the roots.
    expect(planMove(objs, { crds, inferOwners: false }).groups.map((g) => g.map((o) => o.name))).toEqual([['c1', 'cni']]);
  });
});

describe('inferred runtime ownerReferences: the control plane', () => {
  it('owns a KubeadmControlPlane machine template by the Cluster whose controlPlaneRef names the control plane', () => {
    // As `generate cluster` renders it: no cluster-name label, no clusterName on the KubeadmControlPlane.
    const objs = [
      cluster('ns1', 'c1', { controlPlaneRef: { apiGroup: 'controlplane.cluster.x-k8s.io', kind: 'KubeadmControlPlane', name: 'c1-cp' } }),
      obj('controlplane.cluster.x-k8s.io/v1beta2', 'KubeadmControlPlane', 'ns1', 'c1-cp', {
        spec: { machineTemplate: { spec: { infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'DockerMachineTemplate', name: 'c1-cp' } } } },
      }),
      obj('infrastructure.cluster.x-k8s.io/v1beta2', 'DockerMachineTemplate', 'ns1', 'c1-cp'),
    ];
    const withCp = [...crds, crd('controlplane.cluster.x-k8s.io', 'KubeadmControlPlane'), crd('infrastructure.cluster.x-k8s.io', 'DockerMachineTemplate')];
    const p = planMove(objs, { crds: withCp });
    expect(p.skipped).toEqual([]);
    expect(p.groups.flat().find((o) => o.kind === 'DockerMachineTemplate')?.inferredOwners).toEqual([
      { owner: 'Cluster ns1/c1', because: 'the control plane controller sets the Cluster as owner of its machine template' },
    ]);
  });
});

describe('reading manifests for plan move', () => {
  it('flattens kind: List documents and drops empty ones', async () => {
    const { parseManifestText } = await import('../src/pipeline/plan-inputs/index.js');
    const objs = parseManifestText('---\n# only a comment\n---\napiVersion: v1\nkind: List\nitems:\n  - { apiVersion: v1, kind: Secret, metadata: { name: a } }\n  - { apiVersion: v1, kind: ConfigMap, metadata: { name: b } }\n', 'x.yaml');
    expect(objs.map((o) => o.kind)).toEqual(['Secret', 'ConfigMap']);
  });
  it('reports a YAML error with its file and line (exit 2)', async () => {
    const { parseManifestText } = await import('../src/pipeline/plan-inputs/index.js');
    let err: (Error & { where?: string; exitCode?: number }) | undefined;
    try {
      parseManifestText('apiVersion: v1\nkind: Secret\nmetadata: {\n', 'bad.yaml');
    } catch (e) {
      err = e as Error & { where?: string; exitCode?: number };
    }
    expect(err?.message).toMatch(/^failed to unmarshal the 1st yaml document: /);
    expect(err?.where).toMatch(/^bad\.yaml:\d+$/);
    expect(err?.exitCode).toBe(2);
  });
});
