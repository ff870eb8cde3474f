/**
 * The IO composition behind `capiform generate yaml|provider|cluster` (clusterctl's `GenerateProvider`,
 * `GetClusterTemplate` and `ProcessYAML`): read clusterctl.yaml, find the provider, resolve and check its version,
 * read files through the overrides layer, then hand strings to the render functions. Each call owns its HTTP client
 * (see `GenerateIO.http`) and names the on-disk memo of provider components (`<cache dir>/render`); nothing below it
 * picks a client or a cache directory itself.
 */
import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { compareGoStrings } from '../../go/index.js';
import { CapiformError, InputError, ResolutionError, UsageError, wrapError } from '../../errors.js';
import { manifestLabel, type ProviderType } from '../../capi/index.js';
import { checkProviderContract, createRepository, getProvider, type HttpClient, loadRemote, loadTemplateSource, parseProviderName, type ProgressListener, type ProviderConfig, type ProviderRepository, readMetadata, repositoryKindFor, type UserProvider, withOverrides as withOverridesLayer } from '../../resolve/index.js';
import {
  addClusterClassIfMissing,
  clusterClassReferences,
  clusterClassTemplateName,
  clusterTemplateName,
  describeComponents,
  formatClusterVariables,
  formatYamlVariables,
  newTemplate,
  renderProviderComponents,
  templateOptionsToVariables,
  withOverrides,
  type ExistingObjects,
  type ComponentsMemo,
  type ImageOverrides,
  type OutputStyle,
  type ProviderComponents,
  type Template,
  type VariableLookup,
} from '../../render/generate/index.js';
import { loadClusterctlConfig, type ClusterctlConfig, type ImageMeta } from '../../config/index.js';
import { defaultCacheDir } from '../../cache/index.js';
import { diskComponentsMemo } from './components-memo.js';
import { decodeUtf8 } from '../../yaml/index.js';

export { componentsKey, diskComponentsMemo } from './components-memo.js';

/** What generate needs from the outside world. */
export interface GenerateIO {
  env: NodeJS.ProcessEnv;
  cwd: string;
  readStdin: () => Promise<Uint8Array>;
  /** `--config`: path to clusterctl.yaml. */
  configPath?: string;
  /** Download progress for remote repositories and template URLs (the CLI's reporter). */
  onProgress?: ProgressListener | undefined;
  /** `--offline`: remote repositories and template URLs answer from the cache only. */
  offline?: boolean;
  /**
   * The HTTP client for remote repositories and template URLs. Default: one per call, built from `env`, `offline` and
   * `onProgress` when the call first leaves the disk, and shared by the call's repositories and URLs.
   */
  http?: HttpClient | undefined;
}

/** This call's IO: a copy, so the client `remoteHttp` builds stays with the call and never reaches the caller. */
const callIO = (io: GenerateIO): GenerateIO => ({ ...io });

/** The call's HTTP client, built on first use: calls that stay on the disk never load the remote modules. */
async function remoteHttp(io: GenerateIO): Promise<HttpClient> {
  io.http ??= (await loadRemote()).httpClientFor(io.env, { onProgress: io.onProgress, offline: io.offline ?? false });
  return io.http;
}

const rec = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {};
const text = (bytes: Uint8Array, source: string): string => decodeUtf8(bytes, source);


// ---------------------------------------------------------------------------------------------------------------
// Provider lookup and repository access
// ---------------------------------------------------------------------------------------------------------------

/** A provider repository as generate reads it: the repository, the provider's label, the overrides folder. */
export interface RepoContext {
  /** The repository, with the overrides layer in front of it. */
  repo: ProviderRepository;
  /** ManifestLabel, e.g. `infrastructure-docker`. */
  label: string;
}

/** A file of a provider release (the repository applies the overrides layer); `null` when there is no such file. */
export async function readArtifact(
  ctx: RepoContext,
  version: string,
  file: string,
): Promise<{ raw: string; source: string } | null> {
  const bytes = await ctx.repo.getFile(version, file);
  if (bytes === null) return null;
  const source = ctx.repo.fileLocation(version, file);
  return { raw: text(bytes, source), source };
}

