/**
 * `expandTopology`: every topology Cluster among a set of objects, expanded offline into the objects CAPI's topology
 * controller would create for it (spec/capi-plan.md §3): class lookup, v1beta1 → v1beta2 conversion, variable
 * defaulting and validation, desired state, patches, names and the version upgrade plan.
 *
 * Cost is linear in the number of Clusters: each ClusterClass is converted and its templates resolved once, however
 * many Clusters use it.
 */
import { InputError, TopologyPatchError } from '../errors.js';
import type { KubeObject } from '../yaml/index.js';
import { clusterClassInvalidMessage, clusterClassWebhookErrors } from './class-webhook.js';
import { defaultAndValidateVariables, definitionFrom, statusVariablesOf } from './cluster-variables.js';
import { clusterClassToV1Beta2, clusterToV1Beta2 } from './convert/index.js';
import {
  asObj,
  cloneJson,
  computeDesiredState,
  contractRef,
  getPath,
  groupOf,
  isObj,
  roles,
  setPath,
  templateName,
  upgradePlan,
  versionOf,
  type ControlPlaneContract,
  type Obj,
  type UpgradePlan,
} from './desired/index.js';
import { fieldError, type FieldError } from './field/index.js';
import { namePrefixes } from './names/index.js';
import { applyPatches, type PatchChange } from './patches/index.js';
import type { ClusterBlueprint, DesiredClusterState, MachineDeploymentBlueprint, MachinePoolBlueprint } from './state/index.js';
import type { ClusterClassStatusVariable } from './variables/index.js';

export interface TopologyObject {
  /** `cluster`, `infrastructureCluster`, `controlPlane`, `machineDeployment/<name>`, … (issue 13's roles). */
  role: string;
  object: KubeObject;
}

export interface ExpandedVariable {
  name: string;
  value: unknown;
  definitionFrom?: string;
}

export interface ExpandedCluster {
  /** `namespace/name`. */
  cluster: string;
  /** `namespace/name` of the ClusterClass. */
  class: string;
  /**
   * In a fixed order: cluster, infrastructureCluster, controlPlaneInfrastructureMachineTemplate, controlPlane,
   * controlPlaneMachineHealthCheck, then per MachineDeployment (topology order) the MachineDeployment, its bootstrap
   * and infrastructure templates and MachineHealthCheck, then per MachinePool the MachinePool, its BootstrapConfig
   * and InfrastructureMachinePool. Empty when the Cluster cannot be expanded (see `errors`).
   */
  objects: TopologyObject[];
  /** The Cluster's topology variables after defaulting. */
  variables: ExpandedVariable[];
  /** Why the Cluster cannot be expanded, or what CAPI's webhooks would reject (variables, names, class, …). */
  errors: FieldError[];
  /** What the expansion could not know or reproduce exactly (external patches, random functions, …). */
  warnings: string[];
  /** Set when the control plane version changes: the hops through the class's `spec.kubernetesVersions`. */
  upgrade?: UpgradePlan;
  /** What each inline patch set, in patch order (for reviews: "the values the patches set"). */
  patchChanges?: PatchChange[];
}

export interface ExpandOptions {
  /**
   * An earlier expansion of the same Clusters (for example of the base revision). Object names are reused by role,
   * as CAPI reuses the names its Cluster already references; a template whose spec changed gets a new name (CAPI's
   * template rotation); `upgrade.from` is the previous control plane version.
   */
  previous?: readonly ExpandedCluster[];
}

/** Something about the input as a whole, not about one Cluster: a duplicate ClusterClass or Cluster, an invalid class. */
export interface TopologyProblem {
  /** A ClusterClass or Cluster given twice, or a ClusterClass that CAPI's ClusterClass webhook would refuse. */
  code: 'E_TOPOLOGY_DUPLICATE' | 'E_TOPOLOGY_CLASS_INVALID';
  message: string;
}

export interface ExpandResult {
  clusters: ExpandedCluster[];
  problems: TopologyProblem[];
}

/** Bounds: a fleet repository of thousands of Clusters is fine; beyond this the input is not a fleet but a mistake. */
export const topologyLimits = { maxObjects: 500_000, maxClusters: 20_000 } as const;

const clusterGroup = 'cluster.x-k8s.io';

const keyOf = (ns: string, name: string): string => `${ns}/${name}`;
const nsOf = (o: KubeObject): string => String(asObj(o.metadata).namespace ?? '') || 'default';
const nameOf = (o: KubeObject): string => String(asObj(o.metadata).name ?? '');
const isCapi = (o: KubeObject, kind: string): boolean => o.kind === kind && groupOf(String(o.apiVersion ?? '')) === clusterGroup;

