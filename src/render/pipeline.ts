/**
 * capiform's main job, as one composition: config → lock → artifacts → tree.
 *   1. read the lock and explain how it differs from the config (frozen runs stop here on any difference);
 *   2. resolve versions (lock entries that still fit are kept);
 *   3. read every artifact through the ArtifactStore (verified against the lock, recorded for the new one);
 *   4. render providers, cert-manager, ClusterClasses and clusters with the render core, collecting every problem;
 *   5. keep credentials out (fail or omit), assemble the tree files, write the lock and the tree.
 * Stages are plain functions; the only IO here is reading the lock and calling the tree writer.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CapiformError, InputError, MissingVariablesError, ResolutionError, UsageError } from '../errors.js';
import type { ResolvedCluster, ResolvedConfig, ResolvedProvider } from '../config/types.js';
import { isSecretVariable, markersIn, redact, secretMarker, secretValues } from '../config/secrets.js';
import { compareBytes, ContentCache, digestOf, sha256Hex } from '../cache/index.js';
import {
  ArtifactStore,
  checkContractPin,
  formatLock,
  isUpgrading,
  lockDrift,
  lockFileName,
  lockfileVersion,
  LockStaleError,
  pinnedVersions,
  readLockDocument,
  resolutionDigest,
  staleLockError,
  writeLock,
  type ArtifactCache,
  type Lock,
  type LockDocument,
  type LockDrift,
  type LockedFile,
  type LockedSource,
} from '../lock/index.js';
import {
  certManagerRepository,
  providerLocation,
  providerRepository,
  resolveVersions,
  type ProviderResolution,
  repositoryFactory,
  type RepositoryFactory,
  type RepositoryRef,
} from '../resolve/resolve-config.js';
import type { HttpClient, ProgressListener } from '../resolve/http/client.js';
import {
  argocdManifests,
  clusterClassReferences,
  emitManifests,
  clusterDirectorySyncWaves,
  declaredNamespaces,
  kustomizationFor,
  getVariables,
  namespaceDir,
  namespaceFile,
  namespaceYaml,
  processCertManager,
  providerSyncWave,
  syncWaves,
  renderClusterTemplate,
  renderProviderComponents,
  templateOptionsToVariables,
  workloadNamespaces,
  type KubeObject,
  type ManifestEntry,
} from './tree/deps.js';
import { customizeObjects, needsCustomizing } from './tree/customize.js';
import { alterImage, type ImageOverrides } from './components/images.js';
import { relocateCrsImages } from './crs-images.js';
import { mergeDuplicateObjects } from './duplicate-objects.js';
import { inventoryCrd } from './tree/inventory-crd.js';
import { hashTemplateNames, isHashNamedTemplate } from './template-hash.js';
import type { KustomizationOptions } from './argocd/index.js';
import { TreeCache } from './tree/tree-cache.js';
import { codeFingerprint } from '../version.js';
import { decodeUtf8 } from '../yaml/index.js';
import { diffTree, generatedHeader, repairTree, writeTree, type TreeChanges, type TreeFile } from './tree/write-tree.js';
import { clusterClassFileName, templateFileName } from './template-names.js';
import { checkLockPath, checkTreePaths } from './tree/tree-paths.js';

/**
 * `render` writes the lock and the tree; `check` writes nothing and compares with the tree on disk; `lock` resolves
 * and records artifacts only; `memory` writes nothing and returns every file with its contents (`diff --render`).
 */
export type PipelineMode = 'render' | 'check' | 'lock' | 'memory';

export interface PipelineOptions {
  config: ResolvedConfig;
  mode: PipelineMode;
  /** Never change the lock; fail, naming the entry, when the config no longer matches it. */
  frozen?: boolean;
  /** Re-resolve all providers, or those named (by name or label). */
  upgrade?: 'all' | readonly string[];
  /**
   * With `upgrade: 'all'`: move every provider to the versions `plan upgrade` proposes for this contract (the lock
   * then records it as the management contract).
   */
  contract?: string;
  /**
   * With `contract`: the versions to move to (`plan upgrade`'s proposal, src/pipeline/contract-upgrade.ts). Passed in
   * because the upgrade planner sits above this layer.
   */
  planContract?: ContractPlanner;
  cache?: ArtifactCache;
  /** Where provider releases come from; default: local folders and remote repositories over `http`. */
  repositories?: RepositoryFactory;
  env?: NodeJS.ProcessEnv;
  /** `--offline`: remote repositories answer from the cache only (no socket is opened); a missing item fails, named. */
  offline?: boolean;
  /** Download progress (the CLI's `progressReporter`). */
  onProgress?: ProgressListener | undefined;
  /** The HTTP client for remote repositories (tests count its requests); default: one for this run. */
  http?: HttpClient;
  /** Progress and notes (already redacted). */
  log?: (line: string) => void;
}

