/**
 * Update admission (src/validate/admission/update.ts): the template webhooks that refuse a spec change under the same
 * name, as CAPI's and the providers' sources say, and the runner `diff` calls with every update rule.
 */
import { describe, expect, it } from 'vitest';
import { checkUpdates, updateRules, type UpdateRule } from '../src/validate/index.js';
import { immutableTemplates } from '../src/capi/index.js';

type Obj = Record<string, unknown>;

function template(apiVersion: string, kind: string, spec: unknown): Obj {
  return { apiVersion, kind, metadata: { name: 't', namespace: 'team-a' }, ...(spec === undefined ? {} : { spec }) };
}

function check(before: Obj, after: Obj, rules?: readonly UpdateRule[]) {
  return checkUpdates([{ before: { object: before, file: 'a.yaml', line: 1 }, after: { object: after, file: 'a.yaml', line: 1 } }], rules);
}

const infra = 'infrastructure.cluster.x-k8s.io/v1beta2';

describe('update admission: immutable templates', () => {
  it('refuses a spec change of each immutable kind, with the webhook field path and message', () => {
    const azure = check(
      template('infrastructure.cluster.x-k8s.io/v1beta1', 'AzureMachineTemplate', { template: { spec: { vmSize: 'Standard_D2s_v3' } } }),
      template('infrastructure.cluster.x-k8s.io/v1beta1', 'AzureMachineTemplate', { template: { spec: { vmSize: 'Standard_D4s_v3' } } }),
    );
    expect(azure).toMatchObject([
      {
        severity: 'error',
        kind: 'AzureMachineTemplate',
        namespace: 'team-a',
        name: 't',
        field: 'AzureMachineTemplate.spec.template.spec',
        rule: 'immutable/AzureMachineTemplate',
        message: expect.stringMatching(/^AzureMachineTemplate spec\.template\.spec field is immutable\. .*\(changed: spec\.template\.spec\.vmSize\)$/),
      },
    ]);
    const vsphere = check(
      template('infrastructure.cluster.x-k8s.io/v1beta1', 'VSphereClusterTemplate', { template: { spec: { server: 'a' } } }),
      template('infrastructure.cluster.x-k8s.io/v1beta1', 'VSphereClusterTemplate', { template: { spec: { server: 'b' } } }),
    );
    expect(vsphere[0]?.message).toBe('VSphereClusterTemplate spec is immutable (changed: spec.template.spec.server)');
    const kcpt = check(
      template('controlplane.cluster.x-k8s.io/v1beta2', 'KubeadmControlPlaneTemplate', { template: { spec: { kubeadmConfigSpec: { files: [] } } } }),
      template('controlplane.cluster.x-k8s.io/v1beta2', 'KubeadmControlPlaneTemplate', { template: { spec: { kubeadmConfigSpec: { files: [{ path: '/x' }] } } } }),
    );
    expect(kcpt[0]).toMatchObject({ rule: 'immutable/KubeadmControlPlaneTemplate', message: expect.stringContaining('(changed: spec.template.spec.kubeadmConfigSpec.files)') });
    // AWSClusterTemplate's webhook compares the whole spec.
    const awsCluster = check(template(infra, 'AWSClusterTemplate', { template: { spec: { region: 'a' } } }), template(infra, 'AWSClusterTemplate', { template: { spec: { region: 'b' } } }));
    expect(awsCluster[0]).toMatchObject({ field: 'spec', message: 'AWSClusterTemplate.Spec is immutable (changed: spec.template.spec.region)' });
  });

  it('lets through what the webhooks let through', () => {
    const same = { template: { spec: { instanceType: 't3.large' } } };
    // Metadata of the template, and zero values the API server decodes as absent.
    expect(check(template(infra, 'AWSMachineTemplate', same), { ...template(infra, 'AWSMachineTemplate', same), metadata: { name: 't', namespace: 'team-a', labels: { a: 'b' } } })).toEqual([]);
    expect(check(template(infra, 'DockerClusterTemplate', { template: { spec: {} } }), template(infra, 'DockerClusterTemplate', undefined))).toEqual([]);
    // Fields the webhook copies from the new object when the old one leaves them unset.
    expect(
      check(template(infra, 'AWSMachineTemplate', same), template(infra, 'AWSMachineTemplate', { template: { spec: { instanceType: 't3.large', instanceMetadataOptions: { httpTokens: 'required' } } } })),
    ).toEqual([]);
    const azure = 'infrastructure.cluster.x-k8s.io/v1beta1';
    expect(check(template(azure, 'AzureMachineTemplate', { template: { spec: { vmSize: 'a' } } }), template(azure, 'AzureMachineTemplate', { template: { spec: { vmSize: 'a', sshPublicKey: 'c3NoLXJzYQ==' } } }))).toEqual([]);
    // Webhooks that accept spec updates: KubeadmConfigTemplate, Metal3's templates.
    const kct = (files: unknown[]) => template('bootstrap.cluster.x-k8s.io/v1beta2', 'KubeadmConfigTemplate', { template: { spec: { files } } });
    expect(check(kct([]), kct([{ path: '/x' }]))).toEqual([]);
    const m3 = (image: string) => template('infrastructure.cluster.x-k8s.io/v1beta1', 'Metal3MachineTemplate', { template: { spec: { image: { url: image } } } });
    expect(check(m3('a'), m3('b'))).toEqual([]);
    // KubeadmControlPlaneTemplate: dropping the rollout strategy CAPI < v1.11 defaulted is accepted, changing it is not.
    const kcpt = (spec: Obj) => template('controlplane.cluster.x-k8s.io/v1beta2', 'KubeadmControlPlaneTemplate', { template: { spec } });
    const defaulted = { rollout: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } } }, kubeadmConfigSpec: { files: [{ path: '/x' }] } };
    expect(check(kcpt(defaulted), kcpt({ kubeadmConfigSpec: { files: [{ path: '/x' }] } }))).toEqual([]);
    expect(check(kcpt(defaulted), kcpt({ rollout: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0 } } }, kubeadmConfigSpec: { files: [{ path: '/x' }] } }))).toHaveLength(1);
    // Across API versions the webhook compares converted objects: not decided offline.
    expect(check(template('infrastructure.cluster.x-k8s.io/v1beta1', 'DockerMachineTemplate', { template: { spec: { a: 1 } } }), template(infra, 'DockerMachineTemplate', { template: { spec: { a: 2 } } }))).toEqual([]);
  });

  it('runs every rule of a list over every pair: another list of rules is added by spreading it', () => {
    const named: UpdateRule = (_before, after) => [
      { severity: 'error', file: after.file, line: after.line, apiVersion: '', kind: 'X', namespace: '', name: '', field: 'spec.x', message: 'x is immutable', rule: 'webhook/X.x' },
    ];
    const before = template(infra, 'DockerMachineTemplate', { template: { spec: { a: 1 } } });
    const after = template(infra, 'DockerMachineTemplate', { template: { spec: { a: 2 } } });
    expect(check(before, after, [...updateRules, named]).map((f) => f.rule)).toEqual(['immutable/DockerMachineTemplate', 'webhook/X.x']);
  });

  it('every rule names the upstream webhook it was read from', () => {
    for (const t of immutableTemplates) expect(t.source).toMatch(/^(kubernetes-sigs|metal3-io)\/cluster-api[\w-]* \S+\.go/);
  });
});

