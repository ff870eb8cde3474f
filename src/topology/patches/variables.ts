/**
 * The variables a patch sees (spec capi-plan.md §3.3, CAPI `core/reconcilers/topology/cluster/patches/variables`):
 * the Cluster's values the patch has definitions for, plus the `builtin` variable computed from the desired objects;
 * per template, the control plane's or the MachineDeployment's / MachinePool's overrides and builtins on top.
 * Values are plain JSON (CAPI carries them as raw JSON bytes).
 */
import { normalizeBuiltins } from './builtins.js';
import { isObject, nestedField, nestedString, type JsonObject } from './json.js';

/** `runtimehooksv1.Variable`. */
export interface PatchVariable {
  name: string;
  value: unknown;
}

/** `map[string]apiextensionsv1.JSON`, by variable name. */
export type VariableMap = ReadonlyMap<string, unknown>;

/** The name of the variable CAPI computes itself; a user variable of that name is never passed to patches. */
export const BUILTIN = 'builtin';

/** Inline patches see the variables defined with `from: inline` (`clusterv1.VariableDefinitionFromInline`). */
export const INLINE = 'inline';

/** Annotations CAPI strips before handing metadata to patches (`corev1.LastAppliedConfigAnnotation`, conversion data). */
const strippedAnnotations = ['kubectl.kubernetes.io/last-applied-configuration', 'cluster.x-k8s.io/conversion-data'];

/**
 * `definitionsForPatch`: the names of the class's variables with a definition `from` the given source (`inline` or
 * an external patch's name). The definitions are the class's `status.variables` when present (what CAPI reads);
 * a class read from files has no status, so then every `spec.variables` entry is an inline definition, as the
 * ClusterClass controller would record it.
 */
export function definitionsForPatch(clusterClass: JsonObject, definitionFrom: string): Set<string> {
  const out = new Set<string>();
  const status = nestedField(clusterClass, ['status', 'variables']).value;
  if (Array.isArray(status) && status.length > 0) {
    for (const v of status) {
      const defs = isObject(v) ? v.definitions : undefined;
      if (typeof v?.name === 'string' && Array.isArray(defs) && defs.some((d) => isObject(d) && d.from === definitionFrom)) out.add(v.name);
    }
    return out;
  }
  if (definitionFrom !== INLINE) return out;
  const spec = nestedField(clusterClass, ['spec', 'variables']).value;
  for (const v of Array.isArray(spec) ? spec : []) if (isObject(v) && typeof v.name === 'string') out.add(v.name);
  return out;
}

/** A list of `{name, value}` entries (Cluster variables or overrides) filtered by the patch's definitions. */
function userVariables(list: unknown, definitions: ReadonlySet<string>, skipBuiltin: boolean): PatchVariable[] {
  const out: PatchVariable[] = [];
  for (const v of Array.isArray(list) ? list : []) {
    if (!isObject(v) || typeof v.name !== 'string') continue;
    if (skipBuiltin && v.name === BUILTIN) continue;
    if (definitions.has(v.name)) out.push({ name: v.name, value: v.value ?? null });
  }
  return out;
}

/** `ObjectMeta` builtins of an object: only when it has labels or annotations (maps, even empty). */
function metadataOf(obj: JsonObject): JsonObject | undefined {
  const labels = nestedField(obj, ['metadata', 'labels']).value;
  const annotations = nestedField(obj, ['metadata', 'annotations']).value;
  if (!isObject(labels) && !isObject(annotations)) return undefined;
  const out: JsonObject = {};
  if (isObject(labels)) out.labels = labels;
  if (isObject(annotations)) {
    const kept = { ...annotations };
    for (const a of strippedAnnotations) delete kept[a];
    out.annotations = kept;
  }
  return out;
}

const nameOf = (obj: JsonObject | undefined): string | undefined => (obj ? nestedString(obj, ['metadata', 'name']) : undefined);

