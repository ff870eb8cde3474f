/**
 * ClusterClass patches applied to a Cluster's desired state (spec capi-plan.md §3.4), on a small class written as
 * YAML: patch order, selection by template and MachineDeployment class, enabledIf on builtin variables, metadata
 * patches, fields the topology controller keeps, remove operations, external patches and errors.
 */
import { describe, expect, it } from 'vitest';
import { TopologyPatchError } from '../src/errors.js';
import { applyJsonPatch, applyPatches, JsonPatchError, validatePatches, type JsonPatchOperation } from '../src/topology/patches/index.js';
import type { ClusterBlueprint, DesiredClusterState, KubeObject } from '../src/topology/state/index.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseManifests } from '../src/yaml/index.js';
import { sharedDir } from './helpers/shared.js';
import { thrown } from './helpers/thrown.js';

const corpus = sharedDir('corpus');

/** The class's templates and a Cluster of the class, as a user would write them. */
const templates = `
apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
kind: DockerClusterTemplate
metadata: {name: quick-start-cluster, namespace: default}
spec:
  template:
    spec:
      loadBalancer: {}
---
apiVersion: controlplane.cluster.x-k8s.io/v1beta2
kind: KubeadmControlPlaneTemplate
metadata: {name: quick-start-control-plane, namespace: default}
spec:
  template:
    spec:
      kubeadmConfigSpec:
        clusterConfiguration:
          apiServer:
            extraArgs:
            - {name: audit-log-maxage, value: "30"}
---
apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
kind: DockerMachineTemplate
metadata: {name: quick-start-control-plane, namespace: default}
spec:
  template:
    spec:
      extraMounts: []
---
apiVersion: bootstrap.cluster.x-k8s.io/v1beta2
kind: KubeadmConfigTemplate
metadata: {name: quick-start-default-worker-bootstraptemplate, namespace: default}
spec:
  template:
    spec:
      joinConfiguration:
        nodeRegistration: {}
---
apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
kind: DockerMachineTemplate
metadata: {name: quick-start-default-worker-machinetemplate, namespace: default}
spec:
  template:
    spec:
      extraMounts: []
---
apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
kind: DockerMachinePoolTemplate
metadata: {name: quick-start-default-worker-machinepooltemplate, namespace: default}
spec:
  template:
    spec:
      template: {}
`;

const cluster = `
apiVersion: cluster.x-k8s.io/v1beta2
kind: Cluster
metadata: {name: capi-quickstart, namespace: default, labels: {env: prod}}
spec:
  clusterNetwork:
    services: {cidrBlocks: [10.128.0.0/12]}
    pods: {cidrBlocks: [192.168.0.0/16]}
    serviceDomain: cluster.local
  topology:
    classRef: {name: quick-start}
    version: v1.24.3
    controlPlane: {replicas: 3}
    workers:
      machineDeployments:
      - {class: default-worker, name: md-0, replicas: 2}
      - {class: gpu-worker, name: md-gpu}
      machinePools:
      - {class: default-worker, name: mp-0, replicas: 1}
    variables:
    - {name: imageRepository, value: registry.example.com}
    - {name: extraLabel, value: team-a}
`;

/** A ClusterClass over the templates above with the given patches (and the variables they use). */
function classWith(patches: string): KubeObject {
  const [cc] = parseManifests(`
apiVersion: cluster.x-k8s.io/v1beta2
kind: ClusterClass
metadata: {name: quick-start, namespace: default}
spec:
  variables:
  - {name: imageRepository, required: false, schema: {openAPIV3Schema: {type: string}}}
  - {name: extraLabel, required: false, schema: {openAPIV3Schema: {type: string}}}
  patches:
${patches.replace(/^/gm, '  ')}
`);
  return cc as KubeObject;
}

function byKindName(objects: KubeObject[], kind: string, name: string): KubeObject {
  const found = objects.find((o) => o.kind === kind && (o.metadata as { name?: string }).name === name);
  if (!found) throw new Error(`fixture has no ${kind} ${name}`);
  return found;
}

const clone = <T>(v: T): T => structuredClone(v);
const specOf = (t: KubeObject): unknown => clone((t.spec as { template: { spec: unknown } }).template.spec);

/**
 * The blueprint and the desired state the engine computes before patches: objects cloned from the templates, with the
 * topology labels and annotations CAPI sets. Two MachineDeployment classes share the worker templates.
 */
