/**
 * Loading stages 2 and 3: turn the parsed config into the read-only ResolvedConfig (defaults applied, providers in
 * install order) and check the rules that span fields. Both return every issue instead of stopping at the first.
 */
import { dirname } from 'node:path';
import type { z } from 'zod';
import { manifestLabel, providerTypeByFlag, providerTypeOrder } from '../capi/index.js';
import type { ConfigIssue } from './issues.js';
import { providerKinds } from './kinds.js';
import type { configSchema, variablesSchema } from './schema.js';
import type { ResolvedCluster, ResolvedConfig, ResolvedProvider, ResolvedVariables } from './types.js';

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

export function normaliseConfig(parsed: ParsedConfig, file: string, env: NodeJS.ProcessEnv): ResolvedConfig {
  const providers: ResolvedProvider[] = [];
  for (const kind of providerKinds) {
    const entry = parsed.providers[kind];
    const list = entry === undefined ? [] : Array.isArray(entry) ? entry : [entry];
    list.forEach((p, i) => {
      const type = providerTypeByFlag[kind]!;
      providers.push({
        kind,
        type,
        name: p.name,
        label: manifestLabel(p.name, type),
        constraint: p.version,
        url: p.url,
        repositoryType: p.type,
        targetNamespace: p.targetNamespace,
        variables: normaliseVariables(p.variables, env),
        images: p.images,
        manager: p.manager,
        deployment: p.deployment,
        patches: p.patches ?? [],
        configPath: kind === 'core' && !Array.isArray(entry) ? 'providers.core' : `providers.${kind}[${i}]`,
      });
    });
  }
  // Stable: within a type, the order written in the config.
  providers.sort((a, b) => providerTypeOrder(a.type) - providerTypeOrder(b.type));

  const templates = { hashNames: parsed.templates?.hashNames ?? false };
  const clusters: ResolvedCluster[] = (parsed.clusters ?? []).map((c, i) => ({
    name: c.name,
    namespace: c.namespace,
    infrastructure: c.infrastructure,
    flavor: c.flavor,
    kubernetesVersion: c.kubernetesVersion,
    controlPlaneMachineCount: c.controlPlaneMachineCount,
    workerMachineCount: c.workerMachineCount,
    variables: normaliseVariables(c.variables, env),
    templates: { hashNames: c.templates?.hashNames ?? templates.hashNames },
    template: c.template,
    patches: c.patches ?? [],
    configPath: `clusters[${i}]`,
  }));

  const a = parsed.argocd;
  return deepFreeze({
    file,
    dir: dirname(file),
    providers,
    certManager: parsed.certManager
      ? { version: parsed.certManager.version, url: parsed.certManager.url, repositoryType: parsed.certManager.type }
      : undefined,
    contract: parsed.contract,
    variables: normaliseVariables(parsed.variables, env),
    images: parsed.images ?? {},
    secrets: {
      variables: parsed.secrets?.variables ?? [],
      policy: parsed.secrets?.policy ?? 'fail',
      allowPlaintext: parsed.secrets?.allowPlaintext ?? [],
    },
    templates,
    clusters,
    argocd: a && a.enabled !== false
      ? {
          repoURL: a.repoURL,
          targetRevision: a.targetRevision ?? 'HEAD',
          path: a.path ?? '',
          mode: a.mode ?? 'applications',
          generator: a.generator,
          project: a.project,
          destination: a.destination,
          namespace: a.namespace,
          namePrefix: a.namePrefix,
          automated: a.automated,
        }
      : undefined,
  });
}

/** Rules that span fields. */
export function checkConfig(config: ResolvedConfig): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  if (!config.providers.some((p) => p.kind === 'core')) {
    issues.push({ path: 'providers.core', message: 'is required: the core provider, e.g. { name: "cluster-api", version: "latest" }' });
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
