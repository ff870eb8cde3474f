/**
 * The IO composition behind `capiform generate yaml|provider|cluster` (clusterctl's `GenerateProvider`,
 * `GetClusterTemplate` and `ProcessYAML`): read clusterctl.yaml, find the provider, resolve and check its version,
 * read files through the overrides layer, then hand strings to the pure render functions.
 */
import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { CapiformError, InputError, NetworkError, ResolutionError, UsageError } from '../errors.js';
import { manifestLabel, type ProviderType } from '../resolve/provider-type.js';
import type { ProviderRepository } from '../resolve/repository.js';
import {
  addClusterClassIfMissing,
  clusterClassReferences,
  clusterClassTemplateName,
  clusterTemplateName,
  formatClusterVariables,
  formatYamlVariables,
  newTemplate,
  templateOptionsToVariables,
  withOverrides,
  type Template,
  type TemplateOptions,
} from './cluster-template.js';
import { describeComponents, renderProviderComponents } from './provider-components.js';
import {
  createRepository,
  loadClusterctlConfig,
  parseProviderName,
  readMetadata,
  type ClusterctlConfig,
  type ProviderConfig,
} from './stand-in.js';

/** What generate needs from the outside world. */
export interface GenerateIO {
  env: NodeJS.ProcessEnv;
  cwd: string;
  readStdin: () => Promise<Uint8Array>;
  /** `--config`: path to clusterctl.yaml. */
  configPath?: string;
}

const decoder = new TextDecoder('utf-8');
const text = (bytes: Uint8Array): string => decoder.decode(bytes);

/** Contracts clusterctl (contract v1beta2) can work with (`GetCompatibleVersions`). */
const compatibleContracts = ['v1beta2', 'v1beta1'];

// ---------------------------------------------------------------------------------------------------------------
// Provider lookup and repository access
// ---------------------------------------------------------------------------------------------------------------

function levenshtein(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0] ?? 0;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j] ?? 0;
      prev[j] = Math.min((prev[j] ?? 0) + 1, (prev[j - 1] ?? 0) + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length] ?? 0;
}

/** The known names closest to `name` (edit distance, then substring matches), at most three. */
export function closestNames(name: string, candidates: string[]): string[] {
  const unique = [...new Set(candidates)];
  const scored = unique
    .map((c) => ({ c, d: c.includes(name) || name.includes(c) ? 1 : levenshtein(name, c) }))
    .filter(({ c, d }) => d <= Math.max(2, Math.floor(Math.max(name.length, c.length) / 3)))
    .sort((x, y) => x.d - y.d || (x.c < y.c ? -1 : 1));
  return scored.slice(0, 3).map(({ c }) => c);
}

const typeFlags: Record<ProviderType, string> = {
  CoreProvider: '--core',
  BootstrapProvider: '--bootstrap',
  ControlPlaneProvider: '--control-plane',
  InfrastructureProvider: '--infrastructure',
  IPAMProvider: '--ipam',
  RuntimeExtensionProvider: '--runtime-extension',
  AddonProvider: '--addon',
};

/** `Providers().Get(name, type)` with capiform's hint: the closest known names of that type. */
export function providerConfig(config: ClusterctlConfig, name: string, type: ProviderType): ProviderConfig {
  const found = config.providers.find((p) => p.name === name && p.type === type);
  if (found) return found;
  const sameType = config.providers.filter((p) => p.type === type).map((p) => p.name);
  const close = closestNames(name, sameType);
  const otherTypes = config.providers.filter((p) => p.name === name).map((p) => p.type);
  let hint: string;
  if (otherTypes.length > 0) {
    hint = `"${name}" is a ${otherTypes.join(', ')}; use ${otherTypes.map((t) => typeFlags[t as ProviderType] ?? t).join(' or ')}`;
  } else if (close.length > 0) {
    hint = `did you mean ${close.join(', ')}? Otherwise add the provider under "providers:" in clusterctl.yaml (--config)`;
  } else {
    hint = 'add the provider under "providers:" in clusterctl.yaml (--config)';
  }
  throw new ResolutionError(
    `failed to get configuration for the ${type} with name ${name}. Please check the provider name and/or add configuration for new providers using the .clusterctl config file`,
    { hint },
    'E_UNKNOWN_PROVIDER',
  );
}

