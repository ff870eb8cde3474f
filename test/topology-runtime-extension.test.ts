/**
 * A class whose variables and patches come from a runtime extension (CAPI's e2e class `quick-start-runtimesdk`,
 * test/fixtures/topology/class-runtimesdk.yaml): everything that does not depend on the extension is expanded, the
 * external patch and the variables no one can discover offline are warnings on the Cluster, and a class dump with
 * `status.variables` (as a live management cluster holds it) defines them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandTopology, parseManifests, type ExpandedCluster, type KubeObject } from '../src/index.js';

const fixtures = join(import.meta.dirname, 'fixtures', 'topology');
const load = (): KubeObject[] => parseManifests(readFileSync(join(fixtures, 'class-runtimesdk.yaml'), 'utf8'));

function at(o: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((cur, k) => (cur as Record<string, unknown> | undefined)?.[k], o);
}

function only(objects: KubeObject[]): ExpandedCluster {
  const { clusters, problems } = expandTopology(objects);
  expect(problems).toEqual([]);
  expect(clusters).toHaveLength(1);
  return clusters[0] as ExpandedCluster;
}

function object(c: ExpandedCluster, role: string): KubeObject {
  const found = c.objects.find((o) => o.role === role);
  if (!found) throw new Error(`no object with role ${role} (have ${c.objects.map((o) => o.role).join(', ')})`);
  return found.object;
}

const random = '[bcdfghjklmnpqrstvwxz2456789]{5}';
const clusterOf = (objects: KubeObject[]): KubeObject => objects.find((o) => o.kind === 'Cluster') as KubeObject;
const classOf = (objects: KubeObject[]): KubeObject => objects.find((o) => o.kind === 'ClusterClass') as KubeObject;

/** The `status.variables` the ClusterClass controller records after asking the extension (as a live dump holds it). */
function discovered(objects: KubeObject[]): KubeObject[] {
  classOf(objects).status = {
    variables: [
      {
        name: 'kubeadmControlPlaneMaxSurge',
        definitions: [{ from: 'test-patch', required: false, schema: { openAPIV3Schema: { type: 'string', default: '' } } }],
      },
      {
        name: 'imageRepository',
        definitions: [{ from: 'test-patch', required: true, schema: { openAPIV3Schema: { type: 'string', default: 'kindest' } } }],
      },
      {
        name: 'lbImageRepository',
        definitions: [{ from: 'test-patch', required: true, schema: { openAPIV3Schema: { type: 'string', default: 'kindest' } } }],
      },
    ],
  };
  return objects;
}

describe('a ClusterClass whose variables come from a runtime extension, read from files', () => {
  const c = only(load());

  it('expands the Cluster: names from the naming templates, templates, metadata, failure domains', () => {
    expect(c.errors).toEqual([]);
    expect(c.objects.map((o) => o.role)).toEqual([
      'cluster',
      'infrastructureCluster',
      'controlPlaneInfrastructureMachineTemplate',
      'controlPlane',
      'machineDeployment/md-0',
      'machineDeploymentBootstrapTemplate/md-0',
      'machineDeploymentInfrastructureTemplate/md-0',
      'machinePool/mp-0',
      'machinePoolBootstrapConfig/mp-0',
      'machinePoolInfrastructureMachinePool/mp-0',
    ]);
    const name = (role: string): string => at(object(c, role), 'metadata.name') as string;
    expect(name('infrastructureCluster')).toMatch(new RegExp(`^rt-1-infra-${random}$`));
    expect(name('controlPlane')).toMatch(new RegExp(`^rt-1-cp-${random}$`));
    expect(name('machineDeployment/md-0')).toMatch(new RegExp(`^rt-1-md-md-0-${random}$`));
    expect(name('machinePool/mp-0')).toMatch(new RegExp(`^rt-1-mp-mp-0-${random}$`));
    const md = object(c, 'machineDeployment/md-0');
    expect(at(md, 'spec.template.spec.failureDomain')).toBe('fd4');
    expect(at(md, 'spec.template.spec.minReadySeconds')).toBe(5);
    expect(at(md, 'spec.template.spec.deletion')).toEqual({ nodeDeletionTimeoutSeconds: 0, nodeVolumeDetachTimeoutSeconds: 300 });
    expect(at(object(c, 'machinePool/mp-0'), 'spec.failureDomains')).toEqual(['fd4']);
    expect(at(object(c, 'controlPlane'), 'spec.version')).toBe('v1.33.0');
    expect(at(object(c, 'infrastructureCluster'), 'spec.backend.docker.failureDomains')).toHaveLength(8);
  });

  it('keeps the variables the extension would define as written, and says so once per variable, with the external patch', () => {
    expect(c.variables).toEqual([
      { name: 'kubeadmControlPlaneMaxSurge', value: '1' },
      { name: 'imageRepository', value: 'kindest' },
    ]);
    expect(at(object(c, 'cluster'), 'spec.topology.variables')).toEqual(c.variables);
    expect(c.warnings).toEqual([
      'variable "imageRepository" is not defined in ClusterClass default/quick-start-runtimesdk; it may be defined by the runtime extension "discover-variables.k8s-upgrade-with-runtimesdk" (patch "test-patch"), which cannot be asked offline: its value is kept as written, neither defaulted nor validated',
      'variable "kubeadmControlPlaneMaxSurge" is not defined in ClusterClass default/quick-start-runtimesdk; it may be defined by the runtime extension "discover-variables.k8s-upgrade-with-runtimesdk" (patch "test-patch"), which cannot be asked offline: its value is kept as written, neither defaulted nor validated',
      'ClusterClass default/quick-start-runtimesdk plans Kubernetes upgrades through the runtime extension "generate-upgrade-plan.k8s-upgrade-with-runtimesdk" (spec.upgrade.external.generateUpgradePlanExtension), which cannot be asked offline: the versions an upgrade of this Cluster goes through are unknown',
      'patch "test-patch" calls the runtime extension "generate-patches.k8s-upgrade-with-runtimesdk", which cannot run offline: the objects it patches are shown without its changes',
    ]);
  });

  it('still defaults and validates the variables the class defines inline, beside the undiscoverable ones', () => {
    const objects = load();
    const spec = classOf(objects).spec as Record<string, unknown>;
    spec.variables = [{ name: 'replicas', required: true, schema: { openAPIV3Schema: { type: 'integer', default: 3 } } }];
    const ok = only(objects);
    expect(ok.errors).toEqual([]);
    expect(ok.variables).toEqual([
      { name: 'kubeadmControlPlaneMaxSurge', value: '1' },
      { name: 'imageRepository', value: 'kindest' },
      { name: 'replicas', value: 3 },
    ]);
    (at(clusterOf(objects), 'spec.topology.variables') as unknown[]).push({ name: 'replicas', value: 'three' });
    const bad = only(objects);
    expect(bad.errors.map((e) => e.message)).toEqual(['spec.topology.variables[replicas].value: Invalid value: "\\"three\\"": must be of type integer: "string"']);
    expect(bad.objects).toEqual([]);
  });

  it('without a discovering extension, an undefined variable stays an error, reported once', () => {
    const objects = load();
    const patches = (classOf(objects).spec as { patches: Array<{ external: Record<string, unknown> }> }).patches;
    delete patches[0]!.external.discoverVariablesExtension;
    const c2 = only(objects);
    expect(c2.errors.map((e) => e.message)).toEqual([
      'spec.topology.variables[kubeadmControlPlaneMaxSurge]: Invalid value: "\\"1\\"": variable is not defined',
      'spec.topology.variables[imageRepository]: Invalid value: "\\"kindest\\"": variable is not defined',
    ]);
  });
});

