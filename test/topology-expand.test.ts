/**
 * expandTopology on a small generic ClusterClass (test/fixtures/topology): what CAPI's topology controller would
 * create for a Cluster, for v1beta2 and v1beta1 inputs — roles and order, names, labels, refs, health checks,
 * missing classes and templates, cross-namespace classes, determinism, template rotation and upgrade hops.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emitManifests, expandTopology, InputError, parseManifests, type ExpandedCluster, type KubeObject } from '../src/index.js';
import { topologyObjectName } from '../src/topology/index.js';

const fixtures = join(import.meta.dirname, 'fixtures', 'topology');
const load = (...files: string[]): KubeObject[] => files.flatMap((f) => parseManifests(readFileSync(join(fixtures, f), 'utf8')));

function only(objects: KubeObject[]): ExpandedCluster {
  const { clusters, problems } = expandTopology(objects);
  expect(problems).toEqual([]);
  expect(clusters).toHaveLength(1);
  return clusters[0] as ExpandedCluster;
}

function byRole(c: ExpandedCluster, role: string): KubeObject {
  const found = c.objects.find((o) => o.role === role);
  if (!found) throw new Error(`no object with role ${role} (have ${c.objects.map((o) => o.role).join(', ')})`);
  return found.object;
}

/** Reads a dotted path (`spec.template.spec.version`) of an object. */
function at(o: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((cur, k) => (cur as Record<string, unknown> | undefined)?.[k], o);
}

const name = (o: KubeObject): string => at(o, 'metadata.name') as string;
const random = '[bcdfghjklmnpqrstvwxz2456789]{5}';

