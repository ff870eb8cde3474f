/**
 * Variables the config sets that nothing it renders reads: a typo (`POD_SECURITY_STANDARD_ENABLD`) renders clean with
 * the template's default, so the setting silently does nothing. "Used" is clusterctl's own notion: a name envsubst
 * finds in an artifact the entry renders (`GetVariables`: a provider's components file; a cluster's template and the
 * ClusterClass files it brings in, whose topology variables are filled from the same names), or one of clusterctl's
 * well-known names. A warning, never an error: a variable kept for a release not locked yet is legitimate.
 */
import { closestNames } from '../resolve/index.js';
import type { ResolvedConfig } from '../config/index.js';

/**
 * Names clusterctl itself gives or reads, whatever the templates say: the cluster settings it turns into variables
 * (`cmd/clusterctl/client/config.go` templateOptionsToVariables) and its own settings that may sit among the
 * variables of clusterctl.yaml (`CLUSTERCTL_LOG_LEVEL`, `CLUSTERCTL_DISABLE_VERSIONCHECK`, the repository tokens).
 */
export const clusterctlWellKnownVariables: ReadonlySet<string> = new Set([
  'CLUSTER_NAME',
  'NAMESPACE',
  'KUBERNETES_VERSION',
  'CONTROL_PLANE_MACHINE_COUNT',
  'WORKER_MACHINE_COUNT',
  'CLUSTERCTL_LOG_LEVEL',
  'CLUSTERCTL_DISABLE_VERSIONCHECK',
  'GITHUB_TOKEN',
  'GITLAB_ACCESS_TOKEN',
]);

/** One variable the config sets that nothing reads. */
export interface UnusedVariable {
  /** Where it is set: `clusters[2].variables.POD_SECURITY_STANDARD_ENABLD`, `variables.X`. */
  path: string;
  variable: string;
  /** The entry whose artifacts were searched: `clusters[2] (default/dev)`, `providers.core (cluster-api)`, `any provider or cluster`. */
  entry: string;
  /** Used names close to it, best first. */
  didYouMean: string[];
  /** Set in the global `variables` (a fleet: unused only if no management cluster uses it). */
  global: boolean;
}

/** What each rendered entry reads, collected while rendering. */
export interface VariableUse {
  /** Names each provider's components file reads, by label. */
  providers: Map<string, readonly string[]>;
  /** Names each cluster's template and ClusterClasses read, by config path; null: a template did not parse. */
  clusters: Map<string, Set<string> | null>;
}

export function variableUse(): VariableUse {
  return { providers: new Map(), clusters: new Map() };
}

/** Records that the cluster at `configPath` reads `names` (null: a file it renders did not parse). */
export function recordClusterUse(use: VariableUse, configPath: string, names: readonly string[] | null): void {
  const have = use.clusters.get(configPath);
  if (have === null) return;
  if (names === null) use.clusters.set(configPath, null);
  else use.clusters.set(configPath, new Set([...(have ?? []), ...names]));
}

/** Each variable of the config's providers, clusters and global `variables` that nothing rendered reads, in config order. */
export function unusedVariables(config: ResolvedConfig, use: VariableUse): UnusedVariable[] {
  const out: UnusedVariable[] = [];
  const unused = (path: string, names: Iterable<string>, used: ReadonlySet<string>, entry: string, global: boolean): void => {
    for (const name of [...names].sort()) {
      if (used.has(name) || clusterctlWellKnownVariables.has(name)) continue;
      out.push({ path: `${path}.${name}`, variable: name, entry, didYouMean: closestNames(name, used), global });
    }
  };
  const all = new Set<string>();
  let complete = true;
  for (const p of config.providers) {
    const used = use.providers.get(p.label);
    if (used === undefined) {
      complete = false;
      continue;
    }
    for (const n of used) all.add(n);
    unused(`${p.configPath}.variables`, Object.keys(p.variables), new Set(used), `${p.configPath} (${p.label})`, false);
  }
  for (const c of config.clusters) {
    const used = use.clusters.get(c.configPath);
    if (used === undefined || used === null) {
      complete = false;
      continue;
    }
    for (const n of used) all.add(n);
    unused(`${c.configPath}.variables`, Object.keys(c.variables), used, `${c.configPath} (${c.namespace}/${c.name})`, false);
  }
  // A global variable can be judged only once every entry's artifacts were read.
  if (complete) unused('variables', Object.keys(config.variables), all, 'any provider or cluster', true);
  return out;
}

/** The warning line for one unused variable. */
export function unusedVariableMessage(u: UnusedVariable): string {
  const reads = u.global ? 'no provider component, cluster template or ClusterClass reads it' : `no template, ClusterClass or component of ${u.entry} reads it`;
  return `warning: ${u.path} is set but ${reads}${u.didYouMean.length > 0 ? `; did you mean ${u.didYouMean.join(' or ')}?` : ''}`;
}
