/**
 * The variables of a Cluster's `spec.topology` as CAPI's Cluster webhook handles them before the topology controller
 * computes the desired state (`DefaultAndValidateVariables`): Cluster-wide values and the control plane,
 * MachineDeployment and MachinePool overrides are defaulted, then validated, each at its own field path.
 */
import { FieldPath, type FieldError } from '../field/index.js';
import { isJsonObject } from '../openapi/index.js';
import { defaultClusterVariables, defaultMachineVariables, validateClusterVariables, validateControlPlaneVariables, validateMachineVariables } from './cluster.js';
import type { ClusterClassStatusVariable, ClusterVariable } from './types.js';

/** Every variable list of one Cluster topology. */
export interface TopologyVariables {
  variables: ClusterVariable[];
  controlPlane: ClusterVariable[];
  machineDeployments: Array<{ name: string; overrides: ClusterVariable[] }>;
  machinePools: Array<{ name: string; overrides: ClusterVariable[] }>;
}

function listOf(v: unknown): ClusterVariable[] {
  if (!Array.isArray(v)) return [];
  return v.filter(isJsonObject).map((x) => {
    const out: ClusterVariable = { name: String(x.name ?? '') };
    if (x.value !== undefined) out.value = x.value;
    return out;
  });
}

function overridesOf(holder: unknown): ClusterVariable[] {
  return isJsonObject(holder) && isJsonObject(holder.variables) ? listOf(holder.variables.overrides) : [];
}

function workersOf(workers: unknown, key: 'machineDeployments' | 'machinePools'): Array<{ name: string; overrides: ClusterVariable[] }> {
  const list = isJsonObject(workers) && Array.isArray(workers[key]) ? (workers[key] as unknown[]) : [];
  return list.filter(isJsonObject).map((w) => ({ name: String(w.name ?? ''), overrides: overridesOf(w) }));
}

/** The variable lists of a Cluster's `spec.topology` (v1beta1 and v1beta2 share these fields). */
export function topologyVariablesOf(topology: unknown): TopologyVariables {
  const t = isJsonObject(topology) ? topology : {};
  return {
    variables: listOf(t.variables),
    controlPlane: overridesOf(t.controlPlane),
    machineDeployments: workersOf(t.workers, 'machineDeployments'),
    machinePools: workersOf(t.workers, 'machinePools'),
  };
}

const topologyPath = FieldPath.of('spec', 'topology');
const variablesPath = topologyPath.child('variables');
const controlPlanePath = topologyPath.child('controlPlane', 'variables', 'overrides');
const workerPath = (kind: 'machineDeployments' | 'machinePools', name: string): FieldPath =>
  topologyPath.child('workers', kind).key(name).child('variables', 'overrides');

/**
 * `DefaultVariables` then the validation of `DefaultAndValidateVariables`: returns the defaulted lists (a list whose
 * defaulting failed stays as it was) and every error. `old` enables CEL transition rules (`oldSelf`).
 */
export function defaultAndValidateTopologyVariables(
  current: TopologyVariables,
  old: TopologyVariables | undefined,
  definitions: readonly ClusterClassStatusVariable[],
): { variables: TopologyVariables; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const defaulted: TopologyVariables = {
    variables: current.variables,
    controlPlane: current.controlPlane,
    machineDeployments: current.machineDeployments.map((w) => ({ ...w })),
    machinePools: current.machinePools.map((w) => ({ ...w })),
  };
  const cluster = defaultClusterVariables(current.variables, definitions, variablesPath);
  if (cluster.errors.length > 0) errors.push(...cluster.errors);
  else defaulted.variables = cluster.variables;
  if (current.controlPlane.length > 0) {
    const cp = defaultMachineVariables(current.controlPlane, definitions, controlPlanePath);
    if (cp.errors.length > 0) errors.push(...cp.errors);
    else defaulted.controlPlane = cp.variables;
  }
  for (const kind of ['machineDeployments', 'machinePools'] as const) {
    for (const w of defaulted[kind]) {
      if (w.overrides.length === 0) continue;
      const r = defaultMachineVariables(w.overrides, definitions, workerPath(kind, w.name));
      if (r.errors.length > 0) errors.push(...r.errors);
      else w.overrides = r.variables;
    }
  }

  errors.push(...validateClusterVariables(defaulted.variables, old?.variables, definitions, variablesPath));
  if (defaulted.controlPlane.length > 0) {
    errors.push(...validateControlPlaneVariables(defaulted.controlPlane, old?.controlPlane, definitions, controlPlanePath));
  }
  for (const kind of ['machineDeployments', 'machinePools'] as const) {
    const oldByName = new Map((old?.[kind] ?? []).map((w) => [w.name, w.overrides]));
    for (const w of defaulted[kind]) {
      if (w.overrides.length === 0) continue;
      errors.push(...validateMachineVariables(w.overrides, oldByName.get(w.name), definitions, workerPath(kind, w.name)));
    }
  }
  return { variables: defaulted, errors };
}
