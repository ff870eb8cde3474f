/**
 * The zod schema of `capi.config.*` (stage 1 of loading: parse). Descriptions double as the committed JSON Schema
 * (`schema/capi.config.schema.json`) and as editor help; keep them short and user-facing.
 */
import { z } from 'zod';
import { contractPattern, isVersionConstraint, versionConstraintPattern, versionRangePattern } from './kinds.js';
import {
  flavorPattern,
  flavorProblem,
  maxNamePrefixLength,
  namePrefixGrammar,
  namePrefixPattern,
  repoPathGrammar,
  repoPathPattern,
  repoUrlPattern,
  repoUrlProblem,
} from './names.js';

export { contractPattern, isVersionConstraint, providerKinds, type ProviderKind } from './kinds.js';

const versionAllowed = 'an exact version (v1.13.5), a semver range (~1.13.0, ^2.10) or "latest"';

export const versionConstraintSchema = z
  .string()
  .refine(isVersionConstraint, {
    error: (iss) => `${JSON.stringify(iss.input)} is not a version or range; use ${versionAllowed}`,
  })
  // The refinement is code; the JSON Schema carries the same forms as a pattern.
  .meta({ pattern: versionConstraintPattern })
  .describe(`Provider version: ${versionAllowed}.`);

const dns1123Label = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const dns1123Subdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

const namespaceSchema = z
  .string()
  .max(63, { error: 'must be no more than 63 characters' })
  .regex(dns1123Label, {
    error: (iss) => `${JSON.stringify(iss.input)} is not a lowercase RFC 1123 label (a-z, 0-9 and "-", e.g. "capi-system")`,
  });

/** Variable values: strings, or numbers/booleans written as they would be in clusterctl.yaml. */
const variableValueSchema = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z
    .strictObject({ env: z.string().min(1).describe('Read the value from this environment variable at render time.') })
    .describe('A value taken from the environment of the render (use for credentials with secrets.policy "omit").'),
]);
export const variablesSchema = z
  .record(z.string().min(1), variableValueSchema)
  .describe('Variables for envsubst (clusterctl semantics). Strings, numbers, booleans or { env: NAME }.');

const imageOverrideSchema = z
  .strictObject({
    repository: z.string().min(1).optional().describe('Image repository (registry/path), e.g. "registry.example.com/capi".'),
    name: z.string().min(1).optional().describe('Image name (the last path element), e.g. "capd-manager".'),
    tag: z.string().min(1).optional().describe('Image tag.'),
  })
  .describe('clusterctl image override: replaces the repository, name and/or tag of matching images.');

/** clusterctl `images:`: key = `all`, a provider label (`infrastructure-aws`) or `cert-manager`. */
export const globalImagesSchema = z
  .record(z.string().min(1), imageOverrideSchema)
  .describe('clusterctl `images:` overrides keyed by "all", a provider label (e.g. "infrastructure-aws") or "cert-manager".');

const durationSchema = z
  .string()
  .regex(/^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$/, { error: (iss) => `${JSON.stringify(iss.input)} is not a Go duration such as "10m" or "1h30m"` });

const hostPortSchema = z.string().regex(/^[^\s]*:[0-9]{1,5}$/, {
  error: (iss) => `${JSON.stringify(iss.input)} is not an address such as ":8080" or "localhost:6060"`,
});

export const managerSchema = z
  .strictObject({
    featureGates: z.record(z.string().min(1), z.boolean()).optional().describe('--feature-gates=A=true,B=false (sorted).'),
    verbosity: z.int().min(0).optional().describe('--v=N'),
    syncPeriod: durationSchema.optional().describe('--sync-period (Go duration).'),
    profilerAddress: hostPortSchema.optional().describe('--profiler-address'),
    maxConcurrentReconciles: z.int().min(1).optional().describe('--max-concurrent-reconciles'),
    metricsBindAddress: hostPortSchema.optional().describe('--metrics-bind-addr'),
    healthAddr: hostPortSchema.optional().describe('--health-addr'),
    additionalArgs: z
      .record(z.string().regex(/^--?[A-Za-z0-9][-A-Za-z0-9_.]*$/, { error: 'flag names start with "--", e.g. "--leader-elect"' }), z.string())
      .optional()
      .describe('Extra flags for the manager container, e.g. { "--leader-elect": "true" }.'),
  })
  .describe('Flags of the `manager` container (Cluster API Operator ProviderSpec.manager semantics).');

