/**
 * The CAPD quick-start ClusterClass of every CAPD release in the shared corpus, expanded for the release's own
 * development Cluster (`cluster-template-development.yaml`, variables substituted as clusterctl would): the objects
 * CAPI creates, the control plane contract of the release's KubeadmControlPlane, and what the class's patches set.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandTopology, parseManifests, substitute, type ExpandedCluster, type KubeObject } from '../src/index.js';
import { sharedDir } from './helpers/shared.js';

const corpus = sharedDir('corpus');
const capd = join(corpus.path, 'repository', 'infrastructure-docker');
const releases = corpus.present ? readdirSync(capd).filter((v) => existsSync(join(capd, v, 'clusterclass-quick-start.yaml'))).sort() : [];

interface ClusterSettings {
  version: string;
  /** Values for the Cluster's topology variables, replacing the template's. */
  variables?: Record<string, unknown>;
}

/** The release's class plus its development Cluster, as `clusterctl generate cluster` would write it. */
function expand(release: string, settings: ClusterSettings): ExpandedCluster {
  const dir = join(capd, release);
  const vars = {
    CLUSTER_NAME: 'dev',
    NAMESPACE: 'default',
    KUBERNETES_VERSION: settings.version,
    CONTROL_PLANE_MACHINE_COUNT: '3',
    WORKER_MACHINE_COUNT: '2',
  };
  const objects = [
    ...parseManifests(readFileSync(join(dir, 'clusterclass-quick-start.yaml'), 'utf8')),
    ...parseManifests(substitute(readFileSync(join(dir, 'cluster-template-development.yaml'), 'utf8'), vars)),
  ];
  const cluster = objects.find((o) => o.kind === 'Cluster') as KubeObject;
  const topology = (cluster.spec as { topology: { variables: Array<{ name: string; value: unknown }> } }).topology;
  for (const [name, value] of Object.entries(settings.variables ?? {})) {
    const v = topology.variables.find((x) => x.name === name);
    if (v) v.value = value;
    else topology.variables.push({ name, value });
  }
  const { clusters, problems } = expandTopology(objects);
  expect(problems).toEqual([]);
  expect(clusters).toHaveLength(1);
  return clusters[0] as ExpandedCluster;
}

function byRole(c: ExpandedCluster, role: string): KubeObject {
  const found = c.objects.find((o) => o.role === role);
  if (!found) throw new Error(`no object with role ${role} (have ${c.objects.map((o) => o.role).join(', ')}; errors ${JSON.stringify(c.errors)})`);
  return found.object;
}

function at(o: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((cur, k) => (cur as Record<string, unknown> | undefined)?.[k], o);
}

/** Contract v1beta1 control planes (CAPI ≤ 1.10) hold a full infrastructureRef, later ones {apiGroup, kind, name}. */
const v1beta1ControlPlane = (release: string): boolean => /^v1\.(\d|10)\./.test(release);

describe.skipIf(!corpus.present)(`CAPD quick-start ClusterClass of every corpus release${corpus.skipped}`, () => {
  it('the corpus holds CAPD releases', () => {
    expect(releases.length).toBeGreaterThanOrEqual(1);
  });

  describe.each(releases)('%s', (release) => {
    const c = expand(release, { version: 'v1.31.2' });

    it('expands without errors into the objects of a Cluster with one MachineDeployment', () => {
      expect(c.errors).toEqual([]);
      expect(c.cluster).toBe('default/dev');
      expect(c.class).toBe('default/quick-start');
      expect(c.objects.map((o) => `${o.role} ${o.object.kind}`)).toEqual([
        'cluster Cluster',
        'infrastructureCluster DockerCluster',
        'controlPlaneInfrastructureMachineTemplate DockerMachineTemplate',
        'controlPlane KubeadmControlPlane',
        'controlPlaneMachineHealthCheck MachineHealthCheck',
        'machineDeployment/md-0 MachineDeployment',
        'machineDeploymentBootstrapTemplate/md-0 KubeadmConfigTemplate',
        'machineDeploymentInfrastructureTemplate/md-0 DockerMachineTemplate',
        'machineDeploymentMachineHealthCheck/md-0 MachineHealthCheck',
      ]);
    });

    it('sets replicas and versions from the topology', () => {
      expect(at(byRole(c, 'controlPlane'), 'spec.replicas')).toBe(3);
      expect(at(byRole(c, 'controlPlane'), 'spec.version')).toBe('v1.31.2');
      expect(at(byRole(c, 'machineDeployment/md-0'), 'spec.replicas')).toBe(2);
      expect(at(byRole(c, 'machineDeployment/md-0'), 'spec.template.spec.version')).toBe('v1.31.2');
    });

    it('references the control plane machine template where the KubeadmControlPlane contract wants it', () => {
      const cp = byRole(c, 'controlPlane');
      const machine = byRole(c, 'controlPlaneInfrastructureMachineTemplate');
      const name = at(machine, 'metadata.name');
      if (v1beta1ControlPlane(release)) {
        expect(cp.apiVersion).toBe('controlplane.cluster.x-k8s.io/v1beta1');
        expect(at(cp, 'spec.machineTemplate.infrastructureRef.name')).toBe(name);
        expect(at(cp, 'spec.machineTemplate.infrastructureRef.apiVersion')).toBe(machine.apiVersion);
      } else {
        expect(cp.apiVersion).toBe('controlplane.cluster.x-k8s.io/v1beta2');
        expect(at(cp, 'spec.machineTemplate.spec.infrastructureRef')).toEqual({
          apiGroup: 'infrastructure.cluster.x-k8s.io',
          kind: 'DockerMachineTemplate',
          name,
        });
      }
    });
  });
});
