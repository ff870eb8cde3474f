/**
 * Resolution of capi.config (orchestration only; the repository primitives live beside this file): for each provider
 * the highest version that satisfies its constraint and maps, through its metadata.yaml, to the management contract —
 * the core provider's, or the pinned one. Versions pinned by a fresh lock entry are kept as they are.
 */
import { dirname, isAbsolute, relative, resolve as resolvePath, sep } from 'node:path';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { CapiformError, ConfigError, ResolutionError } from '../errors.js';
import { npmSemver, type ResolvedConfig, type ResolvedProvider } from '../config/index.js';
import { builtinProviders } from './catalog.js';
import { constraintRule, settledCandidates } from './candidates.js';
import type { HttpClient, ProgressListener } from './http/client.js';
import { LocalRepository } from './local/local-repository.js';
import { compatibleContracts, parseMetadata, releaseSeriesForVersion, type Metadata } from './metadata.js';
import { closestProviderNames } from './providers.js';
import { componentsFileName } from '../capi/index.js';
import { repositoryKindOf } from './repository-kind.js';
import type { ProviderRepository, RepositorySource } from './repository.js';

export interface RepositoryRef {
  repo: ProviderRepository;
  /** The source as the lock records it (relative local paths, never absolute). */
  source: RepositorySource;
}

