/**
 * The patch engine (`core/reconcilers/topology/cluster/patches/engine.go`, spec capi-plan.md §3.4): one request
 * with a copy of every template the desired state is built from, the class's patches applied to it in order (each
 * sees the previous ones' results), then the patched templates written back into the desired objects with the
 * fields the topology controller owns preserved.
 *
 * External patches (Runtime SDK extensions) cannot run offline: they are skipped and named in the outcome, never
 * guessed at.
 */
import { BoundExceededError, TopologyPatchError } from '../../errors.js';
import { withTemplateMeter } from '../../go/template/index.js';
import type { ClusterBlueprint, DesiredClusterState, KubeObject } from '../state/index.js';
import { applyJsonPatch, JsonPatchError } from './json-patch.js';
import {
  generateWithDefinitions,
  InlinePatchError,
  type GeneratePatchesRequest,
  type GeneratePatchesRequestItem,
  type HolderReference,
} from './json-patch-generator.js';
import { BuiltinsTypeError } from './builtins.js';
import { cloneJson, isObject, nestedField, nestedString, NestedFieldError, removeNestedField, setNestedFieldNoCopy, type JsonObject } from './json.js';
import {
  controlPlaneVariables,
  definitionsForPatch,
  globalVariables,
  INLINE,
  machineDeploymentVariables,
  machinePoolVariables,
  VariablesError,
  type PatchVariable,
} from './variables.js';
import { withNondeterministicCallListener } from './value-template.js';

export interface PatchOutcome {
  warnings: string[];
  /** Names of the external patches that could not run; what they would change is unknown. */
  externalPatches: string[];
  /** What each inline patch set, in order, for reviews ("the values the patches set"). */
  changes: PatchChange[];
}

/** One operation of a patch on one desired object. */
export interface PatchChange {
  patch: string;
  /** The desired object's role (`controlPlane`, `machineDeploymentInfrastructureTemplate/md-0`, …). */
  role: string;
  op: string;
  /** Where in the desired object: template paths of objects built from `spec.template` are shown on the object. */
  path: string;
  value?: unknown;
}

const CLUSTER_API_VERSION = 'cluster.x-k8s.io/v1beta2';

/** Labels and annotations the topology controller sets and patches cannot change (`alwaysPreserveLabelsAndAnnotations`). */
const alwaysPreserve: readonly (readonly string[])[] = [
  ['metadata', 'labels', 'cluster.x-k8s.io/cluster-name'],
  ['metadata', 'labels', 'topology.cluster.x-k8s.io/owned'],
  ['metadata', 'labels', 'topology.cluster.x-k8s.io/deployment-name'],
  ['metadata', 'labels', 'topology.cluster.x-k8s.io/pool-name'],
  ['metadata', 'annotations', 'cluster.x-k8s.io/cloned-from-name'],
  ['metadata', 'annotations', 'cluster.x-k8s.io/cloned-from-groupkind'],
];

/** ControlPlane fields the topology controller owns, of both contracts (CAPI keeps both to need no contract lookup). */
const controlPlanePreserve: readonly (readonly string[])[] = [
  ['spec', 'machineTemplate', 'metadata'],
  ['spec', 'machineTemplate', 'readinessGates'],
  ['spec', 'machineTemplate', 'spec', 'readinessGates'],
  ['spec', 'machineTemplate', 'taints'],
  ['spec', 'machineTemplate', 'spec', 'taints'],
  ['spec', 'machineTemplate', 'infrastructureRef'],
  ['spec', 'machineTemplate', 'spec', 'infrastructureRef'],
  ['spec', 'machineTemplate', 'nodeDrainTimeout'],
  ['spec', 'machineTemplate', 'nodeVolumeDetachTimeout'],
  ['spec', 'machineTemplate', 'nodeDeletionTimeout'],
  ['spec', 'machineTemplate', 'spec', 'deletion', 'nodeDrainTimeoutSeconds'],
  ['spec', 'machineTemplate', 'spec', 'deletion', 'nodeVolumeDetachTimeoutSeconds'],
  ['spec', 'machineTemplate', 'spec', 'deletion', 'nodeDeletionTimeoutSeconds'],
  ['spec', 'replicas'],
  ['spec', 'version'],
  ['spec', 'rollout', 'after'],
];

