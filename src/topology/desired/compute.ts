/**
 * The desired state of one topology Cluster before patches (`exp/topology/desiredstate/desired_state.go`
 * `Generate` up to `patchEngine.Apply`, spec/capi-plan.md §3.1). Works on v1beta2 shapes only; the caller converts
 * v1beta1 classes and Clusters first.
 *
 * Offline there is no "current" cluster state, so versions are the topology's (what CAPI writes when it creates the
 * objects, and the end state of any upgrade); the upgrade sequence itself is reported separately (./versions.ts).
 */
import { formatGoDuration } from '../../config/clusterctl/index.js';
import type { KubeObject } from '../../yaml/index.js';
import {
  generateName,
  namePrefixes,
  objectRandom,
  simpleName,
  templateNameRandom,
  topologyRoles,
  type NamedObject,
} from '../names/index.js';
import type {
  ClusterBlueprint,
  DesiredClusterState,
  DesiredMachineDeployment,
  DesiredMachinePool,
} from '../state/index.js';
import { asObj, cloneJson, getPath, groupOf, isObj, mergeMap, setPath, type Obj } from './json.js';
import { annotations as a, labels as l } from './labels.js';
import { clusterOwnerRef, templateToObject, templateToTemplate, type ClusterIdentity } from './template.js';

export type ControlPlaneContract = 'v1beta1' | 'v1beta2';

/** Names the Cluster already uses, by role (`previous` expansions, or the Cluster's own refs). */
export type CurrentNames = ReadonlyMap<string, string>;

export interface DesiredStateInput {
  blueprint: ClusterBlueprint;
  /** The Cluster, v1beta2 shape, variables defaulted. */
  cluster: KubeObject;
  controlPlaneContract: ControlPlaneContract;
  currentNames?: CurrentNames;
}

/** A desired-state step failed (CAPI's `failed to compute …` errors); `message` is CAPI's text. */
export class DesiredStateError extends Error {}

/** The roles of issue 13, as `ExpandedCluster.objects[].role` spells them. */
export const roles = topologyRoles;

/** A simple-generated template name (see `templateNameRandom`). */
export function templateName(prefix: string, cluster: ClusterIdentity, role: string, template: KubeObject): string {
  return simpleName(prefix, templateNameRandom(cluster.namespace, cluster.name, role, template.spec));
}

function named(
  input: DesiredStateInput,
  id: ClusterIdentity,
  role: string,
  object: NamedObject,
  template: string | undefined,
  topologyName?: string,
): string {
  const current = input.currentNames?.get(role);
  if (current) return current;
  const r = objectRandom(id.namespace, id.name, role);
  try {
    return generateName({ template, object, clusterName: id.name, topologyName, random: r.random, overflowRandom: r.overflow });
  } catch (err) {
    const what = { infrastructureCluster: 'InfrastructureCluster', controlPlane: 'ControlPlane', machineDeployment: 'MachineDeployment', machinePool: 'MachinePool' }[object];
    throw new DesiredStateError(`failed to generate name for ${what}: ${(err as Error).message}`);
  }
}

/** `contract.ObjToContractVersionedObjectReference`. */
export function contractRef(o: KubeObject): Obj {
  return { apiGroup: groupOf(String(o.apiVersion ?? '')), kind: o.kind, name: asObj(o.metadata).name };
}

/** `contract.ObjToRef` (a full `corev1.ObjectReference`, as contract v1beta1 control planes hold it). */
function objectRef(o: KubeObject): Obj {
  const m = asObj(o.metadata);
  return { apiVersion: o.apiVersion, kind: o.kind, name: m.name, namespace: m.namespace };
}

const seconds = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
const duration = (s: number): string => formatGoDuration(BigInt(s) * 1_000_000_000n);

function identity(cluster: KubeObject): ClusterIdentity {
  const m = asObj(cluster.metadata);
  return { name: String(m.name ?? ''), namespace: String(m.namespace ?? 'default'), uid: typeof m.uid === 'string' ? m.uid : undefined };
}