describe('expandTopology: a v1beta2 class and Cluster', () => {
  const c = only(load('class-v1beta2.yaml', 'cluster-v1beta2.yaml'));

  it('names the cluster and its class (cross-namespace classRef) and lists the objects by role in a fixed order', () => {
    expect(c.cluster).toBe('team-a/alpha');
    expect(c.class).toBe('classes/generic');
    expect(c.errors).toEqual([]);
    expect(c.objects.map((o) => o.role)).toEqual([
      'cluster',
      'infrastructureCluster',
      'controlPlaneInfrastructureMachineTemplate',
      'controlPlane',
      'controlPlaneMachineHealthCheck',
      'machineDeployment/md-0',
      'machineDeploymentBootstrapTemplate/md-0',
      'machineDeploymentInfrastructureTemplate/md-0',
      'machineDeploymentMachineHealthCheck/md-0',
      'machineDeployment/md-1',
      'machineDeploymentBootstrapTemplate/md-1',
      'machineDeploymentInfrastructureTemplate/md-1',
      'machinePool/mp-0',
      'machinePoolBootstrapConfig/mp-0',
      'machinePoolInfrastructureMachinePool/mp-0',
    ]);
    // Every generated object lives in the Cluster's namespace, whatever the class's namespace.
    for (const o of c.objects) expect(at(o.object, 'metadata.namespace'), o.role).toBe('team-a');
  });

  it('sets the Cluster labels and its refs to the generated InfrastructureCluster and ControlPlane', () => {
    const cluster = byRole(c, 'cluster');
    expect(cluster.apiVersion).toBe('cluster.x-k8s.io/v1beta2');
    expect(at(cluster, 'metadata.labels')).toEqual({ env: 'prod', 'cluster.x-k8s.io/cluster-name': 'alpha', 'topology.cluster.x-k8s.io/owned': '' });
    const infra = byRole(c, 'infrastructureCluster');
    const cp = byRole(c, 'controlPlane');
    expect(at(cluster, 'spec.infrastructureRef')).toEqual({ apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'GenericInfrastructureCluster', name: name(infra) });
    expect(at(cluster, 'spec.controlPlaneRef')).toEqual({ apiGroup: 'controlplane.cluster.x-k8s.io', kind: 'GenericControlPlane', name: name(cp) });
  });

  it('clones the InfrastructureCluster from the template body with cloned-from annotations and the default name template', () => {
    const infra = byRole(c, 'infrastructureCluster');
    expect(infra.kind).toBe('GenericInfrastructureCluster');
    expect(name(infra)).toMatch(new RegExp(`^alpha-${random}$`));
    expect(at(infra, 'spec')).toEqual({ region: 'eu-west-1' });
    expect(at(infra, 'metadata.annotations')).toEqual({
      'cluster.x-k8s.io/cloned-from-name': 'generic-cluster',
      'cluster.x-k8s.io/cloned-from-groupkind': 'GenericInfrastructureClusterTemplate.infrastructure.cluster.x-k8s.io',
    });
  });

  it('builds the ControlPlane: merged labels (topology wins), machine template ref and metadata, replicas, version, drain timeout', () => {
    const cp = byRole(c, 'controlPlane');
    const machine = byRole(c, 'controlPlaneInfrastructureMachineTemplate');
    expect(at(cp, 'metadata.labels')).toEqual({
      'from-template': 'yes',
      tier: 'control-plane',
      shared: 'from-topology',
      'cluster.x-k8s.io/cluster-name': 'alpha',
      'topology.cluster.x-k8s.io/owned': '',
    });
    expect(at(cp, 'spec.machineTemplate.spec.infrastructureRef')).toEqual({
      apiGroup: 'infrastructure.cluster.x-k8s.io',
      kind: 'GenericInfrastructureMachineTemplate',
      name: name(machine),
    });
    expect(at(cp, 'spec.machineTemplate.metadata.labels.shared')).toBe('from-topology');
    expect(at(cp, 'spec.machineTemplate.metadata.annotations')).toEqual({ team: 'platform' });
    expect(at(cp, 'spec.machineTemplate.spec.deletion.nodeDrainTimeoutSeconds')).toBe(120);
    expect(at(cp, 'spec.replicas')).toBe(3);
    expect(at(cp, 'spec.version')).toBe('v1.31.4');
    expect(name(machine)).toMatch(new RegExp(`^alpha-${random}$`));
    expect(at(machine, 'metadata.ownerReferences')).toEqual([{ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', name: 'alpha' }]);
  });

  it('adds the control plane MachineHealthCheck with the webhook default node startup timeout', () => {
    const mhc = byRole(c, 'controlPlaneMachineHealthCheck');
    expect(name(mhc)).toBe(name(byRole(c, 'controlPlane')));
    expect(at(mhc, 'spec.selector.matchLabels')).toEqual({ 'topology.cluster.x-k8s.io/owned': '', 'cluster.x-k8s.io/control-plane': '' });
    expect(at(mhc, 'spec.checks.nodeStartupTimeoutSeconds')).toBe(600);
    expect(at(mhc, 'metadata.labels')).toEqual({ 'topology.cluster.x-k8s.io/owned': '', 'cluster.x-k8s.io/cluster-name': 'alpha' });
  });

  it('builds MachineDeployments from the class naming template, with selectors, rollout and template refs', () => {
    const md = byRole(c, 'machineDeployment/md-0');
    expect(name(md)).toMatch(new RegExp(`^alpha-workers-md-0-${random}$`));
    expect(at(md, 'spec.replicas')).toBe(2);
    expect(at(md, 'spec.selector.matchLabels')).toEqual({
      'cluster.x-k8s.io/cluster-name': 'alpha',
      'topology.cluster.x-k8s.io/owned': '',
      'topology.cluster.x-k8s.io/deployment-name': 'md-0',
    });
    expect(at(md, 'spec.template.metadata.labels.pool')).toBe('default');
    expect(at(md, 'spec.rollout')).toEqual({ strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } } });
    expect(at(md, 'spec.remediation')).toEqual({ maxInFlight: 1 });
    expect(at(md, 'spec.template.spec.failureDomain')).toBe('zone-b');
    expect(at(md, 'spec.template.spec.minReadySeconds')).toBe(10);
    expect(at(md, 'spec.template.spec.version')).toBe('v1.31.4');
    const infra = byRole(c, 'machineDeploymentInfrastructureTemplate/md-0');
    expect(name(infra)).toMatch(new RegExp(`^alpha-md-0-${random}$`));
    expect(at(md, 'spec.template.spec.infrastructureRef.name')).toBe(name(infra));
    expect(at(md, 'spec.template.spec.bootstrap.configRef.name')).toBe(name(byRole(c, 'machineDeploymentBootstrapTemplate/md-0')));
    expect((at(infra, 'metadata.labels') as Record<string, string>)['topology.cluster.x-k8s.io/deployment-name']).toBe('md-0');
    // The class template's last-applied-configuration annotation is not copied.
    expect(at(infra, 'metadata.annotations')).toEqual({
      'cluster.x-k8s.io/cloned-from-name': 'generic-worker-machine',
      'cluster.x-k8s.io/cloned-from-groupkind': 'GenericInfrastructureMachineTemplate.infrastructure.cluster.x-k8s.io',
    });
  });

  it('gives md-0 a MachineHealthCheck from the class and none to md-1, whose topology disables it', () => {
    const mhc = byRole(c, 'machineDeploymentMachineHealthCheck/md-0');
    expect(at(mhc, 'spec.checks')).toEqual({ nodeStartupTimeoutSeconds: 900 });
    expect(at(mhc, 'spec.remediation')).toBeUndefined();
    expect(c.objects.some((o) => o.role === 'machineDeploymentMachineHealthCheck/md-1')).toBe(false);
  });

  it('builds MachinePools with their BootstrapConfig and InfrastructureMachinePool objects', () => {
    const mp = byRole(c, 'machinePool/mp-0');
    const bootstrap = byRole(c, 'machinePoolBootstrapConfig/mp-0');
    const infra = byRole(c, 'machinePoolInfrastructureMachinePool/mp-0');
    expect(name(mp)).toMatch(new RegExp(`^alpha-mp-0-${random}$`));
    expect(at(mp, 'spec.replicas')).toBe(4);
    expect(at(mp, 'spec.failureDomains')).toEqual(['zone-a']);
    expect(bootstrap.kind).toBe('GenericBootstrapConfig');
    expect(at(bootstrap, 'spec')).toEqual({ script: 'pool.sh' });
    expect(infra.kind).toBe('GenericInfrastructureMachinePool');
    expect(at(mp, 'spec.template.spec.infrastructureRef')).toEqual({ apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'GenericInfrastructureMachinePool', name: name(infra) });
    expect((at(infra, 'metadata.labels') as Record<string, string>)['topology.cluster.x-k8s.io/pool-name']).toBe('mp-0');
  });
});

describe('expandTopology: v1beta1 input', () => {
  const c = only(load('class-v1beta1.yaml', 'cluster-v1beta1.yaml'));

  it('converts the Cluster to v1beta2 and defaults the version to start with "v"', () => {
    expect(c.errors).toEqual([]);
    const cluster = byRole(c, 'cluster');
    expect(cluster.apiVersion).toBe('cluster.x-k8s.io/v1beta2');
    expect(at(cluster, 'spec.topology.classRef')).toEqual({ name: 'generic', namespace: 'classes' });
    expect(at(cluster, 'spec.topology.version')).toBe('v1.31.4');
  });

  it('writes a contract v1beta1 control plane: full infrastructureRef and durations under spec.machineTemplate', () => {
    const cp = byRole(c, 'controlPlane');
    expect(cp.apiVersion).toBe('controlplane.cluster.x-k8s.io/v1beta1');
    expect(at(cp, 'spec.machineTemplate.infrastructureRef')).toEqual({
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
      kind: 'GenericInfrastructureMachineTemplate',
      name: name(byRole(c, 'controlPlaneInfrastructureMachineTemplate')),
      namespace: 'team-b',
    });
    expect(at(cp, 'spec.machineTemplate.nodeDrainTimeout')).toBe('5m0s');
    expect(at(cp, 'spec.version')).toBe('v1.31.4');
  });

  it('converts health checks, naming and strategy of the class; the topology can disable a health check', () => {
    const md = byRole(c, 'machineDeployment/md-0');
    expect(name(md)).toMatch(new RegExp(`^beta-workers-md-0-${random}$`));
    expect(at(md, 'spec.rollout.strategy.type')).toBe('RollingUpdate');
    expect(at(md, 'spec.remediation')).toEqual({ maxInFlight: 1 });
    expect(c.objects.some((o) => o.role === 'machineDeploymentMachineHealthCheck/md-0')).toBe(false);
    const cpMhc = byRole(c, 'controlPlaneMachineHealthCheck');
    expect(at(cpMhc, 'spec.checks.unhealthyNodeConditions')).toEqual([{ type: 'Ready', status: 'Unknown', timeoutSeconds: 300 }]);
  });
});

describe('expandTopology: the control plane contract', () => {
  it('follows the ControlPlane CRD contract labels when the CRD is among the objects', () => {
    const crd: KubeObject = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'genericcontrolplanes.controlplane.cluster.x-k8s.io', labels: { 'cluster.x-k8s.io/v1beta1': 'v1beta1_v1beta2' } },
      spec: { group: 'controlplane.cluster.x-k8s.io', names: { kind: 'GenericControlPlane' } },
    };
    const c = only([...load('class-v1beta2.yaml', 'cluster-v1beta2.yaml'), crd]);
    const cp = byRole(c, 'controlPlane');
    expect(at(cp, 'spec.machineTemplate.infrastructureRef.kind')).toBe('GenericInfrastructureMachineTemplate');
    expect(at(cp, 'spec.machineTemplate.spec')).toBeUndefined();
    expect(at(cp, 'spec.machineTemplate.nodeDrainTimeout')).toBe('2m0s');
  });
});