/** Where the overrides layer looks (`overrides.go`): `overridesFolder`, else XDG, else `~/.cluster-api/overrides`. */
async function overridesBase(config: ClusterctlConfig, io: GenerateIO): Promise<string | null> {
  const configured = config.overridesFolder ?? config.get('overridesFolder');
  if (configured !== undefined && configured.trim() !== '') return configured;
  const home = io.env.HOME ?? '';
  const xdg = io.env.XDG_CONFIG_HOME || (home ? `${home}/.config` : '');
  const candidates = [xdg ? `${xdg}/cluster-api/overrides` : '', home ? `${home}/.cluster-api/overrides` : ''];
  for (const c of candidates) {
    if (c && (await isDirectory(c))) return c;
  }
  return candidates[0] || null;
}

async function isDirectory(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isDirectory();
  } catch {
    return false;
  }
}

/** A file of a provider release, read through the overrides layer first; `null` when the release has no such file. */
async function readArtifact(
  ctx: ProviderContext,
  version: string,
  file: string,
): Promise<{ raw: string; source: string } | null> {
  const base = await overridesBase(ctx.config, ctx.io);
  if (base) {
    const p = `${base}/${ctx.label}/${version}/${file}`;
    try {
      return { raw: text(await readFile(p)), source: p };
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') {
        throw new ResolutionError(`failed to read override file ${p}: ${(err as Error).message}`, { where: p });
      }
    }
  }
  const bytes = await ctx.repo.getFile(version, file);
  return bytes === null ? null : { raw: text(bytes), source: ctx.repo.fileLocation(version, file) };
}

function notFoundMessage(repo: ProviderRepository, version: string, file: string): string {
  return repo.kind === 'local'
    ? `failed to read file "${repo.fileLocation(version, file)}" from local release ${version}`
    : `failed to get file "${file}" from "${version}" release`;
}

interface ProviderContext {
  io: GenerateIO;
  config: ClusterctlConfig;
  provider: ProviderConfig;
  type: ProviderType;
  label: string;
  repo: ProviderRepository;
}

async function openProvider(
  io: GenerateIO,
  config: ClusterctlConfig,
  name: string,
  type: ProviderType,
): Promise<ProviderContext> {
  const provider = providerConfig(config, name, type);
  const repo = await createRepository(provider);
  return { io, config, provider, type, label: manifestLabel(name, type), repo };
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
}

function parseSemverMajorMinor(version: string): { major: number; minor: number } | null {
  const m = /^\s*v?([0-9]+)\.([0-9]+)\.([0-9]+)(?:[-+].*)?\s*$/.exec(version);
  if (!m) return null;
  return { major: Number(m[1]), minor: Number(m[2]) };
}