/** `variables.Global`: the Cluster's variables for this patch, then `builtin.cluster`. */
export function globalVariables(topology: JsonObject, cluster: JsonObject, definitions: ReadonlySet<string>): PatchVariable[] {
  const variables = userVariables(topology.variables, definitions, true);
  const namespace = nestedString(cluster, ['metadata', 'namespace']) ?? '';
  // `Cluster.GetClassKey`: classRef (v1beta2), or class/classNamespace (v1beta1); the class namespace defaults to the Cluster's.
  const classRefName = nestedString(cluster, ['spec', 'topology', 'classRef', 'name']) ?? nestedString(cluster, ['spec', 'topology', 'class']) ?? '';
  const classRefNamespace =
    nestedString(cluster, ['spec', 'topology', 'classRef', 'namespace']) || nestedString(cluster, ['spec', 'topology', 'classNamespace']) || '';
  const classKey = classRefName === '' ? { name: '', namespace: '' } : { name: classRefName, namespace: classRefNamespace || namespace };
  const builtin: JsonObject = {
    name: nestedString(cluster, ['metadata', 'name']),
    namespace,
    uid: nestedString(cluster, ['metadata', 'uid']),
    topology: {
      version: nestedString(cluster, ['spec', 'topology', 'version']),
      class: classKey.name,
      classNamespace: classKey.namespace,
      classRef: { name: classKey.name, namespace: classKey.namespace },
    },
  };
  const metadata = metadataOf(cluster);
  if (metadata) builtin.metadata = metadata;
  const network: JsonObject = {};
  let hasNetwork = false;
  const serviceDomain = nestedString(cluster, ['spec', 'clusterNetwork', 'serviceDomain']);
  if (serviceDomain) {
    network.serviceDomain = serviceDomain;
    hasNetwork = true;
  }
  for (const [key, from] of [
    ['services', 'services'],
    ['pods', 'pods'],
  ] as const) {
    const blocks = nestedField(cluster, ['spec', 'clusterNetwork', from, 'cidrBlocks']).value;
    if (Array.isArray(blocks)) {
      network[key] = blocks;
      hasNetwork = true;
    }
  }
  if (hasNetwork) builtin.network = network;
  variables.push({ name: BUILTIN, value: normalizeBuiltins({ cluster: builtin }) });
  return variables;
}

/** A builtin variable that cannot be computed from the desired objects (CAPI's message). */
export class VariablesError extends Error {}

/** A required field of a desired object (`contract.ControlPlane().Version().Get`), with CAPI's error. */
function requiredField(obj: JsonObject, path: string[], what: string, check: (v: unknown) => boolean): unknown {
  const { found, value } = nestedField(obj, path);
  if (!found) throw new VariablesError(`failed to get ${path.join('.')} from the ${what}: path .${path.join('.')}: field not found`);
  if (!check(value)) throw new VariablesError(`failed to get ${path.join('.')} from the ${what}: failed to get .${path.join('.')} from object`);
  return value;
}

/** `variables.ControlPlane`: control plane overrides for this patch, then `builtin.controlPlane`. */
export function controlPlaneVariables(
  controlPlaneTopology: JsonObject | undefined,
  controlPlane: JsonObject,
  infrastructureMachineTemplate: JsonObject | undefined,
  definitions: ReadonlySet<string>,
): PatchVariable[] {
  const variables = userVariables(nestedField(controlPlaneTopology, ['variables', 'overrides']).value, definitions, false);
  const builtin: JsonObject = { name: nameOf(controlPlane) };
  // Replicas only when the topology manages them: otherwise CAPI does not set spec.replicas on the ControlPlane.
  if (controlPlaneTopology?.replicas !== undefined && controlPlaneTopology.replicas !== null) {
    builtin.replicas = requiredField(controlPlane, ['spec', 'replicas'], 'ControlPlane', Number.isInteger);
  }
  const metadata = metadataOf(controlPlane);
  if (metadata) builtin.metadata = metadata;
  builtin.version = requiredField(controlPlane, ['spec', 'version'], 'ControlPlane', (v) => typeof v === 'string');
  if (infrastructureMachineTemplate) builtin.machineTemplate = { infrastructureRef: { name: nameOf(infrastructureMachineTemplate) } };
  variables.push({ name: BUILTIN, value: normalizeBuiltins({ controlPlane: builtin }) });
  return variables;
}