/** Objects by what a ClusterClass template reference finds: namespace, API group, kind and name. */
class ObjectIndex {
  private readonly byKey = new Map<string, KubeObject>();
  readonly crds = new Map<string, KubeObject>();
  add(o: KubeObject): void {
    const key = `${nsOf(o)}|${groupOf(String(o.apiVersion ?? ''))}|${String(o.kind)}|${nameOf(o)}`;
    if (!this.byKey.has(key)) this.byKey.set(key, o);
    if (o.kind === 'CustomResourceDefinition') {
      const spec = asObj(o.spec);
      this.crds.set(`${String(spec.group ?? '')}|${String(asObj(spec.names).kind ?? '')}`, o);
    }
  }
  find(ns: string, apiVersion: string, kind: string, name: string): KubeObject | undefined {
    return this.byKey.get(`${ns}|${groupOf(apiVersion)}|${kind}|${name}`);
  }
}

/**
 * The contract of the ControlPlane (where its machine infrastructure ref lives). CAPI reads the ControlPlane CRD's
 * `cluster.x-k8s.io/<contract>` labels and picks the contract whose `_`-separated version list holds the object's
 * version. Offline the same rule applies when the CRD is among the input objects; without it the apiVersion decides:
 * `v1beta1` and `v1alpha*` control planes follow contract v1beta1 (CAPI ≤ 1.10 and most third-party providers), `v1beta2`
 * and later follow v1beta2.
 */
export function controlPlaneContract(controlPlaneApiVersion: string, crd?: KubeObject): ControlPlaneContract {
  const version = versionOf(controlPlaneApiVersion);
  if (crd) {
    for (const [label, value] of Object.entries(asObj(asObj(crd.metadata).labels))) {
      if (!label.startsWith(`${clusterGroup}/`)) continue;
      if (String(value).split('_').includes(version)) return label.slice(clusterGroup.length + 1) === 'v1beta1' ? 'v1beta1' : 'v1beta2';
    }
  }
  return /^v1(alpha\d+|beta1)$/.test(version) || /^v0/.test(version) ? 'v1beta1' : 'v1beta2';
}

interface TemplateRef {
  path: string;
  ref: Obj;
}

interface PreparedClass {
  key: string;
  clusterClass: KubeObject;
  errors: FieldError[];
  infrastructureClusterTemplate?: KubeObject;
  controlPlaneTemplate?: KubeObject;
  controlPlaneInfrastructureMachineTemplate?: KubeObject;
  machineDeployments: Map<string, MachineDeploymentBlueprint>;
  machinePools: Map<string, MachinePoolBlueprint>;
  contract: ControlPlaneContract;
  /** `status.variables`: what defaulting, validation and patches use. */
  variables: ClusterClassStatusVariable[];
  definitionFrom: Map<string, string>;
}