type Fields = ReadonlyArray<readonly [src: readonly string[], dest: readonly string[]]>;

const labels = ['metadata', 'labels'];
const annotations = ['metadata', 'annotations'];
const templateLabels = ['spec', 'template', 'metadata', 'labels'];
const templateAnnotations = ['spec', 'template', 'metadata', 'annotations'];

/** Desired object metadata into a template that produces objects (its `spec.template.metadata`). */
const intoObjectTemplate: Fields = [
  [labels, templateLabels],
  [annotations, templateAnnotations],
];
/** Desired template metadata into a template that is cloned as a template (its own `metadata`). */
const intoTemplate: Fields = [
  [labels, labels],
  [annotations, annotations],
];
/** `patchObject`: a patched template onto the object built from it. */
const patchObjectFields: Fields = [
  [['spec', 'template', 'spec'], ['spec']],
  [templateLabels, labels],
  [templateAnnotations, annotations],
];
/** `patchTemplate`: a patched template onto the template cloned from it. */
const patchTemplateFields: Fields = [
  [labels, labels],
  [annotations, annotations],
  [['spec', 'template', 'spec'], ['spec', 'template', 'spec']],
  [templateLabels, templateLabels],
  [templateAnnotations, templateAnnotations],
];

/**
 * `patchUnstructured`: copies `fields` from `src` into `dest` in place, keeping `preserve` as `dest` had them. Every
 * set replaces a whole value and never writes into one, so the kept values are intact when they are put back, and
 * `dest` needs no copy of its own: a set that fails leaves it half-patched, but then the whole Cluster fails.
 * `src` is copied from, unless `fromDroppedCopy` says it is a patched template the request drops afterwards.
 */
function patchUnstructured(dest: JsonObject, src: JsonObject, fields: Fields, preserve: readonly (readonly string[])[] = [], fromDroppedCopy = false): void {
  const kept = preserve.map((p) => ({ path: p, ...nestedField(dest, p) })).filter((p) => p.found);
  for (const [from, to] of fields) {
    const field = nestedField(src, from);
    if (field.found) setNestedFieldNoCopy(dest, field.value, to, !fromDroppedCopy);
  }
  // A kept value is a subtree `dest` no longer holds elsewhere (its place was replaced, or it is put back in place).
  for (const p of kept) setNestedFieldNoCopy(dest, p.value, p.path);
}

/** `cleanupUnstructured`: what CAPI leaves out of the templates it sends to patches. */
function cleanupTemplate(template: JsonObject): void {
  removeNestedField(template, ['metadata', 'managedFields']);
  const a = nestedField(template, annotations).value;
  if (isObject(a)) {
    delete a['kubectl.kubernetes.io/last-applied-configuration'];
    delete a['cluster.x-k8s.io/conversion-data'];
    if (Object.keys(a).length === 0) removeNestedField(template, annotations);
  }
}

function objectRef(obj: KubeObject): string {
  const ns = nestedString(obj, ['metadata', 'namespace']);
  const name = nestedString(obj, ['metadata', 'name']) ?? '';
  return ns ? `${ns}/${name}` : name;
}

function describe(obj: KubeObject): string {
  return `${typeof obj.kind === 'string' ? obj.kind : 'object'} ${objectRef(obj)}`;
}

