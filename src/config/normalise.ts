/**
 * Loading stages 2 and 3: turn the parsed config into the read-only ResolvedConfig (defaults applied, providers in
 * install order) and check the rules that span fields. Both return every issue instead of stopping at the first.
 */
import { dirname } from 'node:path';
import type { z } from 'zod';
import { manifestLabel, providerTypeByFlag, providerTypeOrder } from '../capi/index.js';
import { formatConfigPath, type ConfigIssue } from './issues.js';
import { providerKinds, type ProviderKind } from './kinds.js';
import type { configSchema, providerSchema, targetSchema, variablesSchema } from './schema.js';
import type { ResolvedArgoCd, ResolvedCluster, ResolvedConfig, ResolvedProvider, ResolvedVariables } from './types.js';

type ParsedConfig = z.output<typeof configSchema>;

function normaliseVariables(vars: z.output<typeof variablesSchema> | undefined, env: NodeJS.ProcessEnv): ResolvedVariables {
  const out: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(vars ?? {})) {
    if (typeof value === 'object') out[name] = Object.prototype.hasOwnProperty.call(env, value.env) ? env[value.env] : undefined;
    else out[name] = String(value);
  }
  return Object.freeze(out);
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as Record<string, unknown>)) deepFreeze(v);
  }
  return value;
}

/** One provider entry as normalised: the schema's fields, `version` possibly left to a shared entry. */
type ProviderInput = Omit<z.output<typeof providerSchema>, 'version'> & { version?: string | undefined };
type ParsedProviders = Partial<Record<ProviderKind, ProviderInput | ProviderInput[]>>;
type ParsedTarget = z.output<typeof targetSchema>;

function providerList(providers: ParsedProviders | undefined, prefix: string): { kind: ProviderKind; entry: ProviderInput; configPath: string }[] {
  const out: { kind: ProviderKind; entry: ProviderInput; configPath: string }[] = [];
  for (const kind of providerKinds) {
    const entry = providers?.[kind];
    const list = entry === undefined ? [] : Array.isArray(entry) ? entry : [entry];
    list.forEach((p, i) => {
      out.push({ kind, entry: p, configPath: kind === 'core' && !Array.isArray(entry) ? `${prefix}providers.core` : `${prefix}providers.${kind}[${i}]` });
    });
  }
  return out;
}

function resolveProviders(entries: readonly { kind: ProviderKind; entry: ProviderInput; configPath: string }[], env: NodeJS.ProcessEnv): ResolvedProvider[] {
  const providers: ResolvedProvider[] = entries.map(({ kind, entry: p, configPath }) => {
    const type = providerTypeByFlag[kind]!;
    return {
      kind,
      type,
      name: p.name,
      label: manifestLabel(p.name, type),
      // Empty only for a management cluster's entry that names no shared provider to take it from (checkConfig says so).
      constraint: p.version ?? '',
      url: p.url,
      repositoryType: p.type,
      targetNamespace: p.targetNamespace,
      variables: normaliseVariables(p.variables, env),
      images: p.images,
      manager: p.manager,
      deployment: p.deployment,
      patches: p.patches ?? [],
      configPath,
    };
  });
  // Stable: within a type, the order written in the config.
  providers.sort((a, b) => providerTypeOrder(a.type) - providerTypeOrder(b.type));
  return providers;
}

type ParsedArgoCd = Partial<NonNullable<ParsedConfig['argocd']>>;

function resolveArgoCd(a: ParsedArgoCd | undefined): ResolvedArgoCd | undefined {
  if (!a || a.enabled === false) return undefined;
  return {
    // An empty repoURL only reaches here for a management cluster whose argocd names none anywhere (checkConfig says so).
    repoURL: a.repoURL ?? '',
    targetRevision: a.targetRevision ?? 'HEAD',
    path: a.path ?? '',
    mode: a.mode ?? 'applications',
    generator: a.generator,
    project: a.project,
    destination: a.destination,
    namespace: a.namespace,
    namePrefix: a.namePrefix,
    automated: a.automated,
  };
}