function prepareClass(raw: KubeObject, index: ObjectIndex): PreparedClass {
  const clusterClass = clusterClassToV1Beta2(raw);
  const ns = nsOf(raw);
  const spec = asObj(clusterClass.spec);
  const errors: FieldError[] = [];
  const resolve = ({ path, ref }: TemplateRef): KubeObject | undefined => {
    const apiVersion = String(ref.apiVersion ?? '');
    const kind = String(ref.kind ?? '');
    const name = String(ref.name ?? '');
    if (!kind || !name) {
      errors.push(fieldError('FieldValueRequired', path, undefined, 'template reference needs apiVersion, kind and name'));
      return undefined;
    }
    const found = index.find(ns, apiVersion, kind, name);
    if (!found) {
      errors.push(
        fieldError(
          'FieldValueNotFound',
          path,
          `${kind}/${name}`,
          `ClusterClass ${keyOf(ns, nameOf(raw))} references ${kind} "${name}" (${groupOf(apiVersion) || 'core'}), which is not among the input objects in namespace "${ns}"`,
        ),
      );
    }
    return found;
  };
  const refAt = (path: string, ...keys: string[]): TemplateRef => ({ path: `spec.${path}`, ref: asObj(getPath(spec, keys)) });
  const prepared: PreparedClass = {
    key: keyOf(ns, nameOf(raw)),
    clusterClass,
    errors,
    machineDeployments: new Map(),
    machinePools: new Map(),
    contract: 'v1beta2',
    variables: statusVariablesOf(clusterClass),
    definitionFrom: new Map(),
  };
  prepared.definitionFrom = definitionFrom(prepared.variables);
  clusterClass.status = { ...asObj(clusterClass.status), variables: prepared.variables };
  prepared.infrastructureClusterTemplate = resolve(refAt('infrastructure.templateRef', 'infrastructure', 'templateRef'));
  prepared.controlPlaneTemplate = resolve(refAt('controlPlane.templateRef', 'controlPlane', 'templateRef'));
  if (isObj(getPath(spec, ['controlPlane', 'machineInfrastructure', 'templateRef']))) {
    prepared.controlPlaneInfrastructureMachineTemplate = resolve(
      refAt('controlPlane.machineInfrastructure.templateRef', 'controlPlane', 'machineInfrastructure', 'templateRef'),
    );
  }
  for (const c of asArray(getPath(spec, ['workers', 'machineDeployments']))) {
    const cls = String(c.class ?? '');
    const base = `spec.workers.machineDeployments[${cls}]`;
    const bootstrapTemplate = resolve({ path: `${base}.bootstrap.templateRef`, ref: asObj(getPath(c, ['bootstrap', 'templateRef'])) });
    const infrastructureMachineTemplate = resolve({ path: `${base}.infrastructure.templateRef`, ref: asObj(getPath(c, ['infrastructure', 'templateRef'])) });
    if (bootstrapTemplate && infrastructureMachineTemplate) {
      prepared.machineDeployments.set(cls, { classDefinition: c, bootstrapTemplate, infrastructureMachineTemplate });
    }
  }
  for (const c of asArray(getPath(spec, ['workers', 'machinePools']))) {
    const cls = String(c.class ?? '');
    const base = `spec.workers.machinePools[${cls}]`;
    const bootstrapTemplate = resolve({ path: `${base}.bootstrap.templateRef`, ref: asObj(getPath(c, ['bootstrap', 'templateRef'])) });
    const infrastructureMachinePoolTemplate = resolve({ path: `${base}.infrastructure.templateRef`, ref: asObj(getPath(c, ['infrastructure', 'templateRef'])) });
    if (bootstrapTemplate && infrastructureMachinePoolTemplate) {
      prepared.machinePools.set(cls, { classDefinition: c, bootstrapTemplate, infrastructureMachinePoolTemplate });
    }
  }
  if (prepared.controlPlaneTemplate) {
    const apiVersion = String(prepared.controlPlaneTemplate.apiVersion ?? '');
    const kind = String(prepared.controlPlaneTemplate.kind ?? '').replace(/Template$/, '');
    prepared.contract = controlPlaneContract(apiVersion, index.crds.get(`${groupOf(apiVersion)}|${kind}`));
  }
  return prepared;
}

function asArray(v: unknown): Obj[] {
  return Array.isArray(v) ? v.map(asObj) : [];
}

/** The names an earlier expansion gave each role, and the previous objects by role. */
function previousByRole(previous: ExpandedCluster | undefined): Map<string, KubeObject> {
  const out = new Map<string, KubeObject>();
  for (const o of previous?.objects ?? []) out.set(o.role, o.object);
  return out;
}