const envVarSchema = z.strictObject({
  name: z.string().min(1),
  value: z.string().optional(),
  valueFrom: z.record(z.string(), z.unknown()).optional(),
});

const resourcesSchema = z.strictObject({
  limits: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  requests: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});

const containerSchema = z.strictObject({
  name: z.string().min(1).describe('Container name, e.g. "manager".'),
  image: z.string().min(1).optional(),
  args: z.record(z.string(), z.string()).optional().describe('Flags to set (replacing a flag of the same name), e.g. { "--v": "4" }.'),
  env: z.array(envVarSchema).optional().describe('Environment variables to set (replacing one of the same name).'),
  resources: resourcesSchema.optional(),
});

const tolerationSchema = z.strictObject({
  key: z.string().optional(),
  operator: z.enum(['Exists', 'Equal']).optional(),
  value: z.string().optional(),
  effect: z.enum(['NoSchedule', 'PreferNoSchedule', 'NoExecute']).optional(),
  tolerationSeconds: z.int().optional(),
});

export const deploymentSchema = z
  .strictObject({
    replicas: z.int().min(0).optional(),
    nodeSelector: z.record(z.string(), z.string()).optional(),
    tolerations: z.array(tolerationSchema).optional(),
    affinity: z.record(z.string(), z.unknown()).optional().describe('A Kubernetes Affinity object, used as is.'),
    containers: z.array(containerSchema).optional(),
  })
  .describe('Settings of the provider Deployment (Cluster API Operator ProviderSpec.deployment semantics).');

const jsonPointer = z.string().regex(/^(\/([^~/]|~[01])*)*$/, { error: (iss) => `${JSON.stringify(iss.input)} is not a JSON pointer such as "/spec/replicas"` });

const patchOperationSchema = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('add'), path: jsonPointer, value: z.unknown() }),
  z.strictObject({ op: z.literal('replace'), path: jsonPointer, value: z.unknown() }),
  z.strictObject({ op: z.literal('test'), path: jsonPointer, value: z.unknown() }),
  z.strictObject({ op: z.literal('remove'), path: jsonPointer }),
  z.strictObject({ op: z.literal('move'), from: jsonPointer, path: jsonPointer }),
  z.strictObject({ op: z.literal('copy'), from: jsonPointer, path: jsonPointer }),
]);

export const patchSchema = z
  .strictObject({
    target: z
      .strictObject({
        apiVersion: z.string().min(1).optional(),
        kind: z.string().min(1).optional(),
        name: z.string().min(1).optional(),
        namespace: z.string().min(1).optional(),
      })
      .describe('Objects the patch applies to; every given field must match exactly.'),
    patch: z.array(patchOperationSchema).min(1).describe('RFC 6902 operations.'),
  })
  .describe('An RFC 6902 JSON patch applied after every other change.');

export const repositoryTypeSchema = z
  .enum(['github', 'gitlab', 'https', 'local'])
  .describe('Repository kind, when the url alone does not say it.');

export const providerSchema = z
  .strictObject({
    name: z
      .string()
      .max(63, { error: 'must be no more than 63 characters' })
      .regex(dns1123Label, {
        error: (iss) => `${JSON.stringify(iss.input)} is not a provider name: a lowercase RFC 1123 label (a-z, 0-9 and "-", e.g. "docker")`,
      })
      .describe('Catalog name (e.g. "aws", "kubeadm") or any lowercase RFC 1123 label when `url` is given.'),
    version: versionConstraintSchema,
    url: z
      .string()
      .min(1)
      .optional()
      .describe('Repository URL: a local folder (relative to the config file) or a remote form clusterctl accepts.'),
    type: repositoryTypeSchema.optional(),
    targetNamespace: namespaceSchema.optional().describe('Namespace the provider is installed in.'),
    variables: variablesSchema.optional(),
    images: imageOverrideSchema.optional(),
    manager: managerSchema.optional(),
    deployment: deploymentSchema.optional(),
    patches: z.array(patchSchema).optional(),
  })
  .describe('A Cluster API provider.');