describe('the same class with the status.variables of a live management cluster', () => {
  it('defaults and validates against the discovered definitions, with no warning about them (the upgrade plan extension is still one)', () => {
    const c = only(discovered(load()));
    expect(c.errors).toEqual([]);
    expect(c.variables).toEqual([
      { name: 'kubeadmControlPlaneMaxSurge', value: '1', definitionFrom: 'test-patch' },
      { name: 'imageRepository', value: 'kindest', definitionFrom: 'test-patch' },
      { name: 'lbImageRepository', value: 'kindest', definitionFrom: 'test-patch' },
    ]);
    expect(c.warnings).toEqual([
      'ClusterClass default/quick-start-runtimesdk plans Kubernetes upgrades through the runtime extension "generate-upgrade-plan.k8s-upgrade-with-runtimesdk" (spec.upgrade.external.generateUpgradePlanExtension), which cannot be asked offline: the versions an upgrade of this Cluster goes through are unknown',
      'patch "test-patch" calls the runtime extension "generate-patches.k8s-upgrade-with-runtimesdk", which cannot run offline: the objects it patches are shown without its changes',
    ]);
  });

  it('refuses a value of the wrong type for a discovered variable', () => {
    const objects = discovered(load());
    (at(clusterOf(objects), 'spec.topology.variables') as Array<{ value: unknown }>)[1]!.value = 42;
    const c = only(objects);
    expect(c.errors.map((e) => e.message)).toEqual(['spec.topology.variables[imageRepository].value: Invalid value: "42": must be of type string: "integer"']);
  });
});

describe('the v1beta1 spelling of the class (namingStrategy, generateExtension, durations)', () => {
  const c = only(parseManifests(readFileSync(join(fixtures, 'class-runtimesdk-v1beta1.yaml'), 'utf8')));

  it('expands with the naming strategies, the MachineDeployment failure domain and timeouts, and the same warnings', () => {
    expect(c.errors).toEqual([]);
    const name = (role: string): string => at(object(c, role), 'metadata.name') as string;
    expect(name('infrastructureCluster')).toMatch(new RegExp(`^rt-2-infra-${random}$`));
    expect(name('controlPlane')).toMatch(new RegExp(`^rt-2-cp-${random}$`));
    expect(name('machineDeployment/md-0')).toMatch(new RegExp(`^rt-2-md-md-0-${random}$`));
    const md = object(c, 'machineDeployment/md-0');
    expect(at(md, 'spec.template.spec.failureDomain')).toBe('fd4');
    expect(at(md, 'spec.template.spec.deletion')).toEqual({ nodeVolumeDetachTimeoutSeconds: 300, nodeDeletionTimeoutSeconds: 30 });
    expect(c.warnings.map((w) => w.slice(0, 40))).toEqual([
      'variable "imageRepository" is not define',
      'variable "kubeadmControlPlaneMaxSurge" i',
      'patch "test-patch" calls the runtime ext',
    ]);
    expect(c.warnings[2]).toContain('"generate-patches.test-extension"');
  });
});
