/**
 * The Cluster webhook's `DefaultAndValidateVariables` (`core/webhooks/admission/cluster.go`): the topology's
 * variables and the control plane / MachineDeployment / MachinePool overrides are defaulted from the class's
 * `status.variables`, written back into the topology, then validated (with the previous revision's values as
 * `oldSelf` for CEL transition rules).
 */
import type { KubeObject } from '../yaml/index.js';
import { asObj, getPath, isObj, type Obj } from './desired/index.js';
import type { FieldError } from './field/index.js';
import {
  clusterClassStatusVariables,
  defaultClusterVariables,
  defaultMachineVariables,
  validateClusterVariables,
  validateControlPlaneVariables,
  validateMachineVariables,
  type ClusterClassStatusVariable,
  type ClusterClassVariable,
  type ClusterVariable,
} from './variables/index.js';

/**
 * The class's `status.variables`: as written when the input carries a status (a dump of a live class), else built
 * from `spec.variables` as the ClusterClass controller does (external patches' variables are unknown offline).
 */
export function statusVariablesOf(clusterClass: KubeObject): ClusterClassStatusVariable[] {
  const status = getPath(clusterClass, ['status', 'variables']);
  if (Array.isArray(status) && status.length > 0) return status as ClusterClassStatusVariable[];
  const spec = getPath(clusterClass, ['spec', 'variables']);
  return clusterClassStatusVariables(Array.isArray(spec) ? (spec.filter(isObj) as unknown as ClusterClassVariable[]) : []);
}

function values(list: unknown): ClusterVariable[] {
  return Array.isArray(list) ? list.filter(isObj).map((v) => ({ name: String(v.name ?? ''), value: v.value })) : [];
}

/** Back to the API shape (`{name, value}`), dropping the raw JSON text. */
function plain(list: readonly ClusterVariable[]): Obj[] {
  return list.map((v) => ({ name: v.name, value: v.value ?? null }));
}

interface OverrideSite {
  path: string;
  holder: Obj;
  old: unknown;
  validate: typeof validateMachineVariables;
}

function overrideSites(topology: Obj, oldTopology: Obj): OverrideSite[] {
  const sites: OverrideSite[] = [];
  const cp = asObj(topology.controlPlane);
  sites.push({
    path: 'spec.topology.controlPlane.variables.overrides',
    holder: cp,
    old: getPath(oldTopology, ['controlPlane', 'variables', 'overrides']),
    validate: validateControlPlaneVariables,
  });
  for (const list of ['machineDeployments', 'machinePools'] as const) {
    const old = new Map<string, unknown>();
    for (const w of asArrayOfObj(getPath(oldTopology, ['workers', list]))) old.set(String(w.name ?? ''), getPath(w, ['variables', 'overrides']));
    for (const w of asArrayOfObj(getPath(topology, ['workers', list]))) {
      const name = String(w.name ?? '');
      sites.push({ path: `spec.topology.workers.${list}[${name}].variables.overrides`, holder: w, old: old.get(name), validate: validateMachineVariables });
    }
  }
  return sites;
}

function asArrayOfObj(v: unknown): Obj[] {
  return Array.isArray(v) ? v.filter(isObj) : [];
}

/** Defaults `topology` in place and returns every defaulting and validation error. */
export function defaultAndValidateVariables(topology: Obj, oldTopology: Obj | undefined, definitions: readonly ClusterClassStatusVariable[]): FieldError[] {
  const errors: FieldError[] = [];
  const old = oldTopology ?? {};
  const topPath = 'spec.topology.variables';
  const defaulted = defaultClusterVariables(values(topology.variables), definitions, topPath);
  if (defaulted.errors.length > 0) errors.push(...defaulted.errors);
  else topology.variables = plain(defaulted.variables);
  const sites = overrideSites(topology, old).filter((s) => values(getPath(s.holder, ['variables', 'overrides'])).length > 0);
  for (const site of sites) {
    const r = defaultMachineVariables(values(getPath(site.holder, ['variables', 'overrides'])), definitions, site.path);
    if (r.errors.length > 0) errors.push(...r.errors);
    else asObj(site.holder.variables).overrides = plain(r.variables);
  }
  errors.push(...validateClusterVariables(values(topology.variables), oldTopology ? values(old.variables) : undefined, definitions, topPath));
  for (const site of sites) {
    errors.push(...site.validate(values(getPath(site.holder, ['variables', 'overrides'])), site.old === undefined ? undefined : values(site.old), definitions, site.path));
  }
  return errors;
}

/** Where each variable's definition comes from, when it is not the class itself (`from` of an external patch). */
export function definitionFrom(definitions: readonly ClusterClassStatusVariable[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const d of definitions) {
    const from = d.definitions[0]?.from;
    if (from && from !== 'inline' && d.definitions.length === 1) out.set(d.name, from);
  }
  return out;
}