export const providersSchema = z
  .strictObject({
    core: z
      .union([providerSchema, z.array(providerSchema).max(1, { error: 'there is exactly one core provider' })])
      .optional()
      .describe('The core provider (cluster-api), as an entry or a one-entry list. Required.'),
    bootstrap: z.array(providerSchema).optional(),
    controlPlane: z.array(providerSchema).optional(),
    infrastructure: z.array(providerSchema).optional(),
    ipam: z.array(providerSchema).optional(),
    addon: z.array(providerSchema).optional(),
    runtimeExtension: z.array(providerSchema).optional(),
  })
  .describe('Providers by type.');

export const certManagerSchema = z
  .strictObject({
    version: versionConstraintSchema.describe(`cert-manager version: ${versionAllowed}; resolved and pinned by the lock like a provider's.`),
    url: z.string().min(1).optional().describe('Repository URL of cert-manager.yaml (local folder relative to the config file, or remote).'),
    type: repositoryTypeSchema.optional(),
  })
  .describe('cert-manager, rendered as clusterctl renders it.');

export const templatesSchema = z
  .strictObject({
    hashNames: z
      .boolean()
      .optional()
      .describe(
        'Name InfrastructureMachineTemplates and KubeadmConfigTemplates <name>-<hash of spec> and rewrite every reference, so a spec change becomes a template rotation CAPI accepts instead of a mutation its webhooks reject. Default false.',
      ),
  })
  .describe('How machine templates are named in the rendered tree.');

export const clusterSchema = z
  .strictObject({
    name: z
      .string()
      .max(253, { error: 'must be no more than 253 characters' })
      .regex(dns1123Subdomain, {
        error: (iss) => `${JSON.stringify(iss.input)} is not a lowercase RFC 1123 subdomain (a-z, 0-9, "-" and ".")`,
      }),
    namespace: namespaceSchema,
    infrastructure: z.string().min(1).describe('Name of a configured infrastructure provider (e.g. "docker").'),
    flavor: z
      .string()
      .regex(flavorPattern, { error: (iss) => flavorProblem(String(iss.input)) ?? 'is not a flavor name' })
      .optional()
      .describe('Template flavor: cluster-template-<flavor>.yaml (a file-name fragment: no "/", "\\", ".." or control characters).'),
    kubernetesVersion: z.string().min(1),
    controlPlaneMachineCount: z.int().min(1, { error: 'must be a number greater than or equal to 1' }).optional(),
    workerMachineCount: z.int().min(0, { error: 'must be a number greater than or equal to 0' }).optional(),
    variables: variablesSchema.optional(),
    templates: templatesSchema.optional().describe('Overrides the global `templates` settings for this cluster\'s own templates.'),
    template: z
      .string()
      .min(1)
      .optional()
      .describe('The cluster\'s own template file (path relative to the config file), used instead of its provider\'s cluster-template*.yaml.'),
    patches: z
      .array(patchSchema)
      .optional()
      .describe('RFC 6902 JSON patches applied to the objects of the rendered template, each to the objects its target selects.'),
    templateVersion: z
      .string()
      .refine((v) => v !== 'latest' && isVersionConstraint(v), {
        error: (iss) => `${JSON.stringify(iss.input)} is not a version or range; use an exact version (v1.12.4) or a semver range (~1.12.0)`,
      })
      .meta({ pattern: versionRangePattern })
      .optional()
      .describe(
        'Render this cluster from the cluster-template and ClusterClasses of this release of its infrastructure provider (exact version or range, pinned by the lock) while the provider itself runs its locked version.',
      ),
  })
  .describe('A workload cluster rendered from its infrastructure provider template.');