/** Version pins by provider label for a contract upgrade, and notes (upgrade-path warnings) to print. */
export type ContractPlanner = (
  config: ResolvedConfig,
  lock: Lock,
  repositories: ReadonlyMap<string, RepositoryRef>,
  contract: string,
) => Promise<{ pinned: Map<string, string>; notes: string[] }>;

/** An object left out of the tree because a credential would land in it (policy "omit"). */
export interface OmittedObject {
  /** `Secret capa-system/capa-manager-bootstrap-credentials`. */
  object: string;
  /** Where it would have gone: `providers/infrastructure-aws/components.yaml`. */
  file: string;
  variables: string[];
}

export interface PipelineResult {
  lock: Lock;
  lockChanged: boolean;
  lockWritten: boolean;
  drift: LockDrift[];
  files: TreeFile[];
  changes: TreeChanges | undefined;
  omitted: OmittedObject[];
  repaired: 'none' | 'discarded' | 'completed';
}

/** One problem among many: what failed and where in the config. */
interface Problem {
  where: string;
  error: CapiformError;
}

const header = generatedHeader;
const headerText = header.replace(/^# /, '');

function withHeader(yaml: string): string {
  return `${header}\n${yaml.endsWith('\n') ? yaml : `${yaml}\n`}`;
}

function objectName(o: KubeObject): string {
  const m = (o.metadata ?? {}) as { name?: unknown; namespace?: unknown };
  return `${String(o.kind)} ${m.namespace ? `${String(m.namespace)}/` : ''}${String(m.name ?? '')}`;
}

function readExistingLock(path: string): LockDocument | undefined {
  if (!existsSync(path)) return undefined;
  return readLockDocument(path);
}

/** Runs the pipeline. */
export async function runPipeline(opts: PipelineOptions): Promise<PipelineResult> {
  const { config } = opts;
  const log = opts.log ?? (() => {});
  const factory =
    opts.repositories ??
    repositoryFactory({ env: opts.env ?? {}, offline: opts.offline ?? false, onProgress: opts.onProgress, ...(opts.http ? { http: opts.http } : {}) });
  const lockPath = join(config.dir, lockFileName);
  checkLockPath(lockPath);
  const existingDocument = readExistingLock(lockPath);
  const existing = existingDocument?.lock;
  if (opts.frozen && !existing) {
    throw new LockStaleError('there is no capi.lock.yaml', '(missing)', 'run `capiform lock` and commit capi.lock.yaml');
  }
  if (opts.contract !== undefined) {
    if (opts.upgrade !== 'all') throw new UsageError('--contract needs --upgrade (without provider names): a contract upgrade moves every provider', { hint: `capiform lock --upgrade --contract ${opts.contract}` });
    checkContractPin(config, opts.contract);
  }
  if (opts.upgrade && opts.upgrade !== 'all') {
    for (const n of opts.upgrade) {
      if (!config.providers.some((p) => p.name === n || p.label === n)) {
        throw new UsageError(`--upgrade ${n}: no such provider in the config`, {
          hint: `use a name or label of: ${config.providers.map((p) => p.label).join(', ')}`,
        });
      }
    }
  }

  // 1. Sources (every unknown provider at once), then how the lock differs from the config.
  const problems: Problem[] = [];
  const sources = new Map<string, LockedSource>();
  for (const p of config.providers) {
    try {
      sources.set(p.label, providerLocation(p, config.dir).source);
    } catch (err) {
      if (!(err instanceof CapiformError)) throw err;
      problems.push({ where: p.configPath, error: err });
    }
  }
  if (problems.length > 0) throw aggregate(problems, config);
  const cmRef = await certManagerRepository(config, factory);
  if (cmRef) sources.set('cert-manager', cmRef.source);
  const drift = existing ? lockDrift(config, existing, sources) : [];
  if (opts.frozen && drift.length > 0) throw staleLockError(drift);
  for (const d of drift) log(`capi.lock.yaml: ${d.reason}: ${d.detail}`);

  // 2. Repositories.
  const repositories = new Map<string, RepositoryRef>();
  for (const p of config.providers) {
    try {
      repositories.set(p.label, await providerRepository(p, config.dir, factory));
    } catch (err) {
      if (!(err instanceof CapiformError)) throw err;
      problems.push({ where: p.configPath, error: err });
    }
  }
  if (problems.length > 0) throw aggregate(problems, config);
  let pinned: Map<string, string>;
  if (opts.frozen) pinned = new Map(existing!.providers.map((p) => [p.label, p.version]));
  else if (opts.contract !== undefined && existing) {
    if (!opts.planContract) throw new Error('runPipeline: `contract` needs `planContract`');
    const planned = await opts.planContract(config, existing, repositories, opts.contract);
    for (const n of planned.notes) log(n);
    pinned = planned.pinned;
  } else pinned = pinnedVersions(config, existing, repositories, opts.upgrade);

  // 3. Resolution through the artifact store.
  // `--upgrade` re-pins the bytes of the providers it names too (a release re-published on purpose, an edited local
  // repository): their old digests must not stand in the way.
  const upgrading = (label: string): boolean => config.providers.some((p) => p.label === label && isUpgrading(p, opts.upgrade));
  const locked = new Map<string, { version: string; files: readonly LockedFile[] }>();
  for (const p of existing?.providers ?? []) if (!upgrading(p.label)) locked.set(p.label, { version: p.version, files: p.files });
  if (existing?.certManager && opts.upgrade !== 'all') locked.set('cert-manager', { version: existing.certManager.version, files: existing.certManager.files });
  const store = new ArtifactStore({ configDir: config.dir, locked, frozen: opts.frozen ?? false, cache: opts.cache ?? ContentCache.fromEnv(opts.env ?? {}) });
  const pinnedContracts = new Map((existing?.providers ?? []).map((p) => [p.label, p.contract]));
  const resolution = await resolveVersions(config, {
    store,
    pinned,
    pinnedContracts,
    repositories,
    certManager: cmRef,
    ...(opts.contract !== undefined ? { contract: opts.contract } : {}),
  });
  // Local repositories are read again on every run, so an edited file can never hide behind the content cache or
  // the render cache: the bytes on disk must still be the bytes the lock pins.
  await store.verifyLocal([
    ...resolution.providers.map((r) => ({ label: r.provider.label, repo: r.repo, version: r.version })),
    ...(resolution.certManager ? [{ label: 'cert-manager', repo: resolution.certManager.repo, version: resolution.certManager.version }] : []),
  ]);
  for (const r of resolution.providers) {
    const before = existing?.providers.find((x) => x.label === r.provider.label);
    if (before && before.version !== r.version) log(`${r.provider.label}: ${before.version} → ${r.version}`);
  }

  // 4. Render.
  const files: TreeFile[] = [];
  const omitted: OmittedObject[] = [];
  const leaks: { variable: string; object: string; file: string; where: string }[] = [];
  // `--check` compares every reused file's bytes with what its inputs render to, whatever its stat says.
  const cache = new TreeCache(config.dir, opts.mode === 'lock' ? undefined : opts.env, { contents: opts.mode === 'memory', readBytes: opts.mode === 'check' });
  const ctx: RenderContext = { config, store, files, omitted, leaks, problems, lockMode: opts.mode === 'lock', cache, sources: new Map() };

  const components = resolution.providers.map((r) => {
    const ref = { label: r.provider.label, repo: r.repo };
    const file = r.repo.componentsFile;
    let loaded: Promise<{ raw: string; sha: string }> | undefined;
    const load = (): Promise<{ raw: string; sha: string }> =>
      (loaded ??= store.read(ref, r.version, file).then((bytes) => {
        if (bytes === null) {
          throw new ResolutionError(`failed to read "${file}" from provider's repository "${r.provider.label}": not found at ${r.version}`, {
            where: r.repo.fileLocation(r.version, file),
          });
        }
        return { raw: decodeUtf8(bytes, r.repo.fileLocation(r.version, file), { keepBom: true }), sha: sha256Hex(bytes) };
      }));
    return { r, load, pinned: store.pinnedFile(r.provider.label, r.version, file) };
  });
  // Lock mode records every components file; rendering reads one only when its directory must be rendered again.
  if (opts.mode === 'lock') await Promise.all(components.map((c) => c.load()));
  let certManagerRaw: string | undefined;
  if (resolution.certManager) {
    const cm = resolution.certManager;
    const bytes = await store.read({ label: 'cert-manager', repo: cm.repo }, cm.version, 'cert-manager.yaml');
    if (bytes === null) {
      // A local repository lists its versions for free; a remote one would cost a request just for the hint.
      const available = cm.repo.kind === 'local' ? await cm.repo.listVersions().catch(() => []) : [];
      throw new ResolutionError(`failed to read "cert-manager.yaml" for cert-manager ${cm.version}`, {
        where: cm.repo.fileLocation(cm.version, 'cert-manager.yaml'),
        hint: available.length > 0
          ? `set certManager.version to one the repository has: ${available.join(', ')}`
          : 'check certManager.version and certManager.url',
      });
    }
    certManagerRaw = decodeUtf8(bytes, cm.repo.fileLocation(cm.version, 'cert-manager.yaml'), { keepBom: true });
  }

  if (opts.mode !== 'lock') {
    for (const c of components) await renderProvider(ctx, c.r, c.pinned?.sha256, c.load);
    if (certManagerRaw !== undefined && resolution.certManager) {
      const dir = 'providers/cert-manager';
      const inputs = digestOf({ fp: codeFingerprint(), kind: 'cert-manager', version: resolution.certManager.version, raw: sha256Hex(certManagerRaw), images: config.images });
      const reused = cache.reuse(dir, inputs);
      if (reused) files.push(...reused.files);
      else {
        const cm = processCertManager(certManagerRaw, resolution.certManager.version, config.images);
        cache.record(dir, inputs, addDir(files, dir, [{ name: 'cert-manager.yaml', content: withHeader(cm.yaml()) }]), undefined, true);
      }
    }
  }
  await renderClusters(ctx, resolution.providers);
  const namespaces = opts.mode === 'lock' ? [] : workloadNamespaces(config.clusters, providerNamespaces(ctx));
  for (const ns of namespaces) addDir(files, namespaceDir(ns), [{ name: namespaceFile, content: withHeader(namespaceYaml(ns)) }]);

  if (leaks.length > 0 && config.secrets.policy === 'fail') throw secretsError(leaks);
  if (problems.length > 0) throw aggregate(problems, config);
  if (opts.mode !== 'lock') mergeDuplicates(ctx);

  if (config.argocd && opts.mode !== 'lock') {
    const a = config.argocd;
    const providerDirs = resolution.providers.map((r) => ({
      label: r.provider.label,
      dir: `providers/${r.provider.label}`,
      wave: providerSyncWave(r.provider.type),
    }));
    if (resolution.certManager) providerDirs.unshift({ label: 'cert-manager', dir: 'providers/cert-manager', wave: providerSyncWave('CertManager') });
    const glue = argocdManifests({
      repoURL: a.repoURL,
      targetRevision: a.targetRevision,
      ...(a.path ? { pathPrefix: a.path } : {}),
      providers: providerDirs,
      clusterClasses: ctx.classDirs,
      namespaces: namespaces.map((ns) => ({ namespace: ns, dir: namespaceDir(ns), wave: syncWaves.namespaces })),
      clusters: config.clusters.map((c) => ({ namespace: c.namespace, name: c.name, dir: `clusters/${c.namespace}/${c.name}`, wave: syncWaves.clusters })),
      mode: a.mode,
      ...(a.generator ? { generator: a.generator } : {}),
      ...(a.project ? { project: a.project } : {}),
      ...(a.destination ? { destination: a.destination } : {}),
      ...(a.namespace ? { argocdNamespace: a.namespace } : {}),
      ...(a.namePrefix !== undefined ? { namePrefix: a.namePrefix } : {}),
      ...(a.automated !== undefined ? { automated: a.automated } : {}),
      header: headerText,
    });
    for (const f of glue) files.push({ path: f.path, content: f.content.startsWith('#') ? f.content : withHeader(f.content) });
  }

  // A file in the way of the tree stops the run before the lock is written, so lock and tree still match.
  if (opts.mode === 'render' || opts.mode === 'check') checkTreePaths(config.dir, files.map((f) => f.path));

  // 5. Lock.
  const lock: Lock = {
    lockfileVersion,
    configDigest: resolutionDigest(config),
    contract: resolution.contract,
    providers: resolution.providers.map((r) => lockedProvider(r, store)),
    certManager: resolution.certManager
      ? { version: resolution.certManager.version, source: resolution.certManager.source, files: store.filesFor('cert-manager', resolution.certManager.version) }
      : undefined,
  };
  const lockText = formatLock(lock);
  const lockChanged = existingDocument?.text !== lockText;
  let lockWritten = false;
  if (lockChanged && opts.frozen) {
    throw new LockStaleError('rendering needs entries the lock does not have', 'files', 'run `capiform lock` and commit capi.lock.yaml');
  }
  // `lock` changes the lock alone (one atomic rename); `render` hands it to the tree writer, which swaps the lock and
  // the tree in together under its journal so that no crash leaves a new lock beside an old tree.
  if (lockChanged && opts.mode === 'lock') {
    // A render interrupted mid-swap is completed (or discarded) first, so the lock written here cannot be overwritten
    // by the old render's staged one later. The CLI has done this already, under the project lock.
    repairTree(config.dir);
    writeLock(lockPath, lock);
    lockWritten = true;
  }

  // 6. Tree.
  files.sort((a, b) => compareBytes(a.path, b.path));
  let changes: TreeChanges | undefined;
  let repaired: PipelineResult['repaired'] = 'none';
  if (opts.mode === 'render') {
    const res = writeTree(config.dir, files, { env: opts.env ?? {}, verified: cache.verified, lock: { name: lockFileName, content: lockText } });
    lockWritten = lockChanged;
    changes = { added: res.added, changed: res.changed, removed: res.removed };
    repaired = res.repaired;
  } else if (opts.mode === 'check') {
    changes = diffTree(config.dir, files, cache.verified);
  }
  if (opts.mode === 'render') cache.save();
  return { lock, lockChanged, lockWritten, drift, files, changes, omitted, repaired };
}

function lockedProvider(r: ProviderResolution, store: ArtifactStore): Lock['providers'][number] {
  return {
    name: r.provider.name,
    type: r.provider.type,
    label: r.provider.label,
    constraint: r.provider.constraint,
    version: r.version,
    contract: r.contract,
    source: r.source,
    files: store.filesFor(r.provider.label, r.version),
  };
}

interface RenderContext {
  config: ResolvedConfig;
  store: ArtifactStore;
  files: TreeFile[];
  omitted: OmittedObject[];
  leaks: { variable: string; object: string; file: string; where: string }[];
  problems: Problem[];
  lockMode: boolean;
  cache: TreeCache;
  classDirs?: { namespace: string; name: string; dir: string; wave: number }[];
  /** What rendered each cluster and ClusterClass directory (release and file), for messages about its objects. */
  sources: Map<string, string>;
}

/** Namespaces the providers' and cert-manager's components create. */
function providerNamespaces(ctx: RenderContext): Set<string> {
  const out = new Set<string>();
  for (const f of ctx.files) {
    if (!f.path.startsWith('providers/') || !/\/(components|cert-manager)\.yaml$/.test(f.path)) continue;
    for (const ns of declaredNamespaces(fileContent(ctx, f))) out.add(ns);
  }
  return out;
}

/** A file's text: files taken from the tree cache carry no content, their bytes on disk are the rendered ones. */
function fileContent(ctx: RenderContext, f: TreeFile): string {
  return f.content !== '' ? f.content : readFileSync(join(ctx.config.dir, f.path), 'utf8');
}

/** Drops identical copies of an object from later files; different copies are an input error (./duplicate-objects.ts). */
function mergeDuplicates(ctx: RenderContext): void {
  const changed = mergeDuplicateObjects(ctx.files, (f) => fileContent(ctx, f), (dir) => ctx.sources.get(dir));
  for (const [i, f] of ctx.files.entries()) {
    const content = changed.get(f.path);
    if (content === undefined) continue;
    ctx.files[i] = { ...f, content };
    ctx.cache.verified.delete(f.path);
    // The dropped copy depends on other directories, which the directory's inputs digest does not cover.
    ctx.cache.forget(dirname(f.path));
  }
}

/** The `images:` a provider's manifests follow: the global entries and the provider's own. */
function imageOverridesOf(config: ResolvedConfig, p: ResolvedProvider): ImageOverrides {
  return { ...config.images, ...(p.images ? { [p.label]: p.images } : {}) };
}

/** Adds a directory's files and its kustomization; returns the directory's files. */
function addDir(files: TreeFile[], dir: string, entries: { name: string; content: string }[], kustomizeOpts: Omit<KustomizationOptions, 'header'> = {}): TreeFile[] {
  const own = entries.map((e) => ({ path: `${dir}/${e.name}`, content: e.content }));
  own.push({ path: `${dir}/kustomization.yaml`, content: kustomizationFor(entries.map((e) => e.name), { header: headerText, ...kustomizeOpts }) });
  files.push(...own);
  return own;
}

/** Variable lookup with credentials replaced by markers. */
function lookupFor(config: ResolvedConfig, layers: readonly Readonly<Record<string, string | undefined>>[]): (name: string) => string | undefined {
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

/** Objects carrying credential markers: recorded as leaks (policy fail) or dropped (policy omit). */
function screenSecrets(ctx: RenderContext, objects: KubeObject[], yaml: string, file: string, where: string): KubeObject[] | null {
  if (!yaml.includes('capiform-secret-')) return null;
  const keep: KubeObject[] = [];
  for (const o of objects) {
    const names = markersIn(JSON.stringify(o));
    if (names.length === 0) {
      keep.push(o);
      continue;
    }
    if (ctx.config.secrets.policy === 'omit') ctx.omitted.push({ object: objectName(o), file, variables: names });
    else for (const v of names) ctx.leaks.push({ variable: v, object: objectName(o), file, where });
  }
  return keep;
}

async function renderProvider(
  ctx: RenderContext,
  r: ProviderResolution,
  pinnedSha: string | undefined,
  load: () => Promise<{ raw: string; sha: string }>,
): Promise<void> {
  const p: ResolvedProvider = r.provider;
  const dir = `providers/${p.label}`;
  const { config } = ctx;
  const rawSha = pinnedSha ?? (await load()).sha;
  const inputs = digestOf({
    fp: codeFingerprint(),
    kind: 'provider',
    version: r.version,
    raw: rawSha,
    file: r.repo.componentsFile,
    provider: { ...p, variables: renderedValues(config, [p.variables, config.variables]) },
    images: config.images,
    secrets: config.secrets,
  });
  const reused = ctx.cache.reuse(dir, inputs);
  if (reused) {
    ctx.files.push(...reused.files);
    ctx.omitted.push(...((reused.extra as OmittedObject[] | undefined) ?? []));
    return;
  }
  const { raw } = await load();
  try {
    const images = imageOverridesOf(config, p);
    const c = renderProviderComponents({
      raw,
      name: p.name,
      type: p.type,
      version: r.version,
      ...(p.targetNamespace ? { targetNamespace: p.targetNamespace } : {}),
      variables: lookupFor(config, [p.variables, config.variables]),
      images,
      source: `${p.label} ${r.version} ${r.repo.componentsFile}`,
    });
    let yaml: string | undefined;
    // Objects stay paired with their source documents, so manager/deployment/patches and omitted secrets are
    // spliced into the upstream text (as `generate provider` prints it) instead of re-emitting the whole file.
    let spliced: ManifestEntry[] | undefined;
    let objects = c.objects;
    if (needsCustomizing(p)) {
      const customized = customizeObjects(objects, p);
      spliced = c.entries.map((e, i) => ({ ...e, value: customized[i]! }));
      objects = customized;
    }
    const omittedBefore = ctx.omitted.length;
    const screened = screenSecrets(ctx, objects, spliced ? JSON.stringify(objects) : (yaml = c.yaml()), `${dir}/components.yaml`, p.configPath);
    if (screened) {
      const kept = new Set(screened);
      spliced = (spliced ?? c.entries.map((e, i) => ({ ...e, value: objects[i]! }))).filter((e) => kept.has(e.value));
    }
    if (spliced) yaml = emitManifests(spliced);
    const entries = [
      { name: 'components.yaml', content: withHeader(yaml ?? c.yaml()) },
      { name: 'inventory.yaml', content: withHeader(emitManifests([c.inventoryObject()])) },
    ];
    if (p.type === 'CoreProvider') entries.push({ name: 'clusterctl-inventory-crd.yaml', content: withHeader(emitManifests([inventoryCrd])) });
    ctx.cache.record(dir, inputs, addDir(ctx.files, dir, entries), ctx.omitted.slice(omittedBefore), true);
  } catch (err) {
    if (!(err instanceof CapiformError)) throw err;
    ctx.problems.push({ where: `${p.configPath} (${p.label} ${r.version})`, error: withVariablesHint(err, `${p.configPath}.variables`) });
  }
}

/** A ClusterClass a cluster's template references, from the cluster's infrastructure provider release. */
interface ClassRef {
  key: string;
  namespace: string;
  name: string;
}

/** What a cluster directory's cache entry remembers besides its files. */
interface ClusterExtra {
  classes: ClassRef[];
  omitted: OmittedObject[];
}

function isClusterExtra(v: unknown): v is ClusterExtra {
  const e = v as Partial<ClusterExtra> | undefined;
  return typeof e === 'object' && e !== null && Array.isArray(e.classes) && Array.isArray(e.omitted);
}

async function renderClusters(ctx: RenderContext, providers: readonly ProviderResolution[]): Promise<void> {
  const { config, store } = ctx;
  /** ClusterClasses in the tree by `namespace/name`: their inputs digest and the first cluster that uses them. */
  const classes = new Map<string, { inputs: string; by: string; namespace: string; name: string; dir: string }>();
  const rawCache = new Map<string, Promise<{ text: string; sha: string } | null>>();
  const readRaw = (r: ProviderResolution, file: string): Promise<{ text: string; sha: string } | null> => {
    const key = `${r.provider.label}/${file}`;
    let p = rawCache.get(key);
    if (!p) {
      p = store.read({ label: r.provider.label, repo: r.repo }, r.version, file).then((b) => (b === null ? null : { text: decodeUtf8(b, r.repo.fileLocation(r.version, file), { keepBom: true }), sha: sha256Hex(b) }));
      rawCache.set(key, p);
    }
    return p;
  };
  const names = new Map<string, string[] | null>();
  /** The variables a template uses, once per distinct text; null when it does not parse (it is rendered, and fails). */
  const variablesOf = (raw: { text: string; sha: string }): string[] | null => {
    let v = names.get(raw.sha);
    if (v === undefined) {
      try {
        v = getVariables(raw.text);
      } catch {
        v = null;
      }
      names.set(raw.sha, v);
    }
    return v;
  };
  const fp = codeFingerprint();
  const clusterKustomize = config.argocd ? { syncWaves: clusterDirectorySyncWaves } : {};

  const useClass = (c: ResolvedCluster, cls: ClassRef & { inputs: string; dir: string }): boolean => {
    const prev = classes.get(cls.key);
    if (prev && prev.inputs !== cls.inputs) {
      throw new InputError(`ClusterClass ${cls.key} renders differently for cluster ${c.namespace}/${c.name} than for ${prev.by}`, {
        hint: 'clusters sharing a ClusterClass must give the variables it uses the same values, or use different classes',
      });
    }
    if (prev) return true;
    classes.set(cls.key, { inputs: cls.inputs, by: `${c.namespace}/${c.name}`, namespace: cls.namespace, name: cls.name, dir: cls.dir });
    return false;
  };

  /**
   * Puts the ClusterClass `ref` into the tree for cluster `c`: its inputs digest is computed from the class file as it
   * is now and the values `c` gives the variables it uses, whether the cluster itself was rendered or reused.
   */
  const includeClass = async (c: ResolvedCluster, r: ProviderResolution, ref: ClassRef, lookup: (name: string) => string | undefined, where: string): Promise<void> => {
    const classFile = clusterClassFileName(ref.name);
    const classRaw = await readRaw(r, classFile);
    if (classRaw === null) {
      throw new ResolutionError(`failed to get the cluster class template for "${ref.key}": ${r.provider.label} ${r.version} has no ${classFile}`);
    }
    if (ctx.lockMode) return;
    const classDir = `clusterclasses/${ref.namespace}/${ref.name}`;
    if (!ctx.sources.has(classDir)) ctx.sources.set(classDir, `${r.provider.label} ${r.version} ${classFile}`);
    const used = variablesOf(classRaw);
    const classInputs = digestOf({
      fp,
      kind: 'clusterclass',
      key: ref.key,
      raw: classRaw.sha,
      secrets: config.secrets,
      templates: config.templates,
      values: used === null ? classRaw.sha : valuesOf(used, lookup),
    });
    if (useClass(c, { ...ref, dir: classDir, inputs: classInputs })) return;
    const fromDisk = used === null ? null : ctx.cache.reuse(classDir, classInputs);
    if (fromDisk) {
      ctx.files.push(...fromDisk.files);
      if (Array.isArray(fromDisk.extra)) ctx.omitted.push(...(fromDisk.extra as OmittedObject[]));
      return;
    }
    const ct = renderClusterTemplate({ raw: classRaw.text, source: `${r.provider.label} ${r.version} ${classFile}`, targetNamespace: ref.namespace, variables: lookup });
    const rendered = withTemplateNames(ct, config.templates.hashNames);
    const omittedBefore = ctx.omitted.length;
    const kept = screenSecrets(ctx, rendered.objects, rendered.yaml, `${classDir}/clusterclass.yaml`, where);
    const classFiles = addDir(ctx.files, classDir, [{ name: 'clusterclass.yaml', content: withHeader(kept ? emitManifests(kept) : rendered.yaml) }]);
    if (used !== null) ctx.cache.record(classDir, classInputs, classFiles, ctx.omitted.slice(omittedBefore));
  };

  for (const c of config.clusters) {
    const where = `${c.configPath} (${c.namespace}/${c.name})`;
    try {
      const r = providers.find((x) => x.provider.type === 'InfrastructureProvider' && x.provider.name === c.infrastructure)!;
      const file = templateFileName(c.flavor);
      const raw = await readRaw(r, file);
      if (raw === null) {
        const all = (await r.repo.listFiles?.(r.version)) ?? [];
        const flavors = all
          .filter((f) => /^cluster-template(-.+)?\.yaml$/.test(f))
          .map((f) => (f === 'cluster-template.yaml' ? '(default)' : f.slice('cluster-template-'.length, -'.yaml'.length)))
          .sort();
        throw new InputError(`${r.provider.label} ${r.version} has no ${file}${c.flavor ? ` (flavor "${c.flavor}")` : ''}`, {
          hint: flavors.length ? `flavors available: ${flavors.join(', ')}` : 'this release ships no cluster templates',
        });
      }
      const dir = `clusters/${c.namespace}/${c.name}`;
      ctx.sources.set(dir, `${r.provider.label} ${r.version} ${file}, cluster ${c.namespace}/${c.name}`);
      const overrides = imageOverridesOf(config, r.provider);
      const lookup = clusterLookup(config, c);
      const used = variablesOf(raw);
      // The variables' values as this template sees them (cluster's, global, cluster settings), not the raw maps:
      // credentials count as markers, and a variable the template does not use cannot change the directory.
      const inputs =
        used === null
          ? undefined
          : digestOf({
              fp,
              kind: 'cluster',
              cluster: { ...c, variables: undefined },
              template: raw.sha,
              file,
              version: r.version,
              label: r.provider.label,
              values: valuesOf(used, lookup),
              secrets: config.secrets,
              argocd: Boolean(config.argocd),
              images: overrides,
            });
      if (!ctx.lockMode && inputs !== undefined) {
        const reused = ctx.cache.reuse(dir, inputs);
        if (reused && isClusterExtra(reused.extra)) {
          const extra = reused.extra;
          for (const cls of extra.classes) await includeClass(c, r, cls, lookup, where);
          ctx.files.push(...reused.files);
          ctx.omitted.push(...extra.omitted);
          continue;
        }
      }
      const t = renderClusterTemplate({ raw: raw.text, source: `${r.provider.label} ${r.version} ${file}`, targetNamespace: c.namespace, variables: lookup });
      const own = new Set(
        t.objects.filter((o) => o.kind === 'ClusterClass').map((o) => {
          const m = (o.metadata ?? {}) as { name?: string; namespace?: string };
          return `${m.namespace ?? ''}/${m.name ?? ''}`;
        }),
      );
      const extra: ClusterExtra = { classes: [], omitted: [] };
      for (const ref of clusterClassReferences(t.objects)) {
        const key = `${ref.namespace}/${ref.name}`;
        if (own.has(key)) continue;
        const cls = { key, namespace: ref.namespace, name: ref.name };
        extra.classes.push(cls);
        await includeClass(c, r, cls, lookup, where);
      }
      if (ctx.lockMode) continue;
      const omittedBefore = ctx.omitted.length;
      let named = withTemplateNames(t, c.templates.hashNames);
      // The CNI and add-ons a ClusterResourceSet installs follow the infrastructure provider's `images:` too.
      const relocated = Object.keys(overrides).length > 0 ? relocateCrsImages(named.objects, (img) => alterImage(r.provider.label, img, overrides)) : null;
      if (relocated) named = { objects: relocated, yaml: emitManifests(relocated) };
      let yaml = named.yaml;
      const kept = screenSecrets(ctx, named.objects, yaml, `${dir}/cluster.yaml`, where);
      if (kept) yaml = emitManifests(kept);
      const dirFiles = addDir(ctx.files, dir, [{ name: 'cluster.yaml', content: withHeader(yaml) }], clusterKustomize);
      extra.omitted = ctx.omitted.slice(omittedBefore);
      if (inputs !== undefined) ctx.cache.record(dir, inputs, dirFiles, extra);
    } catch (err) {
      if (!(err instanceof CapiformError)) throw err;
      if (ctx.lockMode) continue;
      ctx.problems.push({ where, error: withVariablesHint(err, `${c.configPath}.variables`) });
    }
  }
  ctx.classDirs = [...classes.values()].map((k) => ({ namespace: k.namespace, name: k.name, dir: k.dir, wave: syncWaves.clusterClasses }));
}

/**
 * A rendered template's objects and text, with machine templates renamed `<name>-<hash>` when `templates.hashNames`
 * is on. The hash covers the substituted spec, so every cluster (or class) gets names of its own content.
 */
function withTemplateNames(t: { objects: KubeObject[]; yaml(): string }, hashNames: boolean): { objects: KubeObject[]; yaml: string } {
  // Without machine templates the text stays the template's own, byte for byte.
  if (!hashNames || !t.objects.some((o) => isHashNamedTemplate(o.apiVersion, o.kind))) return { objects: t.objects, yaml: t.yaml() };
  const objects = hashTemplateNames(t.objects);
  return { objects, yaml: emitManifests(objects) };
}

/** `name → value` for the variables a template uses, as the lookup gives them (null: not set). */
function valuesOf(names: readonly string[], lookup: (name: string) => string | undefined): Record<string, string | null> {
  return Object.fromEntries(names.map((n) => [n, lookup(n) ?? null]));
}

/**
 * Every variable of `layers` with the value rendering sees (credentials as markers): a cache key part that changes
 * with any value that can reach the output and holds no credential.
 */
function renderedValues(config: ResolvedConfig, layers: readonly Readonly<Record<string, string | undefined>>[]): Record<string, string | null> {
  const names = [...new Set(layers.flatMap((l) => Object.keys(l)))].sort();
  return valuesOf(names, lookupFor(config, layers));
}

function clusterLookup(config: ResolvedConfig, c: ResolvedCluster): (name: string) => string | undefined {
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

function secretsError(leaks: { variable: string; object: string; file: string; where: string }[]): InputError {
  const byVar = new Map<string, string[]>();
  for (const l of leaks) {
    const list = byVar.get(l.variable) ?? [];
    const entry = `${l.object} in ${l.file} (${l.where})`;
    if (!list.includes(entry)) list.push(entry);
    byVar.set(l.variable, list);
  }
  const lines = [...byVar].sort(([a], [b]) => (a < b ? -1 : 1)).map(([v, objs]) => `  ${v}:\n${objs.map((o) => `    - ${o}`).join('\n')}`);
  return new InputError(`credentials would be written to the tree in plain text:\n${lines.join('\n')}`, {
    hint:
      'set secrets.policy to "omit" to leave these objects out (and provision them with external-secrets or SOPS), ' +
      'or list a variable under secrets.allowPlaintext if it is not a credential',
  }, 'E_SECRET_IN_TREE');
}

/** render reads no environment, so a missing variable is set in the config: say where. */
function withVariablesHint(err: CapiformError, entryVariables: string): CapiformError {
  if (!(err instanceof MissingVariablesError) || err.hint) return err;
  const names = err.names.map((n) => `${n}: '…'`).join(', ');
  return Object.assign(err, {
    hint: `set ${names} in ${entryVariables} or in the global variables of the config ({ env: 'NAME' } reads one from the environment)`,
  });
}

/** Every problem of a run in one error (the first one's class and exit code), redacted. */
function aggregate(problems: Problem[], config: ResolvedConfig): CapiformError {
  const values = secretValues(config);
  if (problems.length === 1) {
    const p = problems[0]!;
    const e = p.error;
    const where = !e.where ? p.where : e.where.startsWith(p.where) ? e.where : `${p.where}: ${e.where}`;
    return Object.assign(e, { message: redact(e.message, values), where });
  }
  const lines = problems.map((p) => `  ${p.where}: ${redact(p.error.message, values).split('\n').join('\n    ')}`);
  const first = problems[0]!.error;
  const err = new InputError(`${problems.length} problems:\n${lines.join('\n')}`, {
    hint: problems.map((p) => p.error.hint).find((h) => h !== undefined),
  }, 'E_MANY');
  return Object.assign(err, { exitCode: first.exitCode });
}