function notFoundMessage(repo: ProviderRepository, version: string, file: string): string {
  return repo.kind === 'local'
    ? `failed to read file "${repo.fileLocation(version, file)}" from local release ${version}`
    : `failed to get file "${file}" from "${version}" release`;
}

/** Like `readArtifact`, but a missing file is clusterctl's error. */
async function requireArtifact(
  ctx: RepoContext,
  version: string,
  file: string,
  hint?: () => Promise<string | undefined>,
): Promise<{ raw: string; source: string }> {
  const found = await readArtifact(ctx, version, file);
  if (found) return found;
  throw new ResolutionError(
    `failed to read "${file}" from provider's repository "${ctx.label}": ${notFoundMessage(ctx.repo, version, file)}`,
    { where: ctx.repo.fileLocation(version, file), hint: hint ? await hint() : undefined },
    'E_FILE_NOT_FOUND',
  );
}

interface ProviderContext extends RepoContext {
  provider: ProviderConfig;
  type: ProviderType;
}

async function openProvider(
  io: GenerateIO,
  config: ClusterctlConfig,
  name: string,
  type: ProviderType,
): Promise<ProviderContext> {
  const provider = getProvider(name, type, config.providers);
  return { ...(await openRepository(io, config, provider, type)), provider, type };
}

/** The repository of a configured provider, behind the overrides layer. */
async function openRepository(
  io: GenerateIO,
  config: ClusterctlConfig,
  provider: ProviderConfig,
  type: ProviderType,
): Promise<RepoContext> {
  const http = repositoryKindFor(provider.url).kind === 'local' ? undefined : await remoteHttp(io);
  const repo = await createRepository(provider, { get: config.lookup, env: io.env, ...(http ? { http } : {}) });
  const ref = { name: provider.name, type };
  return {
    repo: withOverridesLayer(repo, ref, { overridesFolder: config.get('overridesFolder'), env: io.env }),
    label: manifestLabel(provider.name, type),
  };
}

/** Loads clusterctl.yaml (`--config`, else the default locations). */
export function loadConfig(io: GenerateIO): ClusterctlConfig {
  return loadClusterctlConfig({ path: io.configPath, env: io.env, cwd: io.cwd });
}

// ---------------------------------------------------------------------------------------------------------------
// generate provider
// ---------------------------------------------------------------------------------------------------------------

export interface GenerateProviderOptions {
  type: ProviderType;
  /** `name[:version]`. */
  provider: string;
  targetNamespace?: string;
  raw?: boolean;
  describe?: boolean;
  /** `capiform` (default: source text kept) or `clusterctl` (go-yaml v2 re-emission, clusterctl's bytes). */
  outputStyle?: OutputStyle;
}


/** `clusterctl generate provider`: the text to print (YAML + `\n`, or the `--describe` summary). */
export async function generateProvider(given: GenerateIO, opts: GenerateProviderOptions): Promise<string> {
  const io = callIO(given);
  if (opts.raw && opts.describe) throw new UsageError('--raw and --describe are mutually exclusive');
  const { name, version: requested } = parseProviderName(opts.provider);
  const config = loadConfig(io);
  const ctx = await openProvider(io, config, name, opts.type);
  const version = requested || ctx.repo.defaultVersion;

  const metadata = await readMetadata(ctx.repo, version, { name, type: opts.type });
  checkProviderContract(metadata, version, name);

  const components = await getComponents(ctx, {
    name,
    type: opts.type,
    version,
    targetNamespace: opts.targetNamespace,
    skipTemplateProcess: Boolean(opts.raw || opts.describe),
    variables: config.lookup,
    images: config.images,
    memo: diskComponentsMemo(join(defaultCacheDir(io.env), 'render')),
  });
  if (opts.describe) return describeComponents(components, ctx.provider.url);
  return yamlOutput(components.yaml(opts.outputStyle));
}

export interface GetComponentsOptions {
  name: string;
  type: ProviderType;
  /** `""` = the repository's default version. */
  version: string;
  targetNamespace?: string;
  skipTemplateProcess?: boolean;
  variables: (name: string) => string | undefined;
  images?: ImageOverrides;
  /** A memo of the components render (the disk one: ./components-memo.ts). */
  memo?: ComponentsMemo | undefined;
}

