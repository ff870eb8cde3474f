/**
 * What `capiform plan` reads from disk: manifests from files and directories, the inventory from a rendered tree or
 * capi.lock.yaml, and release listings from clusterctl local-repository folders. The planners in src/plan take these as data.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { checkConfinedFile, MAX_MANIFEST_SIZE, notAFile, parseManifests, readTextFile } from '../../yaml/index.js';
import { certManagerShouldUpgrade, createRepository, HttpClient, LocalRepository, type ProviderRepository, readMetadata } from '../../resolve/index.js';
import { ContentCache, defaultCacheDir } from '../../cache/index.js';
import { lockFileName, readLockedProviders } from '../../lock/index.js';
import { InputError, NetworkError, ResolutionError } from '../../errors.js';
import { manifestLabel } from '../../capi/index.js';
import { templatePinOf } from '../../render/index.js';
import { repositoryKey, type CertManagerPlan, type InventoryProvider, type ReleaseSeries, type Repositories, type RepositoryListing } from '../../plan/upgrade/index.js';
import { compareKubernetesVersions, parseKubernetesVersion, type KubernetesVersion } from '../../capi/index.js';
import { asObject as rec } from '../../go/index.js';

type Obj = Record<string, unknown>;

/**
 * Every `*.yaml`/`*.yml` file under `path` (or `path` itself), sorted, so runs are deterministic; `names` picks other
 * files (`validate --schemas` also reads OpenAPI `*.json`).
 */
export function manifestFiles(path: string, names: RegExp = /\.ya?ml$/): string[] {
  if (!existsSync(path)) throw new InputError(`no such file or directory: ${path}`, { hint: 'pass a directory or file of manifests' });
  const st = statSync(path);
  if (st.isFile()) return [path];
  if (!st.isDirectory()) throw notAFile(path, st);
  const out: string[] = [];
  // A file found in a folder (a committed tree, a class folder) must stay in it: a link there may come from a PR.
  const confine = { root: path, rootName: `the folder ${path}`, what: 'a manifest' };
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (names.test(entry.name)) {
        if (!entry.isFile()) checkConfinedFile(p, { ...confine, what: `the manifest ${p}` });
        out.push(p);
      }
    }
  };
  walk(path);
  return out;
}

/**
 * Parses a multi-document YAML file into objects with `parseManifests` (apimachinery splitting, YAML 1.1,
 * clusterctl's error texts with file:line), then flattens `kind: List` documents.
 */
export function parseManifestText(text: string, source: string): Obj[] {
  const out: Obj[] = [];
  // The rendered tree is capiform's own output: a repeated key means a hand edit whose intent is ambiguous.
  for (const obj of parseManifests(text, { source, duplicateKeys: 'error' })) {
    if (typeof obj.kind === 'string' && obj.kind.endsWith('List') && Array.isArray(obj.items)) {
      for (const item of obj.items) if (rec(item)) out.push(item as Obj);
    } else out.push(obj);
  }
  return out;
}

/** Reads every manifest under the given paths. */
export function readManifests(paths: readonly string[], cwd: string): Obj[] {
  const objects: Obj[] = [];
  for (const p of paths) {
    for (const file of manifestFiles(resolve(cwd, p))) {
      const source = relative(cwd, file) || file;
      objects.push(...parseManifestText(readTextFile(file, MAX_MANIFEST_SIZE, 'manifest', source), source));
    }
  }
  return objects;
}

/** The inventory `Provider` objects of a rendered tree (`providers/<label>/inventory.yaml` and friends). */
export function readTreeInventory(providersDir: string, cwd: string): InventoryProvider[] {
  if (!existsSync(providersDir)) return [];
  const out: InventoryProvider[] = [];
  for (const file of manifestFiles(providersDir)) {
    const text = readFileSync(file, 'utf8');
    if (!/^kind:\s*Provider\s*$/m.test(text)) continue;
    for (const o of parseManifestText(text, relative(cwd, file))) {
      if (o.kind !== 'Provider' || !String(o.apiVersion ?? '').startsWith('clusterctl.cluster.x-k8s.io/')) continue;
      const m = rec(o.metadata) ?? {};
      out.push({
        providerName: String(o.providerName ?? ''),
        type: String(o.type ?? ''),
        version: String(o.version ?? ''),
        namespace: String(m.namespace ?? ''),
      });
    }
  }
  return out;
}

/** A provider as pinned in capi.lock.yaml, with where its releases come from. */
export interface LockedInventoryProvider extends InventoryProvider {
  label: string;
  source: { kind: string; url: string };
}

/** Reads the providers of capi.lock.yaml (namespace left empty; the tree knows it). */
export function readLockInventory(lockPath: string, target?: string): LockedInventoryProvider[] {
  return readLockedProviders(lockPath, target).map((p) => ({
    providerName: p.name,
    type: p.type,
    version: p.version,
    namespace: '',
    label: p.label ?? manifestLabel(p.name, p.type),
    source: p.source,
  }));
}

