/**
 * Every topology Cluster's variables against its ClusterClass (CAPI's defaulting and validation, run by the topology
 * engine), so a typo in a variable fails `render`, naming the config entry, instead of at the management cluster's
 * webhook after the merge. The pipeline calls the check once per cluster as each is rendered, so a fleet's objects
 * are never all held at once. Only variable findings count: a class that is not in the tree (applied by someone
 * else) or a template the engine cannot find is not this check's business. A door of its own, so a render that
 * needs it loads the topology engine and not the rest of validate.
 */
import { InputError } from '../../errors.js';
import type { FieldError } from '../../apiextensions/index.js';
import { expandTopology } from '../../topology/index.js';
import type { KubeObject } from '../../yaml/index.js';

export interface TopologyVariableFinding {
  /** `ns/name` of the Cluster. */
  cluster: string;
  /** `ns/name` of its ClusterClass. */
  class: string;
  errors: FieldError[];
}

function isVariableError(e: FieldError): boolean {
  return /(^|\.)variables(\[|$|\.)/.test(e.field) || e.field.includes('.variables.overrides');
}

/**
 * The variable errors of every topology Cluster among `objects` (Clusters, their classes and templates), and what
 * CAPI's ClusterClass webhook refuses about the classes themselves (messages of `E_TOPOLOGY_CLASS_INVALID`).
 */
export function topologyVariableFindings(objects: readonly KubeObject[]): { clusters: TopologyVariableFinding[]; invalidClasses: string[] } {
  const hasTopology = objects.some((o) => o.kind === 'Cluster' && typeof (o.spec as { topology?: unknown } | undefined)?.topology === 'object');
  if (!hasTopology) return { clusters: [], invalidClasses: [] };
  const result = expandTopology([...objects]);
  const clusters: TopologyVariableFinding[] = [];
  for (const c of result.clusters) {
    const errors = c.errors.filter(isVariableError);
    if (errors.length > 0) clusters.push({ cluster: c.cluster, class: c.class, errors });
  }
  return { clusters, invalidClasses: result.problems.filter((p) => p.code === 'E_TOPOLOGY_CLASS_INVALID').map((p) => p.message) };
}

/** The render error for a ClusterClass CAPI's webhook refuses (`message` from the topology engine). */
export function invalidClassError(message: string): InputError {
  return new InputError(message, { hint: 'fix the ClusterClass (or its release): the management cluster refuses to create it' }, 'E_TOPOLOGY_CLASS_INVALID');
}

/** The render error for one Cluster of the config (`configPath`, e.g. `clusters[1]`). */
export function topologyVariableError(f: TopologyVariableFinding, configPath: string): InputError {
  const lines = f.errors.map((e) => `  ${e.message}`);
  return new InputError(
    `the topology variables of Cluster ${f.cluster} are not valid for ClusterClass ${f.class} (CAPI's webhook would reject the Cluster):\n${lines.join('\n')}`,
    {
      hint: `the values come from the cluster template's spec.topology.variables, filled from ${configPath}.variables and the global variables: fix the value there`,
    },
    'E_TOPOLOGY_VARIABLES',
  );
}

/**
 * The check of one run: `check(objects, configPath)` gives the errors of the Cluster among `objects` (with its classes)
 * for config entry `configPath`; a class that CAPI's webhook refuses is reported once, with the first Cluster using it.
 */
export function topologyVariableChecker(): (objects: readonly KubeObject[], configPath: string) => InputError[] {
  const reportedClasses = new Set<string>();
  return (objects, configPath) => {
    const findings = topologyVariableFindings(objects);
    const errors = findings.clusters.map((f) => topologyVariableError(f, configPath));
    for (const message of findings.invalidClasses.filter((m) => !reportedClasses.has(m))) {
      reportedClasses.add(message);
      errors.push(invalidClassError(message));
    }
    return errors;
  };
}