/** Where a request item's patched template goes back to, and how its variables are computed. */
type Slot =
  | { role: 'infrastructureCluster' }
  | { role: 'controlPlane' }
  | { role: 'controlPlaneInfrastructureMachineTemplate' }
  | { role: 'machineDeployment'; name: string; part: 'bootstrapTemplate' | 'infrastructureMachineTemplate'; topology: JsonObject }
  | { role: 'machinePool'; name: string; part: 'bootstrapObject' | 'infrastructureMachinePoolObject'; topology: JsonObject };

interface Request extends GeneratePatchesRequest {
  slots: Slot[];
}

/** The contract of the ControlPlane, from where its infrastructure machine template reference sits. */
function controlPlaneHolderFieldPath(controlPlane: KubeObject): string {
  if (nestedField(controlPlane, ['spec', 'machineTemplate', 'spec', 'infrastructureRef']).found) return 'spec.machineTemplate.spec.infrastructureRef';
  if (nestedField(controlPlane, ['spec', 'machineTemplate', 'infrastructureRef']).found) return 'spec.machineTemplate.infrastructureRef';
  const apiVersion = typeof controlPlane.apiVersion === 'string' ? controlPlane.apiVersion : '';
  return apiVersion.endsWith('/v1beta1') ? 'spec.machineTemplate.infrastructureRef' : 'spec.machineTemplate.spec.infrastructureRef';
}

function workerTopologies(blueprint: ClusterBlueprint, kind: 'machineDeployments' | 'machinePools'): JsonObject[] {
  const list = nestedField(blueprint.topology, ['workers', kind]).value;
  return Array.isArray(list) ? list.filter(isObject) : [];
}

class RequestBuildError extends Error {}

/** The role names of the topology engine's objects. */
function roleOf(slot: Slot): string {
  switch (slot.role) {
    case 'machineDeployment':
      return `${slot.part === 'bootstrapTemplate' ? 'machineDeploymentBootstrapTemplate' : 'machineDeploymentInfrastructureTemplate'}/${slot.name}`;
    case 'machinePool':
      return `${slot.part === 'bootstrapObject' ? 'machinePoolBootstrapConfig' : 'machinePoolInfrastructureMachinePool'}/${slot.name}`;
    default:
      return slot.role;
  }
}

/** A template path as a path of the desired object (objects take `spec.template.spec` as `spec`). */
function objectPath(slot: Slot, path: string): string {
  const producesObject = slot.role === 'infrastructureCluster' || slot.role === 'controlPlane' || slot.role === 'machinePool';
  if (!producesObject) return path;
  if (path === '/spec/template/spec' || path.startsWith('/spec/template/spec/')) return `/spec${path.slice('/spec/template/spec'.length)}`;
  if (path === '/spec/template/metadata' || path.startsWith('/spec/template/metadata/')) return `/metadata${path.slice('/spec/template/metadata'.length)}`;
  return path;
}