export const secretsSchema = z
  .strictObject({
    variables: z.array(z.string().min(1)).optional().describe('More variable names to treat as credentials.'),
    policy: z
      .enum(['fail', 'omit'])
      .optional()
      .describe('"fail" (default): stop when a credential would be written; "omit": leave those objects out of the tree.'),
    allowPlaintext: z.array(z.string().min(1)).optional().describe('Variables that may be written in plain text.'),
  })
  .describe('Credentials never reach git in plain text.');

export const argocdSchema = z
  .strictObject({
    enabled: z.boolean().optional().describe('Write the glue (default true when the section is present).'),
    repoURL: z
      .string()
      .min(1)
      .regex(repoUrlPattern, { error: (iss) => repoUrlProblem(String(iss.input)) ?? 'is not a repository URL' })
      .describe('Git repository Argo CD reads the tree from (https://…, ssh://… or git@host:org/repo.git).'),
    targetRevision: z
      .string()
      .min(1)
      .regex(/^[^\s\x00-\x1f\x7f]+$/, { error: (iss) => `${JSON.stringify(iss.input)} is not a git revision: a branch, tag or commit without spaces or control characters` })
      .optional()
      .describe('Default "HEAD".'),
    path: z
      .string()
      .regex(repoPathPattern, { error: (iss) => `${JSON.stringify(iss.input)} is not ${repoPathGrammar}` })
      .optional()
      .describe('Path of the config directory inside the repository (default ""): relative, no "." or ".." parts.'),
    mode: z.enum(['applications', 'applicationset']).optional().describe('Default "applications".'),
    generator: z
      .enum(['list', 'git', 'clusters'])
      .optional()
      .describe('ApplicationSet generator: "list" (default), "git" directories, or "clusters" (a fleet: one ApplicationSet for every management cluster, an Argo CD cluster generator crossed with git generators over targets/<name>/).'),
    project: z
      .string()
      .max(253, { error: 'must be no more than 253 characters' })
      .regex(dns1123Subdomain, {
        error: (iss) => `${JSON.stringify(iss.input)} is not an Argo CD project name: a lowercase RFC 1123 subdomain (a-z, 0-9, "-" and ".")`,
      })
      .optional(),
    destination: z
      .union([
        z.strictObject({
          server: z.string().regex(/^https?:\/\/[^\s/\x00-\x1f\x7f]+(\/[^\s\x00-\x1f\x7f]*)?$/, {
            error: (iss) => `${JSON.stringify(iss.input)} is not a Kubernetes API server URL such as "https://kubernetes.default.svc"`,
          }),
        }),
        z.strictObject({
          name: z.string().min(1).regex(/^[^\x00-\x1f\x7f]+$/, { error: 'an Argo CD cluster name cannot contain control characters' }),
        }),
      ])
      .optional(),
    namespace: namespaceSchema.optional().describe('Namespace of the Application objects (default "argocd").'),
    namePrefix: z
      .string()
      .max(maxNamePrefixLength, { error: `must be no more than ${maxNamePrefixLength} characters: ${namePrefixGrammar}` })
      .regex(namePrefixPattern, { error: (iss) => `${JSON.stringify(iss.input)} is not ${namePrefixGrammar}` })
      .optional()
      .describe('Start of every Application name (default "capi-"; a fleet: "capi-<management cluster>-").'),
    automated: z.union([z.literal(false), z.strictObject({ prune: z.boolean(), selfHeal: z.boolean() })]).optional(),
  })
  .describe('Argo CD glue under argocd/.');

/** A provider entry inside `managementClusters.<name>.providers`: `version` may be left to the shared entry of that name. */
export const targetProviderSchema = providerSchema
  .extend({ version: versionConstraintSchema.optional().describe('Provider version; default: the shared entry\'s of the same name and type.') })
  .describe('A provider of this management cluster; an entry named like a shared one (top-level `providers`) overrides its fields.');

