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

    it('sets kindest/node images from the Kubernetes version, "+" replaced by "_" (customImage patch)', () => {
      const k3s = expand(release, { version: 'v1.24.3+k3s1' });
      expect(k3s.errors).toEqual([]);
      for (const role of ['controlPlaneInfrastructureMachineTemplate', 'machineDeploymentInfrastructureTemplate/md-0']) {
        expect(at(byRole(k3s, role), 'spec.template.spec.customImage'), role).toBe('kindest/node:v1.24.3_k3s1');
      }
      expect(at(byRole(c, 'machineDeploymentInfrastructureTemplate/md-0'), 'spec.template.spec.customImage')).toBe('kindest/node:v1.31.2');
    });

    it('writes the PodSecurity admission configuration as v1beta1 below Kubernetes 1.25 and v1 from 1.25', () => {
      const admission = (x: ExpandedCluster): string => {
        const files = at(byRole(x, 'controlPlane'), 'spec.kubeadmConfigSpec.files') as Array<{ path: string; content: string }>;
        const file = files.find((f) => f.path === '/etc/kubernetes/kube-apiserver-admission-pss.yaml');
        if (!file) throw new Error('no admission configuration file');
        return file.content;
      };
      expect(admission(expand(release, { version: 'v1.24.3+k3s1' }))).toContain('apiVersion: pod-security.admission.config.k8s.io/v1beta1\n');
      expect(admission(c)).toContain('apiVersion: pod-security.admission.config.k8s.io/v1\n');
      expect(admission(c)).toContain('enforce: "baseline"');
      const apiServer = at(byRole(c, 'controlPlane'), 'spec.kubeadmConfigSpec.clusterConfiguration.apiServer') as Record<string, unknown>;
      expect(JSON.stringify(apiServer.extraArgs)).toContain('/etc/kubernetes/kube-apiserver-admission-pss.yaml');
    });

    it('adds nothing for PodSecurity when the variable disables it', () => {
      const off = expand(release, {
        version: 'v1.31.2',
        variables: { podSecurityStandard: { enabled: false, enforce: 'baseline', audit: 'restricted', warn: 'restricted' } },
      });
      expect(off.errors).toEqual([]);
      expect(at(byRole(off, 'controlPlane'), 'spec.kubeadmConfigSpec.files')).toBeUndefined();
    });

    it('sets the image repository, etcd and CoreDNS image tags from the variables', () => {
      const x = expand(release, {
        version: 'v1.31.2',
        variables: { imageRepository: 'registry.example.com/k8s', etcdImageTag: '3.5.16-0', coreDNSImageTag: 'v1.11.3' },
      });
      expect(x.errors).toEqual([]);
      const config = at(byRole(x, 'controlPlane'), 'spec.kubeadmConfigSpec.clusterConfiguration');
      expect(at(config, 'imageRepository')).toBe('registry.example.com/k8s');
      expect(at(config, 'etcd.local.imageTag')).toBe('3.5.16-0');
      expect(at(config, 'dns.imageTag')).toBe('v1.11.3');
      expect(x.variables.find((v) => v.name === 'imageRepository')?.value).toBe('registry.example.com/k8s');
    });

    it('rejects a variable value the class schema does not allow, with the field path', () => {
      const bad = expand(release, { version: 'v1.31.2', variables: { podSecurityStandard: { enabled: 'yes' } } });
      expect(bad.objects).toEqual([]);
      expect(bad.errors.map((e) => e.field)).toContain('spec.topology.variables[podSecurityStandard].value.enabled');
    });
  });
});