/** `createRequest`: the request items in CAPI's order, with the desired objects' metadata synced into the templates. */
function createRequest(blueprint: ClusterBlueprint, desired: DesiredClusterState, cpHolderFieldPath: string): Request {
  const request: Request = { variables: [], items: [], slots: [] };
  // CAPI syncs into the blueprint's templates themselves, so two MachineDeployments of one class share a copy.
  const working = new Map<KubeObject, JsonObject>();
  const workCopy = (t: KubeObject): JsonObject => {
    let w = working.get(t);
    if (!w) {
      w = cloneJson(t);
      working.set(t, w);
    }
    return w;
  };
  const add = (template: KubeObject, desiredObject: KubeObject, fields: Fields, holder: HolderReference, slot: Slot): void => {
    const w = workCopy(template);
    try {
      patchUnstructured(w, desiredObject, fields);
    } catch (err) {
      if (!(err instanceof NestedFieldError)) throw err;
      throw new RequestBuildError(`failed to prepare ${describe(template)} for patching: ${err.message}`);
    }
    cleanupTemplate(w);
    request.items.push({ uid: String(request.items.length + 1), holderReference: holder, object: cloneJson(w), variables: [] });
    request.slots.push(slot);
  };
  const cluster = desired.cluster;
  const clusterHolder = (fieldPath: string): HolderReference => ({
    apiVersion: CLUSTER_API_VERSION,
    kind: 'Cluster',
    name: nestedString(cluster, ['metadata', 'name']) ?? '',
    namespace: nestedString(cluster, ['metadata', 'namespace']) ?? '',
    fieldPath,
  });
  const holderOf = (obj: KubeObject, apiVersion: string, kind: string, fieldPath: string): HolderReference => ({
    apiVersion,
    kind,
    name: nestedString(obj, ['metadata', 'name']) ?? '',
    namespace: nestedString(obj, ['metadata', 'namespace']) ?? '',
    fieldPath,
  });

  add(blueprint.infrastructureClusterTemplate, desired.infrastructureCluster, intoObjectTemplate, clusterHolder('spec.infrastructureRef'), {
    role: 'infrastructureCluster',
  });
  add(blueprint.controlPlaneTemplate, desired.controlPlane.object, intoObjectTemplate, clusterHolder('spec.controlPlaneRef'), { role: 'controlPlane' });
  const cp = desired.controlPlane.object;
  if (blueprint.controlPlaneInfrastructureMachineTemplate && desired.controlPlane.infrastructureMachineTemplate) {
    add(
      blueprint.controlPlaneInfrastructureMachineTemplate,
      desired.controlPlane.infrastructureMachineTemplate,
      intoTemplate,
      holderOf(cp, typeof cp.apiVersion === 'string' ? cp.apiVersion : '', typeof cp.kind === 'string' ? cp.kind : '', cpHolderFieldPath),
      { role: 'controlPlaneInfrastructureMachineTemplate' },
    );
  }
  /** A worker topology and its class, with CAPI's errors when the desired state and the blueprint disagree. */
  const workerOf = <C>(kind: 'MachineDeployment' | 'MachinePool', name: string, classes: ReadonlyMap<string, C>): { topology: JsonObject; cls: C } => {
    const field = kind === 'MachineDeployment' ? 'machineDeployments' : 'machinePools';
    const topology = workerTopologies(blueprint, field).find((t) => t.name === name);
    if (!topology) throw new RequestBuildError(`failed to lookup ${kind} topology "${name}" in Cluster.spec.topology.workers.${field}`);
    const cls = classes.get(String(topology.class));
    if (!cls) throw new RequestBuildError(`failed to lookup ${kind} class "${String(topology.class)}" in ClusterClass`);
    return { topology, cls };
  };
  const bootstrapRef = 'spec.template.spec.bootstrap.configRef';
  const infrastructureRef = 'spec.template.spec.infrastructureRef';
  for (const [name, md] of desired.machineDeployments) {
    const { topology, cls } = workerOf('MachineDeployment', name, blueprint.machineDeployments);
    const holder = (fieldPath: string): HolderReference => holderOf(md.object, CLUSTER_API_VERSION, 'MachineDeployment', fieldPath);
    const slot = (part: 'bootstrapTemplate' | 'infrastructureMachineTemplate'): Slot => ({ role: 'machineDeployment', name, part, topology });
    add(cls.bootstrapTemplate, md.bootstrapTemplate, intoTemplate, holder(bootstrapRef), slot('bootstrapTemplate'));
    add(cls.infrastructureMachineTemplate, md.infrastructureMachineTemplate, intoTemplate, holder(infrastructureRef), slot('infrastructureMachineTemplate'));
  }
  for (const [name, mp] of desired.machinePools) {
    const { topology, cls } = workerOf('MachinePool', name, blueprint.machinePools);
    const holder = (fieldPath: string): HolderReference => holderOf(mp.object, CLUSTER_API_VERSION, 'MachinePool', fieldPath);
    const slot = (part: 'bootstrapObject' | 'infrastructureMachinePoolObject'): Slot => ({ role: 'machinePool', name, part, topology });
    add(cls.bootstrapTemplate, mp.bootstrapObject, intoObjectTemplate, holder(bootstrapRef), slot('bootstrapObject'));
    add(cls.infrastructureMachinePoolTemplate, mp.infrastructureMachinePoolObject, intoObjectTemplate, holder(infrastructureRef), slot('infrastructureMachinePoolObject'));
  }
  return request;
}