/** `ComponentsClient.Get`: the components file of `version` through the overrides layer, then `NewComponents`. */
export async function getComponents(ctx: RepoContext, opts: GetComponentsOptions): Promise<ProviderComponents> {
  const version = opts.version || ctx.repo.defaultVersion;
  const file = ctx.repo.componentsFile;
  const artifact = await requireArtifact(ctx, version, file);
  return renderProviderComponents({
    raw: artifact.raw,
    name: opts.name,
    type: opts.type,
    version,
    targetNamespace: opts.targetNamespace,
    variables: opts.variables,
    images: opts.images,
    skipTemplateProcess: opts.skipTemplateProcess,
    source: artifact.source,
    memo: opts.memo,
  });
}

/** clusterctl prints `JoinYaml` (no final newline) followed by exactly one `\n`. */
export function yamlOutput(yaml: string): string {
  return `${yaml.replace(/\n+$/, '')}\n`;
}

// ---------------------------------------------------------------------------------------------------------------
// Template sources (`--from`)
// ---------------------------------------------------------------------------------------------------------------

/**
 * Reads a `--from` template source: `-` (stdin), `file://…` or a plain path (relative to cwd), or an `https://` URL
 * (GitHub blob/release-asset URLs and plain HTTPS, through the remote-repository module, loaded only then).
 * `variables` supplies `github-token`.
 */
export async function readTemplateSource(
  from: string,
  io: GenerateIO,
  variables?: VariableLookup,
): Promise<{ raw: string; source: string }> {
  return readTemplateFrom(from, callIO(io), variables);
}