/** Topology first, else the class (`x := class; if topology != nil { x = topology }`). */
function pick(topologyValue: unknown, classValue: unknown): unknown {
  return topologyValue !== undefined && topologyValue !== null ? topologyValue : classValue;
}

function isDefinedHealthCheck(hc: unknown): boolean {
  const h = asObj(hc);
  return Object.keys(asObj(h.checks)).length > 0 || Object.keys(asObj(h.remediation)).length > 0;
}

/** `computeMachineHealthCheck` plus the MachineHealthCheck webhook's defaulting. */
function machineHealthCheck(target: KubeObject, selector: Record<string, string>, cluster: ClusterIdentity, hc: Obj): KubeObject {
  const checks = cloneJson(asObj(hc.checks));
  const remediation = cloneJson(asObj(hc.remediation));
  delete remediation.maxInFlight;
  if (checks.nodeStartupTimeoutSeconds === undefined) checks.nodeStartupTimeoutSeconds = 600;
  const m = asObj(target.metadata);
  const spec: Obj = { clusterName: cluster.name, selector: { matchLabels: selector }, checks };
  if (Object.keys(remediation).length > 0) spec.remediation = remediation;
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'MachineHealthCheck',
    metadata: {
      name: m.name,
      namespace: m.namespace,
      labels: { [l.owned]: '', [l.clusterName]: cluster.name },
      ownerReferences: [clusterOwnerRef(cluster)],
    },
    spec,
  };
}

function controlPlaneObject(input: DesiredStateInput, id: ClusterIdentity, infraMachineTemplate: KubeObject | undefined): KubeObject {
  const { blueprint } = input;
  const classSpec = asObj(blueprint.clusterClass.spec);
  const cpClass = asObj(classSpec.controlPlane);
  const cpTopology = asObj(blueprint.topology.controlPlane);
  const cpLabels = { ...mergeMap(asObj(cpTopology.metadata).labels, asObj(cpClass.metadata).labels), [l.clusterName]: id.name, [l.owned]: '' };
  const cpAnnotations = mergeMap(asObj(cpTopology.metadata).annotations, asObj(cpClass.metadata).annotations);
  const cp = templateToObject({
    template: blueprint.controlPlaneTemplate,
    cluster: id,
    name: named(input, id, roles.controlPlane, 'controlPlane', asObj(cpClass.naming).template as string | undefined),
    labels: cpLabels,
    annotations: cpAnnotations,
  });
  const spec = asObj(cp.spec);
  cp.spec = spec;
  const v1 = input.controlPlaneContract === 'v1beta1';
  if (infraMachineTemplate) {
    if (v1) setPath(spec, ['machineTemplate', 'infrastructureRef'], objectRef(infraMachineTemplate));
    else setPath(spec, ['machineTemplate', 'spec', 'infrastructureRef'], contractRef(infraMachineTemplate));
    const mt = asObj(getPath(spec, ['machineTemplate', 'metadata']));
    const metadata: Obj = {};
    const mtLabels = mergeMap(cpLabels, mt.labels);
    const mtAnnotations = mergeMap(cpAnnotations, mt.annotations);
    if (mtLabels) metadata.labels = mtLabels;
    if (mtAnnotations) metadata.annotations = mtAnnotations;
    setPath(spec, ['machineTemplate', 'metadata'], metadata);
  }
  if (cpTopology.replicas !== undefined && cpTopology.replicas !== null) spec.replicas = cpTopology.replicas;
  const after = getPath(cpTopology, ['rollout', 'after']);
  if (after) setPath(spec, ['rollout', 'after'], after);
  const machineTemplateSpec = v1 ? ['machineTemplate'] : ['machineTemplate', 'spec'];
  const readinessGates = pick(cpTopology.readinessGates, cpClass.readinessGates);
  if (readinessGates !== undefined && readinessGates !== null) setPath(spec, [...machineTemplateSpec, 'readinessGates'], cloneJson(readinessGates));
  const taints = pick(cpTopology.taints, cpClass.taints);
  if (taints !== undefined && taints !== null) setPath(spec, [...machineTemplateSpec, 'taints'], cloneJson(taints));
  for (const [field, v1Field] of [
    ['nodeDrainTimeoutSeconds', 'nodeDrainTimeout'],
    ['nodeVolumeDetachTimeoutSeconds', 'nodeVolumeDetachTimeout'],
    ['nodeDeletionTimeoutSeconds', 'nodeDeletionTimeout'],
  ] as const) {
    const value = seconds(pick(getPath(cpTopology, ['deletion', field]), getPath(cpClass, ['deletion', field])));
    if (value === undefined) continue;
    if (v1) setPath(spec, ['machineTemplate', v1Field], duration(value));
    else setPath(spec, ['machineTemplate', 'spec', 'deletion', field], value);
  }
  spec.version = blueprint.topology.version;
  return cp;
}