/** `clusterctl generate provider`: the text to print (YAML + `\n`, or the `--describe` summary). */
export async function generateProvider(io: GenerateIO, opts: GenerateProviderOptions): Promise<string> {
  if (opts.raw && opts.describe) throw new UsageError('--raw and --describe are mutually exclusive');
  const { name, version: requested } = parseProviderName(opts.provider);
  const config = loadConfig(io);
  const ctx = await openProvider(io, config, name, opts.type);
  const version = requested || ctx.repo.defaultVersion;

  const metadata = await readMetadata(ctx.repo, version, ctx.label);
  const mm = parseSemverMajorMinor(version);
  const series = mm ? metadata.releaseSeries.find((s) => s.major === mm.major && s.minor === mm.minor) : undefined;
  if (!series) {
    throw new ResolutionError(
      `invalid provider metadata: version ${version} for the provider ${name} does not match any release series`,
      { where: ctx.repo.fileLocation(version, 'metadata.yaml'), hint: 'add a releaseSeries entry for this major.minor' },
    );
  }
  if (!compatibleContracts.includes(series.contract)) {
    throw new ResolutionError(
      `current version of clusterctl is only compatible with provider implementing ${compatibleContracts.join(', ')} contract versions, detected ${series.contract} for provider ${name}`,
      { hint: 'pick a provider version that implements contract v1beta2 or v1beta1' },
    );
  }

  const file = ctx.repo.componentsFile;
  const artifact = await readArtifact(ctx, version, file);
  if (!artifact) {
    throw new ResolutionError(
      `failed to read "${file}" from provider's repository "${ctx.label}": ${notFoundMessage(ctx.repo, version, file)}`,
      { where: ctx.repo.fileLocation(version, file) },
    );
  }
  const components = renderProviderComponents({
    raw: artifact.raw,
    name,
    type: opts.type,
    version,
    targetNamespace: opts.targetNamespace,
    variables: (n) => config.get(n),
    images: config.images as never,
    skipTemplateProcess: Boolean(opts.raw || opts.describe),
    source: artifact.source,
  });
  if (opts.describe) return describeComponents(components, ctx.provider.url);
  return yamlOutput(components.yaml());
}

/** clusterctl prints `JoinYaml` (no final newline) followed by exactly one `\n`. */
export function yamlOutput(yaml: string): string {
  return `${yaml.replace(/\n+$/, '')}\n`;
}

// ---------------------------------------------------------------------------------------------------------------
// Template sources (`--from`)
// ---------------------------------------------------------------------------------------------------------------

/**
 * Reads a `--from` template source: `-` (stdin), `file://…` or a plain path (relative to cwd). Remote URLs come from the
 * remote-repository module.
 */