function resolveClusters(clusters: ParsedConfig['clusters'], hashNames: boolean, prefix: string, env: NodeJS.ProcessEnv): ResolvedCluster[] {
  return (clusters ?? []).map((c, i) => ({
    name: c.name,
    namespace: c.namespace,
    infrastructure: c.infrastructure,
    flavor: c.flavor,
    kubernetesVersion: c.kubernetesVersion,
    controlPlaneMachineCount: c.controlPlaneMachineCount,
    workerMachineCount: c.workerMachineCount,
    variables: normaliseVariables(c.variables, env),
    templates: { hashNames: c.templates?.hashNames ?? hashNames },
    template: c.template,
    patches: c.patches ?? [],
    templateVersion: c.templateVersion,
    configPath: `${prefix}clusters[${i}]`,
  }));
}

/** Where a management cluster's tree lives, relative to the config directory. */
export function targetTreeDir(name: string): string {
  return `targets/${name}`;
}

/**
 * A management cluster's providers: the shared ones, each overridden field by field by the target's entry of the same
 * type and name, then the target's own.
 */
function targetProviders(parsed: ParsedConfig, target: ParsedTarget, prefix: string) {
  const shared = providerList(parsed.providers, '');
  const own = providerList(target.providers, prefix);
  const merged = shared.map((s) => {
    const over = own.find((o) => o.kind === s.kind && o.entry.name === s.entry.name);
    if (!over) return s;
    const fields = Object.fromEntries(Object.entries(over.entry).filter(([, v]) => v !== undefined));
    return { kind: s.kind, entry: { ...s.entry, ...fields } as ProviderInput, configPath: over.configPath };
  });
  for (const o of own) if (!shared.some((s) => s.kind === o.kind && s.entry.name === o.entry.name)) merged.push(o);
  return merged;
}

function resolveTarget(parsed: ParsedConfig, name: string, target: ParsedTarget, file: string, env: NodeJS.ProcessEnv): ResolvedConfig {
  const prefix = `${formatConfigPath(['managementClusters', name])}.`;
  const tree = targetTreeDir(name);
  const hashNames = target.templates?.hashNames ?? parsed.templates?.hashNames ?? false;
  const certManager = target.certManager ?? parsed.certManager;
  const sharedArgo = parsed.argocd;
  const argocd = sharedArgo || target.argocd ? resolveArgoCd({ ...sharedArgo, ...target.argocd }) : undefined;
  return {
    file,
    dir: dirname(file),
    providers: resolveProviders(targetProviders(parsed, target, prefix), env),
    certManager: certManager ? { version: certManager.version, url: certManager.url, repositoryType: certManager.type } : undefined,
    contract: target.contract ?? parsed.contract,
    variables: normaliseVariables({ ...parsed.variables, ...target.variables }, env),
    images: { ...parsed.images, ...target.images },
    secrets: resolveSecrets(parsed),
    templates: { hashNames },
    output: parsed.output ?? 'components',
    contractLint: parsed.contractLint ?? 'warn',
    clusters: resolveClusters(target.clusters, hashNames, prefix, env),
    // Paths in the repository point into the target's folder; names and destination keep management clusters apart
    // when one Argo CD syncs them all.
    argocd: argocd && {
      ...argocd,
      path: argocd.path ? `${argocd.path.replace(/\/+$/, '')}/${tree}` : tree,
      namePrefix: target.argocd?.namePrefix ?? `${sharedArgo?.namePrefix ?? 'capi-'}${name}-`,
      destination: target.argocd?.destination ?? { name },
    },
    target: name,
    tree,
  };
}

function resolveSecrets(parsed: ParsedConfig): ResolvedConfig['secrets'] {
  return {
    variables: parsed.secrets?.variables ?? [],
    policy: parsed.secrets?.policy ?? 'fail',
    allowPlaintext: parsed.secrets?.allowPlaintext ?? [],
  };
}