function machineDeployment(input: DesiredStateInput, id: ClusterIdentity, mdTopology: Obj): DesiredMachineDeployment {
  const { blueprint } = input;
  const name = String(mdTopology.name ?? '');
  const className = String(mdTopology.class ?? '');
  const mdBlueprint = blueprint.machineDeployments.get(className);
  if (!mdBlueprint) {
    const ccMeta = asObj(blueprint.clusterClass.metadata);
    throw new DesiredStateError(
      `failed to compute MachineDepoyment for topology "${name}": MachineDeployment class ${className} not found in ClusterClass ${String(ccMeta.namespace ?? '')}/${String(ccMeta.name ?? '')}`,
    );
  }
  const mdClass = mdBlueprint.classDefinition;
  const owner = clusterOwnerRef(id);
  const bootstrapRole = roles.machineDeploymentBootstrapTemplate(name);
  const bootstrapTemplate = templateToTemplate({
    template: mdBlueprint.bootstrapTemplate,
    cluster: id,
    name: input.currentNames?.get(bootstrapRole) ?? templateName(namePrefixes.machineDeploymentTemplate(id.name, name), id, bootstrapRole, mdBlueprint.bootstrapTemplate),
    ownerRef: owner,
  });
  asObj(bootstrapTemplate.metadata).labels = { ...asObj(asObj(bootstrapTemplate.metadata).labels), [l.deploymentName]: name };
  const infraRole = roles.machineDeploymentInfrastructureTemplate(name);
  const infrastructureMachineTemplate = templateToTemplate({
    template: mdBlueprint.infrastructureMachineTemplate,
    cluster: id,
    name:
      input.currentNames?.get(infraRole) ??
      templateName(namePrefixes.machineDeploymentTemplate(id.name, name), id, infraRole, mdBlueprint.infrastructureMachineTemplate),
    ownerRef: owner,
  });
  asObj(infrastructureMachineTemplate.metadata).labels = { ...asObj(asObj(infrastructureMachineTemplate.metadata).labels), [l.deploymentName]: name };

  let rollout: Obj | undefined;
  const classRollout = asObj(mdClass.rollout);
  const topologyRollout = asObj(mdTopology.rollout);
  if (Object.keys(classRollout).length > 0) rollout = { strategy: cloneJson(classRollout.strategy) };
  if (Object.keys(topologyRollout).length > 0) rollout = { after: topologyRollout.after, strategy: cloneJson(topologyRollout.strategy) };

  const mdName = named(input, id, roles.machineDeployment(name), 'machineDeployment', asObj(mdClass.naming).template as string | undefined, name);
  const annotations = mergeMap(asObj(mdTopology.metadata).annotations, asObj(mdClass.metadata).annotations) ?? {};
  delete annotations[a.holdUpgradeSequence];
  delete annotations[a.deferUpgrade];
  const labels = {
    ...mergeMap(asObj(mdTopology.metadata).labels, asObj(mdClass.metadata).labels),
    [l.clusterName]: id.name,
    [l.owned]: '',
    [l.deploymentName]: name,
  };
  const deletionFields = ['nodeDrainTimeoutSeconds', 'nodeVolumeDetachTimeoutSeconds', 'nodeDeletionTimeoutSeconds'];
  const machineDeletion: Obj = {};
  for (const f of deletionFields) {
    const v = pick(getPath(mdTopology, ['deletion', f]), getPath(mdClass, ['deletion', f]));
    if (v !== undefined && v !== null) machineDeletion[f] = v;
  }
  const templateSpec: Obj = {
    clusterName: id.name,
    version: blueprint.topology.version,
    bootstrap: { configRef: contractRef(bootstrapTemplate) },
    infrastructureRef: contractRef(infrastructureMachineTemplate),
  };
  const failureDomain = mdTopology.failureDomain || mdClass.failureDomain;
  if (failureDomain) templateSpec.failureDomain = failureDomain;
  if (Object.keys(machineDeletion).length > 0) templateSpec.deletion = machineDeletion;
  for (const f of ['readinessGates', 'taints', 'minReadySeconds']) {
    const v = pick(mdTopology[f], mdClass[f]);
    if (v !== undefined && v !== null) templateSpec[f] = cloneJson(v);
  }
  const templateMetadata: Obj = { labels: { ...labels } };
  if (Object.keys(annotations).length > 0) templateMetadata.annotations = { ...annotations };
  const spec: Obj = { clusterName: id.name };
  if (mdTopology.replicas !== undefined && mdTopology.replicas !== null) spec.replicas = mdTopology.replicas;
  if (rollout) spec.rollout = dropUndefined(rollout);
  const order = getPath(mdTopology, ['deletion', 'order']) || getPath(mdClass, ['deletion', 'order']);
  if (order) spec.deletion = { order };
  const maxInFlight = pick(getPath(mdTopology, ['healthCheck', 'remediation', 'maxInFlight']), getPath(mdClass, ['healthCheck', 'remediation', 'maxInFlight']));
  if (maxInFlight !== undefined && maxInFlight !== null) spec.remediation = { maxInFlight };
  spec.selector = { matchLabels: { [l.clusterName]: id.name, [l.owned]: '', [l.deploymentName]: name } };
  spec.template = { metadata: templateMetadata, spec: templateSpec };
  const metadata: Obj = { name: mdName, namespace: id.namespace, labels };
  if (Object.keys(annotations).length > 0) metadata.annotations = annotations;
  const object: KubeObject = { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'MachineDeployment', metadata, spec };

  const out: DesiredMachineDeployment = { object, bootstrapTemplate, infrastructureMachineTemplate };
  const topologyHc = asObj(mdTopology.healthCheck);
  const hcDefined = isDefinedHealthCheck(mdClass.healthCheck) || isDefinedHealthCheck(topologyHc);
  if (hcDefined && topologyHc.enabled !== false) {
    const hc = isDefinedHealthCheck(topologyHc) ? topologyHc : asObj(mdClass.healthCheck);
    out.machineHealthCheck = machineHealthCheck(object, { [l.owned]: '', [l.deploymentName]: name }, id, hc);
  }
  return out;
}