export async function readTemplateSource(from: string, io: GenerateIO): Promise<{ raw: string; source: string }> {
  if (from === '-') return { raw: text(await io.readStdin()), source: '<stdin>' };
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(from)?.[1]?.toLowerCase();
  if (scheme === 'https') {
    throw new NetworkError(`reading templates from "${from}" is not supported yet`, {
      hint: 'download the file and pass its path to --from',
    });
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
    return { raw: text(await readFile(abs)), source: abs };
  } catch (err) {
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
}

/** `clusterctl generate yaml` (`ProcessYAML`, target namespace `""`). */
export async function generateYaml(io: GenerateIO, opts: GenerateYamlOptions): Promise<string> {
  const from = opts.from ?? '-';
  if (from === '') throw new UsageError('unable to read custom template. Please specify a template source');
  const config = loadConfig(io);
  const src = await readTemplateSource(from, io);
  const template = newTemplate({
    raw: src.raw,
    source: src.source,
    targetNamespace: '',
    variables: (n) => config.get(n),
    skipTemplateProcess: opts.listVariables,
  });
  if (opts.listVariables) return formatYamlVariables(template.variables);
  return yamlOutput(template.yaml());
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
}

/** The ClusterClass-aware template of a provider release (TemplateClient.Get + addClusterClassIfMissing). */
async function templateFromRepository(
  io: GenerateIO,
  config: ClusterctlConfig,
  opts: GenerateClusterOptions,
  targetNamespace: string,
  lookup: (name: string) => string | undefined,
): Promise<Template> {
  if (!opts.infrastructure) {
    throw new UsageError(
      'management cluster not available. Cannot auto-discover default infrastructure provider. Please specify an infrastructure provider',
      { hint: 'capiform never reads a kubeconfig: pass --infrastructure name:version (e.g. --infrastructure docker:v1.13.5)' },
    );
  }
  const { name, version } = parseProviderName(opts.infrastructure);
  if (!version) {
    throw new UsageError(
      `management cluster not available. Cannot auto-discover version for the provider "${name}" automatically. Please specify a version`,
      { hint: `capiform never reads a kubeconfig: pass --infrastructure ${name}:<version>` },
    );
  }
  const ctx = await openProvider(io, config, name, 'InfrastructureProvider');
  const file = clusterTemplateName(opts.flavor);
  const artifact = await readArtifact(ctx, version, file);
  if (!artifact) {
    throw new ResolutionError(
      `failed to read "${file}" from provider's repository "${ctx.label}": ${notFoundMessage(ctx.repo, version, file)}`,
      { where: ctx.repo.fileLocation(version, file), hint: await flavorHint(ctx, version) },
      'E_TEMPLATE_NOT_FOUND',
    );
  }
  const template = newTemplate({
    raw: artifact.raw,
    source: artifact.source,
    targetNamespace,
    variables: lookup,
    skipTemplateProcess: opts.listVariables,
  });

  // ClusterClass inclusion: fetch every referenced clusterclass-<name>.yaml of the same provider and version.
  const classes = new Map<string, { raw: string; source: string } | Error>();
  for (const ref of clusterClassReferences(template.objects)) {
    const classFile = clusterClassTemplateName(ref.name);
    if (classes.has(classFile)) continue;
    const found = await readArtifact(ctx, version, classFile);
    classes.set(
      classFile,
      found ??
        new ResolutionError(
          `failed to read "${classFile}" from provider's repository "${ctx.label}": ${notFoundMessage(ctx.repo, version, classFile)}`,
          { where: ctx.repo.fileLocation(version, classFile) },
        ),
    );
  }
  return addClusterClassIfMissing(template, (className, classNamespace) => {
    const found = classes.get(clusterClassTemplateName(className));
    if (found instanceof Error) throw found;
    if (!found) throw new ResolutionError(`failed to read "${clusterClassTemplateName(className)}"`);
    return newTemplate({ raw: found.raw, source: found.source, targetNamespace: classNamespace, variables: lookup });
  });
}

/** The flavors a provider release offers, for the unknown-flavor hint. */
async function flavorHint(ctx: ProviderContext, version: string): Promise<string | undefined> {
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
export async function generateCluster(io: GenerateIO, opts: GenerateClusterOptions): Promise<string> {
  const repoSource = Boolean(opts.infrastructure || opts.flavor);
  if (repoSource && opts.from !== undefined && opts.from !== '') {
    throw new UsageError('invalid cluster template source: only one template can be used at time');
  }
  if (!opts.targetNamespace) {
    throw new UsageError(
      'management cluster not available. Cannot auto-discover target namespace. Please specify a target namespace',
      { hint: 'capiform never reads a kubeconfig: pass --target-namespace (-n)' },
    );
  }
  const config = loadConfig(io);
  const base = (n: string): string | undefined => config.get(n);
  const templateOptions: TemplateOptions = {
    clusterName: opts.clusterName,
    targetNamespace: opts.targetNamespace,
    kubernetesVersion: opts.kubernetesVersion,
    controlPlaneMachineCount: opts.controlPlaneMachineCount,
    workerMachineCount: opts.workerMachineCount,
  };
  const overrides = templateOptionsToVariables(templateOptions, base);
  const lookup = withOverrides(overrides, base);

  let template: Template;
  if (opts.from !== undefined && opts.from !== '') {
    const src = await readTemplateSource(opts.from, io);
    try {
      template = newTemplate({
        raw: src.raw,
        source: src.source,
        targetNamespace: opts.targetNamespace,
        variables: lookup,
        skipTemplateProcess: opts.listVariables,
      });
    } catch (err) {
      throw err instanceof CapiformError && !err.where ? Object.assign(err, { where: src.source }) : err;
    }
  } else {
    template = await templateFromRepository(io, config, opts, opts.targetNamespace, lookup);
  }

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
  return yamlOutput(template.yaml());
}

/** Maps a `--<type>` flag name to its provider type; exported for the CLI. */
export const providerFlags = Object.entries(typeFlags).map(([type, flag]) => ({ type: type as ProviderType, flag }));