export function normaliseConfig(parsed: ParsedConfig, file: string, env: NodeJS.ProcessEnv): ResolvedConfig {
  const templates = { hashNames: parsed.templates?.hashNames ?? false };
  const fleet = parsed.managementClusters;
  const targets = fleet
    ? Object.keys(fleet)
        .sort(compareNames)
        .map((name) => resolveTarget(parsed, name, fleet[name]!, file, env))
    : undefined;
  return deepFreeze({
    file,
    dir: dirname(file),
    providers: resolveProviders(providerList(parsed.providers, ''), env),
    certManager: parsed.certManager
      ? { version: parsed.certManager.version, url: parsed.certManager.url, repositoryType: parsed.certManager.type }
      : undefined,
    contract: parsed.contract,
    variables: normaliseVariables(parsed.variables, env),
    images: parsed.images ?? {},
    secrets: resolveSecrets(parsed),
    templates,
    output: parsed.output ?? 'components',
    contractLint: parsed.contractLint ?? 'warn',
    clusters: fleet ? [] : resolveClusters(parsed.clusters, templates.hashNames, '', env),
    // A fleet's own `argocd` is its one ApplicationSet (generator "clusters"); otherwise each target has its glue.
    argocd: !fleet || parsed.argocd?.generator === 'clusters' ? resolveArgoCd(parsed.argocd) : undefined,
    ...(targets ? { targets } : {}),
  });
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The two forms of the config, one management cluster or a fleet of them, cannot be mixed. */
export function checkForm(parsed: ParsedConfig): ConfigIssue[] {
  const fleet = parsed.managementClusters;
  if (!fleet) {
    const missing: ConfigIssue[] = parsed.providers ? [] : [{ path: 'providers', message: 'is required (object): the providers of the management cluster, or several under managementClusters' }];
    return [...missing, ...checkFleetGenerator(parsed, fleet)];
  }
  const issues: ConfigIssue[] = [];
  if (Object.keys(fleet).length === 0) issues.push({ path: 'managementClusters', message: 'names no management cluster; add one, e.g. { "eu-west": { clusters: [ … ] } }' });
  issues.push(...checkFleetGenerator(parsed, fleet));
  if (parsed.clusters !== undefined) {
    issues.push({
      path: 'clusters',
      message: 'cannot be used together with managementClusters: move each cluster under managementClusters.<name>.clusters (the management cluster that runs it)',
    });
  }
  return issues;
}

/**
 * `argocd.generator: "clusters"` is one ApplicationSet for the whole fleet: it belongs to the shared `argocd` of a
 * fleet, in `applicationset` mode, and no management cluster can change what the one object says.
 */
function checkFleetGenerator(parsed: ParsedConfig, fleet: NonNullable<ParsedConfig['managementClusters']> | undefined): ConfigIssue[] {
  const shared = parsed.argocd;
  const issues: ConfigIssue[] = [];
  if (!fleet) {
    if (shared?.generator === 'clusters') {
      issues.push({ path: 'argocd.generator', message: '"clusters" needs managementClusters: it generates every management cluster\'s Applications; use "list" or "git" here' });
    }
    return issues;
  }
  const clusters = shared?.generator === 'clusters' && shared.enabled !== false;
  if (clusters && shared.mode !== 'applicationset') {
    issues.push({ path: 'argocd.mode', message: 'must be "applicationset" with generator "clusters" (one ApplicationSet for the fleet)' });
  }
  for (const [name, t] of Object.entries(fleet)) {
    if (t.argocd === undefined) continue;
    const path = formatConfigPath(['managementClusters', name, 'argocd']);
    if (clusters) {
      issues.push({
        path,
        message: `cannot be set with the shared argocd.generator "clusters": one ApplicationSet serves every management cluster; label its Argo CD cluster ${managementClusterLabelName}=${name} instead`,
      });
    } else if (t.argocd.generator === 'clusters') {
      issues.push({ path: `${path}.generator`, message: '"clusters" is set in the top-level argocd: it generates every management cluster\'s Applications at once' });
    }
  }
  return issues;
}

/** The Argo CD cluster label naming a management cluster (render/argocd/fleet.ts, a layer above, writes it). */
const managementClusterLabelName = 'capiform.io/management-cluster';

/** Rules that span fields (a fleet: each management cluster's config). */
export function checkConfig(config: ResolvedConfig): ConfigIssue[] {
  if (!config.targets) return checkOne(config);
  const issues: ConfigIssue[] = [];
  for (const t of config.targets) issues.push(...checkOne(t));
  // A shared entry reported once per management cluster is the same problem.
  const seen = new Set<string>();
  return issues.filter((i) => {
    const key = `${i.path}\0${i.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function checkOne(config: ResolvedConfig): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const prefix = config.target === undefined ? '' : `${formatConfigPath(['managementClusters', config.target])}.`;
  if (!config.providers.some((p) => p.kind === 'core')) {
    issues.push({
      path: `${prefix}providers.core`,
      message: `is required: the core provider, e.g. { name: "cluster-api", version: "latest" }${prefix ? ' (here or in the shared top-level providers)' : ''}`,
    });
  }
  for (const p of config.providers) {
    if (p.constraint === '') {
      issues.push({ path: `${p.configPath}.version`, message: `is required: no shared provider "${p.name}" of this type to take it from` });
    }
  }
  if (config.argocd && config.argocd.repoURL === '') {
    issues.push({ path: `${prefix}argocd.repoURL`, message: 'is required (string): set it here or in the top-level argocd' });
  }
  const seenProviders = new Map<string, string>();
  for (const p of config.providers) {
    const prev = seenProviders.get(p.label);
    if (prev) issues.push({ path: `${p.configPath}.name`, message: `"${p.name}" is already configured at ${prev}; each provider once per type` });
    else seenProviders.set(p.label, p.configPath);
  }
  const infra = config.providers.filter((p) => p.type === 'InfrastructureProvider').map((p) => p.name);
  const seenClusters = new Map<string, string>();
  for (const c of config.clusters) {
    if (!infra.includes(c.infrastructure)) {
      issues.push({
        path: `${c.configPath}.infrastructure`,
        message: `"${c.infrastructure}" is not a configured infrastructure provider; allowed: ${
          infra.length ? infra.map((n) => `"${n}"`).join(', ') : 'none (add one under providers.infrastructure)'
        }`,
      });
    }
    if (c.template !== undefined) {
      if (c.flavor !== undefined) issues.push({ path: `${c.configPath}.template`, message: 'a cluster with its own template has no flavor; set either template or flavor' });
      const t = c.template.replaceAll('\\', '/');
      if (t.startsWith('/') || /^[A-Za-z]:/.test(t) || t.split('/').includes('..')) {
        issues.push({ path: `${c.configPath}.template`, message: `${JSON.stringify(c.template)} must be a path inside the project, relative to the config file` });
      } else if (!/\.ya?ml$/.test(t)) {
        issues.push({ path: `${c.configPath}.template`, message: `${JSON.stringify(c.template)} is not a YAML file (.yaml or .yml)` });
      }
      if (c.templateVersion !== undefined) {
        issues.push({
          path: `${c.configPath}.templateVersion`,
          message: 'cannot be used together with template: a cluster renders either its own template file or the template of a pinned provider release; remove one of them',
        });
      }
    }
    const key = `${c.namespace}/${c.name}`;
    const prev = seenClusters.get(key);
    if (prev) issues.push({ path: c.configPath, message: `cluster "${key}" is already defined at ${prev}; names must be unique per namespace` });
    else seenClusters.set(key, c.configPath);
  }
  for (const name of config.secrets.allowPlaintext) {
    if (config.secrets.variables.includes(name)) {
      issues.push({ path: 'secrets.allowPlaintext', message: `"${name}" is also listed in secrets.variables; list it in one of them` });
    }
  }
  return issues;
}