describe('expandTopology: what cannot be expanded', () => {
  it('reports a missing ClusterClass on the Cluster, naming where it was looked for', () => {
    const c = only(load('cluster-v1beta2.yaml'));
    expect(c.objects).toEqual([]);
    expect(c.errors.map((e) => e.message)).toEqual([
      'spec.topology.classRef: Not found: "generic": ClusterClass "generic" is not among the input objects in namespace "classes"',
    ]);
  });

  it('reports a missing template with the class field that references it', () => {
    const objects = load('class-v1beta2.yaml', 'cluster-v1beta2.yaml').filter((o) => at(o, 'metadata.name') !== 'generic-worker-bootstrap');
    const c = only(objects);
    expect(c.objects).toEqual([]);
    expect(c.errors).toHaveLength(1);
    expect(c.errors[0]?.field).toBe('spec.workers.machineDeployments[default-worker].bootstrap.templateRef');
    expect(c.errors[0]?.message).toContain('GenericBootstrapConfigTemplate "generic-worker-bootstrap"');
    expect(c.errors[0]?.message).toContain('namespace "classes"');
  });

  it('reports worker topologies of unknown classes, and duplicate names, as the Cluster webhook does', () => {
    const objects = load('class-v1beta2.yaml', 'cluster-v1beta2.yaml');
    const cluster = objects.find((o) => o.kind === 'Cluster') as KubeObject;
    const mds = at(cluster, 'spec.topology.workers.machineDeployments') as Array<Record<string, unknown>>;
    mds.push({ class: 'gpu-worker', name: 'md-0' });
    const c = only(objects);
    expect(c.objects).toEqual([]);
    expect(c.errors.map((e) => e.message)).toEqual([
      'spec.topology.workers.machineDeployments[2].class: Invalid value: "gpu-worker": MachineDeploymentClass with name "gpu-worker" does not exist in ClusterClass "generic"',
      'spec.topology.workers.machineDeployments[2].name: Invalid value: "md-0": name must be unique. MachineDeployment with name "md-0" is defined more than once',
    ]);
  });

  it('rejects a version the class does not list in spec.kubernetesVersions', () => {
    const objects = load('class-v1beta2.yaml', 'cluster-v1beta2.yaml');
    (at(objects.find((o) => o.kind === 'Cluster'), 'spec.topology') as Record<string, unknown>).version = 'v1.31.1';
    const c = only(objects);
    expect(c.objects).toEqual([]);
    expect(c.errors.map((e) => e.message)).toEqual(['spec.topology.version: Invalid value: "v1.31.1": version must match one of the versions defined in the ClusterClass']);
  });

  it('refuses more input objects than its bound, with exit code 2', () => {
    const tooMany = new Array<KubeObject>(500_001).fill({ apiVersion: 'v1', kind: 'ConfigMap' });
    expect(() => expandTopology(tooMany)).toThrow(InputError);
    expect(() => expandTopology(tooMany)).toThrow(/500001 objects is more than the topology engine expands at once \(500000\)/);
  });

  it('ignores Clusters without a topology and reports a Cluster listed twice', () => {
    const objects = load('class-v1beta2.yaml', 'cluster-v1beta2.yaml', 'cluster-v1beta2.yaml');
    objects.push({ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'plain', namespace: 'team-a' }, spec: {} });
    const { clusters, problems } = expandTopology(objects);
    expect(clusters.map((c) => c.cluster)).toEqual(['team-a/alpha']);
    expect(problems.map((p) => p.message)).toEqual(['Cluster team-a/alpha appears more than once; the first one is expanded']);
  });
});