/** The builtins shared by MachineDeployments and MachinePools. */
function machineBuiltins(
  workerTopology: JsonObject,
  object: JsonObject,
  bootstrap: JsonObject | undefined,
  infrastructure: JsonObject | undefined,
): JsonObject {
  const builtin: JsonObject = {
    version: nestedString(object, ['spec', 'template', 'spec', 'version']),
    class: workerTopology.class,
    name: nameOf(object),
    topologyName: workerTopology.name,
  };
  const replicas = nestedField(object, ['spec', 'replicas']).value;
  if (typeof replicas === 'number') builtin.replicas = replicas;
  const metadata = metadataOf(object);
  if (metadata) builtin.metadata = metadata;
  if (bootstrap) builtin.bootstrap = { configRef: { name: nameOf(bootstrap) } };
  if (infrastructure) builtin.infrastructureRef = { name: nameOf(infrastructure) };
  return builtin;
}

/** `variables.MachineDeployment`: the MachineDeployment's overrides for this patch, then `builtin.machineDeployment`. */
export function machineDeploymentVariables(
  machineDeploymentTopology: JsonObject,
  machineDeployment: JsonObject,
  bootstrapTemplate: JsonObject | undefined,
  infrastructureMachineTemplate: JsonObject | undefined,
  definitions: ReadonlySet<string>,
): PatchVariable[] {
  const variables = userVariables(nestedField(machineDeploymentTopology, ['variables', 'overrides']).value, definitions, false);
  const builtin = machineBuiltins(machineDeploymentTopology, machineDeployment, bootstrapTemplate, infrastructureMachineTemplate);
  variables.push({ name: BUILTIN, value: normalizeBuiltins({ machineDeployment: builtin }) });
  return variables;
}

/** `variables.MachinePool`: the MachinePool's overrides for this patch, then `builtin.machinePool`. */
export function machinePoolVariables(
  machinePoolTopology: JsonObject,
  machinePool: JsonObject,
  bootstrapObject: JsonObject | undefined,
  infrastructureMachinePool: JsonObject | undefined,
  definitions: ReadonlySet<string>,
): PatchVariable[] {
  const variables = userVariables(nestedField(machinePoolTopology, ['variables', 'overrides']).value, definitions, false);
  const builtin = machineBuiltins(machinePoolTopology, machinePool, bootstrapObject, infrastructureMachinePool);
  variables.push({ name: BUILTIN, value: normalizeBuiltins({ machinePool: builtin }) });
  return variables;
}

/** `topologymutation.ToMap` (a later entry of the same name wins). */
export function toVariableMap(variables: readonly PatchVariable[] | undefined): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const v of variables ?? []) out.set(v.name, v.value);
  return out;
}

/**
 * `topologymutation.MergeVariableMaps`: later maps win, except that `builtin` objects are merged as Go merges them
 * (both unmarshalled into one `Builtins` struct).
 */
export function mergeVariableMaps(...maps: VariableMap[]): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const m of maps) {
    for (const [name, value] of m) {
      if (name === BUILTIN && out.has(name)) {
        out.set(name, normalizeBuiltins(out.get(name), value));
        continue;
      }
      out.set(name, value);
    }
  }
  return out;
}

/**
 * Variables given as raw JSON text (`apiextensionsv1.JSON.Raw`), by name or as `{name, value}` entries: the parsed
 * values, or an error naming the variable whose text is not JSON (CAPI fails when it decodes the variables).
 */
export function variablesFromRawJSON(raw: Record<string, string> | ReadonlyArray<{ name: string; value: string }> | null | undefined): Map<string, unknown> {
  const entries: Array<[string, string]> = Array.isArray(raw)
    ? (raw as ReadonlyArray<{ name: string; value: string }>).map((v) => [v.name, v.value])
    : Object.entries((raw ?? {}) as Record<string, string>);
  const out = new Map<string, unknown>();
  for (const [name, text] of entries) {
    // An empty `Raw` marshals as JSON null.
    if (text === '') {
      out.set(name, null);
      continue;
    }
    try {
      out.set(name, JSON.parse(text) as unknown);
    } catch (err) {
      throw new Error(`failed to convert variables: variable ${JSON.stringify(name)} is not valid JSON: ${(err as Error).message}`);
    }
  }
  return out;
}
