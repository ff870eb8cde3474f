/**
 * The Cluster webhook's `DefaultAndValidateVariables` (`core/webhooks/admission/cluster.go`): the topology's
 * variables and the control plane / MachineDeployment / MachinePool overrides are defaulted from the class's
 * `status.variables`, written back into the topology, then validated (with the previous revision's values as
 * `oldSelf` for CEL transition rules).
 */
import type { KubeObject } from '../yaml/index.js';
import { asObj, getPath, isObj, type Obj } from './desired/index.js';
import type { FieldError } from '../apiextensions/index.js';
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

/**
 * Sets aside the entries of a `{name, value}` list whose name has no definition, and puts them back where they were
 * after the rest has been defaulted (defaulting keeps the input order and appends the variables it creates).
 */
function setAside(list: unknown, defined: ReadonlySet<string>, names: Set<string>): { known: Obj[]; restore: (defaulted: unknown) => Obj[] } {
  const all = Array.isArray(list) ? list.filter(isObj) : [];
  const known = all.filter((v) => defined.has(String(v.name ?? '')));
  for (const v of all) if (!defined.has(String(v.name ?? ''))) names.add(String(v.name ?? ''));
  const restore = (defaulted: unknown): Obj[] => {
    const byName = new Map((Array.isArray(defaulted) ? defaulted.filter(isObj) : []).map((v) => [String(v.name ?? ''), v]));
    const out = all.map((v) => byName.get(String(v.name ?? '')) ?? v);
    const present = new Set(all.map((v) => String(v.name ?? '')));
    for (const [name, v] of byName) if (!present.has(name)) out.push(v);
    return out;
  };
  return { known, restore };
}

export interface VariableOptions {
  /**
   * Set when a runtime extension defines variables that cannot be discovered offline (`discoverVariablesExtension`,
   * and no `status.variables` in the input): variables without a definition are then kept as written, neither
   * defaulted nor validated, and their names are added here instead of being errors.
   */
  undiscovered?: Set<string>;
}

/** Defaults `topology` in place and returns every defaulting and validation error. */
export function defaultAndValidateVariables(
  topology: Obj,
  oldTopology: Obj | undefined,
  definitions: readonly ClusterClassStatusVariable[],
  options: VariableOptions = {},
): FieldError[] {
  const undiscovered = options.undiscovered;
  if (!undiscovered) return defaultAndValidate(topology, oldTopology, definitions);
  const defined = new Set(definitions.map((d) => d.name));
  const ignored = new Set<string>();
  const view = (t: Obj, names: Set<string>): { copy: Obj; restore: () => void } => {
    const copy = structuredClone(t);
    const restores: Array<() => void> = [];
    const top = setAside(copy.variables, defined, names);
    if (Array.isArray(copy.variables)) copy.variables = top.known;
    restores.push(() => {
      if (copy.variables !== undefined) t.variables = top.restore(copy.variables);
    });
    const holders = (x: Obj): Obj[] => [
      asObj(x.controlPlane),
      ...asArrayOfObj(getPath(x, ['workers', 'machineDeployments'])),
      ...asArrayOfObj(getPath(x, ['workers', 'machinePools'])),
    ];
    const original = holders(t);
    holders(copy).forEach((h, i) => {
      const overrides = getPath(h, ['variables', 'overrides']);
      if (!Array.isArray(overrides)) return;
      const o = setAside(overrides, defined, names);
      asObj(h.variables).overrides = o.known;
      restores.push(() => {
        const target = asObj(original[i]?.variables);
        target.overrides = o.restore(asObj(h.variables).overrides);
      });
    });
    return { copy, restore: () => restores.forEach((r) => r()) };
  };
  const current = view(topology, undiscovered);
  const old = oldTopology ? view(oldTopology, ignored).copy : undefined;
  const errors = defaultAndValidate(current.copy, old, definitions);
  current.restore();
  return errors;
}

function defaultAndValidate(topology: Obj, oldTopology: Obj | undefined, definitions: readonly ClusterClassStatusVariable[]): FieldError[] {
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
