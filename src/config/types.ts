/** Config types: what users write (`CapiformConfig`, inferred from the schema) and the read-only resolved form. */
import type { z } from 'zod';
import type { ProviderType } from '../capi/index.js';
import type {
  argocdSchema,
  certManagerSchema,
  clusterSchema,
  configSchema,
  deploymentSchema,
  globalImagesSchema,
  managerSchema,
  patchSchema,
  ProviderKind,
  providerSchema,
  secretsSchema,
  targetSchema,
  templatesSchema,
  variablesSchema,
} from './schema.js';

/** What `capi.config.ts` exports (the argument of `defineConfig`). */
export type CapiformConfig = z.input<typeof configSchema>;
/** One provider entry of `providers.<type>`. */
export type ProviderEntry = z.input<typeof providerSchema>;
export type CertManagerConfig = z.input<typeof certManagerSchema>;
/** One entry of `clusters`. */
export type ClusterEntry = z.input<typeof clusterSchema>;
export type ManagerConfig = z.input<typeof managerSchema>;
export type DeploymentConfig = z.input<typeof deploymentSchema>;
export type PatchConfig = z.input<typeof patchSchema>;
export type SecretsConfig = z.input<typeof secretsSchema>;
export type TemplatesConfig = z.input<typeof templatesSchema>;
export type ArgoCdConfig = z.input<typeof argocdSchema>;
/** One entry of `managementClusters`. */
export type ManagementClusterConfig = z.input<typeof targetSchema>;
export type VariablesConfig = z.input<typeof variablesSchema>;
export type ImagesConfig = z.input<typeof globalImagesSchema>;
export type { ProviderKind };

export interface ImageOverride {
  readonly repository?: string;
  readonly name?: string;
  readonly tag?: string;
}

/** A variable value after normalisation: a string, or unset when it comes from an environment variable that is not set. */
export type ResolvedVariables = Readonly<Record<string, string | undefined>>;

export interface ResolvedProvider {
  readonly kind: ProviderKind;
  readonly type: ProviderType;
  readonly name: string;
  /** Manifest label (`cluster-api`, `infrastructure-docker`): the directory name under `providers/`. */
  readonly label: string;
  /** As written: `latest`, an exact version or a range. */
  readonly constraint: string;
  /** Repository URL as written (relative local paths kept relative), or undefined for the built-in catalog. */
  readonly url: string | undefined;
  readonly repositoryType: 'github' | 'gitlab' | 'https' | 'local' | undefined;
  readonly targetNamespace: string | undefined;
  readonly variables: ResolvedVariables;
  readonly images: ImageOverride | undefined;
  readonly manager: Readonly<z.output<typeof managerSchema>> | undefined;
  readonly deployment: Readonly<z.output<typeof deploymentSchema>> | undefined;
  readonly patches: readonly z.output<typeof patchSchema>[];
  /** Where it is in the config: `providers.infrastructure[1]`. */
  readonly configPath: string;
}

export interface ResolvedCertManager {
  readonly version: string;
  readonly url: string | undefined;
  readonly repositoryType: 'github' | 'gitlab' | 'https' | 'local' | undefined;
}

export interface ResolvedCluster {
  readonly name: string;
  readonly namespace: string;
  readonly infrastructure: string;
  readonly flavor: string | undefined;
  readonly kubernetesVersion: string;
  readonly controlPlaneMachineCount: number | undefined;
  readonly workerMachineCount: number | undefined;
  readonly variables: ResolvedVariables;
  /** Effective `templates` settings for the cluster's own objects (the cluster's, else the global ones). */
  readonly templates: ResolvedTemplates;
  /** The cluster's own template file, relative to the config file (`/`-separated), instead of the provider's. */
  readonly template: string | undefined;
  /** JSON patches applied after the template, in order. */
  readonly patches: readonly z.output<typeof patchSchema>[];
  /**
   * The release of the infrastructure provider the cluster's template and ClusterClasses come from (exact version or
   * range), instead of the provider's locked version; the lock pins it (`templatePins`).
   */
  readonly templateVersion: string | undefined;
  readonly configPath: string;
}

export interface ResolvedTemplates {
  /** Machine templates get `<name>-<hash>` names and every reference follows. */
  readonly hashNames: boolean;
}

export interface ResolvedSecrets {
  /** Names the config marks as credentials (besides names that look like credentials). */
  readonly variables: readonly string[];
  readonly policy: 'fail' | 'omit';
  readonly allowPlaintext: readonly string[];
}

export interface ResolvedArgoCd {
  readonly repoURL: string;
  readonly targetRevision: string;
  readonly path: string;
  readonly mode: 'applications' | 'applicationset';
  readonly generator: 'list' | 'git' | 'clusters' | undefined;
  readonly project: string | undefined;
  readonly destination: { server: string } | { name: string } | undefined;
  readonly namespace: string | undefined;
  readonly namePrefix: string | undefined;
  readonly automated: false | { prune: boolean; selfHeal: boolean } | undefined;
}

/** "warn": findings are printed; "strict": a MUST violation fails `lock`; "off": no lint. */
export type ContractLintMode = 'warn' | 'strict' | 'off';

/** The fully defaulted, read-only config every later stage uses. */
export interface ResolvedConfig {
  /** Absolute path of the config file. */
  readonly file: string;
  /** Absolute directory of the config file: the root of the rendered tree and of relative paths. */
  readonly dir: string;
  /** Providers in clusterctl install order (core, bootstrap, control plane, infrastructure, IPAM, runtime extension, add-on). */
  readonly providers: readonly ResolvedProvider[];
  readonly certManager: ResolvedCertManager | undefined;
  readonly contract: string | undefined;
  readonly variables: ResolvedVariables;
  readonly images: Readonly<Record<string, ImageOverride>>;
  readonly secrets: ResolvedSecrets;
  /** Global `templates` settings; they also apply to the ClusterClasses under clusterclasses/ (shared by clusters). */
  readonly templates: ResolvedTemplates;
  readonly clusters: readonly ResolvedCluster[];
  readonly argocd: ResolvedArgoCd | undefined;
  /**
   * A fleet (`managementClusters`): one complete config per management cluster, by name, each rendered under its own
   * `tree` folder with its own lock section. The fleet's own providers are the shared ones and it has no clusters.
   */
  readonly targets?: readonly ResolvedConfig[];
  /** In a fleet's target: the management cluster's name. */
  readonly target?: string;
  /** In a fleet's target: the folder of its tree relative to `dir` (`targets/<name>`); the single form renders into `dir`. */
  readonly tree?: string;
  /** How providers/<label>/ holds each provider (absent: "components"). */
  readonly output?: 'components' | 'operator';
  /** What `lock` does with provider-contract findings (absent: "warn"); a fleet's management clusters share it. */
  readonly contractLint?: ContractLintMode;
}
