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
import { fieldError, type FieldError } from '../apiextensions/index.js';
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
  /** Whether the class's patches may read the names of rotating templates (see `patchesReadTemplateNames`). */
  readsTemplateNames: boolean;
  /**
   * The external patches whose runtime extension defines variables (`discoverVariablesExtension`) when the input
   * has no `status.variables` to say which: those definitions cannot be known offline.
   */
  discovering: Array<{ patch: string; extension: string }>;
}

/** External patches that discover variables, unless the class's `status.variables` (a live class's dump) lists them. */
function discoveringPatches(clusterClass: KubeObject): Array<{ patch: string; extension: string }> {
  const status = getPath(clusterClass, ['status', 'variables']);
  if (Array.isArray(status) && status.length > 0) return [];
  const out: Array<{ patch: string; extension: string }> = [];
  for (const p of asArray(getPath(clusterClass, ['spec', 'patches']))) {
    const extension = getPath(p, ['external', 'discoverVariablesExtension']);
    if (typeof extension === 'string' && extension !== '') out.push({ patch: String(p.name ?? ''), extension });
  }
  return out;
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
    readsTemplateNames: patchesReadTemplateNames(clusterClass),
    discovering: discoveringPatches(raw),
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

/**
 * Whether a class's patches may read the name of a rotating template: the builtins
 * `controlPlane.machineTemplate.infrastructureRef.name`, `machineDeployment.bootstrap.configRef.name` and
 * `machineDeployment.infrastructureRef.name`, directly or through an enclosing object (`.builtin`,
 * `.builtin.machineDeployment`, …). A conservative reading of the patch text: a false "yes" costs one more patch run.
 */
function patchesReadTemplateNames(clusterClass: KubeObject): boolean {
  const patches = getPath(clusterClass, ['spec', 'patches']);
  if (!Array.isArray(patches) || patches.length === 0) return false;
  const text = JSON.stringify(patches);
  if (/infrastructureRef|configRef|machineTemplate/.test(text)) return true;
  // The whole builtin, or the whole control plane / machine object, handed to a template or a variable value.
  return /builtin(\.(controlPlane|machineDeployment|machinePool))?(?![\w.])/.test(text);
}

/**
 * CAPI's template rotation (`templateToTemplate` keeps the name the Cluster's object already references;
 * `reconcileReferencedTemplate` gives a new name when the desired spec differs from the current one): a template
 * keeps its previous name while its patched spec is unchanged, and otherwise is named from its patched spec.
 * Returns the roles whose name this decides differently from the name the patches saw; `rotated` collects the
 * templates named from their spec, which keep that name from then on.
 */
function rotatedTemplateNames(
  desired: DesiredClusterState,
  contract: ControlPlaneContract,
  previous: Map<string, KubeObject>,
  rotated: Set<string>,
): Map<string, string> {
  const id = { name: nameOf(desired.cluster), namespace: nsOf(desired.cluster) };
  const changed = new Map<string, string>();
  for (const t of rotatingTemplates(desired, contract)) {
    if (rotated.has(t.role)) continue;
    const before = previous.get(t.role);
    if (before && nameOf(before) === nameOf(t.template) && sameJson(before.spec, t.template.spec)) continue;
    rotated.add(t.role);
    const name = templateName(t.prefix, id, t.role, t.template);
    if (name !== nameOf(t.template)) changed.set(t.role, name);
  }
  return changed;
}

/** Renames templates in place, with the references to them (for patches that never read the names). */
function renameTemplates(desired: DesiredClusterState, contract: ControlPlaneContract, names: Map<string, string>): void {
  for (const t of rotatingTemplates(desired, contract)) {
    const name = names.get(t.role);
    if (name === undefined) continue;
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
  const undiscovered = pc.discovering.length > 0 ? new Set<string>() : undefined;
  const variableErrors = defaultAndValidateVariables(topology, isObj(oldTopology) ? oldTopology : undefined, pc.variables, { undiscovered });
  const warnings: string[] = [];
  if (undiscovered && undiscovered.size > 0) {
    const by = pc.discovering.map((d) => `"${d.extension}" (patch "${d.patch}")`).join(', ');
    for (const v of [...undiscovered].sort()) {
      warnings.push(
        `variable "${v}" is not defined in ClusterClass ${pc.key}; it may be defined by the runtime extension ${by}, which cannot be asked offline: its value is kept as written, neither defaulted nor validated`,
      );
    }
  }
  result.variables = asArray(topology.variables).map((v) => {
    const name = String(v.name ?? '');
    const from = pc.definitionFrom.get(name);
    return from ? { name, value: v.value, definitionFrom: from } : { name, value: v.value };
  });
  const planner = upgradePlanExtensionOf(pc.clusterClass);
  if (planner) {
    warnings.push(
      `ClusterClass ${pc.key} plans Kubernetes upgrades through the runtime extension "${planner}" (spec.upgrade.external.generateUpgradePlanExtension), which cannot be asked offline: the versions an upgrade of this Cluster goes through are unknown`,
    );
  }
  result.warnings = [...warnings];
  if (variableErrors.length > 0) {
    // Defaulting and validation both report an undefined variable; the API server's `ToAggregate` says it once.
    const seen = new Set<string>();
    result.errors.push(...variableErrors.filter((e) => !seen.has(e.message) && seen.add(e.message)));
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
  // The names are fixed before the patches run, so the builtins the patches read name the templates that are
  // created. A template that rotates is named from its patched spec; when the patches read template names, they run
  // again with the final names (each template rotates once, so this ends).
  const names = currentNames(cluster, before);
  const rotated = new Set<string>();
  const readsNames = pc.readsTemplateNames;
  let desired: DesiredClusterState | undefined;
  for (let round = 0; ; round++) {
    let state: DesiredClusterState;
    try {
      state = computeDesiredState({ blueprint, cluster, controlPlaneContract: pc.contract, currentNames: names });
    } catch (err) {
      result.errors.push(fieldError('FieldValueInvalid', 'spec.topology', className, (err as Error).message));
      return result;
    }
    try {
      const outcome = applyPatches(blueprint, state);
      result.warnings = [...warnings, ...outcome.warnings];
      result.patchChanges = outcome.changes;
    } catch (err) {
      if (!(err instanceof TopologyPatchError)) throw err;
      result.errors.push(fieldError('FieldValueInvalid', 'spec.topology.classRef', className, err.message));
      return result;
    }
    desired = state;
    const changed = rotatedTemplateNames(state, pc.contract, before, rotated);
    if (changed.size === 0) break;
    if (!readsNames || round > rotatingTemplates(state, pc.contract).length) {
      renameTemplates(state, pc.contract, changed);
      break;
    }
    for (const [role, n] of changed) names.set(role, n);
  }
  result.objects = flatten(desired);

  const previousVersion = getPath(before.get(roles.controlPlane), ['spec', 'version']);
  try {
    const plan = upgradePlan(topology.version, typeof previousVersion === 'string' ? previousVersion : undefined, classVersions, planner);
    if (plan) result.upgrade = plan;
  } catch (err) {
    result.errors.push(fieldError('FieldValueInvalid', 'spec.topology.version', topology.version, (err as Error).message));
  }
  return result;
}

/** `spec.upgrade.external.generateUpgradePlanExtension` (CAPI v1.11+, the same path in v1beta1 and v1beta2). */
export function upgradePlanExtensionOf(clusterClass: unknown): string | undefined {
  const name = getPath(clusterClass, ['spec', 'upgrade', 'external', 'generateUpgradePlanExtension']);
  return typeof name === 'string' && name !== '' ? name : undefined;
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
