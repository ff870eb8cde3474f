/** `templates: { hashNames: true }`: content-hash names for machine templates, and every reference follows. */
import { describe, expect, it } from 'vitest';
import { hashTemplateNames, hashedName, templateSpecHash } from '../src/render/template-hash.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test objects are plain YAML trees
type Obj = Record<string, any>;

const dmt = (name: string, spec: Obj = { template: { spec: { extraMounts: [] } } }, ns = 'team-a'): Obj => ({
  apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
  kind: 'DockerMachineTemplate',
  metadata: { name, namespace: ns },
  spec,
});
const kct = (name: string, ns = 'team-a'): Obj => ({
  apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2',
  kind: 'KubeadmConfigTemplate',
  metadata: { name, namespace: ns },
  spec: { template: { spec: { joinConfiguration: {} } } },
});

describe('hashTemplateNames', () => {
  it('renames InfrastructureMachineTemplates and KubeadmConfigTemplates and rewrites v1beta2 references', () => {
    const md: Obj = {
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'MachineDeployment',
      metadata: { name: 'c1-md-0', namespace: 'team-a' },
      spec: {
        template: {
          spec: {
            bootstrap: { configRef: { apiGroup: 'bootstrap.cluster.x-k8s.io', kind: 'KubeadmConfigTemplate', name: 'c1-md-0' } },
            infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'DockerMachineTemplate', name: 'c1-md-0' },
          },
        },
      },
    };
    const kcp: Obj = {
      apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
      kind: 'KubeadmControlPlane',
      metadata: { name: 'c1-control-plane', namespace: 'team-a' },
      spec: { machineTemplate: { spec: { infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'DockerMachineTemplate', name: 'c1-control-plane' } } } },
    };
    const input = [dmt('c1-control-plane'), kcp, dmt('c1-md-0', { template: { spec: { customImage: 'x' } } }), kct('c1-md-0'), md];
    const snapshot = JSON.stringify(input);
    const out = hashTemplateNames(input);
    expect(JSON.stringify(input)).toBe(snapshot); // pure
    const [cpT, cp, mdT, bootT, mdOut] = out as [Obj, Obj, Obj, Obj, Obj];
    expect(cpT.metadata.name).toMatch(/^c1-control-plane-[0-9a-f]{10}$/);
    expect(mdT.metadata.name).toMatch(/^c1-md-0-[0-9a-f]{10}$/);
    expect(bootT.metadata.name).toMatch(/^c1-md-0-[0-9a-f]{10}$/);
    expect(cp.spec.machineTemplate.spec.infrastructureRef.name).toBe(cpT.metadata.name);
    expect(mdOut.spec.template.spec.infrastructureRef.name).toBe(mdT.metadata.name);
    expect(mdOut.spec.template.spec.bootstrap.configRef.name).toBe(bootT.metadata.name);
    expect(mdOut.metadata.name).toBe('c1-md-0'); // MachineDeployments keep their names
  });

  it('rewrites v1beta1 references (apiVersion + kind + name) and ClusterClass template refs', () => {
    const kcp: Obj = {
      apiVersion: 'controlplane.cluster.x-k8s.io/v1beta1',
      kind: 'KubeadmControlPlane',
      metadata: { name: 'c1', namespace: 'team-a' },
      spec: { machineTemplate: { infrastructureRef: { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1', kind: 'DockerMachineTemplate', name: 'c1-cp', namespace: 'team-a' } } },
    };
    const cc: Obj = {
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'ClusterClass',
      metadata: { name: 'quick-start', namespace: 'team-a' },
      spec: {
        controlPlane: { machineInfrastructure: { templateRef: { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'DockerMachineTemplate', name: 'qs-cp' } } },
        workers: {
          machineDeployments: [
            {
              class: 'default-worker',
              bootstrap: { templateRef: { apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2', kind: 'KubeadmConfigTemplate', name: 'qs-worker' } },
              infrastructure: { templateRef: { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'DockerMachineTemplate', name: 'qs-worker' } },
            },
          ],
        },
      },
    };
    const out = hashTemplateNames([dmt('c1-cp'), kcp, cc, dmt('qs-cp'), dmt('qs-worker', { template: { spec: { a: 1 } } }), kct('qs-worker')]) as Obj[];
    expect(out[1]?.spec.machineTemplate.infrastructureRef.name).toBe(out[0]?.metadata.name);
    const w = out[2]?.spec.workers.machineDeployments[0];
    expect(out[2]?.spec.controlPlane.machineInfrastructure.templateRef.name).toBe(out[3]?.metadata.name);
    expect(w.infrastructure.templateRef.name).toBe(out[4]?.metadata.name);
    expect(w.bootstrap.templateRef.name).toBe(out[5]?.metadata.name);
  });

  it('does not touch references in other namespaces, other kinds or other groups', () => {
    const other: Obj = {
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'MachineDeployment',
      metadata: { name: 'x', namespace: 'team-b' },
      spec: { template: { spec: { infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'DockerMachineTemplate', name: 'c1-md-0' } } } },
    };
    const sameNameOtherKind: Obj = {
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'MachineDeployment',
      metadata: { name: 'y', namespace: 'team-a' },
      spec: { template: { spec: { infrastructureRef: { apiGroup: 'infrastructure.example.com', kind: 'DockerMachineTemplate', name: 'c1-md-0' } } } },
    };
    const out = hashTemplateNames([dmt('c1-md-0'), other, sameNameOtherKind]) as Obj[];
    expect(out[1]?.spec.template.spec.infrastructureRef.name).toBe('c1-md-0');
    expect(out[2]?.spec.template.spec.infrastructureRef.name).toBe('c1-md-0');
    // No webhook makes DockerMachinePoolTemplate immutable: it keeps its name.
    const dmpt = { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'DockerMachinePoolTemplate', metadata: { name: 'qs' }, spec: {} };
    expect((hashTemplateNames([dmpt])[0] as Obj).metadata.name).toBe('qs');
    // CAPD's webhook refuses DockerClusterTemplate spec updates: it is named by content too.
    const dct = { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'DockerClusterTemplate', metadata: { name: 'qs' }, spec: {} };
    expect((hashTemplateNames([dct])[0] as Obj).metadata.name).toMatch(/^qs-[0-9a-f]{10}$/);
  });

  it('the hash depends on the spec only: deterministic, key-order independent, metadata-only changes keep the name', () => {
    const a = dmt('t', { template: { spec: { a: 1, b: [1, 2] } } });
    const b = { ...dmt('t', { template: { spec: { b: [1, 2], a: 1 } } }), metadata: { name: 't', namespace: 'team-a', labels: { x: 'y' } } };
    const c = dmt('t', { template: { spec: { a: 2, b: [1, 2] } } });
    const name = (o: Obj): string => (hashTemplateNames([o])[0] as Obj).metadata.name as string;
    expect(name(a)).toBe(name(b));
    expect(name(a)).not.toBe(name(c));
    expect(templateSpecHash({ template: { spec: { a: 1, b: [1, 2] } } })).toBe(templateSpecHash({ template: { spec: { b: [1, 2], a: 1 } } }));
  });

  it('keeps names at most 63 characters, without a trailing dash before the hash', () => {
    const long = `${'a'.repeat(51)}-bbbbbbbbbbbbbbbbbbbb`;
    const n = hashedName(long, '0123456789');
    expect(n.length).toBeLessThanOrEqual(63);
    expect(n).toBe(`${'a'.repeat(51)}-0123456789`);
    expect(hashedName('short', '0123456789')).toBe('short-0123456789');
  });
});