/** The variables of a request for one definition source: global ones, and per item those it gets (if any). */
interface RequestVariables {
  global: PatchVariable[];
  items: Array<PatchVariable[] | undefined>;
}

/**
 * `addVariablesForPatch`: global variables, and per item the control plane's or its worker's. They depend only on
 * the desired objects (which patches do not change) and on the definition source, so every inline patch shares one
 * computation.
 */
function variablesForPatch(
  blueprint: ClusterBlueprint,
  desired: DesiredClusterState,
  request: Request,
  definitionFrom: string,
  cpHolderFieldPath: string,
): RequestVariables {
  const definitions = definitionsForPatch(blueprint.clusterClass, definitionFrom);
  const global = globalVariables(blueprint.topology, desired.cluster, definitions);
  const cpTopology = nestedField(blueprint.topology, ['controlPlane']).value;
  const cpVariables = controlPlaneVariables(
    isObject(cpTopology) ? cpTopology : undefined,
    desired.controlPlane.object,
    desired.controlPlane.infrastructureMachineTemplate,
    definitions,
  );
  const items = request.items.map((item, i) => {
    const slot = request.slots[i] as Slot;
    let variables: PatchVariable[] | undefined;
    if (item.holderReference.fieldPath === 'spec.controlPlaneRef') variables = cpVariables;
    if (blueprint.controlPlaneInfrastructureMachineTemplate && item.holderReference.fieldPath === cpHolderFieldPath) variables = cpVariables;
    if (slot.role === 'machineDeployment') {
      const md = desired.machineDeployments.get(slot.name);
      if (md) {
        try {
          variables = machineDeploymentVariables(slot.topology, md.object, md.bootstrapTemplate, md.infrastructureMachineTemplate, definitions);
        } catch (err) {
          if (!(err instanceof VariablesError)) throw err;
          throw new VariablesError(`failed to calculate variables for ${objectRef(md.object)}: ${err.message}`);
        }
      }
    } else if (slot.role === 'machinePool') {
      const mp = desired.machinePools.get(slot.name);
      if (mp) {
        try {
          variables = machinePoolVariables(slot.topology, mp.object, mp.bootstrapObject, mp.infrastructureMachinePoolObject, definitions);
        } catch (err) {
          if (!(err instanceof VariablesError)) throw err;
          throw new VariablesError(`failed to calculate variables for ${objectRef(mp.object)}: ${err.message}`);
        }
      }
    }
    return variables;
  });
  return { global, items };
}

/** `applyPatchToRequest`: one generated JSON patch applied to its template; only spec, labels and annotations kept. */
function applyToItem(item: GeneratePatchesRequestItem, operations: Parameters<typeof applyJsonPatch>[1]): void {
  if (operations.length === 0) return;
  // A fresh copy: its fields move into the item without another one.
  const patched = applyJsonPatch(item.object, operations);
  for (const path of [['spec'], labels, annotations]) {
    const field = nestedField(patched, path);
    if (field.found) setNestedFieldNoCopy(item.object, field.value, path);
  }
}