/** A local `url` (a path, `file://` or not) as an absolute path; relative paths are relative to the config. */
function localPath(url: string, configDir: string): string {
  return resolvePath(configDir, url.replace(/^file:\/\//, ''));
}

/**
 * A local `url` may be the repository root (holding `<label>/<version>/`), the provider folder `<root>/<label>`, or
 * clusterctl's full form `<root>/<label>/<version>/<components file>`; relative paths are relative to the config.
 */
export function localRepositoryUrl(url: string, label: string, componentsFiles: string | readonly string[], configDir: string): string {
  const abs = localPath(url, configDir);
  if (/\.ya?ml$/.test(abs)) return abs;
  const files = typeof componentsFiles === 'string' ? [componentsFiles] : componentsFiles;
  const providerDir = existsSync(resolvePath(abs, label)) && statSync(resolvePath(abs, label)).isDirectory() ? resolvePath(abs, label) : abs;
  // The first candidate file that some release ships (e.g. docker's infrastructure-components-development.yaml).
  let versions: string[] = [];
  try {
    versions = readdirSync(providerDir);
  } catch {
    versions = [];
  }
  const file = files.find((f) => versions.some((v) => existsSync(resolvePath(providerDir, v, f)))) ?? files[files.length - 1]!;
  return resolvePath(providerDir, 'latest', file);
}

function sourceFor(kind: RepositorySource['kind'], url: string, configDir: string): RepositorySource {
  if (kind !== 'local') return { kind, url };
  const abs = localPath(url, configDir);
  const rel = relative(configDir, abs).split(sep).join('/');
  return { kind, url: isAbsolute(rel) ? abs : rel || '.' };
}

export interface RepositoryRequest {
  name: string;
  type: string;
  url: string;
  label: string;
  componentsFile: string;
  kind: RepositorySource['kind'];
  /** The config declared `type:` (GitHub Enterprise hosts, GitLab on any host). */
  explicitKind?: boolean;
  /** The exact version the config pins, if any (an HTTPS mirror whose folder does not name its version). */
  version?: string | undefined;
}

export type RepositoryFactory = (p: RepositoryRequest) => ProviderRepository | Promise<ProviderRepository>;

export interface RepositoryFactoryOptions {
  /** OS environment: cache dir, GITHUB_API_URL, GITHUB_TOKEN, GITLAB_ACCESS_TOKEN, GOPROXY, proxies. */
  env: NodeJS.ProcessEnv;
  /** The run's HTTP client (tests); default: one built from `env`, `offline` and `onProgress` on first use. */
  http?: HttpClient;
  /** `--offline`: remote repositories answer from the cache only; a missing item is an error naming it. */
  offline?: boolean;
  /** The project folder: local repositories inside it are read confined to it (LocalProvider.project). */
  project?: string;
  onProgress?: ProgressListener | undefined;
}

/**
 * The pipeline's repositories. None resolves clusterctl's `latest` at construction (capiform chooses versions by
 * constraint, and `latest` would read listings and metadata.yaml outside the lock, so a frozen render with a complete
 * cache would still open a socket). Remote kinds are loaded on demand, so local-only configs never load octokit, and
 * share one HTTP client per factory: build one factory per run (the pipeline's context does), never one per process.
 */
export function repositoryFactory(opts: RepositoryFactoryOptions): RepositoryFactory {
  let http: HttpClient | undefined = opts.http;
  return async (p) => {
    if (p.kind === 'local') return new LocalRepository({ name: p.name, type: p.type, url: p.url, ...(opts.project === undefined ? {} : { project: opts.project }) });
    const { createRemoteRepository, httpClientFor } = await import('./remote/index.js');
    http ??= httpClientFor(opts.env, { offline: opts.offline ?? false, onProgress: opts.onProgress });
    return createRemoteRepository(p.kind, p.url, {
      http,
      env: opts.env,
      explicitKind: p.explicitKind ?? false,
      version: p.version,
      release: { type: p.type, name: p.name, componentsFile: p.componentsFile },
    });
  };
}

interface ProviderLocation {
  kind: RepositorySource['kind'];
  /** The URL the repository is built from (absolute for local folders). */
  url: string;
  componentsFile: string;
  source: RepositorySource;
}

/** Where a provider comes from, without touching its repository; unknown providers fail here. */
export function providerLocation(p: ResolvedProvider, configDir: string, opts: { checkName?: boolean } = {}): ProviderLocation {
  // A folder URL gets the components file the catalog names for this provider (docker ships
  // infrastructure-components-development.yaml), else the file clusterctl's convention names for the type.
  const catalogFile = builtinProviders.find((b) => b.name === p.name && b.type === p.type)?.url.split('/').pop();
  const conventional = componentsFileName(p.type)!;
  const componentsFiles = catalogFile && catalogFile !== conventional ? [catalogFile, conventional] : [conventional];
  const componentsFile = componentsFiles[0]!;
  let url = p.url;
  if (url === undefined) {
    const known = builtinProviders.find((b) => b.name === p.name && b.type === p.type);
    if (!known) {
      const close = closestProviderNames(p.name, p.type, builtinProviders);
      const names = builtinProviders.filter((b) => b.type === p.type).map((b) => b.name).sort();
      // A name the catalog does not know is a mistake in the config (exit 2), not a failure to resolve a release.
      throw new ConfigError(`unknown provider "${p.name}" of type ${p.type}`, {
        where: `${p.configPath}.name`,
        hint: `${close.length ? `did you mean ${close.map((n) => `"${n}"`).join(', ')}? ` : ''}clusterctl knows ${names.join(', ')}; for any other provider give its repository with \`url\``,
      });
    }
    url = known.url;
  }
  const kind = repositoryKindOf(url, p.repositoryType, `${p.configPath}.url`);
  // Only where the repository is read: a stale-lock check names what changed before any name is looked up.
  if (kind === 'local' && opts.checkName === true) unknownInLocalRepository(p, localPath(url, configDir));
  const full = kind === 'local' ? localRepositoryUrl(url, p.label, componentsFiles, configDir) : url;
  return { kind, url: full, componentsFile: kind === 'local' ? full.split(/[\\/]/).pop()! : componentsFile, source: sourceFor(kind, url, configDir) };
}

/**
 * A repository root that holds providers of this type but not this one: a typo of the name, told as the catalog
 * tells it (did-you-mean and the names the repository has), not as clusterctl's "rename the folder" of a path that
 * was never meant to name it.
 */
function unknownInLocalRepository(p: ResolvedProvider, root: string): void {
  if (/\.ya?ml$/.test(root) || existsSync(resolvePath(root, p.label))) return;
  const prefix = p.label.slice(0, p.label.length - p.name.length);
  // The core provider's label is its name alone: no type prefix tells its folders from the others'.
  if (prefix === '') return;
  let entries: string[];
  try {
    entries = readdirSync(root).filter((e) => e.startsWith(prefix) && e.length > prefix.length && statSync(resolvePath(root, e)).isDirectory());
  } catch {
    return;
  }
  // A version folder or the provider's own folder: the URL names the provider itself, clusterctl's checks apply.
  if (entries.length === 0) return;
  const names = entries.map((e) => e.slice(prefix.length)).sort();
  const close = closestProviderNames(p.name, p.type, names.map((name) => ({ name, type: p.type, url: '' })));
  throw new ConfigError(`unknown provider "${p.name}" of type ${p.type} in the repository ${p.url ?? root}`, {
    where: `${p.configPath}.name`,
    hint: `${close.length ? `did you mean ${close.map((n) => `"${n}"`).join(', ')}? ` : ''}the repository has ${names.join(', ')} (folders ${prefix}<name>/<version>/)`,
  });
}

export async function providerRepository(p: ResolvedProvider, configDir: string, factory: RepositoryFactory): Promise<RepositoryRef> {
  const loc = providerLocation(p, configDir, { checkName: true });
  try {
    const request: RepositoryRequest = {
      name: p.name,
      type: p.type,
      url: loc.url,
      label: p.label,
      componentsFile: loc.componentsFile,
      kind: loc.kind,
      explicitKind: p.repositoryType !== undefined,
      version: npmSemver().valid(p.constraint) ? p.constraint : undefined,
    };
    return { repo: await factory(request), source: loc.source };
  } catch (err) {
    const missing = loc.kind === 'local' && p.url !== undefined ? missingLocalRepository(p, configDir, loc.componentsFile) : undefined;
    if (missing) throw missing;
    if (err instanceof CapiformError) throw Object.assign(err, { where: err.where ?? p.configPath });
    throw err;
  }
}

/**
 * A local `url` that points nowhere fails clusterctl's path checks with a message about the layout; the real problem
 * is that the folder is not there (a typo, a repository not checked out), so say that.
 */
function missingLocalRepository(p: ResolvedProvider, configDir: string, componentsFile: string): ConfigError | undefined {
  const abs = localPath(p.url!, configDir);
  // clusterctl's full form names <root>/<label>/<version>/<file>: the root must exist.
  const root = /\.ya?ml$/.test(abs) ? dirname(dirname(dirname(abs))) : abs;
  if (existsSync(root)) return undefined;
  return new ConfigError(`the local repository of ${p.label} does not exist: no folder ${root}`, {
    where: `${p.configPath}.url`,
    hint: `a relative url is resolved against the config's folder (${configDir}); a local repository holds <label>/<version>/<components file>, e.g. ${p.label}/v1.2.3/${componentsFile}`,
  });
}

/** cert-manager's key among the lock's entries, `--upgrade` names and repositories. */
export const certManagerLabel = 'cert-manager';

/**
 * cert-manager's version: an exact one as written; for a range, the lock's version while it still fits (`pinned`),
 * else the highest release in the range (cert-manager has no CAPI contract to check).
 */
async function certManagerVersion(constraint: string, repo: ProviderRepository, pinned: string | undefined): Promise<string> {
  if (npmSemver().valid(constraint)) return constraint;
  if (pinned !== undefined) return pinned;
  for await (const v of settledCandidates(repo, constraintRule(constraint))) return v;
  const all = (await repo.listVersions()).filter((v) => npmSemver().valid(v)).sort((a, b) => npmSemver().rcompare(a, b));
  throw new ResolutionError(`cert-manager (certManager.version): no version satisfies "${constraint}"; available: ${all.length ? all.slice(0, 12).join(', ') : 'none'}`, {
    where: repo.url,
    hint: all.length ? 'change certManager.version to a range one of these satisfies' : certManagerRepositoryHint,
  });
}

/** How to give capiform a cert-manager repository, for messages about a missing one. */
export const certManagerRepositoryHint =
  'set certManager.url to a repository holding cert-manager/<version>/cert-manager.yaml (a local folder such as the one your providers use, ' +
  'or https://github.com/cert-manager/cert-manager/releases/latest/cert-manager.yaml), or remove certManager from the config';

export async function certManagerRepository(config: ResolvedConfig, factory: RepositoryFactory): Promise<RepositoryRef | undefined> {
  const cm = config.certManager;
  if (!cm) return undefined;
  // clusterctl's default cert-manager repository; a range is resolved from its release listing like a provider's.
  const url = cm.url ?? `https://github.com/cert-manager/cert-manager/releases/${npmSemver().valid(cm.version) ? cm.version : 'latest'}/cert-manager.yaml`;
  const kind = repositoryKindOf(url, cm.repositoryType, 'certManager.url');
  const full = kind === 'local' ? localRepositoryUrl(url, 'cert-manager', 'cert-manager.yaml', config.dir) : url;
  const request: RepositoryRequest = {
    name: 'cert-manager',
    type: '',
    url: full,
    label: 'cert-manager',
    componentsFile: 'cert-manager.yaml',
    kind,
    explicitKind: cm.repositoryType !== undefined,
    version: npmSemver().valid(cm.version) ? cm.version : undefined,
  };
  try {
    return { repo: await factory(request), source: sourceFor(kind, url, config.dir) };
  } catch (err) {
    throw (kind === 'local' ? missingCertManagerRelease(url, cm.version, config.dir) : undefined) ?? err;
  }
}

/**
 * A local repository root without a cert-manager folder fails clusterctl's path checks with a message about the
 * layout: say where capiform looked instead, and how to add it.
 */
function missingCertManagerRelease(url: string, version: string, configDir: string): ConfigError | undefined {
  if (/\.ya?ml$/.test(url)) return undefined;
  const root = localPath(url, configDir);
  if (root.split(/[\\/]/).pop() === certManagerLabel || existsSync(resolvePath(root, certManagerLabel))) return undefined;
  return new ConfigError(`no cert-manager release: capiform looked for ${resolvePath(root, certManagerLabel)}/<version>/cert-manager.yaml`, {
    where: 'certManager.url',
    hint: `copy cert-manager's release there (${certManagerLabel}/${npmSemver().valid(version) ? version : '<version>'}/cert-manager.yaml from https://github.com/cert-manager/cert-manager/releases), or ${certManagerRepositoryHint}`,
  });
}

export interface ProviderResolution {
  readonly provider: ResolvedProvider;
  readonly repo: ProviderRepository;
  readonly source: RepositorySource;
  readonly version: string;
  readonly contract: string;
}

export interface Resolution {
  readonly contract: string;
  readonly providers: readonly ProviderResolution[];
  readonly certManager: { readonly version: string; readonly repo: ProviderRepository; readonly source: RepositorySource } | undefined;
}

/**
 * How resolution reads release files: through the lock's artifact store (src/lock), which verifies what the lock pins
 * and records what it reads.
 */
export interface ArtifactReader {
  read(source: { readonly label: string; readonly repo: ProviderRepository }, version: string, file: string): Promise<Uint8Array | null>;
  /** The lock's entry for `file` of `label` at `version`, if it pins one (its contract is then known). */
  pinnedFile(label: string, version: string, file: string): object | null;
}

export interface ResolveOptions {
  store: ArtifactReader;
  /** Versions to keep, by label (fresh lock entries not being upgraded). */
  pinned: ReadonlyMap<string, string>;
  /** The contract the lock records for a pinned version: its metadata.yaml is then not read again. */
  pinnedContracts?: ReadonlyMap<string, string>;
  repositories: ReadonlyMap<string, RepositoryRef>;
  certManager: RepositoryRef | undefined;
  /** A management contract to resolve for, overriding the config's pin (`lock --upgrade --contract`). */
  contract?: string;
}

function contractOf(meta: Metadata, version: string): string | null {
  return releaseSeriesForVersion(meta, version)?.contract ?? null;
}

/** Picks a version for every provider; every failure is reported in one error. */
export async function resolveVersions(config: ResolvedConfig, opts: ResolveOptions): Promise<Resolution> {
  const contracts = new Map<string, string | null>();
  const tried = new Map<string, string[]>();

  const contractAt = async (p: ResolvedProvider, ref: RepositoryRef, version: string): Promise<string | null> => {
    const key = `${p.label}@${version}`;
    if (contracts.has(key)) return contracts.get(key)!;
    const lockedContract = opts.pinned.get(p.label) === version ? opts.pinnedContracts?.get(p.label) : undefined;
    if (lockedContract && opts.store.pinnedFile(p.label, version, 'metadata.yaml')) {
      contracts.set(key, lockedContract);
      return lockedContract;
    }
    const bytes = await opts.store.read({ label: p.label, repo: ref.repo }, version, 'metadata.yaml');
    if (bytes === null) {
      throw new ResolutionError(`failed to read "metadata.yaml" from the repository for provider "${p.label}": not found at ${version}`, {
        where: ref.repo.fileLocation(version, 'metadata.yaml'),
      });
    }
    const c = contractOf(parseMetadata(bytes, p.label, ref.repo.fileLocation(version, 'metadata.yaml')), version);
    contracts.set(key, c);
    return c;
  };

  /** A pinned version alone, else the constraint's candidates, reading only the listing pages needed to settle them. */
  const candidatesOf = (p: ResolvedProvider, ref: RepositoryRef): Iterable<string> | AsyncIterable<string> => {
    const pin = opts.pinned.get(p.label);
    return pin ? [pin] : settledCandidates(ref.repo, constraintRule(p.constraint));
  };

  const problems: string[] = [];
  const pick = async (p: ResolvedProvider, accept: (c: string) => boolean, wanted: string): Promise<ProviderResolution | null> => {
    const ref = opts.repositories.get(p.label)!;
    const seen: string[] = [];
    for await (const v of candidatesOf(p, ref)) {
      const c = await contractAt(p, ref, v);
      seen.push(`${v} (${c ?? 'no release series'})`);
      if (c !== null && accept(c)) return { provider: p, repo: ref.repo, source: ref.source, version: v, contract: c };
    }
    if (seen.length === 0) {
      // Every page was read to find that nothing fits, so the full list costs nothing more.
      const all = await ref.repo.listVersions();
      const sorted = all.filter((v) => npmSemver().valid(v)).sort((a, b) => npmSemver().rcompare(a, b));
      problems.push(
        `${p.label} (${p.configPath}.version): no version satisfies "${p.constraint}"; available: ${sorted.length ? sorted.slice(0, 12).join(', ') : 'none'}`,
      );
      return null;
    }
    tried.set(p.label, seen);
    problems.push(`${p.label} (${p.configPath}): no version satisfying "${p.constraint}" implements ${wanted}; tried ${seen.slice(0, 12).join(', ')}`);
    return null;
  };

  const core = config.providers.find((p) => p.type === 'CoreProvider')!;
  const pin = opts.contract ?? config.contract;
  const coreRes = await pick(core, (c) => (pin ? c === pin : true), pin ? `the pinned contract ${pin}` : 'a contract');
  if (!coreRes) throw new ResolutionError(`cannot resolve the providers:\n  ${problems.join('\n  ')}`, { hint: 'change the version constraints or the contract pin' });
  const contract = pin ?? coreRes.contract;
  const compatible = compatibleContracts(contract);
  const out: ProviderResolution[] = [coreRes];
  for (const p of config.providers) {
    if (p === core) continue;
    const r = await pick(p, (c) => compatible.includes(c), `the management contract ${contract} (compatible: ${compatible.join(', ')})`);
    if (r) out.push(r);
  }
  if (problems.length > 0) {
    const pinnedNote = [...opts.pinned.keys()].length > 0 ? ' (versions pinned by capi.lock.yaml are kept; `capiform lock --upgrade` re-resolves them)' : '';
    throw new ResolutionError(`cannot resolve the providers for contract ${contract}:\n  ${problems.join('\n  ')}`, {
      hint: `change the version constraints, or pin \`contract\`${pinnedNote}`,
    });
  }
  let certManager: Resolution['certManager'];
  if (config.certManager && opts.certManager) {
    const version = await certManagerVersion(config.certManager.version, opts.certManager.repo, opts.pinned.get(certManagerLabel));
    certManager = { version, repo: opts.certManager.repo, source: opts.certManager.source };
  }
  return { contract, providers: out, certManager };
}