/** Version folders of `<dir>` that parse as semantic versions, sorted ascending. */
export function localVersions(dir: string): string[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && parseKubernetesVersion(d.name) !== null)
    .map((d) => d.name)
    .sort((a, b) => compareKubernetesVersions(parseKubernetesVersion(a) as KubernetesVersion, parseKubernetesVersion(b) as KubernetesVersion));
}

/**
 * The listing of a provider in a clusterctl local repository `<basepath>/<label>/<version>/`: every version folder and
 * the metadata of the newest one (the only one the planner reads), through the resolver's LocalRepository and
 * `readMetadata` (clusterctl's messages). `undefined` when the repository has no folder for the provider.
 */
export async function readLocalListing(
  basepath: string,
  provider: { providerName: string; type: string },
): Promise<RepositoryListing | undefined> {
  const label = manifestLabel(provider.providerName, provider.type);
  const dir = join(basepath, label);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return undefined;
  const repo = new LocalRepository({ name: provider.providerName, type: provider.type, url: `${dir}/latest/components.yaml` });
  const versions = await repo.listVersions();
  const metadata: Record<string, ReleaseSeries[] | undefined> = {};
  const sorted = localVersions(dir);
  const latest = sorted.at(-1);
  if (latest) {
    const m = await readMetadata(repo, latest, { name: provider.providerName, type: provider.type });
    metadata[latest] = m.releaseSeries.map((s) => ({ major: s.major, minor: s.minor, contract: s.contract }));
  }
  return { versions, metadata };
}

/**
 * The listing of a remote source (GitHub, GitLab) from the cache only: no socket is opened. Throws the HTTP layer's
 * OfflineError (exit 3, naming the missing listing) when the cache cannot answer.
 */
export async function readCachedRemoteListing(
  provider: { providerName: string; type: string },
  url: string,
  env: NodeJS.ProcessEnv,
): Promise<RepositoryListing> {
  const http = new HttpClient({ offline: true, cache: new ContentCache(defaultCacheDir(env)) });
  return repositoryListing(await createRepository({ name: provider.providerName, type: provider.type, url }, { http, env }), provider);
}

/** A repository's release listing as the planner reads it: every version, and the metadata of the newest one. */
export async function repositoryListing(repo: ProviderRepository, provider: { providerName: string; type: string }): Promise<RepositoryListing> {
  const versions = await repo.listVersions();
  const latest = [...versions]
    .filter((v) => parseKubernetesVersion(v) !== null)
    .sort((a, b) => compareKubernetesVersions(parseKubernetesVersion(a) as KubernetesVersion, parseKubernetesVersion(b) as KubernetesVersion))
    .at(-1);
  const metadata: Record<string, ReleaseSeries[] | undefined> = {};
  if (latest) {
    const m = await readMetadata(repo, latest, { name: provider.providerName, type: provider.type });
    metadata[latest] = m.releaseSeries.map((s) => ({ major: s.major, minor: s.minor, contract: s.contract }));
  }
  return { versions, metadata };
}

/**
 * The repository root of a local source as the lock records it (the config's `url`): clusterctl's full form
 * `<basepath>/<label>/<version>/<file>`, the provider folder `<basepath>/<label>`, or the root `<basepath>` itself.
 */