/** `updateDesiredState`: the patched templates written back into the desired objects. */
function updateDesiredState(request: Request, desired: DesiredClusterState): void {
  request.items.forEach((item, i) => {
    const slot = request.slots[i] as Slot;
    const template = item.object;
    let dest: KubeObject | undefined;
    try {
      switch (slot.role) {
        case 'infrastructureCluster':
          dest = desired.infrastructureCluster;
          patchUnstructured(dest, template, patchObjectFields, alwaysPreserve, true);
          break;
        case 'controlPlane':
          dest = desired.controlPlane.object;
          patchUnstructured(dest, template, patchObjectFields, [...controlPlanePreserve, ...alwaysPreserve], true);
          break;
        case 'controlPlaneInfrastructureMachineTemplate':
          dest = desired.controlPlane.infrastructureMachineTemplate;
          if (dest) patchUnstructured(dest, template, patchTemplateFields, alwaysPreserve, true);
          break;
        case 'machineDeployment': {
          dest = desired.machineDeployments.get(slot.name)?.[slot.part];
          if (dest) patchUnstructured(dest, template, patchTemplateFields, alwaysPreserve, true);
          break;
        }
        case 'machinePool': {
          dest = desired.machinePools.get(slot.name)?.[slot.part];
          if (dest) patchUnstructured(dest, template, patchObjectFields, alwaysPreserve, true);
          break;
        }
      }
    } catch (err) {
      if (!(err instanceof NestedFieldError)) throw err;
      throw new TopologyPatchError(
        `failed to apply patches to desired state: failed to apply patch to ${dest ? describe(dest) : 'object'}: ${err.message}`,
        '',
        undefined,
        dest ? describe(dest) : undefined,
      );
    }
  });
}

/**
 * `engine.Apply`: applies the class's `spec.patches` to `desired` in place. Throws TopologyPatchError (exit 2) when a
 * patch fails as it would fail in CAPI; external patches are skipped and listed.
 */
export function applyPatches(blueprint: ClusterBlueprint, desired: DesiredClusterState): PatchOutcome {
  // One work meter for every template the class's patches run for this Cluster (docs/security-bounds.md).
  return withTemplateMeter(() => applyAllPatches(blueprint, desired));
}