/** `readTemplateSource` within a call: URLs are read with the call's HTTP client. */
async function readTemplateFrom(from: string, io: GenerateIO, variables?: VariableLookup): Promise<{ raw: string; source: string }> {
  if (from === '-') return { raw: text(await io.readStdin(), '<stdin>'), source: '<stdin>' };
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(from)?.[1]?.toLowerCase();
  if (scheme === 'https') {
    const [http, sources] = await Promise.all([remoteHttp(io), loadTemplateSource()]);
    const raw = await sources.readTemplateSource(from, {
      http,
      cwd: io.cwd,
      readStdin: io.readStdin,
      token: variables?.('github-token'),
      githubApiUrl: io.env.GITHUB_API_URL,
    });
    return { raw, source: from };
  }
  if (scheme !== undefined && scheme !== 'file' && !/^[a-zA-Z]$/.test(scheme)) {
    throw new InputError(
      `unable to read content from "${from}". Only reading from GitHub and local file system is supported`,
    );
  }
  const path = scheme === 'file' ? decodeURIComponent(from.replace(/^file:\/\//i, '')) : from;
  const abs = isAbsolute(path) ? path : resolve(io.cwd, path);
  let info;
  try {
    info = await stat(abs);
  } catch {
    throw new InputError(`failed to read file "${path}"`, { where: abs, hint: 'check the --from path' });
  }
  if (info.isDirectory()) throw new InputError(`invalid path: file "${path}" is actually a directory`, { where: abs });
  try {
    return { raw: text(await readFile(abs), abs), source: abs };
  } catch (err) {
    if (err instanceof CapiformError) throw err;
    throw new InputError(`failed to read file "${path}": ${(err as Error).message}`, { where: abs });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// generate yaml
// ---------------------------------------------------------------------------------------------------------------

export interface GenerateYamlOptions {
  /** `--from`; defaults to `-` (stdin). `""` is an error. */
  from?: string;
  listVariables?: boolean;
  outputStyle?: OutputStyle;
}

/**
 * clusterctl's `ProcessYAML`: the template read from `--from` (a local path, `file://` URL, GitHub or https URL, or
 * `-` for stdin), processed with target namespace `""` (no namespace enforcement). With `listVariables` it only lists
 * the variables (no objects), as clusterctl's `SkipTemplateProcess`.
 */
export async function processYaml(given: GenerateIO, opts: Omit<GenerateYamlOptions, 'outputStyle'>): Promise<Template> {
  const io = callIO(given);
  const from = opts.from ?? '-';
  if (from === '') throw new UsageError('unable to read custom template. Please specify a template source');
  const config = loadConfig(io);
  const src = await readTemplateFrom(from, io, config.lookup);
  return newTemplate({
    raw: src.raw,
    source: src.source,
    targetNamespace: '',
    variables: (n) => config.get(n),
    skipTemplateProcess: opts.listVariables,
  });
}

/** `clusterctl generate yaml`: `ProcessYAML`, printed. */
export async function generateYaml(io: GenerateIO, opts: GenerateYamlOptions): Promise<string> {
  const template = await processYaml(io, opts);
  if (opts.listVariables) return formatYamlVariables(template.variables);
  return yamlOutput(template.yaml(opts.outputStyle));
}

// ---------------------------------------------------------------------------------------------------------------
// generate cluster
// ---------------------------------------------------------------------------------------------------------------

export interface GenerateClusterOptions {
  clusterName: string;
  /** `name[:version]`. */
  infrastructure?: string;
  flavor?: string;
  kubernetesVersion?: string;
  controlPlaneMachineCount?: number | string;
  workerMachineCount?: number | string;
  targetNamespace?: string;
  from?: string;
  listVariables?: boolean;
  outputStyle?: OutputStyle;
}

interface TemplateRequest {
  targetNamespace: string;
  variables: VariableLookup;
  /** Only the variables are wanted: the file is not processed (`--list-variables`). */
  listVariablesOnly?: boolean;
}

/** The `Template` of a file read from a provider's repository, as TemplateClient and ClusterClassClient make it. */
function templateOf(artifact: { raw: string; source: string }, opts: TemplateRequest): Template {
  return newTemplate({
    raw: artifact.raw,
    source: artifact.source,
    targetNamespace: opts.targetNamespace,
    variables: opts.variables,
    skipTemplateProcess: opts.listVariablesOnly,
  });
}

/** `TemplateClient.Get`: `cluster-template[-<flavor>].yaml` of `version`, through the overrides layer. */
export async function getTemplate(
  ctx: RepoContext,
  opts: TemplateRequest & { version: string; flavor?: string },
): Promise<Template> {
  if (opts.targetNamespace === '') throw new UsageError('invalid arguments: please provide a targetNamespace');
  const file = clusterTemplateName(opts.flavor);
  const artifact = await requireArtifact(ctx, opts.version, file, () => flavorHint(ctx, opts.version));
  return templateOf(artifact, opts);
}

/** `ClusterClassClient.Get`: `clusterclass-<name>.yaml` of `version`, rendered into `targetNamespace`. */
export async function getClusterClass(
  ctx: RepoContext,
  opts: TemplateRequest & { version: string; name: string },
): Promise<Template> {
  if (opts.targetNamespace === '') throw new UsageError('invalid arguments: please provide a targetNamespace');
  const artifact = await requireArtifact(ctx, opts.version, clusterClassTemplateName(opts.name));
  return templateOf(artifact, opts);
}

/**
 * A reachable management cluster, as far as `generate cluster` would consult it. capiform's CLI never passes one
 * (it never reads a kubeconfig); library users and test fixtures may.
 */
export interface ManagementClusterView {
  currentNamespace(): string;
  /** `name` of the single installed infrastructure provider, `""` when there is not exactly one. */
  defaultInfrastructureProvider(): string;
  /** Installed version of an infrastructure provider. */
  providerVersion(name: string): string;
  /** `data` of a ConfigMap, or `null` when it does not exist. */
  configMap(namespace: string, name: string): Record<string, string> | null;
  /** Present when Cluster API is installed: existence checks for ClusterClass inclusion. */
  existing?: ExistingObjects;
}

export interface GetClusterTemplateOptions {
  clusterName: string;
  targetNamespace?: string;
  kubernetesVersion?: string;
  controlPlaneMachineCount?: number | string;
  workerMachineCount?: number | string;
  listVariablesOnly?: boolean;
  /** `--infrastructure name[:version]` and `--flavor`. */
  providerRepository?: { infrastructureProvider?: string; flavor?: string };
  /** `--from`. */
  url?: string;
  configMap?: { namespace?: string; name: string; dataKey?: string };
}

/**
 * `TemplateClient.GetFromConfigMap`: the template in a ConfigMap's data key (default `template`; namespace default
 * the cluster's current one), processed as any template.
 */
export function templateFromConfigMap(
  cluster: Pick<ManagementClusterView, 'configMap' | 'currentNamespace'>,
  configMap: { namespace?: string; name: string; dataKey?: string },
  opts: { targetNamespace: string; variables: VariableLookup; listVariablesOnly?: boolean | undefined },
): Template {
  const ns = configMap.namespace || cluster.currentNamespace();
  const key = configMap.dataKey || 'template';
  const data = cluster.configMap(ns, configMap.name);
  if (data === null) throw new ResolutionError(`error reading ConfigMap ${ns}/${configMap.name}: not found`);
  if (!Object.hasOwn(data, key)) {
    throw new ResolutionError(`the ConfigMap ${ns}/${configMap.name} does not have the "${key}" data key`);
  }
  return newTemplate({
    raw: data[key] ?? '',
    targetNamespace: opts.targetNamespace,
    variables: opts.variables,
    skipTemplateProcess: opts.listVariablesOnly,
  });
}

export interface GetClusterTemplateDeps {
  /** Variables known before the call (env > clusterctl.yaml). */
  variables: VariableLookup;
  /** Opens the repository of an infrastructure provider (`Providers().Get` + repository factory). */
  openInfrastructure(name: string): Promise<RepoContext>;
  /** Reads a `--from` source. */
  readURL(url: string): Promise<{ raw: string; source: string }>;
  cluster?: ManagementClusterView;
}

const noCluster = 'management cluster not available.';

/** `GetClusterTemplate` (client/config.go): source choice, common variables, the template, ClusterClasses. */
export async function getClusterTemplate(opts: GetClusterTemplateOptions, deps: GetClusterTemplateDeps): Promise<Template> {
  const sources = [opts.providerRepository, opts.url, opts.configMap].filter((s) => s !== undefined).length;
  if (sources > 1) throw new UsageError('invalid cluster template source: only one template can be used at time');
  const providerRepository = sources === 0 ? {} : opts.providerRepository;
  const { cluster } = deps;

  let targetNamespace = opts.targetNamespace ?? '';
  if (targetNamespace === '') {
    if (!cluster) {
      throw new UsageError(`${noCluster} Cannot auto-discover target namespace. Please specify a target namespace`, {
        hint: 'capiform never reads a kubeconfig: pass --target-namespace (-n)',
      });
    }
    targetNamespace = cluster.currentNamespace();
    if (targetNamespace === '') {
      throw new UsageError('failed to identify the current namespace. Please specify a target namespace');
    }
  }
  const overrides = templateOptionsToVariables(
    {
      clusterName: opts.clusterName,
      targetNamespace,
      kubernetesVersion: opts.kubernetesVersion,
      controlPlaneMachineCount: opts.controlPlaneMachineCount,
      workerMachineCount: opts.workerMachineCount,
    },
    deps.variables,
  );
  const variables = withOverrides(overrides, deps.variables);

  if (providerRepository) {
    let provider = providerRepository.infrastructureProvider ?? '';
    if (provider === '') {
      if (!cluster) {
        throw new UsageError(
          `${noCluster} Cannot auto-discover default infrastructure provider. Please specify an infrastructure provider`,
          { hint: 'capiform never reads a kubeconfig: pass --infrastructure name:version (e.g. docker:v1.13.5)' },
        );
      }
      provider = cluster.defaultInfrastructureProvider();
      if (provider === '') {
        throw new UsageError('failed to identify the default infrastructure provider. Please specify an infrastructure provider');
      }
    }
    const parsed = parseProviderName(provider);
    let version = parsed.version;
    if (version === '') {
      if (!cluster) {
        throw new UsageError(
          `${noCluster} Cannot auto-discover version for the provider "${parsed.name}" automatically. Please specify a version`,
          { hint: `capiform never reads a kubeconfig: pass --infrastructure ${parsed.name}:<version>` },
        );
      }
      version = cluster.providerVersion(parsed.name);
    }
    const ctx = await deps.openInfrastructure(parsed.name);
    const template = await getTemplate(ctx, {
      version,
      flavor: providerRepository.flavor,
      targetNamespace,
      variables,
      listVariablesOnly: opts.listVariablesOnly,
    });
    return includeClusterClasses(ctx, version, template, variables, cluster?.existing);
  }

  if (opts.configMap) {
    if (!cluster) {
      throw new UsageError(`${noCluster} Cannot read a template from a ConfigMap`, {
        hint: 'capiform never reads a cluster: export the ConfigMap data to a file and pass it to --from',
      });
    }
    return templateFromConfigMap(cluster, opts.configMap, { targetNamespace, variables, listVariablesOnly: opts.listVariablesOnly });
  }

  const src = await deps.readURL(opts.url ?? '');
  return newTemplate({
    raw: src.raw,
    source: src.source,
    targetNamespace,
    variables,
    skipTemplateProcess: opts.listVariablesOnly,
  });
}

/**
 * `addClusterClassIfMissing` with IO: every `clusterclass-<name>.yaml` the template's topology Clusters reference is
 * read from the same provider and version (rendered into the class namespace), then merged in front of the template.
 */
export async function includeClusterClasses(
  ctx: RepoContext,
  version: string,
  template: Template,
  variables: VariableLookup,
  existing?: ExistingObjects,
): Promise<Template> {
  const classes = new Map<string, Template | Error>();
  const own = new Set(
    template.objects
      .filter((o) => o.kind === 'ClusterClass')
      .map((o) => `${String(rec(o.metadata).namespace ?? '')}/${String(rec(o.metadata).name ?? '')}`),
  );
  for (const ref of clusterClassReferences(template.objects)) {
    if (own.has(`${ref.namespace}/${ref.name}`)) continue;
    const key = `${ref.namespace}/${ref.name}`;
    if (classes.has(key) || existing?.clusterClassExists(ref.name, ref.namespace)) continue;
    try {
      classes.set(key, await getClusterClass(ctx, { version, name: ref.name, targetNamespace: ref.namespace, variables }));
    } catch (err) {
      if (err instanceof CapiformError && err.code === 'E_FILE_NOT_FOUND') {
        const files = ctx.repo.listFiles ? await ctx.repo.listFiles(version) : null;
        const available = (files ?? []).filter((f) => /^clusterclass-.+\.yaml$/.test(f));
        Object.assign(err, {
          hint:
            `clusterctl needs ClusterClass "${ref.name}" to exist in the management cluster or as ${clusterClassTemplateName(ref.name)} ` +
            `in the release; ${available.length > 0 ? `this release ships ${available.join(', ')}` : 'this release ships none'}. ` +
            'Render the flavor that defines the class first, or set the variable that names the class to one of those',
        });
      }
      classes.set(key, err as Error);
    }
  }
  return addClusterClassIfMissing(
    template,
    (name, namespace) => {
      const found = classes.get(`${namespace}/${name}`);
      if (found === undefined) throw new ResolutionError(`failed to read "${clusterClassTemplateName(name)}"`);
      if (found instanceof Error) throw found;
      return found;
    },
    existing,
  );
}

/** The flavors a provider release offers, for the unknown-flavor hint. */
async function flavorHint(ctx: RepoContext, version: string): Promise<string | undefined> {
  const files = ctx.repo.listFiles ? await ctx.repo.listFiles(version) : null;
  if (files === null) return undefined;
  const flavors = files
    .map((f) => /^cluster-template(?:-(.+))?\.yaml$/.exec(f))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => (m[1] === undefined ? '(default, no --flavor)' : m[1]))
    .sort();
  if (files.length === 0) return `version ${version} has no files; check the version`;
  if (flavors.length === 0) return `${ctx.label} ${version} ships no cluster templates`;
  return `available flavors of ${ctx.label} ${version}: ${flavors.join(', ')}`;
}

/** `clusterctl generate cluster`: the text to print (YAML + `\n`, or the `--list-variables` report). */
export async function generateCluster(given: GenerateIO, opts: GenerateClusterOptions): Promise<string> {
  const io = callIO(given);
  const config = loadConfig(io);
  const template = await getClusterTemplate(
    {
      clusterName: opts.clusterName,
      targetNamespace: opts.targetNamespace,
      kubernetesVersion: opts.kubernetesVersion,
      controlPlaneMachineCount: opts.controlPlaneMachineCount,
      workerMachineCount: opts.workerMachineCount,
      listVariablesOnly: opts.listVariables,
      providerRepository:
        opts.infrastructure || opts.flavor
          ? { infrastructureProvider: opts.infrastructure, flavor: opts.flavor }
          : undefined,
      url: opts.from || undefined,
    },
    {
      variables: (n) => config.get(n),
      openInfrastructure: (name) => openProvider(io, config, name, 'InfrastructureProvider'),
      readURL: (url) => readTemplateFrom(url, io, config.lookup),
    },
  );
  if (opts.listVariables) {
    return formatClusterVariables(template.variableMap, {
      clusterName: opts.clusterName,
      targetNamespace: opts.targetNamespace,
      kubernetesVersion: opts.kubernetesVersion,
      controlPlaneMachineCount: opts.controlPlaneMachineCount,
      workerMachineCount: opts.workerMachineCount,
      env: io.env,
    });
  }
  return yamlOutput(template.yaml(opts.outputStyle));
}

// ---------------------------------------------------------------------------------------------------------------
// init list-images (client/init.go InitImages), without a management cluster
// ---------------------------------------------------------------------------------------------------------------

export interface InitImagesOptions {
  /** `""` = cluster-api. */
  coreProvider: string;
  bootstrapProviders: string[];
  controlPlaneProviders: string[];
  infrastructureProviders: string[];
  ipamProviders: string[];
  runtimeExtensionProviders: string[];
  addonProviders: string[];
  targetNamespace: string;
}

export interface InitImagesDeps {
  /** `providers:` of clusterctl.yaml (validated and merged with the built-in list like clusterctl). */
  userProviders: UserProvider[];
  images: Record<string, ImageMeta>;
  openProvider(provider: ProviderConfig, type: ProviderType): Promise<RepoContext>;
  /** Images of the cert-manager manifest clusterctl would install. */
  certManagerImages(): Promise<string[]>;
}

/**
 * `InitImages` as for a management cluster with nothing installed: default providers (cluster-api, kubeadm bootstrap
 * and control plane unless given; `-` skips a type but not core), each provider's components without substitution,
 * then cert-manager's images followed by the sorted set of provider images, all sorted (`sort.Strings`).
 */
export async function initImages(opts: InitImagesOptions, deps: InitImagesDeps): Promise<string[]> {
  const core = opts.coreProvider || 'cluster-api';
  const queue: [ProviderType, string[]][] = [
    ['CoreProvider', [core]],
    ['BootstrapProvider', opts.bootstrapProviders.length > 0 ? opts.bootstrapProviders : ['kubeadm']],
    ['ControlPlaneProvider', opts.controlPlaneProviders.length > 0 ? opts.controlPlaneProviders : ['kubeadm']],
    ['InfrastructureProvider', opts.infrastructureProviders],
    ['IPAMProvider', opts.ipamProviders],
    ['RuntimeExtensionProvider', opts.runtimeExtensionProviders],
    ['AddonProvider', opts.addonProviders],
  ];
  const providerImages = new Set<string>();
  for (const [type, names] of queue) {
    for (const p of names) {
      if (p === '-') {
        if (type === 'CoreProvider') throw new UsageError("the '-' value can not be used for the core provider");
        continue;
      }
      try {
        const { name, version } = parseProviderName(p);
        const provider = getProvider(name, type, deps.userProviders);
        const ctx = await deps.openProvider(provider, type);
        const components = await getComponents(ctx, {
          name,
          type,
          version,
          targetNamespace: opts.targetNamespace,
          skipTemplateProcess: true,
          variables: () => undefined,
          images: deps.images,
        });
        for (const image of components.images) providerImages.add(image);
      } catch (err) {
        if (err instanceof CapiformError) throw wrapError(err, `failed to get provider components for the "${p}" provider`);
        throw err;
      }
    }
  }
  const images = [...(await deps.certManagerImages()), ...[...providerImages].sort(compareGoStrings)];
  return images.sort(compareGoStrings);
}