export function localBasepath(sourceUrl: string, configDir: string, label?: string): string {
  const p = resolve(configDir, sourceUrl.replace(/^file:\/\//, ''));
  if (/\.ya?ml$/.test(p)) return dirname(dirname(dirname(p)));
  if (label !== undefined && !existsSync(join(p, label)) && basename(p) === label) return dirname(p);
  return p;
}

/** Raised when a provider's release listing is not available offline. */
export function missingListings(missing: readonly string[]): ResolutionError {
  return new ResolutionError(
    `offline upgrade plan needs the release listing (versions and metadata.yaml) of every provider; missing for: ${missing.join(', ')}`,
    {
      hint: 'restore the local repository folders (local sources), run `capiform lock` once online to fill the cache (GitHub/GitLab sources), or pass --repository DIR pointing at a clusterctl local repository (<DIR>/<label>/<version>/metadata.yaml) that holds these providers',
    },
  );
}

function readFileObjects(file: string): Record<string, unknown>[] {
  return parseManifestText(readFileSync(file, 'utf8'), file);
}

/** A fleet's management cluster keeps its tree under `targets/<name>/`; the single form at the top. */
function targetDir(base: string, target: string | undefined): string {
  return target === undefined ? base : join(base, 'targets', target);
}

/** A cluster of the rendered tree whose templates come from a pinned provider release (`clusters[].templateVersion`). */
export interface PinnedCluster {
  /** `<namespace>/<name>` */
  cluster: string;
  label: string;
  version: string;
  constraint: string;
}

/** The pinned clusters of the tree (a fleet: of management cluster `target`), from the pin line of each `cluster.yaml`. */
export function readPinnedClusters(base: string, target?: string): PinnedCluster[] {
  const root = join(targetDir(base, target), 'clusters');
  if (!existsSync(root)) return [];
  const out: PinnedCluster[] = [];
  for (const file of manifestFiles(root, /^cluster\.yaml$/)) {
    const pin = templatePinOf(readFileSync(file, 'utf8'));
    if (pin) out.push({ cluster: relative(root, dirname(file)).split(/[\\/]/).join('/'), ...pin });
  }
  return out;
}

/** The providers a plan starts from: capi.lock.yaml's (with namespaces from the tree), else the tree's Provider objects. */
export function readPlanInventory(base: string, target?: string): { source: 'lock' | 'tree'; providers: InventoryProvider[]; locked: LockedInventoryProvider[] } {
  const lockPath = join(base, lockFileName);
  const tree = readTreeInventory(join(targetDir(base, target), 'providers'), base);
  if (existsSync(lockPath)) {
    const locked = readLockInventory(lockPath, target);
    for (const p of locked) {
      const t = tree.find((x) => x.providerName === p.providerName && x.type === p.type);
      if (t) p.namespace = t.namespace;
    }
    return { source: 'lock', providers: locked, locked };
  }
  if (tree.length === 0) {
    throw new InputError(`no inventory: neither capi.lock.yaml nor Provider objects under providers/ in ${base}`, {
      where: base,
      hint: 'run in a capiform repository (after `capiform lock` / `capiform render`) or pass --config',
    });
  }
  return { source: 'tree', providers: tree, locked: [] };
}

/** Each provider's release listing: `--repository`, the lock's local repository, or the cache of a remote one. */
export async function readPlanRepositories(
  inventory: readonly InventoryProvider[],
  locked: readonly LockedInventoryProvider[],
  repositoryDir: string | undefined,
  base: string,
  env: NodeJS.ProcessEnv,
): Promise<Repositories> {
  const repositories: Repositories = {};
  const missing: string[] = [];
  for (const p of inventory) {
    const label = manifestLabel(p.providerName, p.type);
    let listing = repositoryDir ? await readLocalListing(repositoryDir, p) : undefined;
    const lockEntry = locked.find((l) => l.providerName === p.providerName && l.type === p.type);
    let why = '';
    if (!listing && lockEntry?.source.kind === 'local') {
      const basepath = localBasepath(lockEntry.source.url, base, label);
      listing = await readLocalListing(basepath, p);
      if (!listing) why = `: no folder ${join(basepath, label)}`;
    }
    if (!listing && lockEntry && (lockEntry.source.kind === 'github' || lockEntry.source.kind === 'gitlab')) {
      try {
        listing = await readCachedRemoteListing(p, lockEntry.source.url, env);
      } catch (err) {
        if (!(err instanceof NetworkError)) throw err;
        why = ': not in the cache';
      }
    }
    if (!listing) {
      missing.push(lockEntry ? `${label} (${lockEntry.source.kind || 'unknown'} source ${lockEntry.source.url || '?'}${why})` : label);
      continue;
    }
    repositories[repositoryKey(p)] = listing;
  }
  if (missing.length > 0) throw missingListings(missing);
  return repositories;
}

/** cert-manager's upgrade, when the tree installs it and a newer one is asked for or found beside the repositories. */
export function readCertManagerPlan(base: string, repositoryDir: string | undefined, desiredFlag: string | undefined, target?: string): CertManagerPlan | null {
  const dir = join(targetDir(base, target), 'providers', 'cert-manager');
  if (!existsSync(dir)) return null;
  const installed = readManifests([dir], base).filter((o) => {
    const labels = (o.metadata as { labels?: Record<string, unknown> } | undefined)?.labels;
    return labels?.['clusterctl.cluster.x-k8s.io/core'] === 'cert-manager';
  });
  if (installed.length === 0) return null;
  let desired = desiredFlag;
  let toInstall: Record<string, unknown>[] | null = null;
  const cmRepo = repositoryDir ? join(repositoryDir, 'cert-manager') : undefined;
  if (!desired && cmRepo) desired = localVersions(cmRepo).at(-1);
  if (!desired) return null;
  if (cmRepo && existsSync(join(cmRepo, desired, 'cert-manager.yaml'))) toInstall = readFileObjects(join(cmRepo, desired, 'cert-manager.yaml'));
  const decision = certManagerShouldUpgrade(desired, installed, toInstall ?? installed);
  return { from: decision.fromVersion, to: desired, shouldUpgrade: decision.shouldUpgrade };
}