function setup(
  patches: string | KubeObject,
  version = 'v1.24.3',
  variables: Array<{ name: string; value: unknown }> = [],
): { blueprint: ClusterBlueprint; desired: DesiredClusterState } {
  const objects = parseManifests(templates);
  const [clusterObject] = parseManifests(cluster.replace('version: v1.24.3', `version: ${version}`)) as [KubeObject];
  const infra = byKindName(objects, 'DockerClusterTemplate', 'quick-start-cluster');
  const cpTemplate = byKindName(objects, 'KubeadmControlPlaneTemplate', 'quick-start-control-plane');
  const cpMachine = byKindName(objects, 'DockerMachineTemplate', 'quick-start-control-plane');
  const bootstrap = byKindName(objects, 'KubeadmConfigTemplate', 'quick-start-default-worker-bootstraptemplate');
  const workerMachine = byKindName(objects, 'DockerMachineTemplate', 'quick-start-default-worker-machinetemplate');
  const poolMachine = byKindName(objects, 'DockerMachinePoolTemplate', 'quick-start-default-worker-machinepooltemplate');
  const topology = (clusterObject.spec as { topology: KubeObject }).topology;
  (topology.variables as unknown[]).push(...variables);
  const blueprint: ClusterBlueprint = {
    topology,
    clusterClass: typeof patches === 'string' ? classWith(patches) : patches,
    infrastructureClusterTemplate: infra,
    controlPlaneTemplate: cpTemplate,
    controlPlaneInfrastructureMachineTemplate: cpMachine,
    machineDeployments: new Map([
      ['default-worker', { classDefinition: { class: 'default-worker' }, bootstrapTemplate: bootstrap, infrastructureMachineTemplate: workerMachine }],
      ['gpu-worker', { classDefinition: { class: 'gpu-worker' }, bootstrapTemplate: bootstrap, infrastructureMachineTemplate: workerMachine }],
    ]),
    machinePools: new Map([
      ['default-worker', { classDefinition: { class: 'default-worker' }, bootstrapTemplate: bootstrap, infrastructureMachinePoolTemplate: poolMachine }],
    ]),
  };
  const owned = (extra: Record<string, string> = {}) => ({ 'cluster.x-k8s.io/cluster-name': 'capi-quickstart', 'topology.cluster.x-k8s.io/owned': '', ...extra });
  const clonedFrom = (t: KubeObject) => ({
    'cluster.x-k8s.io/cloned-from-name': (t.metadata as { name: string }).name,
    'cluster.x-k8s.io/cloned-from-groupkind': `${String(t.kind)}.${String(t.apiVersion).split('/')[0]}`,
  });
  const meta = (name: string, labels: Record<string, string>, annotations?: Record<string, string>) => ({
    name,
    namespace: 'default',
    labels,
    ...(annotations ? { annotations } : {}),
  });
  const machineTemplate = (t: KubeObject, name: string, labels: Record<string, string>): KubeObject => ({
    apiVersion: t.apiVersion,
    kind: t.kind,
    metadata: meta(name, labels, clonedFrom(t)),
    spec: { template: { spec: specOf(t) } },
  });
  const machineDeployment = (name: string, cls: string, replicas?: number) => {
    const labels = owned({ 'topology.cluster.x-k8s.io/deployment-name': name });
    return {
      object: {
        apiVersion: 'cluster.x-k8s.io/v1beta2',
        kind: 'MachineDeployment',
        metadata: meta(`capi-quickstart-${name}-abcde`, labels),
        spec: {
          clusterName: 'capi-quickstart',
          ...(replicas === undefined ? {} : { replicas }),
          template: { metadata: { labels }, spec: { version, clusterName: 'capi-quickstart' } },
        },
      },
      bootstrapTemplate: machineTemplate(bootstrap, `capi-quickstart-${name}-${cls}-bt`, labels),
      infrastructureMachineTemplate: machineTemplate(workerMachine, `capi-quickstart-${name}-${cls}-mt`, labels),
    };
  };
  const desired: DesiredClusterState = {
    cluster: clusterObject,
    infrastructureCluster: {
      apiVersion: infra.apiVersion,
      kind: 'DockerCluster',
      metadata: meta('capi-quickstart-x7k2p', owned(), clonedFrom(infra)),
      spec: specOf(infra),
    },
    controlPlane: {
      object: {
        apiVersion: cpTemplate.apiVersion,
        kind: 'KubeadmControlPlane',
        metadata: meta('capi-quickstart-q9w8r', owned(), clonedFrom(cpTemplate)),
        spec: {
          ...(specOf(cpTemplate) as object),
          version,
          replicas: 3,
          machineTemplate: {
            spec: {
              infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'DockerMachineTemplate', name: 'capi-quickstart-cp-mt' },
            },
          },
        },
      },
      infrastructureMachineTemplate: machineTemplate(cpMachine, 'capi-quickstart-cp-mt', owned()),
    },
    machineDeployments: new Map([
      ['md-0', machineDeployment('md-0', 'default-worker', 2)],
      ['md-gpu', machineDeployment('md-gpu', 'gpu-worker')],
    ]),
    machinePools: new Map([
      [
        'mp-0',
        {
          object: {
            apiVersion: 'cluster.x-k8s.io/v1beta2',
            kind: 'MachinePool',
            metadata: meta('capi-quickstart-mp-0-fghij', owned({ 'topology.cluster.x-k8s.io/pool-name': 'mp-0' })),
            spec: { clusterName: 'capi-quickstart', replicas: 1, template: { spec: { version } } },
          },
          // MachinePools are built from their templates as objects, not templates.
          bootstrapObject: {
            apiVersion: bootstrap.apiVersion,
            kind: 'KubeadmConfig',
            metadata: meta('capi-quickstart-mp-0-bc', owned({ 'topology.cluster.x-k8s.io/pool-name': 'mp-0' }), clonedFrom(bootstrap)),
            spec: specOf(bootstrap),
          },
          infrastructureMachinePoolObject: {
            apiVersion: poolMachine.apiVersion,
            kind: 'DockerMachinePool',
            metadata: meta('capi-quickstart-mp-0-imp', owned({ 'topology.cluster.x-k8s.io/pool-name': 'mp-0' }), clonedFrom(poolMachine)),
            spec: specOf(poolMachine),
          },
        },
      ],
    ]),
  };
  return { blueprint, desired };
}