function machinePool(input: DesiredStateInput, id: ClusterIdentity, mpTopology: Obj): DesiredMachinePool {
  const { blueprint } = input;
  const name = String(mpTopology.name ?? '');
  const className = String(mpTopology.class ?? '');
  const mpBlueprint = blueprint.machinePools.get(className);
  if (!mpBlueprint) {
    const ccMeta = asObj(blueprint.clusterClass.metadata);
    throw new DesiredStateError(
      `failed to compute MachinePool for topology "${name}": MachinePool class ${className} not found in ClusterClass ${String(ccMeta.namespace ?? '')}/${String(ccMeta.name ?? '')}`,
    );
  }
  const mpClass = mpBlueprint.classDefinition;
  const owner = clusterOwnerRef(id);
  const simple = (role: string): string => input.currentNames?.get(role) ?? simpleName(namePrefixes.machinePoolObject(id.name, name), objectRandom(id.namespace, id.name, role).random);
  const bootstrapObject = templateToObject({
    template: mpBlueprint.bootstrapTemplate,
    cluster: id,
    name: simple(roles.machinePoolBootstrapConfig(name)),
    ownerRef: owner,
  });
  asObj(bootstrapObject.metadata).labels = { ...asObj(asObj(bootstrapObject.metadata).labels), [l.poolName]: name };
  const infrastructureMachinePoolObject = templateToObject({
    template: mpBlueprint.infrastructureMachinePoolTemplate,
    cluster: id,
    name: simple(roles.machinePoolInfrastructureMachinePool(name)),
    ownerRef: owner,
  });
  asObj(infrastructureMachinePoolObject.metadata).labels = { ...asObj(asObj(infrastructureMachinePoolObject.metadata).labels), [l.poolName]: name };

  const mpName = named(input, id, roles.machinePool(name), 'machinePool', asObj(mpClass.naming).template as string | undefined, name);
  const annotations = mergeMap(asObj(mpTopology.metadata).annotations, asObj(mpClass.metadata).annotations) ?? {};
  delete annotations[a.holdUpgradeSequence];
  delete annotations[a.deferUpgrade];
  const labels = {
    ...mergeMap(asObj(mpTopology.metadata).labels, asObj(mpClass.metadata).labels),
    [l.clusterName]: id.name,
    [l.owned]: '',
    [l.poolName]: name,
  };
  const machineDeletion: Obj = {};
  for (const f of ['nodeDrainTimeoutSeconds', 'nodeVolumeDetachTimeoutSeconds', 'nodeDeletionTimeoutSeconds']) {
    const v = pick(getPath(mpTopology, ['deletion', f]), getPath(mpClass, ['deletion', f]));
    if (v !== undefined && v !== null) machineDeletion[f] = v;
  }
  const templateSpec: Obj = {
    clusterName: id.name,
    version: blueprint.topology.version,
    bootstrap: { configRef: contractRef(bootstrapObject) },
    infrastructureRef: contractRef(infrastructureMachinePoolObject),
  };
  if (Object.keys(machineDeletion).length > 0) templateSpec.deletion = machineDeletion;
  for (const f of ['minReadySeconds', 'taints']) {
    const v = pick(mpTopology[f], mpClass[f]);
    if (v !== undefined && v !== null) templateSpec[f] = cloneJson(v);
  }
  const templateMetadata: Obj = { labels: { ...labels } };
  if (Object.keys(annotations).length > 0) templateMetadata.annotations = { ...annotations };
  const spec: Obj = { clusterName: id.name };
  if (mpTopology.replicas !== undefined && mpTopology.replicas !== null) spec.replicas = mpTopology.replicas;
  const failureDomains = pick(mpTopology.failureDomains, mpClass.failureDomains);
  if (failureDomains !== undefined && failureDomains !== null) spec.failureDomains = cloneJson(failureDomains);
  spec.template = { metadata: templateMetadata, spec: templateSpec };
  const metadata: Obj = { name: mpName, namespace: id.namespace, labels };
  if (Object.keys(annotations).length > 0) metadata.annotations = annotations;
  const object: KubeObject = { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'MachinePool', metadata, spec };
  return { object, bootstrapObject, infrastructureMachinePoolObject };
}

