/**
 * The ClusterClass review on hand-written expansions: each row of CAPI's "effects of changes" table
 * (spec/capi-plan.md §3.6), the upgrade plan, external patches, and every warning the review must show (§3.5).
 */
import { describe, expect, it } from 'vitest';
import { compareExpansions, type ExpandedClusterView, type ExpansionSide } from '../src/plan/topology/index.js';

type Obj = Record<string, unknown>;

// --- the inputs: one Cluster of class quick-start, and the class with its templates -----------------------------

function cluster(opts: { version?: string; workers?: Obj[]; variables?: Obj[] } = {}): Obj {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'Cluster',
    metadata: { name: 'dev-1', namespace: 'team-a' },
    spec: {
      topology: {
        classRef: { name: 'quick-start' },
        version: opts.version ?? 'v1.33.1',
        variables: opts.variables ?? [{ name: 'imageRepository', value: '' }],
        workers: { machineDeployments: opts.workers ?? [{ class: 'default-worker', name: 'md-0', replicas: 2 }] },
      },
    },
  };
}

function clusterClass(spec: Obj = {}): Obj {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'ClusterClass',
    metadata: { name: 'quick-start', namespace: 'team-a' },
    spec: {
      infrastructure: { templateRef: { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'DockerClusterTemplate', name: 'quick-start-cluster' } },
      controlPlane: {
        templateRef: { apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2', kind: 'KubeadmControlPlaneTemplate', name: 'quick-start-control-plane' },
        machineInfrastructure: { templateRef: { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'DockerMachineTemplate', name: 'quick-start-control-plane' } },
      },
      workers: {
        machineDeployments: [
          {
            class: 'default-worker',
            bootstrap: { templateRef: { apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2', kind: 'KubeadmConfigTemplate', name: 'quick-start-default-worker-bootstraptemplate' } },
            infrastructure: { templateRef: { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'DockerMachineTemplate', name: 'quick-start-default-worker-machinetemplate' } },
          },
        ],
      },
      ...spec,
    },
  };
}

function workerTemplate(customImage = 'kindest/node:v1.33.1'): Obj {
  return {
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
    kind: 'DockerMachineTemplate',
    metadata: { name: 'quick-start-default-worker-machinetemplate', namespace: 'team-a' },
    spec: { template: { spec: { customImage } } },
  };
}

// --- the desired objects an expansion returns, by role ----------------------------------------------------------

interface Desired {
  version?: string;
  kcp?: Obj;
  cpMachineTemplate?: string;
  workerMachineTemplate?: string;
  workerImage?: string;
  md?: Obj;
  mdTemplateLabels?: Obj;
  infraCluster?: Obj;
  extraRoles?: { role: string; object: Obj }[];
  dropRoles?: string[];
}

const ref = (apiVersion: string, kind: string, name: string): Obj => ({ apiGroup: apiVersion.split('/')[0], kind, name });

function expanded(d: Desired = {}): ExpandedClusterView {
  const version = d.version ?? 'v1.33.1';
  const cpTemplate = d.cpMachineTemplate ?? 'dev-1-7xk2p';
  const mdTemplate = d.workerMachineTemplate ?? 'dev-1-md-0-q4z8m';
  const objects = [
    { role: 'cluster', object: { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'dev-1', namespace: 'team-a' }, spec: { topology: { version } } } },
    {
      role: 'infrastructureCluster',
      object: { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'DockerCluster', metadata: { name: 'dev-1-b8r2x', namespace: 'team-a' }, spec: d.infraCluster ?? { failureDomains: [] } },
    },
    {
      role: 'controlPlaneInfrastructureMachineTemplate',
      object: { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'DockerMachineTemplate', metadata: { name: cpTemplate, namespace: 'team-a' }, spec: { template: { spec: { extraMounts: [] } } } },
    },
    {
      role: 'controlPlane',
      object: {
        apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
        kind: 'KubeadmControlPlane',
        metadata: { name: 'dev-1-k9w4t', namespace: 'team-a' },
        spec: {
          replicas: 1,
          version,
          machineTemplate: { spec: { infrastructureRef: ref('infrastructure.cluster.x-k8s.io/v1beta2', 'DockerMachineTemplate', cpTemplate) } },
          kubeadmConfigSpec: { clusterConfiguration: { imageRepository: 'registry.k8s.io' } },
          ...d.kcp,
        },
      },
    },
    {
      role: 'machineDeployment/md-0',
      object: {
        apiVersion: 'cluster.x-k8s.io/v1beta2',
        kind: 'MachineDeployment',
        metadata: { name: 'dev-1-md-0-h2j5k', namespace: 'team-a' },
        spec: {
          clusterName: 'dev-1',
          replicas: 2,
          template: {
            spec: {
              version,
              bootstrap: { configRef: ref('bootstrap.cluster.x-k8s.io/v1beta2', 'KubeadmConfigTemplate', 'dev-1-md-0-c5v7n') },
              infrastructureRef: ref('infrastructure.cluster.x-k8s.io/v1beta2', 'DockerMachineTemplate', mdTemplate),
            },
          },
          ...d.md,
        },
      },
    },
    {
      role: 'machineDeploymentBootstrapTemplate/md-0',
      object: { apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2', kind: 'KubeadmConfigTemplate', metadata: { name: 'dev-1-md-0-c5v7n', namespace: 'team-a' }, spec: { template: { spec: {} } } },
    },
    {
      role: 'machineDeploymentInfrastructureTemplate/md-0',
      object: {
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
        kind: 'DockerMachineTemplate',
        metadata: { name: mdTemplate, namespace: 'team-a', ...(d.mdTemplateLabels ? { labels: d.mdTemplateLabels } : {}) },
        spec: { template: { spec: { customImage: d.workerImage ?? 'kindest/node:v1.33.1' } } },
      },
    },
    ...(d.extraRoles ?? []),
  ].filter((o) => !(d.dropRoles ?? []).includes(o.role));
  return { cluster: 'team-a/dev-1', class: 'team-a/quick-start', objects, errors: [], warnings: [] };
}

function side(objects: Obj[], clusters: ExpandedClusterView[]): ExpansionSide {
  return { objects, clusters };
}

const inputs = (c: Obj = cluster(), cc: Obj = clusterClass(), ...more: Obj[]): Obj[] => [c, cc, workerTemplate(), ...more];

function review(base: ExpansionSide, head: ExpansionSide) {
  const r = compareExpansions(base, head);
  return { ...r, only: r.clusters[0]! };
}

const impactsOf = (r: ReturnType<typeof review>['only']): string[] =>
  r.impacts.map((i) => `${i.kind}${i.possible ? ' (possible)' : ''}${i.machineDeployment ? ` [${i.machineDeployment}]` : ''}: ${i.reason}`);

describe('plan topology review: effects of changes (capi-plan.md §3.6)', () => {
  it('the same desired objects on both sides: no-op', () => {
    const { only } = review(side(inputs(), [expanded()]), side(inputs(), [expanded()]));
    expect(only).toMatchObject({ cluster: 'team-a/dev-1', class: 'team-a/quick-start', status: 'unchanged', impact: 'no-op', changes: [], warnings: [] });
  });

  it('control plane template spec change (e.g. a patch value): the ControlPlane spec changes and its Machines roll', () => {
    const head = expanded({ kcp: { kubeadmConfigSpec: { clusterConfiguration: { imageRepository: 'registry.example.com' } } } });
    const { only } = review(side(inputs(), [expanded()]), side(inputs(), [head]));
    expect(only.changes.map((c) => [c.role, c.action, c.fields.map((f) => `${f.path}: ${String(f.old)} → ${String(f.new)}`)])).toEqual([
      ['controlPlane', 'changed', ['.spec.kubeadmConfigSpec.clusterConfiguration.imageRepository: registry.k8s.io → registry.example.com']],
    ]);
    expect(only).toMatchObject({ status: 'changed', impact: 'control-plane-rollout', controlPlaneRolls: true, workersRoll: [] });
  });

  it('control plane machine template spec change: template rotated (new name), ControlPlane reference moved, control plane rolls', () => {
    const { only } = review(side(inputs(), [expanded()]), side(inputs(), [expanded({ cpMachineTemplate: 'dev-1-m3n8s' })]));
    expect(only.changes.map((c) => [c.role, c.action, c.previousName, c.name])).toEqual([
      ['controlPlaneInfrastructureMachineTemplate', 'rotated', 'dev-1-7xk2p', 'dev-1-m3n8s'],
      ['controlPlane', 'changed', undefined, 'dev-1-k9w4t'],
    ]);
    expect(impactsOf(only)).toEqual([
      'template-rotation: control plane machine template rotated (spec changed): a new template is created, the reference moves to it and the old one is deleted',
      'control-plane-rollout: ControlPlane: uses the new machine template: its Machines roll',
    ]);
  });

  it('control plane metadata, replicas and node deletion timeouts change in place', () => {
    const head = expanded({
      kcp: { replicas: 3, machineTemplate: { metadata: { labels: { tier: 'cp' } }, spec: { infrastructureRef: ref('infrastructure.cluster.x-k8s.io/v1beta2', 'DockerMachineTemplate', 'dev-1-7xk2p'), deletion: { nodeDrainTimeoutSeconds: 60 } } } },
    });
    const { only } = review(side(inputs(), [expanded()]), side(inputs(), [head]));
    expect(only).toMatchObject({ impact: 'in-place', controlPlaneRolls: false, inPlace: ['controlPlane'] });
    expect(only.impacts.map((i) => i.kind)).toEqual(['in-place', 'in-place', 'in-place']);
  });

  it('worker machine template spec change: template rotated, MachineDeployment reference moved, md-0 rolls', () => {
    const head = expanded({ workerMachineTemplate: 'dev-1-md-0-t6w9d', workerImage: 'kindest/node:v1.33.1-custom' });
    const { only } = review(side(inputs(), [expanded()]), side(inputs(), [head]));
    expect(only.changes.map((c) => [c.role, c.action])).toEqual([
      ['machineDeployment/md-0', 'changed'],
      ['machineDeploymentInfrastructureTemplate/md-0', 'rotated'],
    ]);
    const rotated = only.changes[1]!;
    expect(rotated.fields).toEqual([{ path: '.spec.template.spec.customImage', action: 'changed', old: 'kindest/node:v1.33.1', new: 'kindest/node:v1.33.1-custom' }]);
    expect(only).toMatchObject({ impact: 'worker-rollout', controlPlaneRolls: false, workersRoll: ['md-0'] });
    expect(impactsOf(only)).toContain('worker-rollout [md-0]: MachineDeployment md-0: uses the new machine template: its Machines roll');
  });

  it('worker template metadata only: the template is patched in place, no Machine rolls', () => {
    const { only } = review(side(inputs(), [expanded()]), side(inputs(), [expanded({ mdTemplateLabels: { team: 'a' } })]));
    expect(only.changes.map((c) => [c.role, c.action])).toEqual([['machineDeploymentInfrastructureTemplate/md-0', 'changed']]);
    expect(only).toMatchObject({ impact: 'in-place', workersRoll: [], inPlace: ['machineDeploymentInfrastructureTemplate/md-0'] });
  });

  it('MachineDeployment replicas, minReadySeconds and node drain timeout change in place', () => {
    const head = expanded({ md: { replicas: 4, minReadySeconds: 30 } });
    const { only } = review(side(inputs(), [expanded()]), side(inputs(), [head]));
    expect(impactsOf(only)).toEqual(['in-place [md-0]: MachineDeployment md-0: md-0 scales 2 → 4', 'in-place [md-0]: MachineDeployment md-0: minReadySeconds (unset) → 30']);
    expect(only.workersRoll).toEqual([]);
  });

  it('InfrastructureCluster spec change: updated in place', () => {
    const { only } = review(side(inputs(), [expanded()]), side(inputs(), [expanded({ infraCluster: { failureDomains: [{ name: 'fd1' }] } })]));
    expect(only).toMatchObject({ impact: 'in-place', inPlace: ['infrastructureCluster'] });
  });

  it('a new MachineDeployment is created with its templates; a removed one is deleted with its Machines', () => {
    const mp = { role: 'machineDeployment/md-1', object: { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'MachineDeployment', metadata: { name: 'dev-1-md-1-x2c4v', namespace: 'team-a' }, spec: {} } };
    const added = review(side(inputs(), [expanded()]), side(inputs(), [expanded({ extraRoles: [mp] })])).only;
    expect(impactsOf(added)).toEqual(['create [md-1]: new MachineDeployment md-1: its Machines are created']);
    const removed = review(side(inputs(), [expanded({ extraRoles: [mp] })]), side(inputs(), [expanded()])).only;
    expect(removed).toMatchObject({ impact: 'deletion', changes: [{ role: 'machineDeployment/md-1', action: 'deleted', name: 'dev-1-md-1-x2c4v' }] });
  });

  it('MachinePool: a spec change of its infrastructure machine pool replaces instances; its bootstrap config changes in place', () => {
    const pool = (image: string, files: string[]) => [
      { role: 'machinePool/mp-0', object: { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'MachinePool', metadata: { name: 'dev-1-mp-0-a1b2c', namespace: 'team-a' }, spec: { replicas: 1 } } },
      { role: 'machinePoolBootstrapConfig/mp-0', object: { apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2', kind: 'KubeadmConfig', metadata: { name: 'dev-1-mp-0-d3f4g', namespace: 'team-a' }, spec: { files } } },
      { role: 'machinePoolInfrastructureMachinePool/mp-0', object: { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'DockerMachinePool', metadata: { name: 'dev-1-mp-0-h5j6k', namespace: 'team-a' }, spec: { template: { customImage: image } } } },
    ];
    const { only } = review(side(inputs(), [expanded({ extraRoles: pool('a', []) })]), side(inputs(), [expanded({ extraRoles: pool('b', ['x']) })]));
    expect(impactsOf(only)).toEqual([
      'in-place [mp-0]: bootstrap config of mp-0 updated in place: new instances bootstrap with the new configuration',
      'worker-rollout [mp-0]: infrastructure machine pool of mp-0 updated in place (.spec.template.customImage): the infrastructure provider replaces the pool\'s instances',
    ]);
    expect(only.workersRoll).toEqual(['mp-0']);
  });
});

describe('plan topology review: versions', () => {
  it('an upgrade through the class kubernetesVersions: control plane first, then the workers, with the hops', () => {
    const cc = clusterClass({ kubernetesVersions: ['v1.31.4', 'v1.32.5', 'v1.33.0', 'v1.33.1'] });
    const base = side(inputs(cluster({ version: 'v1.31.4' }), cc), [expanded({ version: 'v1.31.4' })]);
    const head = side(inputs(cluster({ version: 'v1.33.1' }), cc), [expanded({ version: 'v1.33.1' })]);
    const { only } = review(base, head);
    expect(only.upgrade).toEqual({ from: 'v1.31.4', to: 'v1.33.1', hops: ['v1.32.5'], order: ['controlPlane', 'md-0'] });
    expect(only).toMatchObject({ controlPlaneRolls: true, workersRoll: ['md-0'], warnings: [] });
    expect(impactsOf(only)).toContain('control-plane-rollout: Kubernetes upgrade v1.31.4 → v1.33.1 via v1.32.5: the control plane upgrades first');
    expect(impactsOf(only)).toContain('worker-rollout [md-0]: Kubernetes upgrade v1.31.4 → v1.33.1 via v1.32.5: md-0 upgrades after the control plane');
  });

  it('warns about a downgrade and a skipped minor without kubernetesVersions (the Cluster webhook rejects both)', () => {
    const down = review(side(inputs(cluster({ version: 'v1.33.1' })), [expanded()]), side(inputs(cluster({ version: 'v1.32.5' })), [expanded({ version: 'v1.32.5' })])).only;
    expect(down.warnings).toEqual(['Kubernetes version downgrade v1.33.1 → v1.32.5: CAPI\'s Cluster webhook rejects it (version cannot be decreased from "1.33.1" to "1.32.5")']);
    const skip = review(side(inputs(cluster({ version: 'v1.31.4' })), [expanded({ version: 'v1.31.4' })]), side(inputs(cluster({ version: 'v1.33.1' })), [expanded()])).only;
    expect(skip.warnings[0]).toMatch(/^Kubernetes version v1\.31\.4 → v1\.33\.1 skips a minor version: CAPI's Cluster webhook rejects it \(version cannot be increased from "1\.31\.4" to "1\.33\.1"\)/);
  });

  it('warns when kubernetesVersions is not ascending in minor steps of 0 or 1', () => {
    const cc = clusterClass({ kubernetesVersions: ['v1.31.0', 'v1.33.1', 'v1.32.0'] });
    const r = review(side(inputs(), [expanded()]), side(inputs(cluster(), cc), [expanded()]));
    const rejects = "ClusterClass team-a/quick-start: CAPI's ClusterClass webhook rejects this change: ";
    expect(r.warnings).toEqual([
      `${rejects}spec.kubernetesVersion[1]: Invalid value: "v1.33.1": expecting a version with minor 31 or 32, found version 1.33.1`,
      `${rejects}spec.kubernetesVersion[2]: Invalid value: "v1.32.0": version must be greater than v1.33.1`,
      `${rejects}spec.kubernetesVersion[2]: Invalid value: "v1.32.0": expecting a version with minor 33 or 34, found version 1.32.0`,
    ]);
    const dropped = review(side(inputs(cluster(), clusterClass({ kubernetesVersions: ['v1.33.0', 'v1.33.1'] })), [expanded()]), side(inputs(cluster(), clusterClass({ kubernetesVersions: ['v1.33.0'] })), [expanded()]));
    expect(dropped.warnings).toEqual([`${rejects}spec.kubernetesVersions: Forbidden: Kubernetes Version v1.33.1 is used by Cluster "dev-1" but not set in ClusterClass`]);
    expect(dropped.only.warnings).toEqual([
      'spec.topology.version v1.33.1 is not one of the class\'s kubernetesVersions: CAPI\'s Cluster webhook rejects it ("version must match one of the versions defined in the ClusterClass")',
    ]);
  });
});

describe('plan topology review: warnings (capi-plan.md §3.5)', () => {
  it('a removed MachineDeployment class still used by a Cluster', () => {
    const cc = clusterClass({ workers: { machineDeployments: [] } });
    const r = review(side(inputs(), [expanded()]), side(inputs(cluster(), cc), [{ ...expanded(), objects: [], errors: [{ message: 'MachineDeploymentClass "default-worker" not found' }] }]));
    expect(r.warnings).toContain(
      'ClusterClass team-a/quick-start: CAPI\'s ClusterClass webhook rejects this change: spec.workers.machineDeployments: Forbidden: MachineDeploymentClass "default-worker" cannot be deleted because it is used by Cluster "dev-1"',
    );
    expect(r.only.warnings).toEqual(['ClusterClass team-a/quick-start removes MachineDeploymentClass default-worker, which this Cluster uses: CAPI\'s webhook rejects the class change']);
    expect(r.only).toMatchObject({ status: 'failed', errors: ['MachineDeploymentClass "default-worker" not found'] });
  });

  it('a changed template kind or group of a class reference', () => {
    const cc = clusterClass();
    const changed = structuredClone(cc) as { spec: { infrastructure: { templateRef: Obj } } };
    changed.spec.infrastructure.templateRef = { apiVersion: 'infrastructure.example.com/v1', kind: 'FooClusterTemplate', name: 'quick-start-cluster' };
    const r = review(side(inputs(cluster(), cc), [expanded()]), side(inputs(cluster(), changed as Obj), [expanded()]));
    expect(r.warnings).toEqual([
      'ClusterClass team-a/quick-start: CAPI\'s ClusterClass webhook rejects this change: spec.infrastructure.templateRef.apiVersion: Forbidden: group of apiVersion cannot be changed from "infrastructure.cluster.x-k8s.io" to "infrastructure.example.com" to prevent incompatible changes in the Clusters',
      'ClusterClass team-a/quick-start: CAPI\'s ClusterClass webhook rejects this change: spec.infrastructure.templateRef.kind: Forbidden: kind cannot be changed from "DockerClusterTemplate" to "FooClusterTemplate" to prevent incompatible changes in the Clusters',
    ]);
  });

  it('a *MachineTemplate whose spec changed under the same name (the provider webhook rejects it)', () => {
    const r = review(side(inputs(), [expanded()]), side([cluster(), clusterClass(), workerTemplate('kindest/node:custom')], [expanded({ workerMachineTemplate: 'dev-1-md-0-t6w9d', workerImage: 'kindest/node:custom' })]));
    expect(r.warnings).toEqual([
      "ClusterClass team-a/quick-start: DockerMachineTemplate team-a/quick-start-default-worker-machinetemplate: spec changed under the same name; the provider's webhook rejects changes to this immutable template — create a template with a new name and point the ClusterClass at it (CAPI then rotates the clusters' templates)",
    ]);
  });

  it("a variable schema change that makes the Cluster's current value invalid", () => {
    const invalid: ExpandedClusterView = { ...expanded(), objects: [], errors: [{ message: 'spec.topology.variables[imageRepository].value: Invalid value: "": should be at least 1 chars long' }] };
    const r = compareExpansions(side(inputs(), [expanded()]), side(inputs(), [expanded()]), { revalidated: [invalid] });
    expect(r.clusters[0]!.warnings).toEqual([
      'the Cluster\'s current value is invalid under the new variable definitions of ClusterClass team-a/quick-start, so CAPI\'s ClusterClass webhook rejects the class change: spec.topology.variables[imageRepository].value: Invalid value: "": should be at least 1 chars long',
    ]);
  });

  it('external patches: "may roll", naming the patch, only when the inputs changed', () => {
    const cc = clusterClass({ patches: [{ name: 'lb-config', external: { generatePatchesExtension: 'generate.lb' } }] });
    const unchanged = review(side(inputs(cluster(), cc), [expanded()]), side(inputs(cluster(), cc), [expanded()])).only;
    expect(unchanged).toMatchObject({ status: 'unchanged', externalPatches: ['lb-config'], impacts: [] });
    const changed = review(side(inputs(cluster(), cc), [expanded()]), side(inputs(cluster({ variables: [{ name: 'imageRepository', value: 'x' }] }), cc), [expanded()])).only;
    expect(impactsOf(changed)).toEqual([
      'control-plane-rollout (possible): external patch "lb-config" (Runtime SDK) cannot run offline: what it changes is unknown',
      'worker-rollout (possible) [md-0]: external patch "lb-config" (Runtime SDK) cannot run offline: what it changes is unknown',
    ]);
    expect(changed).toMatchObject({ impact: 'no-op', controlPlaneRolls: false, workersRoll: [] });
  });

  it('new and deleted Clusters', () => {
    const created = review(side([], []), side(inputs(), [expanded()])).only;
    expect(created).toMatchObject({ status: 'created', impact: 'create' });
    expect(created.changes.map((c) => c.role)).toEqual(expanded().objects.map((o) => o.role));
    const deleted = review(side(inputs(), [expanded()]), side([], [])).only;
    expect(deleted).toMatchObject({ status: 'deleted', impact: 'deletion' });
  });
});