const at = (obj: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((o, k) => (o === undefined || o === null ? undefined : (o as Record<string, unknown>)[k]), obj);

const md = (d: DesiredClusterState, name: string) => {
  const m = d.machineDeployments.get(name);
  if (!m) throw new Error(`no MachineDeployment ${name}`);
  return m;
};

describe('applyPatches', () => {
  it('applies a variable to the template it selects and nothing else', () => {
    const { blueprint, desired } = setup(`
- name: imageRepository
  definitions:
  - selector:
      apiVersion: controlplane.cluster.x-k8s.io/v1beta2
      kind: KubeadmControlPlaneTemplate
      matchResources: {controlPlane: true}
    jsonPatches:
    - op: add
      path: /spec/template/spec/kubeadmConfigSpec/clusterConfiguration/imageRepository
      valueFrom: {variable: imageRepository}
`);
    const before = structuredClone(desired.infrastructureCluster);
    expect(applyPatches(blueprint, desired)).toEqual({
      warnings: [],
      externalPatches: [],
      changes: [
        {
          patch: 'imageRepository',
          role: 'controlPlane',
          op: 'add',
          path: '/spec/kubeadmConfigSpec/clusterConfiguration/imageRepository',
          value: 'registry.example.com',
        },
      ],
    });
    expect(at(desired.controlPlane.object, 'spec.kubeadmConfigSpec.clusterConfiguration.imageRepository')).toBe('registry.example.com');
    expect(desired.infrastructureCluster).toEqual(before);
  });

  it("gives every template the variables as decoded for it: sprig's set in one does not reach the next", () => {
    const { blueprint, desired } = setup(`
- name: rename
  definitions:
  - selector: {apiVersion: controlplane.cluster.x-k8s.io/v1beta2, kind: KubeadmControlPlaneTemplate, matchResources: {controlPlane: true}}
    jsonPatches:
    - op: add
      path: /spec/template/spec/kubeadmConfigSpec/clusterConfiguration/clusterName
      valueFrom: {template: '{{ $_ := set .builtin.cluster "name" "changed" }}{{ .builtin.cluster.name }}'}
    - op: add
      path: /spec/template/spec/kubeadmConfigSpec/clusterConfiguration/controlPlaneEndpoint
      valueFrom: {template: '{{ .builtin.cluster.name }}:6443'}
- name: read
  definitions:
  - selector: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DockerClusterTemplate, matchResources: {infrastructureCluster: true}}
    jsonPatches:
    - op: add
      path: /spec/template/spec/loadBalancer/name
      valueFrom: {template: '{{ .builtin.cluster.name }}-lb'}
`);
    applyPatches(blueprint, desired);
    expect(at(desired.controlPlane.object, 'spec.kubeadmConfigSpec.clusterConfiguration')).toMatchObject({
      clusterName: 'changed',
      controlPlaneEndpoint: 'capi-quickstart:6443',
    });
    expect(at(desired.infrastructureCluster, 'spec.loadBalancer.name')).toBe('capi-quickstart-lb');
  });

  it('applies patches in class order: a later patch sees what an earlier one added', () => {
    const { blueprint, desired } = setup(`
- name: create-files
  definitions:
  - selector: {apiVersion: bootstrap.cluster.x-k8s.io/v1beta2, kind: KubeadmConfigTemplate, matchResources: {machineDeploymentClass: {names: [default-worker]}}}
    jsonPatches:
    - {op: add, path: /spec/template/spec/files, value: [{path: /etc/first, content: one}]}
- name: append-file
  definitions:
  - selector: {apiVersion: bootstrap.cluster.x-k8s.io/v1beta2, kind: KubeadmConfigTemplate, matchResources: {machineDeploymentClass: {names: [default-worker]}}}
    jsonPatches:
    - {op: add, path: /spec/template/spec/files/-, value: {path: /etc/second, content: two}}
`);
    applyPatches(blueprint, desired);
    expect(at(md(desired, 'md-0').bootstrapTemplate, 'spec.template.spec.files')).toEqual([
      { path: '/etc/first', content: 'one' },
      { path: '/etc/second', content: 'two' },
    ]);
  });

  it('fails like CAPI when the order is reversed (add below a missing parent)', () => {
    const { blueprint, desired } = setup(`
- name: append-file
  definitions:
  - selector: {apiVersion: bootstrap.cluster.x-k8s.io/v1beta2, kind: KubeadmConfigTemplate, matchResources: {machineDeploymentClass: {names: [default-worker]}}}
    jsonPatches:
    - {op: add, path: /spec/template/spec/files/-, value: {path: /etc/second}}
`);
    const e = thrown(() => applyPatches(blueprint, desired), TopologyPatchError);
    expect(e.exitCode).toBe(2);
    expect(e.patch).toBe('append-file');
    expect(e.definitionIndex).toBe(0);
    expect(e.template).toBe('KubeadmConfigTemplate default/quick-start-default-worker-bootstraptemplate');
    expect(e.message).toContain(
      'failed to apply patches for patch "append-file": failed to apply patch: error applying json patch (RFC6902): ' +
        'add operation does not apply: doc is missing path: "/spec/template/spec/files/-": missing value',
    );
    expect(e.where).toBe('ClusterClass default/quick-start spec.patches[0].definitions[0]');
  });

  it('selects MachineDeployment templates by class name, exact or with a wildcard', () => {
    const { blueprint, desired } = setup(`
- name: worker-labels
  definitions:
  - selector: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DockerMachineTemplate, matchResources: {machineDeploymentClass: {names: [default-worker]}}}
    jsonPatches:
    - {op: add, path: /spec/template/spec/customImage, value: default-image}
  - selector: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DockerMachineTemplate, matchResources: {machineDeploymentClass: {names: ["gpu-*"]}}}
    jsonPatches:
    - {op: add, path: /spec/template/spec/customImage, value: gpu-image}
  - selector: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DockerMachineTemplate, matchResources: {machineDeploymentClass: {names: ["*-worker"]}}}
    jsonPatches:
    - {op: add, path: /spec/template/spec/preLoadImages, valueFrom: {variable: builtin.machineDeployment.topologyName}}
`);
    applyPatches(blueprint, desired);
    expect(at(md(desired, 'md-0').infrastructureMachineTemplate, 'spec.template.spec')).toEqual({
      extraMounts: [],
      customImage: 'default-image',
      preLoadImages: 'md-0',
    });
    expect(at(md(desired, 'md-gpu').infrastructureMachineTemplate, 'spec.template.spec')).toEqual({
      extraMounts: [],
      customImage: 'gpu-image',
      preLoadImages: 'md-gpu',
    });
    // The control plane's machine template has the same kind but is not a MachineDeployment's.
    expect(at(desired.controlPlane.infrastructureMachineTemplate, 'spec.template.spec')).toEqual({ extraMounts: [] });
  });

  it('patches MachinePool objects (not templates) through the class template, with the pool builtins', () => {
    const { blueprint, desired } = setup(`
- name: pool-image
  definitions:
  - selector: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DockerMachinePoolTemplate, matchResources: {machinePoolClass: {names: [default-worker]}}}
    jsonPatches:
    - {op: add, path: /spec/template/spec/template/customImage, valueFrom: {template: 'kindest/node:{{ .builtin.machinePool.version }}'}}
    - {op: add, path: /spec/template/metadata/labels/pool, valueFrom: {variable: builtin.machinePool.topologyName}}
  - selector: {apiVersion: bootstrap.cluster.x-k8s.io/v1beta2, kind: KubeadmConfigTemplate, matchResources: {machinePoolClass: {names: ["*"]}}}
    jsonPatches:
    - {op: add, path: /spec/template/spec/joinConfiguration/nodeRegistration/name, valueFrom: {variable: builtin.machinePool.name}}
`);
    const outcome = applyPatches(blueprint, desired);
    const mp = desired.machinePools.get('mp-0');
    expect(at(mp?.infrastructureMachinePoolObject, 'spec.template.customImage')).toBe('kindest/node:v1.24.3');
    expect(at(mp?.infrastructureMachinePoolObject, 'metadata.labels.pool')).toBe('mp-0');
    expect(at(mp?.bootstrapObject, 'spec.joinConfiguration.nodeRegistration.name')).toBe('capi-quickstart-mp-0-fghij');
    // The MachineDeployments share the bootstrap template but not the selector.
    expect(at(md(desired, 'md-0').bootstrapTemplate, 'spec.template.spec.joinConfiguration.nodeRegistration')).toEqual({});
    expect(outcome.changes.map((c) => `${c.role} ${c.op} ${c.path}`)).toEqual([
      'machinePoolBootstrapConfig/mp-0 add /spec/joinConfiguration/nodeRegistration/name',
      'machinePoolInfrastructureMachinePool/mp-0 add /spec/template/customImage',
      'machinePoolInfrastructureMachinePool/mp-0 add /metadata/labels/pool',
    ]);
  });

  it('evaluates enabledIf per template with its builtin variables', () => {
    const { blueprint, desired } = setup(`
- name: only-with-replicas
  enabledIf: '{{ if .builtin.machineDeployment.replicas }}true{{ end }}'
  definitions:
  - selector: {apiVersion: bootstrap.cluster.x-k8s.io/v1beta2, kind: KubeadmConfigTemplate, matchResources: {machineDeploymentClass: {names: ["*"]}}}
    jsonPatches:
    - op: add
      path: /spec/template/spec/joinConfiguration/nodeRegistration/name
      valueFrom: {template: '{{ .builtin.cluster.name }}-{{ .builtin.machineDeployment.replicas }}'}
- name: old-kubernetes
  enabledIf: '{{ eq .builtin.cluster.topology.version "v1.24.3" }}'
  definitions:
  - selector: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DockerClusterTemplate, matchResources: {infrastructureCluster: true}}
    jsonPatches:
    - {op: add, path: /spec/template/spec/loadBalancer/imageTag, value: v1.24}
`);
    applyPatches(blueprint, desired);
    expect(at(md(desired, 'md-0').bootstrapTemplate, 'spec.template.spec.joinConfiguration.nodeRegistration.name')).toBe('capi-quickstart-2');
    expect(at(md(desired, 'md-gpu').bootstrapTemplate, 'spec.template.spec.joinConfiguration.nodeRegistration')).toEqual({});
    expect(at(desired.infrastructureCluster, 'spec.loadBalancer.imageTag')).toBe('v1.24');
  });

  it('patches object metadata through /spec/template/metadata, keeping the labels the topology controller owns', () => {
    const { blueprint, desired } = setup(`
- name: labels
  definitions:
  - selector: {apiVersion: controlplane.cluster.x-k8s.io/v1beta2, kind: KubeadmControlPlaneTemplate, matchResources: {controlPlane: true}}
    jsonPatches:
    - {op: add, path: /spec/template/metadata/labels/team, valueFrom: {variable: extraLabel}}
    - {op: add, path: /spec/template/metadata/labels/cluster.x-k8s.io~1cluster-name, value: hijacked}
`);
    applyPatches(blueprint, desired);
    expect(at(desired.controlPlane.object, 'metadata.labels')).toEqual({
      'cluster.x-k8s.io/cluster-name': 'capi-quickstart',
      'topology.cluster.x-k8s.io/owned': '',
      team: 'team-a',
    });
  });

  it('keeps the ControlPlane fields the topology sets (version, replicas, machine template reference)', () => {
    const { blueprint, desired } = setup(`
- name: overreach
  definitions:
  - selector: {apiVersion: controlplane.cluster.x-k8s.io/v1beta2, kind: KubeadmControlPlaneTemplate, matchResources: {controlPlane: true}}
    jsonPatches:
    - {op: add, path: /spec/template/spec/version, value: v9.9.9}
    - {op: add, path: /spec/template/spec/replicas, value: 99}
    - {op: add, path: /spec/template/spec/machineTemplate, value: {spec: {infrastructureRef: {name: other}}}}
    - {op: add, path: /spec/template/spec/rolloutStrategy, value: {type: RollingUpdate}}
`);
    applyPatches(blueprint, desired);
    const spec = desired.controlPlane.object.spec as Record<string, unknown>;
    expect(spec.version).toBe('v1.24.3');
    expect(spec.replicas).toBe(3);
    expect(at(spec, 'machineTemplate.spec.infrastructureRef.name')).toBe('capi-quickstart-cp-mt');
    expect(spec.rolloutStrategy).toEqual({ type: 'RollingUpdate' });
  });

  it('removes fields with remove operations', () => {
    const { blueprint, desired } = setup(`
- name: no-audit
  definitions:
  - selector: {apiVersion: controlplane.cluster.x-k8s.io/v1beta2, kind: KubeadmControlPlaneTemplate, matchResources: {controlPlane: true}}
    jsonPatches:
    - {op: remove, path: /spec/template/spec/kubeadmConfigSpec/clusterConfiguration/apiServer/extraArgs}
`);
    applyPatches(blueprint, desired);
    expect(at(desired.controlPlane.object, 'spec.kubeadmConfigSpec.clusterConfiguration.apiServer')).toEqual({});
  });

  it('reports an external patch instead of guessing what it does, and applies the others', () => {
    const { blueprint, desired } = setup(`
- name: lifecycle-extension
  external: {generatePatchesExtension: generate-patches.my-extension}
- name: imageRepository
  definitions:
  - selector: {apiVersion: controlplane.cluster.x-k8s.io/v1beta2, kind: KubeadmControlPlaneTemplate, matchResources: {controlPlane: true}}
    jsonPatches:
    - {op: add, path: /spec/template/spec/kubeadmConfigSpec/clusterConfiguration/imageRepository, valueFrom: {variable: imageRepository}}
`);
    const outcome = applyPatches(blueprint, desired);
    expect(outcome.externalPatches).toEqual(['lifecycle-extension']);
    expect(outcome.warnings).toEqual([
      'patch "lifecycle-extension" calls the runtime extension "generate-patches.my-extension", which cannot run offline: ' +
        'the objects it patches are shown without its changes',
    ]);
    expect(at(desired.controlPlane.object, 'spec.kubeadmConfigSpec.clusterConfiguration.imageRepository')).toBe('registry.example.com');
  });

  it("reads the class's status.variables when present: an external patch's variables are not an inline patch's", () => {
    const { blueprint, desired } = setup(`
- name: uses-external-variable
  definitions:
  - selector: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DockerClusterTemplate, matchResources: {infrastructureCluster: true}}
    jsonPatches:
    - {op: add, path: /spec/template/spec/loadBalancer/imageRepository, valueFrom: {variable: extraLabel}}
`);
    blueprint.clusterClass.status = {
      variables: [
        { name: 'imageRepository', definitions: [{ from: 'inline', schema: {} }] },
        { name: 'extraLabel', definitions: [{ from: 'lifecycle-extension', schema: {} }] },
      ],
    };
    const e = thrown(() => applyPatches(blueprint, desired), TopologyPatchError);
    expect(e.message).toContain('failed to calculate value: variable "extraLabel" does not exist');
  });

  it('warns, naming the patch, when a template calls a sprig function CAPI evaluates differently on every reconcile', () => {
    const { blueprint, desired } = setup(`
- name: shuffled
  definitions:
  - selector: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DockerClusterTemplate, matchResources: {infrastructureCluster: true}}
    jsonPatches:
    - {op: add, path: /spec/template/spec/loadBalancer/imageTag, valueFrom: {template: '{{ "ab" | shuffle | len }}'}}
`);
    const outcome = applyPatches(blueprint, desired);
    expect(outcome.warnings).toEqual([
      'patch "shuffled" calls sprig\'s "shuffle", whose result in CAPI can differ on every reconcile (randomness, map order or the clock); ' +
        'the value shown is a stable stand-in',
    ]);
    expect(at(desired.infrastructureCluster, 'spec.loadBalancer.imageTag')).toBe(2);
  });

  it('refuses Helm-only functions such as toYaml, as CAPI does when it parses enabledIf', () => {
    const { blueprint, desired } = setup(`
- name: helm-habit
  enabledIf: '{{ .imageRepository | toYaml }}'
  definitions:
  - selector: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DockerClusterTemplate, matchResources: {infrastructureCluster: true}}
    jsonPatches:
    - {op: add, path: /spec/template/spec/loadBalancer/imageRepository, valueFrom: {variable: imageRepository}}
`);
    const e = thrown(() => applyPatches(blueprint, desired), TopologyPatchError);
    expect(e.message).toBe(
      'ClusterClass default/quick-start: patch "helm-habit" on DockerClusterTemplate default/quick-start-cluster: ' +
        'failed to generate patches for patch "helm-habit": failed to calculate if patch is enabled for "DockerClusterTemplate": ' +
        'failed to calculate value for enabledIf: failed to parse template: "{{ .imageRepository | toYaml }}": ' +
        'template: tpl:1: function "toYaml" not defined',
    );
    expect(e.definitionIndex).toBeUndefined();
    expect(e.where).toBe('ClusterClass default/quick-start spec.patches[0]');
  });

  it('fails like the controller on a patch with neither definitions nor an external extension', () => {
    const { blueprint, desired } = setup(`
- name: empty
  definitions: []
`);
    const e = thrown(() => applyPatches(blueprint, desired), TopologyPatchError);
    expect(e.message).toBe('ClusterClass default/quick-start: patch "empty": failed to create patch generator for patch "empty"');
    expect(e.where).toBe('ClusterClass default/quick-start spec.patches[0]');
  });

  it('names the patch, definition and template when a variable does not exist', () => {
    const { blueprint, desired } = setup(`
- name: typo
  definitions:
  - selector: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DockerClusterTemplate, matchResources: {infrastructureCluster: true}}
    jsonPatches:
    - {op: add, path: /spec/template/spec/loadBalancer/imageRepository, valueFrom: {variable: imageRepsitory}}
`);
    const e = thrown(() => applyPatches(blueprint, desired), TopologyPatchError);
    expect(e.message).toBe(
      'ClusterClass default/quick-start: patch "typo" definitions[0] on DockerClusterTemplate default/quick-start-cluster: ' +
        'failed to generate patches for patch "typo": failed to generate JSON patches for "DockerClusterTemplate": ' +
        'failed to calculate value: variable "imageRepsitory" does not exist',
    );
    expect(e.where).toBe('ClusterClass default/quick-start spec.patches[0].definitions[0].jsonPatches[0]');
  });

  it('passes only the variables the class defines to patches, and never a user variable named builtin', () => {
    const { blueprint, desired } = setup(`
- name: echo
  definitions:
  - selector: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DockerClusterTemplate, matchResources: {infrastructureCluster: true}}
    jsonPatches:
    - op: add
      path: /spec/template/spec/loadBalancer/customHAProxyConfigTemplateRef
      valueFrom: {template: '{{ .undefinedVariable }}|{{ .builtin.cluster.network.serviceDomain }}|{{ .builtin.cluster.metadata.labels.env }}'}
`);
    ((blueprint.topology.variables as unknown[]) ?? []).push({ name: 'undefinedVariable', value: 'x' }, { name: 'builtin', value: 1 });
    applyPatches(blueprint, desired);
    expect(at(desired.infrastructureCluster, 'spec.loadBalancer.customHAProxyConfigTemplateRef')).toBe('<no value>|cluster.local|prod');
  });
});

/** The CAPD releases whose quick-start class uses the v1beta2 template kinds of the fixture above. */
const capdReleases = ['v1.11.11', 'v1.12.11', 'v1.13.5'];

describe.skipIf(!corpus.present)(`the CAPD quick-start class's patches${corpus.skipped}`, () => {
  const quickStart = (release: string): KubeObject => {
    const text = readFileSync(join(corpus.path, 'repository', 'infrastructure-docker', release, 'clusterclass-quick-start.yaml'), 'utf8');
    const cc = parseManifests(text).find((o) => o.kind === 'ClusterClass');
    if (!cc) throw new Error(`no ClusterClass in CAPD ${release}`);
    return cc;
  };
  // The values defaulting gives the class's variables, with an image repository set.
  const variables = [
    { name: 'etcdImageTag', value: '' },
    { name: 'coreDNSImageTag', value: '' },
    { name: 'podSecurityStandard', value: { enabled: true, enforce: 'baseline', audit: 'restricted', warn: 'restricted' } },
  ];
  const files = (d: DesiredClusterState): string => String(at(d.controlPlane.object, 'spec.kubeadmConfigSpec.files.0.content'));

  it.each(capdReleases)('%s: kindest/node images with "+" replaced, PodSecurity v1beta1 below Kubernetes 1.25', (release) => {
    const { blueprint, desired } = setup(quickStart(release), 'v1.24.3+k3s1', variables);
    const outcome = applyPatches(blueprint, desired);
    expect(outcome.warnings).toEqual([]);
    expect(at(desired.controlPlane.infrastructureMachineTemplate, 'spec.template.spec.customImage')).toBe('kindest/node:v1.24.3_k3s1');
    expect(at(md(desired, 'md-0').infrastructureMachineTemplate, 'spec.template.spec.customImage')).toBe('kindest/node:v1.24.3_k3s1');
    expect(at(md(desired, 'md-gpu').infrastructureMachineTemplate, 'spec.template.spec.customImage')).toBeUndefined();
    expect(at(desired.machinePools.get('mp-0')?.infrastructureMachinePoolObject, 'spec.template.customImage')).toBe('kindest/node:v1.24.3_k3s1');
    expect(files(desired)).toContain('apiVersion: pod-security.admission.config.k8s.io/v1beta1\n');
    expect(files(desired)).toContain('enforce: "baseline"');
    expect(at(desired.controlPlane.object, 'spec.kubeadmConfigSpec.clusterConfiguration.imageRepository')).toBe('registry.example.com');
    // enabledIf '{{ ne .etcdImageTag "" }}' is false for the default.
    expect(at(desired.controlPlane.object, 'spec.kubeadmConfigSpec.clusterConfiguration.etcd')).toBeUndefined();
    expect(at(desired.controlPlane.object, 'spec.kubeadmConfigSpec.clusterConfiguration.apiServer.extraArgs')).toEqual([
      { name: 'admission-control-config-file', value: '/etc/kubernetes/kube-apiserver-admission-pss.yaml' },
    ]);
  });

  it.each(capdReleases)('%s: PodSecurity v1 from Kubernetes 1.25; etcd and CoreDNS tags when set', (release) => {
    const tags = variables.map((v) => (v.name === 'etcdImageTag' ? { ...v, value: '3.5.6-0' } : v.name === 'coreDNSImageTag' ? { ...v, value: 'v1.9.3' } : v));
    const { blueprint, desired } = setup(quickStart(release), 'v1.25.0', tags);
    applyPatches(blueprint, desired);
    expect(files(desired)).toContain('apiVersion: pod-security.admission.config.k8s.io/v1\n');
    expect(at(desired.controlPlane.object, 'spec.kubeadmConfigSpec.clusterConfiguration.etcd')).toEqual({ local: { imageTag: '3.5.6-0' } });
    expect(at(desired.controlPlane.object, 'spec.kubeadmConfigSpec.clusterConfiguration.dns')).toEqual({ imageTag: 'v1.9.3' });
  });
});

describe('JSON patches as CAPI applies them (evanphx/json-patch v5)', () => {
  const doc = { spec: { list: ['a', 'b', 'c'], map: { k: 'v' } } };
  const apply = (...ops: JsonPatchOperation[]) => applyJsonPatch(doc, ops);
  const failure = (...ops: JsonPatchOperation[]) => thrown(() => apply(...ops), JsonPatchError).message;

  it('adds, inserts, appends (-), replaces and removes, leaving the input as it was', () => {
    expect(
      apply(
        { op: 'add', path: '/spec/map/new', value: { deep: true } },
        { op: 'add', path: '/spec/list/0', value: 'first' },
        { op: 'add', path: '/spec/list/-', value: 'last' },
        { op: 'replace', path: '/spec/map/k', value: null },
        { op: 'remove', path: '/spec/list/1' },
      ),
    ).toEqual({ spec: { list: ['first', 'b', 'c', 'last'], map: { k: null, new: { deep: true } } } });
    expect(doc).toEqual({ spec: { list: ['a', 'b', 'c'], map: { k: 'v' } } });
  });

  it('copies only what the operations reach: later operations see earlier ones, a failure leaves the input intact', () => {
    const input = { spec: { list: ['a', { n: 1 }], map: { k: 'v' } }, status: { big: { deep: [1, 2, 3] } } };
    const out = applyJsonPatch(input, [
      { op: 'add', path: '/spec/list/1/m', value: 2 },
      { op: 'replace', path: '/spec/list/-1/n', value: 3 },
    ]);
    expect(out).toEqual({ spec: { list: ['a', { n: 3, m: 2 }], map: { k: 'v' } }, status: { big: { deep: [1, 2, 3] } } });
    expect(out.status).toBe(input.status);
    expect((out.spec as { map: unknown }).map).toBe(input.spec.map);
    expect(input).toEqual({ spec: { list: ['a', { n: 1 }], map: { k: 'v' } }, status: { big: { deep: [1, 2, 3] } } });
    expect(() => applyJsonPatch(input, [{ op: 'remove', path: '/spec/list/1/n' }, { op: 'remove', path: '/spec/map/nope' }])).toThrow(JsonPatchError);
    expect(input).toEqual({ spec: { list: ['a', { n: 1 }], map: { k: 'v' } }, status: { big: { deep: [1, 2, 3] } } });
  });

  it('counts negative indices from the end, as evanphx does by default', () => {
    expect(apply({ op: 'replace', path: '/spec/list/-1', value: 'z' }).spec).toEqual({ list: ['a', 'b', 'z'], map: { k: 'v' } });
    expect(apply({ op: 'remove', path: '/spec/list/-3' }).spec).toEqual({ list: ['b', 'c'], map: { k: 'v' } });
  });

  it('unescapes ~1 and ~0 in keys', () => {
    expect(apply({ op: 'add', path: '/spec/map/a~1b~0c', value: 1 }).spec).toEqual({ list: ['a', 'b', 'c'], map: { k: 'v', 'a/b~c': 1 } });
  });

  it('fails with evanphx messages where a patch does not apply', () => {
    expect(failure({ op: 'add', path: '/spec/missing/key', value: 1 })).toBe('add operation does not apply: doc is missing path: "/spec/missing/key": missing value');
    expect(failure({ op: 'replace', path: '/spec/map/nope', value: 1 })).toBe('replace operation does not apply: doc is missing key: /spec/map/nope: missing value');
    expect(failure({ op: 'remove', path: '/spec/map/nope' })).toBe("error in remove for path: '/spec/map/nope': unable to remove nonexistent key: nope: missing value");
    expect(failure({ op: 'add', path: '/spec/list/9', value: 1 })).toBe("error in add for path: '/spec/list/9': Unable to access invalid index: 9: invalid index referenced");
    expect(failure({ op: 'add', path: '/spec/list/x', value: 1 })).toBe(
      `error in add for path: '/spec/list/x': value was not a proper array index: 'x': strconv.Atoi: parsing "x": invalid syntax`,
    );
    expect(failure({ op: 'replace', path: '/spec/list/-', value: 1 })).toBe('replace operation does not apply: doc is missing key: /spec/list/-: missing value');
    // A scalar is not a container: the path below it is missing.
    expect(failure({ op: 'add', path: '/spec/map/k/x', value: 1 })).toBe('add operation does not apply: doc is missing path: "/spec/map/k/x": missing value');
  });
});

describe('validatePatches (what the ClusterClass webhook refuses)', () => {
  const classWithRefs = (patches: string): KubeObject => {
    const [cc] = parseManifests(`
apiVersion: cluster.x-k8s.io/v1beta2
kind: ClusterClass
metadata: {name: quick-start, namespace: default}
spec:
  infrastructure:
    templateRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DockerClusterTemplate, name: quick-start-cluster}
  controlPlane:
    templateRef: {apiVersion: controlplane.cluster.x-k8s.io/v1beta2, kind: KubeadmControlPlaneTemplate, name: quick-start-control-plane}
    machineInfrastructure:
      templateRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DockerMachineTemplate, name: quick-start-control-plane}
  workers:
    machineDeployments:
    - class: default-worker
      bootstrap:
        templateRef: {apiVersion: bootstrap.cluster.x-k8s.io/v1beta2, kind: KubeadmConfigTemplate, name: quick-start-default-worker-bootstraptemplate}
      infrastructure:
        templateRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DockerMachineTemplate, name: quick-start-default-worker-machinetemplate}
  variables:
  - {name: imageRepository, required: false, schema: {openAPIV3Schema: {type: string}}}
  patches:
${patches.replace(/^/gm, '  ')}
`);
    return cc as KubeObject;
  };

  it.skipIf(!corpus.present).each(capdReleases)(`accepts the CAPD quick-start class %s${corpus.skipped}`, (release) => {
    const text = readFileSync(join(corpus.path, 'repository', 'infrastructure-docker', release, 'clusterclass-quick-start.yaml'), 'utf8');
    const cc = parseManifests(text).find((o) => o.kind === 'ClusterClass') as KubeObject;
    expect(validatePatches(cc)).toEqual([]);
  });

  it('reports each rule with its field path and CAPI message', () => {
    const cc = classWithRefs(`
- name: bad
  enabledIf: '{{ toYaml . }}'
  definitions:
  - selector: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DockerMachineTemplate, matchResources: {machineDeploymentClass: {names: ["*-worker", "gpu-*", "a*b"]}}}
    jsonPatches:
    - {op: add, path: /metadata/labels/x, value: z}
    - {op: add, path: /spec/template/spec/files/1, value: y}
    - {op: replace, path: /spec/template/spec/files/0, valueFrom: {variable: imageRepsitory}}
    - {op: add, path: /spec/template/spec/x, valueFrom: {variable: builtin.cluster.nope}}
    - {op: add, path: /spec/template/spec/y, valueFrom: {template: '{{ .x'}}
  - selector: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DockerClusterTemplate, matchResources: {controlPlane: true}}
    jsonPatches: []
- name: bad
  external: {}
`);
    expect(validatePatches(cc).map((e) => e.message)).toEqual([
      'spec.patches[0].enabledIf: Invalid value: "{{ toYaml . }}": template can not be parsed: template: enabledIf:1: function "toYaml" not defined',
      'spec.patches[0].definitions[0].jsonPatches[0].path: Invalid value: "{\\n  \\"op\\": \\"add\\",\\n  \\"path\\": \\"/metadata/labels/x\\",\\n  \\"value\\": \\"z\\"\\n}": jsonPatch path must start with "/spec"',
      'spec.patches[0].definitions[0].jsonPatches[1].path: Invalid value: "/spec/template/spec/files/1": arrays can only be accessed using "0" (prepend) or "-" (append)',
      'spec.patches[0].definitions[0].jsonPatches[2].path: Invalid value: "/spec/template/spec/files/0": elements in arrays can not be accessed in a replace operation',
      'spec.patches[0].definitions[0].jsonPatches[2].valueFrom.variable: Invalid value: "imageRepsitory": variable with name imageRepsitory cannot be found',
      'spec.patches[0].definitions[0].jsonPatches[3].valueFrom.variable: Invalid value: "builtin.cluster.nope": not a defined builtin variable',
      'spec.patches[0].definitions[0].jsonPatches[4].valueFrom.template: Invalid value: "{{ .x": template can not be parsed: template: valueFrom.template:1: unclosed action',
      'spec.patches[0].definitions[0].selector.matchResources.machineDeploymentClass.names[1]: Invalid value: "gpu-*": selector is enabled but matches neither the bootstrap ref nor the infrastructure ref of a MachineDeployment class',
      'spec.patches[0].definitions[0].selector.matchResources.machineDeploymentClass.names[2]: Invalid value: "a*b": "*" rune can only appear at the beginning, or ending of the selector',
      'spec.patches[0].definitions[1].selector.matchResources.controlPlane: Invalid value: true: selector is enabled but matches neither the controlPlane ref nor the controlPlane machineInfrastructure ref',
      'spec.patches[1].name: Invalid value: "bad": patch names must be unique. Patch with name "bad" is defined more than once',
      'spec.patches[1].external: Invalid value: "{}": one of validateTopologyExtension and generatePatchesExtension must be defined',
    ]);
  });
});