describe('expandTopology: determinism, names across revisions and upgrades', () => {
  const emit = (c: ExpandedCluster): string => emitManifests(c.objects.map((o) => o.object));

  it('names objects as topologyObjectName computes them', () => {
    const c = only(load('class-v1beta2.yaml', 'cluster-v1beta2.yaml'));
    const base = { clusterName: 'alpha', clusterNamespace: 'team-a' };
    expect(topologyObjectName({ ...base, object: 'ControlPlane' })).toBe(name(byRole(c, 'controlPlane')));
    expect(topologyObjectName({ ...base, object: 'InfrastructureCluster' })).toBe(name(byRole(c, 'infrastructureCluster')));
    expect(topologyObjectName({ ...base, object: 'MachinePoolBootstrapConfig', topologyName: 'mp-0' })).toBe(name(byRole(c, 'machinePoolBootstrapConfig/mp-0')));
    const template = byRole(c, 'machineDeploymentInfrastructureTemplate/md-0');
    expect(topologyObjectName({ ...base, object: 'MachineDeploymentInfrastructureMachineTemplate', topologyName: 'md-0', spec: template.spec })).toBe(name(template));
    const classTemplate = '{{ .cluster.name }}-workers-{{ .machineDeployment.topologyName }}-{{ .random }}';
    expect(topologyObjectName({ ...base, object: 'MachineDeployment', topologyName: 'md-1', template: classTemplate })).toBe(name(byRole(c, 'machineDeployment/md-1')));
  });

  it('gives the same bytes for the same input', () => {
    expect(emit(only(load('class-v1beta2.yaml', 'cluster-v1beta2.yaml')))).toBe(emit(only(load('class-v1beta2.yaml', 'cluster-v1beta2.yaml'))));
  });

  it('renames a template whose spec changes (CAPI template rotation) and keeps every object name', () => {
    const before = only(load('class-v1beta2.yaml', 'cluster-v1beta2.yaml'));
    const changed = load('class-v1beta2.yaml', 'cluster-v1beta2.yaml');
    const template = changed.find((o) => at(o, 'metadata.name') === 'generic-worker-machine') as KubeObject;
    (at(template, 'spec.template.spec') as Record<string, unknown>).size = 'xlarge';
    const after = only(changed);
    const role = 'machineDeploymentInfrastructureTemplate/md-0';
    expect(name(byRole(after, role))).not.toBe(name(byRole(before, role)));
    expect(name(byRole(after, role))).toMatch(new RegExp(`^alpha-md-0-${random}$`));
    expect(at(byRole(after, 'machineDeployment/md-0'), 'spec.template.spec.infrastructureRef.name')).toBe(name(byRole(after, role)));
    for (const r of ['infrastructureCluster', 'controlPlane', 'machineDeployment/md-0', 'machineDeploymentBootstrapTemplate/md-0', 'machinePool/mp-0']) {
      expect(name(byRole(after, r)), r).toBe(name(byRole(before, r)));
    }
  });

  it('keeps a template name when only its metadata changes', () => {
    const before = only(load('class-v1beta2.yaml', 'cluster-v1beta2.yaml'));
    const changed = load('class-v1beta2.yaml', 'cluster-v1beta2.yaml');
    const template = changed.find((o) => at(o, 'metadata.name') === 'generic-worker-machine') as KubeObject;
    (template.metadata as Record<string, unknown>).labels = { new: 'label' };
    const role = 'machineDeploymentInfrastructureTemplate/md-0';
    expect(name(byRole(only(changed), role))).toBe(name(byRole(before, role)));
  });

  it('reuses the names of a previous expansion by role, and the names the Cluster already references', () => {
    const base = only(load('class-v1beta2.yaml', 'cluster-v1beta2.yaml'));
    const renamed: ExpandedCluster = {
      ...base,
      objects: base.objects.map((o) => ({ role: o.role, object: { ...o.object, metadata: { ...(o.object.metadata as object), name: `old-${o.role.replace('/', '-').toLowerCase()}` } } })),
    };
    const objects = load('class-v1beta2.yaml', 'cluster-v1beta2.yaml');
    const { clusters } = expandTopology(objects, { previous: [renamed] });
    const c = clusters[0] as ExpandedCluster;
    expect(name(byRole(c, 'machineDeployment/md-0'))).toBe('old-machinedeployment-md-0');
    expect(name(byRole(c, 'controlPlane'))).toBe('old-controlplane');
    expect(name(byRole(c, 'machineDeploymentInfrastructureTemplate/md-0'))).toBe('old-machinedeploymentinfrastructuretemplate-md-0');

    const withRefs = load('class-v1beta2.yaml', 'cluster-v1beta2.yaml');
    const cluster = withRefs.find((o) => o.kind === 'Cluster') as KubeObject;
    (cluster.spec as Record<string, unknown>).infrastructureRef = { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'GenericInfrastructureCluster', name: 'alpha-existing' };
    expect(name(byRole(only(withRefs), 'infrastructureCluster'))).toBe('alpha-existing');
  });

  it('reports the upgrade hops through the class kubernetesVersions, from the previous control plane version', () => {
    const previous = only(load('class-v1beta2.yaml', 'cluster-v1beta2.yaml'));
    (byRole(previous, 'controlPlane').spec as Record<string, unknown>).version = 'v1.29.8';
    const objects = load('class-v1beta2.yaml', 'cluster-v1beta2.yaml');
    const cluster = objects.find((o) => o.kind === 'Cluster') as KubeObject;
    (at(cluster, 'spec.topology') as Record<string, unknown>).version = 'v1.32.1';
    const c = expandTopology(objects, { previous: [previous] }).clusters[0] as ExpandedCluster;
    expect(c.upgrade).toEqual({ from: 'v1.29.8', to: 'v1.32.1', hops: ['v1.30.2', 'v1.31.4', 'v1.32.1'] });
    expect(at(byRole(c, 'controlPlane'), 'spec.version')).toBe('v1.32.1');
    expect(only(load('class-v1beta2.yaml', 'cluster-v1beta2.yaml')).upgrade).toBeUndefined();
  });
});