export const targetProvidersSchema = z
  .strictObject({
    core: z
      .union([targetProviderSchema, z.array(targetProviderSchema).max(1, { error: 'there is exactly one core provider' })])
      .optional(),
    bootstrap: z.array(targetProviderSchema).optional(),
    controlPlane: z.array(targetProviderSchema).optional(),
    infrastructure: z.array(targetProviderSchema).optional(),
    ipam: z.array(targetProviderSchema).optional(),
    addon: z.array(targetProviderSchema).optional(),
    runtimeExtension: z.array(targetProviderSchema).optional(),
  })
  .describe('Providers of this management cluster, added to the shared top-level `providers` (same name and type: fields override).');

/** Management cluster names become tree folders (`targets/<name>/`) and Argo CD names: a lowercase RFC 1123 label. */
export const targetNameSchema = z
  .string()
  .max(63, { error: 'must be no more than 63 characters' })
  .regex(dns1123Label, {
    error: (iss) => `${JSON.stringify(iss.input)} is not a management cluster name: a lowercase RFC 1123 label (a-z, 0-9 and "-", e.g. "eu-west")`,
  });

export const targetArgocdSchema = argocdSchema
  .partial()
  .describe('Argo CD settings of this management cluster over the top-level `argocd` (destination default: { name: <management cluster> }).');

export const targetSchema = z
  .strictObject({
    providers: targetProvidersSchema.optional(),
    certManager: certManagerSchema.optional().describe('Replaces the top-level `certManager` for this management cluster.'),
    contract: z
      .string()
      .regex(contractPattern, { error: (iss) => `${JSON.stringify(iss.input)} is not a contract such as "v1beta2"` })
      .optional(),
    variables: variablesSchema.optional().describe('Merged over the top-level `variables` (same name: this one wins).'),
    images: globalImagesSchema.optional().describe('Merged over the top-level `images` (same key: this one wins).'),
    templates: templatesSchema.optional(),
    clusters: z.array(clusterSchema).optional().describe('Workload clusters this management cluster runs.'),
    argocd: targetArgocdSchema.optional(),
  })
  .describe('One management cluster: its own providers, lock section, tree under targets/<name>/ and Argo CD glue.');

export const configSchema = z
  .strictObject({
    $schema: z.string().optional(),
    providers: providersSchema
      .optional()
      .describe('Providers by type. With `managementClusters`: the providers every management cluster shares. Required otherwise.'),
    managementClusters: z
      .record(targetNameSchema, targetSchema)
      .optional()
      .describe('Several management clusters (a fleet), by name. Top-level providers, certManager, contract, variables, images, templates and argocd are shared defaults; `clusters` then belong to a management cluster.'),
    certManager: certManagerSchema.optional(),
    contract: z
      .string()
      .regex(contractPattern, { error: (iss) => `${JSON.stringify(iss.input)} is not a contract such as "v1beta2"` })
      .optional()
      .describe('Management contract pin (default: the core provider\'s).'),
    variables: variablesSchema.optional(),
    images: globalImagesSchema.optional(),
    secrets: secretsSchema.optional(),
    templates: templatesSchema.optional(),
    clusters: z.array(clusterSchema).optional(),
    argocd: argocdSchema.optional(),
    output: z
      .enum(['components', 'operator'])
      .optional()
      .describe(
        'How providers/<label>/ holds each provider: "components" (default: the rendered components, as clusterctl installs them) or "operator" (a Cluster API Operator provider object carrying manager, deployment, images, variables as a Secret reference and patches, with its release in a ConfigMap).',
      ),
    contractLint: z
      .enum(['warn', 'strict', 'off'])
      .optional()
      .describe(
        'The provider-contract lint `capiform lock` runs over every provider it resolves: "warn" (default: findings on stderr, the lock is written), "strict" (a MUST violation fails the lock, exit 2, and leaves capi.lock.yaml untouched) or "off".',
      ),
  })
  .describe('capiform configuration (capi.config.ts).');

export type VariableValue = z.input<typeof variableValueSchema>;