/** Template roles whose names rotate when the template's spec changes, with the ref that points at each. */
function rotatingTemplates(desired: DesiredClusterState, contract: ControlPlaneContract): Array<{ role: string; prefix: string; template: KubeObject; setRef: (ref: Obj) => void }> {
  const out: Array<{ role: string; prefix: string; template: KubeObject; setRef: (ref: Obj) => void }> = [];
  const clusterName = nameOf(desired.cluster);
  const cpTemplate = desired.controlPlane.infrastructureMachineTemplate;
  if (cpTemplate) {
    const cpSpec = asObj(desired.controlPlane.object.spec);
    out.push({
      role: roles.controlPlaneInfrastructureMachineTemplate,
      prefix: namePrefixes.controlPlaneInfrastructureMachineTemplate(clusterName),
      template: cpTemplate,
      setRef: (ref) =>
        contract === 'v1beta1'
          ? setPath(cpSpec, ['machineTemplate', 'infrastructureRef', 'name'], ref.name)
          : setPath(cpSpec, ['machineTemplate', 'spec', 'infrastructureRef'], ref),
    });
  }
  for (const [name, md] of desired.machineDeployments) {
    const templateSpec = asObj(getPath(md.object, ['spec', 'template', 'spec']));
    out.push({
      role: roles.machineDeploymentBootstrapTemplate(name),
      prefix: namePrefixes.machineDeploymentTemplate(clusterName, name),
      template: md.bootstrapTemplate,
      setRef: (ref) => setPath(templateSpec, ['bootstrap', 'configRef'], ref),
    });
    out.push({
      role: roles.machineDeploymentInfrastructureTemplate(name),
      prefix: namePrefixes.machineDeploymentTemplate(clusterName, name),
      template: md.infrastructureMachineTemplate,
      setRef: (ref) => setPath(templateSpec, ['infrastructureRef'], ref),
    });
  }
  return out;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** CAPI's template rotation (`reconcile_state.go`): a template keeps its name while its spec is unchanged. */
function rotateTemplateNames(desired: DesiredClusterState, contract: ControlPlaneContract, previous: Map<string, KubeObject>): void {
  const id = { name: nameOf(desired.cluster), namespace: nsOf(desired.cluster) };
  for (const t of rotatingTemplates(desired, contract)) {
    const before = previous.get(t.role);
    const name = before && sameJson(before.spec, t.template.spec) ? nameOf(before) : templateName(t.prefix, id, t.role, t.template);
    asObj(t.template.metadata).name = name;
    t.setRef(contractRef(t.template));
  }
}

/** The objects of a desired state in the documented order, with their roles. */
function flatten(desired: DesiredClusterState): TopologyObject[] {
  const out: TopologyObject[] = [
    { role: roles.cluster, object: desired.cluster },
    { role: roles.infrastructureCluster, object: desired.infrastructureCluster },
  ];
  const cp = desired.controlPlane;
  if (cp.infrastructureMachineTemplate) out.push({ role: roles.controlPlaneInfrastructureMachineTemplate, object: cp.infrastructureMachineTemplate });
  out.push({ role: roles.controlPlane, object: cp.object });
  if (cp.machineHealthCheck) out.push({ role: roles.controlPlaneMachineHealthCheck, object: cp.machineHealthCheck });
  for (const [name, md] of desired.machineDeployments) {
    out.push({ role: roles.machineDeployment(name), object: md.object });
    out.push({ role: roles.machineDeploymentBootstrapTemplate(name), object: md.bootstrapTemplate });
    out.push({ role: roles.machineDeploymentInfrastructureTemplate(name), object: md.infrastructureMachineTemplate });
    if (md.machineHealthCheck) out.push({ role: roles.machineDeploymentMachineHealthCheck(name), object: md.machineHealthCheck });
  }
  for (const [name, mp] of desired.machinePools) {
    out.push({ role: roles.machinePool(name), object: mp.object });
    out.push({ role: roles.machinePoolBootstrapConfig(name), object: mp.bootstrapObject });
    out.push({ role: roles.machinePoolInfrastructureMachinePool(name), object: mp.infrastructureMachinePoolObject });
  }
  return out;
}

/**
 * The Cluster webhook's checks of the worker topologies (`internal/topology/check`
 * `MachineDeploymentTopologiesAreValidAndDefinedInClusterClass` and its MachinePool twin): each class exists in
 * the ClusterClass, each name is set and unique.
 */
function workerTopologyErrors(topology: Obj, clusterClass: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  for (const [list, label] of [
    ['machineDeployments', 'MachineDeploymentClass'],
    ['machinePools', 'MachinePoolClass'],
  ] as const) {
    const classes = new Set(asArray(getPath(clusterClass, ['spec', 'workers', list])).map((c) => String(c.class ?? '')));
    const names = new Set<string>();
    asArray(getPath(topology, ['workers', list])).forEach((w, i) => {
      const path = `spec.topology.workers.${list}[${i}]`;
      const cls = String(w.class ?? '');
      if (!classes.has(cls)) {
        errors.push(fieldError('FieldValueInvalid', `${path}.class`, cls, `${label} with name ${JSON.stringify(cls)} does not exist in ClusterClass ${JSON.stringify(nameOf(clusterClass))}`));
      }
      const name = String(w.name ?? '');
      if (!name) {
        errors.push(fieldError('FieldValueRequired', `${path}.name`, undefined, 'name must not be empty'));
        return;
      }
      if (names.has(name)) {
        const kind = list === 'machineDeployments' ? 'MachineDeployment' : 'MachinePool';
        errors.push(fieldError('FieldValueInvalid', `${path}.name`, name, `name must be unique. ${kind} with name ${JSON.stringify(name)} is defined more than once`));
      }
      names.add(name);
    });
  }
  return errors;
}

/** Names the Cluster already holds or the previous expansion used, by role (`currentObjectName` in CAPI). */
function currentNames(cluster: KubeObject, previous: Map<string, KubeObject>): Map<string, string> {
  const names = new Map<string, string>();
  for (const [role, o] of previous) if (nameOf(o)) names.set(role, nameOf(o));
  const spec = asObj(cluster.spec);
  const infra = String(asObj(spec.infrastructureRef).name ?? '');
  const cp = String(asObj(spec.controlPlaneRef).name ?? '');
  if (infra) names.set(roles.infrastructureCluster, infra);
  if (cp) names.set(roles.controlPlane, cp);
  return names;
}

function expandOne(
  raw: KubeObject,
  classes: Map<string, KubeObject>,
  prepared: Map<string, PreparedClass>,
  index: ObjectIndex,
  previous: ExpandedCluster | undefined,
): ExpandedCluster {
  const cluster = clusterToV1Beta2(raw);
  const ns = nsOf(raw);
  const name = nameOf(raw);
  const spec = asObj(cluster.spec);
  const topology = asObj(spec.topology);
  spec.topology = topology;
  // The Cluster webhook's defaulting: a version without its "v" gets one.
  if (typeof topology.version === 'string' && topology.version !== '' && !topology.version.startsWith('v')) topology.version = `v${topology.version}`;
  const classRef = asObj(topology.classRef);
  const className = String(classRef.name ?? '');
  const classNamespace = String(classRef.namespace ?? '') || ns;
  const result: ExpandedCluster = {
    cluster: keyOf(ns, name),
    class: keyOf(classNamespace, className),
    objects: [],
    variables: asArray(topology.variables).map((v) => ({ name: String(v.name ?? ''), value: cloneJson(v.value) })),
    errors: [],
    warnings: [],
  };
  if (!className) {
    result.errors.push(fieldError('FieldValueRequired', 'spec.topology.classRef.name', undefined, 'cannot be empty'));
    return result;
  }
  const classKey = keyOf(classNamespace, className);
  const rawClass = classes.get(classKey);
  if (!rawClass) {
    result.errors.push(
      fieldError(
        'FieldValueNotFound',
        'spec.topology.classRef',
        className,
        `ClusterClass "${className}" is not among the input objects in namespace "${classNamespace}"`,
      ),
    );
    return result;
  }
  let pc = prepared.get(classKey);
  if (!pc) {
    pc = prepareClass(rawClass, index);
    prepared.set(classKey, pc);
  }
  if (pc.errors.length > 0) {
    result.errors.push(...pc.errors);
    return result;
  }
  if (typeof topology.version !== 'string' || topology.version === '') {
    result.errors.push(fieldError('FieldValueRequired', 'spec.topology.version', undefined, 'version must be set'));
    return result;
  }
  const listed = getPath(pc.clusterClass, ['spec', 'kubernetesVersions']);
  const classVersions = Array.isArray(listed) ? listed.map(String) : [];
  if (classVersions.length > 0 && !classVersions.includes(topology.version)) {
    result.errors.push(fieldError('FieldValueInvalid', 'spec.topology.version', topology.version, 'version must match one of the versions defined in the ClusterClass'));
    return result;
  }
  const topologyErrors = workerTopologyErrors(topology, pc.clusterClass);
  if (topologyErrors.length > 0) {
    result.errors.push(...topologyErrors);
    return result;
  }
  const before = previousByRole(previous);
  const oldTopology = getPath(before.get(roles.cluster), ['spec', 'topology']);
  const variableErrors = defaultAndValidateVariables(topology, isObj(oldTopology) ? oldTopology : undefined, pc.variables);
  result.variables = asArray(topology.variables).map((v) => {
    const name = String(v.name ?? '');
    const from = pc.definitionFrom.get(name);
    return from ? { name, value: v.value, definitionFrom: from } : { name, value: v.value };
  });
  if (variableErrors.length > 0) {
    result.errors.push(...variableErrors);
    return result;
  }
  const blueprint: ClusterBlueprint = {
    topology,
    clusterClass: pc.clusterClass,
    infrastructureClusterTemplate: pc.infrastructureClusterTemplate as KubeObject,
    controlPlaneTemplate: pc.controlPlaneTemplate as KubeObject,
    controlPlaneInfrastructureMachineTemplate: pc.controlPlaneInfrastructureMachineTemplate,
    machineDeployments: pc.machineDeployments,
    machinePools: pc.machinePools,
  };
  let desired: DesiredClusterState;
  try {
    desired = computeDesiredState({ blueprint, cluster, controlPlaneContract: pc.contract, currentNames: currentNames(cluster, before) });
  } catch (err) {
    result.errors.push(fieldError('FieldValueInvalid', 'spec.topology', className, (err as Error).message));
    return result;
  }
  try {
    const outcome = applyPatches(blueprint, desired);
    result.warnings.push(...outcome.warnings);
    result.patchChanges = outcome.changes;
  } catch (err) {
    if (!(err instanceof TopologyPatchError)) throw err;
    result.errors.push(fieldError('FieldValueInvalid', 'spec.topology.classRef', className, err.message));
    return result;
  }
  rotateTemplateNames(desired, pc.contract, before);
  result.objects = flatten(desired);

  const previousVersion = getPath(before.get(roles.controlPlane), ['spec', 'version']);
  try {
    const plan = upgradePlan(topology.version, typeof previousVersion === 'string' ? previousVersion : undefined, classVersions);
    if (plan) result.upgrade = plan;
  } catch (err) {
    result.errors.push(fieldError('FieldValueInvalid', 'spec.topology.version', topology.version, (err as Error).message));
  }
  return result;
}

/**
 * The ClusterClass webhook's verdict on a class by itself, by the class's JSON text: render checks every Cluster
 * with its class in a call of its own and a review expands both revisions, so one class is judged many times, and
 * its checks (variable schemas, CEL rules, patch templates) cost far more than a Cluster's expansion.
 */
const classVerdicts = new Map<string, string | null>();
const CLASS_VERDICT_LIMIT = 64;

function classInvalidMessage(raw: KubeObject): string | null {
  const text = JSON.stringify(raw);
  let verdict = classVerdicts.get(text);
  if (verdict === undefined) {
    const errors = clusterClassWebhookErrors(clusterClassToV1Beta2(raw));
    verdict = errors.length > 0 ? clusterClassInvalidMessage(nameOf(raw), errors) : null;
    if (classVerdicts.size >= CLASS_VERDICT_LIMIT) classVerdicts.clear();
    classVerdicts.set(text, verdict);
  }
  return verdict;
}

/**
 * Expands every Cluster with `spec.topology` among `objects` (Clusters without a topology and other kinds are
 * ignored, except as the classes and templates the topologies reference). Clusters come out in input order.
 */
export function expandTopology(objects: readonly KubeObject[], options: ExpandOptions = {}): ExpandResult {
  if (objects.length > topologyLimits.maxObjects) {
    throw new InputError(`${objects.length} objects is more than the topology engine expands at once (${topologyLimits.maxObjects})`, {
      hint: 'expand the fleet in smaller sets of files',
    });
  }
  const index = new ObjectIndex();
  const classes = new Map<string, KubeObject>();
  const problems: TopologyProblem[] = [];
  const clusters: KubeObject[] = [];
  const seenClusters = new Set<string>();
  for (const o of objects) {
    if (!isObj(o)) continue;
    index.add(o);
    if (isCapi(o, 'ClusterClass')) {
      const key = keyOf(nsOf(o), nameOf(o));
      if (classes.has(key)) problems.push({ code: 'E_TOPOLOGY_DUPLICATE', message: `ClusterClass ${key} appears more than once; the first one is used` });
      else classes.set(key, o);
    } else if (isCapi(o, 'Cluster') && isObj(asObj(o.spec).topology)) {
      const key = keyOf(nsOf(o), nameOf(o));
      if (seenClusters.has(key)) {
        problems.push({ code: 'E_TOPOLOGY_DUPLICATE', message: `Cluster ${key} appears more than once; the first one is expanded` });
        continue;
      }
      seenClusters.add(key);
      clusters.push(o);
    }
  }
  if (clusters.length > topologyLimits.maxClusters) {
    throw new InputError(`${clusters.length} topology Clusters is more than the topology engine expands at once (${topologyLimits.maxClusters})`, {
      hint: 'expand the fleet in smaller sets of files',
    });
  }
  for (const [key, raw] of classes) {
    const invalid = classInvalidMessage(raw);
    if (invalid !== null) problems.push({ code: 'E_TOPOLOGY_CLASS_INVALID', message: `ClusterClass ${key}: ${invalid}` });
  }
  const previous = new Map((options.previous ?? []).map((p) => [p.cluster, p]));
  const prepared = new Map<string, PreparedClass>();
  return {
    clusters: clusters.map((c) => expandOne(c, classes, prepared, index, previous.get(keyOf(nsOf(c), nameOf(c))))),
    problems,
  };
}