describe('update admission: KubeadmControlPlaneTemplate (upstream kubeadmcontrolplanetemplate_test.go, CAPI v1.13.5)', () => {
  const kcpt = (spec: Obj) => template('controlplane.cluster.x-k8s.io/v1beta2', 'KubeadmControlPlaneTemplate', { template: { spec } });
  const drain = { machineTemplate: { spec: { deletion: { nodeDrainTimeoutSeconds: 600 } } } };

  it('update KubeadmControlPlaneTemplate should pass if only defaulted fields are different', () => {
    // ApplyPreviousKubeadmConfigDefaults sets format cloud-config on both sides before comparing.
    expect(check(kcpt(drain), kcpt({ ...drain, kubeadmConfigSpec: { format: 'cloud-config' } }))).toEqual([]);
    expect(check(kcpt({ ...drain, kubeadmConfigSpec: { joinConfiguration: { nodeRegistration: { imagePullPolicy: 'IfNotPresent' } } } }), kcpt(drain))).toEqual([]);
  });

  it('update kubeadmcontrolplanetemplate should not pass if fields are different', () => {
    const r = check(kcpt(drain), kcpt({ ...drain, kubeadmConfigSpec: { format: 'cloud-config', preKubeadmCommands: ['new-cmd'] } }));
    expect(r.map((f) => [f.rule, f.field, f.message])).toEqual([
      [
        'immutable/KubeadmControlPlaneTemplate',
        'spec.template.spec',
        'KubeadmControlPlaneTemplate spec.template.spec field is immutable. Please create new resource instead. (changed: spec.template.spec.kubeadmConfigSpec.preKubeadmCommands)',
      ],
    ]);
    // A format other than the old default is a change.
    expect(check(kcpt(drain), kcpt({ ...drain, kubeadmConfigSpec: { format: 'ignition' } }))).toHaveLength(1);
  });

  it('update KubeadmControlPlaneTemplate should pass when transitioning from the previously defaulted rolloutStrategy to an unset rolloutStrategy', () => {
    expect(check(kcpt({ rollout: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } } } }), kcpt({ rollout: {} }))).toEqual([]);
  });
});
