/** The values rendering sees: variable lookups with credentials as markers, and the `images:` a provider follows. */
import { isSecretVariable, secretMarker, type ResolvedCluster, type ResolvedConfig, type ResolvedProvider } from '../config/index.js';
import type { ImageOverrides } from './components/images.js';
import { templateOptionsToVariables } from './tree/deps.js';

/** The `images:` a provider's manifests follow: the global entries and the provider's own. */
export function imageOverridesOf(config: ResolvedConfig, p: ResolvedProvider): ImageOverrides {
  return { ...config.images, ...(p.images ? { [p.label]: p.images } : {}) };
}

/** Variable lookup with credentials replaced by markers. */
export function lookupFor(config: ResolvedConfig, layers: readonly Readonly<Record<string, string | undefined>>[]): (name: string) => string | undefined {
  return (name) => {
    let value: string | undefined;
    let set = false;
    for (const l of layers) {
      if (Object.prototype.hasOwnProperty.call(l, name)) {
        value = l[name];
        set = value !== undefined;
        if (set) break;
      }
    }
    if (isSecretVariable(name, config)) {
      if (set && value !== '') return secretMarker(name);
      if (config.secrets.policy === 'omit') return secretMarker(name);
    }
    return set ? value : undefined;
  };
}

/** `name → value` for the variables a template uses, as the lookup gives them (null: not set). */
export function valuesOf(names: readonly string[], lookup: (name: string) => string | undefined): Record<string, string | null> {
  return Object.fromEntries(names.map((n) => [n, lookup(n) ?? null]));
}

/**
 * Every variable of `layers` with the value rendering sees (credentials as markers): a cache key part that changes
 * with any value that can reach the output and holds no credential.
 */
export function renderedValues(config: ResolvedConfig, layers: readonly Readonly<Record<string, string | undefined>>[]): Record<string, string | null> {
  const names = [...new Set(layers.flatMap((l) => Object.keys(l)))].sort();
  return valuesOf(names, lookupFor(config, layers));
}

export function clusterLookup(config: ResolvedConfig, c: ResolvedCluster): (name: string) => string | undefined {
  const base = lookupFor(config, [c.variables, config.variables]);
  const overrides = templateOptionsToVariables(
    {
      clusterName: c.name,
      targetNamespace: c.namespace,
      kubernetesVersion: c.kubernetesVersion,
      ...(c.controlPlaneMachineCount !== undefined ? { controlPlaneMachineCount: c.controlPlaneMachineCount } : {}),
      ...(c.workerMachineCount !== undefined ? { workerMachineCount: c.workerMachineCount } : {}),
    },
    base,
  );
  return (name) => (Object.prototype.hasOwnProperty.call(overrides, name) ? overrides[name] : base(name));
}