function applyAllPatches(blueprint: ClusterBlueprint, desired: DesiredClusterState): PatchOutcome {
  const outcome: PatchOutcome = { warnings: [], externalPatches: [], changes: [] };
  const patches = nestedField(blueprint.clusterClass, ['spec', 'patches']).value;
  if (!Array.isArray(patches) || patches.length === 0) return outcome;
  const className = objectRef(blueprint.clusterClass);
  const where = (suffix: string): string => `ClusterClass ${className} spec.patches${suffix}`;

  const cpHolderFieldPath = controlPlaneHolderFieldPath(desired.controlPlane.object);
  let request: Request;
  try {
    request = createRequest(blueprint, desired, cpHolderFieldPath);
  } catch (err) {
    if (!(err instanceof RequestBuildError)) throw err;
    throw new TopologyPatchError(`failed to generate patch request: ${err.message}`, '', undefined, undefined, { where: where('') });
  }

  const variablesBySource = new Map<string, RequestVariables>();
  const applyOne = (raw: unknown, i: number): void => {
    const patch = isObject(raw) ? raw : {};
    const name = typeof patch.name === 'string' ? patch.name : '';
    const external = isObject(patch.external) ? patch.external : undefined;
    const definitions = Array.isArray(patch.definitions) ? patch.definitions : [];
    // A declaration (not an arrow) so that TypeScript knows the code after a call is unreachable.
    function fail(message: string, failure: { definition?: number; jsonPatch?: number; item?: number } = {}): never {
      const item = failure.item === undefined ? undefined : request.items[failure.item];
      const template = item ? describe(item.object) : undefined;
      const defPart = failure.definition === undefined ? '' : ` definitions[${failure.definition}]`;
      const opPart = failure.jsonPatch === undefined ? '' : `.jsonPatches[${failure.jsonPatch}]`;
      const on = template ? ` on ${template}` : '';
      throw new TopologyPatchError(`ClusterClass ${className}: patch "${name}"${defPart}${on}: ${message}`, name, failure.definition, template, {
        where: where(`[${i}]${failure.definition === undefined ? '' : `.definitions[${failure.definition}]`}${opPart}`),
        hint: 'Fix the patch in the ClusterClass (or the variables it reads): CAPI would fail to reconcile this Cluster the same way.',
      });
    }

    const definitionFrom = external ? name : INLINE;
    let variables = variablesBySource.get(definitionFrom);
    if (!variables) {
      try {
        variables = variablesForPatch(blueprint, desired, request, definitionFrom, cpHolderFieldPath);
      } catch (err) {
        if (!(err instanceof VariablesError) && !(err instanceof BuiltinsTypeError)) throw err;
        fail(`failed to calculate variables for patch "${name}": ${err.message}`);
      }
      variablesBySource.set(definitionFrom, variables);
    }
    request.variables = variables.global;
    variables.items.forEach((v, j) => {
      if (v) (request.items[j] as GeneratePatchesRequestItem).variables = v;
    });

    if (definitions.length === 0 && !external) fail(`failed to create patch generator for patch "${name}"`);
    if (definitions.length === 0) {
      // A Runtime SDK extension: only the management cluster can call it.
      outcome.externalPatches.push(name);
      const extension = external && typeof external.generatePatchesExtension === 'string' ? external.generatePatchesExtension : undefined;
      outcome.warnings.push(
        extension
          ? `patch "${name}" calls the runtime extension "${extension}", which cannot run offline: the objects it patches are shown without its changes`
          : `patch "${name}" is an external patch, which cannot run offline: what it would change or refuse is unknown`,
      );
      return;
    }

    const random = new Set<string>();
    let generated: ReturnType<typeof generateWithDefinitions>;
    try {
      generated = withNondeterministicCallListener(
        (fn) => random.add(fn),
        () => generateWithDefinitions(patch, request),
      );
    } catch (err) {
      if (!(err instanceof InlinePatchError)) throw err;
      const first = err.failures[0];
      fail(`failed to generate patches for patch "${name}": ${err.message}`, first ?? {});
    }
    for (const fn of [...random].sort()) {
      outcome.warnings.push(
        `patch "${name}" calls sprig's "${fn}", whose result in CAPI can differ on every reconcile (randomness, map order or the clock); the value shown is a stable stand-in`,
      );
    }

    for (const { uid, patch: operations, definition } of generated) {
      const itemIndex = request.items.findIndex((it) => it.uid === uid);
      const item = request.items[itemIndex];
      if (!item) fail('unable to find corresponding request item for patch');
      try {
        applyToItem(item, operations);
        const slot = request.slots[itemIndex] as Slot;
        for (const o of operations) {
          const change: PatchChange = { patch: name, role: roleOf(slot), op: o.op, path: objectPath(slot, o.path) };
          if (o.op !== 'remove') change.value = o.value;
          outcome.changes.push(change);
        }
      } catch (err) {
        if (err instanceof NestedFieldError) {
          fail(`failed to apply patches for patch "${name}": failed to apply patch to template: ${err.message}`, { definition, item: itemIndex });
        }
        if (!(err instanceof JsonPatchError)) throw err;
        fail(`failed to apply patches for patch "${name}": failed to apply patch: error applying json patch (RFC6902): ${err.message}`, {
          definition,
          item: itemIndex,
        });
      }
    }
  };
  patches.forEach((raw, i) => {
    try {
      applyOne(raw, i);
    } catch (err) {
      if (!(err instanceof BoundExceededError)) throw err;
      const name = isObject(raw) && typeof raw.name === 'string' ? raw.name : '';
      throw new BoundExceededError(`Cluster ${objectRef(desired.cluster)}: ClusterClass ${className}: patch "${name}": ${err.message}`, err.envName, {
        where: where(`[${i}]`),
        hint: `CAPI's patches change a few fields with small templates; if this one is genuine, raise the bound with ${err.envName}`,
      });
    }
  });

  updateDesiredState(request, desired);
  return outcome;
}