describe('expandTopology: variables and patches', () => {
  const patched = (): KubeObject[] => load('class-v1beta2.yaml', 'class-patched.yaml');
  const gamma = (objects: KubeObject[]): KubeObject => objects.find((o) => o.kind === 'Cluster' && at(o, 'metadata.name') === 'gamma') as KubeObject;
  const expandGamma = (objects: KubeObject[]): ExpandedCluster => {
    const found = expandTopology(objects).clusters.find((x) => x.cluster === 'classes/gamma');
    if (!found) throw new Error('no gamma');
    return found;
  };

  it('defaults missing variables from the class schema and writes them into the Cluster topology', () => {
    const c = expandGamma(patched());
    expect(c.errors).toEqual([]);
    expect(c.variables).toEqual([
      { name: 'region', value: 'us-east-1' },
      { name: 'workerSize', value: 'medium' },
    ]);
    expect(at(byRole(c, 'cluster'), 'spec.topology.variables')).toEqual(c.variables);
  });

  it('applies inline patches with variables, MachineDeployment overrides and builtin variables, and lists what they set', () => {
    const c = expandGamma(patched());
    expect(at(byRole(c, 'infrastructureCluster'), 'spec.region')).toBe('us-east-1');
    expect(at(byRole(c, 'machineDeploymentInfrastructureTemplate/small'), 'spec.template.spec.size')).toBe('small-small');
    expect(at(byRole(c, 'machineDeploymentInfrastructureTemplate/big'), 'spec.template.spec.size')).toBe('medium-big');
    expect(c.patchChanges?.map((p) => `${p.patch} ${p.role} ${p.path}`)).toEqual([
      'region infrastructureCluster /spec/region',
      'worker-size machineDeploymentInfrastructureTemplate/small /spec/template/spec/size',
      'worker-size machineDeploymentInfrastructureTemplate/big /spec/template/spec/size',
    ]);
  });

  it('warns that an external patch cannot run offline, naming it and its extension', () => {
    const c = expandGamma(patched());
    expect(c.warnings).toHaveLength(1);
    expect(c.warnings[0]).toContain('"tagging"');
    expect(c.warnings[0]).toContain('tagging.example-extension');
  });

  it('rejects a value outside the schema with the variable path, and expands nothing', () => {
    const objects = patched();
    (at(gamma(objects), 'spec.topology') as Record<string, unknown>).variables = [{ name: 'region', value: 'mars' }];
    const c = expandGamma(objects);
    expect(c.objects).toEqual([]);
    expect(c.errors.map((e) => e.message)).toEqual([
      // CAPI quotes the raw JSON of the value, as the API server prints it.
      'spec.topology.variables[region].value: Unsupported value: "\\"mars\\"": supported values: "us-east-1", "eu-west-1"',
    ]);
  });

  it('renames a template whose patched spec changes with a variable, and keeps the others', () => {
    const before = expandGamma(patched());
    const objects = patched();
    (at(gamma(objects), 'spec.topology') as Record<string, unknown>).variables = [{ name: 'workerSize', value: 'large' }];
    const after = expandGamma(objects);
    expect(at(byRole(after, 'machineDeploymentInfrastructureTemplate/big'), 'spec.template.spec.size')).toBe('large-big');
    const big = 'machineDeploymentInfrastructureTemplate/big';
    const small = 'machineDeploymentInfrastructureTemplate/small';
    expect(name(byRole(after, big))).not.toBe(name(byRole(before, big)));
    expect(at(byRole(after, 'machineDeployment/big'), 'spec.template.spec.infrastructureRef.name')).toBe(name(byRole(after, big)));
    expect(name(byRole(after, small))).toBe(name(byRole(before, small)));
  });

  it('reports a patch that fails as CAPI would fail, on the Cluster', () => {
    const objects = patched();
    const cc = objects.find((o) => o.kind === 'ClusterClass' && at(o, 'metadata.name') === 'patched') as KubeObject;
    (at(cc, 'spec.patches') as unknown[]).push({
      name: 'broken',
      definitions: [
        {
          selector: { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'GenericInfrastructureClusterTemplate', matchResources: { infrastructureCluster: true } },
          jsonPatches: [{ op: 'add', path: '/spec/template/spec/zone', valueFrom: { variable: 'zone' } }],
        },
      ],
    });
    const c = expandGamma(objects);
    expect(c.objects).toEqual([]);
    expect(c.errors).toHaveLength(1);
    expect(c.errors[0]?.message).toContain('patch "broken"');
    expect(c.errors[0]?.message).toContain('variable "zone" does not exist');
  });

  it('reports a naming template that does not render, with Go text/template’s message', () => {
    const objects = patched();
    const cc = objects.find((o) => o.kind === 'ClusterClass' && at(o, 'metadata.name') === 'patched') as KubeObject;
    (at(cc, 'spec.controlPlane') as Record<string, unknown>).naming = { template: '{{ .cluster.nam }}-cp' };
    const c = expandGamma(objects);
    expect(c.objects).toEqual([]);
    expect(c.errors[0]?.message).toContain(
      'failed to generate name for ControlPlane: rendering template: template: template name generator:1:11: executing "template name generator" at <.cluster.nam>: map has no entry for key "nam"',
    );
  });
});