function dropUndefined(o: Obj): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = isObj(v) ? dropUndefined(v) : v;
  return out;
}

/** `generator.Generate` without patches: every object of the topology, refs wired. */
export function computeDesiredState(input: DesiredStateInput): DesiredClusterState {
  const { blueprint } = input;
  const id = identity(input.cluster);
  const classSpec = asObj(blueprint.clusterClass.spec);
  const topology = blueprint.topology;

  const infrastructureCluster = templateToObject({
    template: blueprint.infrastructureClusterTemplate,
    cluster: id,
    name: named(input, id, roles.infrastructureCluster, 'infrastructureCluster', getPath(classSpec, ['infrastructure', 'naming', 'template']) as string | undefined),
  });

  let cpInfraMachineTemplate: KubeObject | undefined;
  if (blueprint.controlPlaneInfrastructureMachineTemplate) {
    const role = roles.controlPlaneInfrastructureMachineTemplate;
    cpInfraMachineTemplate = templateToTemplate({
      template: blueprint.controlPlaneInfrastructureMachineTemplate,
      cluster: id,
      name:
        input.currentNames?.get(role) ??
        templateName(namePrefixes.controlPlaneInfrastructureMachineTemplate(id.name), id, role, blueprint.controlPlaneInfrastructureMachineTemplate),
      ownerRef: clusterOwnerRef(id),
    });
  }

  const controlPlane = controlPlaneObject(input, id, cpInfraMachineTemplate);
  let cpMachineHealthCheck: KubeObject | undefined;
  const cpClass = asObj(classSpec.controlPlane);
  const cpTopologyHc = asObj(asObj(topology.controlPlane).healthCheck);
  if (cpInfraMachineTemplate && (isDefinedHealthCheck(cpClass.healthCheck) || isDefinedHealthCheck(cpTopologyHc)) && cpTopologyHc.enabled !== false) {
    const hc = isDefinedHealthCheck(cpTopologyHc) ? cpTopologyHc : asObj(cpClass.healthCheck);
    cpMachineHealthCheck = machineHealthCheck(controlPlane, { [l.owned]: '', [l.controlPlane]: '' }, id, hc);
  }

  const cluster = cloneJson(input.cluster);
  cluster.apiVersion = 'cluster.x-k8s.io/v1beta2';
  const meta = asObj(cluster.metadata);
  cluster.metadata = meta;
  meta.labels = { ...asObj(meta.labels), [l.clusterName]: id.name, [l.owned]: '' };
  const clusterAnnotations = asObj(meta.annotations);
  delete clusterAnnotations[a.upgradeStep];
  delete clusterAnnotations[a.lastApplied];
  delete clusterAnnotations[a.conversionData];
  if (Object.keys(clusterAnnotations).length > 0) meta.annotations = clusterAnnotations;
  else delete meta.annotations;
  delete cluster.status;
  const clusterSpec = asObj(cluster.spec);
  cluster.spec = clusterSpec;
  clusterSpec.infrastructureRef = contractRef(infrastructureCluster);
  clusterSpec.controlPlaneRef = contractRef(controlPlane);

  const machineDeployments = new Map<string, DesiredMachineDeployment>();
  for (const md of asArray(getPath(topology, ['workers', 'machineDeployments']))) {
    machineDeployments.set(String(md.name ?? ''), machineDeployment(input, id, md));
  }
  const machinePools = new Map<string, DesiredMachinePool>();
  for (const mp of asArray(getPath(topology, ['workers', 'machinePools']))) {
    machinePools.set(String(mp.name ?? ''), machinePool(input, id, mp));
  }

  const controlPlaneState: DesiredClusterState['controlPlane'] = { object: controlPlane };
  if (cpInfraMachineTemplate) controlPlaneState.infrastructureMachineTemplate = cpInfraMachineTemplate;
  if (cpMachineHealthCheck) controlPlaneState.machineHealthCheck = cpMachineHealthCheck;
  return { cluster, infrastructureCluster, controlPlane: controlPlaneState, machineDeployments, machinePools };
}

function asArray(v: unknown): Obj[] {
  return Array.isArray(v) ? v.map(asObj) : [];
}
