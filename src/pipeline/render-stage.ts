/**
 * The third stage: the release files the tree is made of, read through the artifact store, rendered into the tree's
 * directories in memory (`renderTree`), or only read so the lock records them (`recordArtifacts`, for `lock`).
 */
import { join } from 'node:path';
import { CapiformError, ConfigError, ExitCode, ResolutionError } from '../errors.js';
import type { ResolvedCluster, ResolvedConfig } from '../config/index.js';
import { sha256Hex } from '../cache/index.js';
import { templatePinKey, type LockedFile } from '../lock/index.js';
import { aggregate, checkFeatureGateNames, clusterInShard, renderCertManager, renderClusters, renderContext, renderProvider, treeRoot, type OwnTemplate, type Problem, type ProducedCluster, type ReleaseText, type RenderContext, type Shard, type UnusedVariable, unusedVariables } from '../render/index.js';
import { getVariables } from '../envsubst/index.js';
import { certManagerRepositoryHint, type ProviderResolution } from '../resolve/index.js';
import { decodeUtf8, MAX_MANIFEST_SIZE, readConfinedFile } from '../yaml/index.js';
import type { PipelineContext } from './context.js';
import { TreeCache } from './tree/index.js';
import type { ResolvedProject } from './resolve-stage.js';

/** How the tree cache serves this run (see TreeCacheOptions). */
export interface TreeCacheUse {
  /** Reused files carry their contents (a render in memory has no tree to point at). */
  contents: boolean;
  /** `--check` compares every reused file's bytes with what its inputs render to, whatever its stat says. */
  readBytes: boolean;
}

/**
 * Renders providers, cert-manager, ClusterClasses and clusters; failures are collected in the returned context.
 * A shard other than 1 renders only its own clusters: shard 1 renders them all, because the ClusterClasses and the
 * Argo CD glue it owns follow from every cluster.
 */
/** A render's context with the tree cache that memoized it, which the pipeline saves once the tree is written. */
export type RenderedTree = RenderContext & { cache: TreeCache };

export async function renderTree(ctx: PipelineContext, resolved: ResolvedProject, cacheUse: TreeCacheUse, shard?: Shard): Promise<RenderedTree> {
  const { config } = ctx;
  const { resolution } = resolved;
  const cache = new TreeCache(treeRoot(config), ctx.env, cacheUse);
  const rendered: RenderedTree = { ...renderContext(config, cache, false), cache };
  const components = componentsFiles(resolved);
  const ownsAll = shard === undefined || shard.index === 1;
  const certManager = ownsAll ? await readCertManager(resolved, config.certManager?.url) : undefined;
  if (ownsAll) {
    for (const c of components) await renderProvider(rendered, c.r, c.pinned?.sha256, c.load, () => readReleaseText(resolved, c.r, 'metadata.yaml'));
    checkFeatureGateNames(rendered);
    if (certManager !== undefined && resolution.certManager) renderCertManager(rendered, resolution.certManager.version, certManager);
  }
  await renderClusters(rendered, resolution.providers, {
    readRelease: releaseTexts(resolved),
    checkCluster: topologyVariablesCheck(),
    ownTemplates: readOwnTemplates(config),
    templatePins: templatePinVersions(resolved),
    ...(ownsAll ? {} : { only: (c: ResolvedCluster) => clusterInShard(shard, config.target ?? '', c.namespace, c.name) }),
  });
  if (ownsAll) rendered.unusedVariables = unusedVariables(config, rendered.variableUse);
  for (const n of rendered.notes) ctx.log(n);
  return rendered;
}

/**
 * Reads every file rendering would (the store records them for the lock) without rendering anything; returns the
 * variables the config sets that none of those files reads (`lock` reports them as `render` does).
 */
export async function recordArtifacts(ctx: PipelineContext, resolved: ResolvedProject): Promise<UnusedVariable[]> {
  const { config } = ctx;
  const walk = renderContext(config, new TreeCache(treeRoot(config), undefined, { contents: false, readBytes: false }), true);
  await Promise.all(
    componentsFiles(resolved).map(async (c) => {
      const { raw } = await c.load();
      try {
        walk.variableUse.providers.set(c.r.provider.label, getVariables(raw));
      } catch {
        // A components file envsubst cannot parse fails at render, which names it; its variables stay unjudged.
      }
    }),
  );
  await readCertManager(resolved, config.certManager?.url);
  await renderClusters(walk, resolved.resolution.providers, { readRelease: releaseTexts(resolved), ownTemplates: readOwnTemplates(config), templatePins: templatePinVersions(resolved) });
  if (walk.problems.length > 0) throw aggregate(walk.problems, config);
  return unusedVariables(config, walk.variableUse);
}

/**
 * Validate's check of each cluster's topology variables against its class, called as each cluster is rendered (the
 * objects are dropped after, so a fleet's memory does not grow with its clusters). A cluster and classes all taken
 * from the tree cache passed it when they were recorded; the topology engine (CEL, Go templates) loads only when a
 * Cluster or class was rendered in this run.
 */
function topologyVariablesCheck(): (p: ProducedCluster) => Promise<Problem[]> {
  let check: ReturnType<typeof import('../validate/topology-variables/index.js').topologyVariableChecker> | undefined;
  return async (p) => {
    if (!p.fresh) return [];
    check ??= (await import('../validate/topology-variables/index.js')).topologyVariableChecker();
    return check(p.objects(), p.cluster.configPath).map((error) => ({ where: p.where, error }));
  };
}

/**
 * The release files clusters and ClusterClasses read, through the artifact store: each read once per run, as text
 * with the sha256 of its bytes (the digest the directory's inputs record holds).
 */
function releaseTexts(resolved: ResolvedProject): (r: ProviderResolution, file: string) => Promise<ReleaseText | null> {
  const read = new Map<string, Promise<ReleaseText | null>>();
  return (r, file) => {
    const key = `${r.provider.label}/${r.version}/${file}`;
    let p = read.get(key);
    if (!p) {
      p = resolved.store.read({ label: r.provider.label, repo: r.repo }, r.version, file).then((b) => (b === null ? null : { text: decodeUtf8(b, r.repo.fileLocation(r.version, file), { keepBom: true }), sha: sha256Hex(b) }));
      read.set(key, p);
    }
    return p;
  };
}

/** The release of each template pin, as renderClusters looks it up. */
function templatePinVersions(resolved: ResolvedProject): Map<string, string> {
  return new Map(resolved.templatePins.map((t) => [templatePinKey(t.label, t.constraint), t.version]));
}

/**
 * The clusters' own template files (`clusters[i].template`), by config path. They are the project's files, versioned
 * with the config, so the lock does not pin them; their digest is part of the cluster directory's cache key.
 */
function readOwnTemplates(config: ResolvedConfig): Map<string, OwnTemplate> {
  const out = new Map<string, OwnTemplate>();
  for (const c of config.clusters) {
    if (c.template === undefined) continue;
    const path = join(config.dir, ...c.template.split(/[\\/]/));
    let bytes: Buffer;
    try {
      bytes = readConfinedFile(path, { root: config.dir, rootName: 'the project', what: `the template of cluster ${c.namespace}/${c.name}`, where: `${c.configPath}.template (${path})`, maxBytes: MAX_MANIFEST_SIZE });
    } catch (err) {
      if (err instanceof CapiformError) throw err;
      const code = (err as NodeJS.ErrnoException).code;
      throw new ConfigError(`cannot read the template of cluster ${c.namespace}/${c.name}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (err as Error).message}`, {
        where: `${c.configPath}.template (${path})`,
        hint: 'the path is relative to the config file',
      });
    }
    out.set(c.configPath, { text: decodeUtf8(bytes, path, { keepBom: true }), sha: sha256Hex(bytes) });
  }
  return out;
}

/** Each provider's components file: read at most once, and only when its directory must be rendered again. */
function componentsFiles(resolved: ResolvedProject): { r: ProviderResolution; load: () => Promise<{ raw: string; sha: string }>; pinned: LockedFile | null }[] {
  const { store } = resolved;
  return resolved.resolution.providers.map((r) => {
    const file = r.repo.componentsFile;
    let loaded: Promise<{ raw: string; sha: string }> | undefined;
    const load = (): Promise<{ raw: string; sha: string }> =>
      (loaded ??= readRelease(resolved, r, file).then((bytes) => ({ raw: decodeUtf8(bytes, r.repo.fileLocation(r.version, file), { keepBom: true }), sha: sha256Hex(bytes) })));
    return { r, load, pinned: store.pinnedFile(r.provider.label, r.version, file) };
  });
}

/** Why capiform looked where it did for cert-manager, and how to point it at a repository that has it. */
function certManagerLookedHint(url: string | undefined): string {
  const why = url === undefined ? "certManager.url is not set, so capiform read clusterctl's default (GitHub releases)" : `certManager.url is ${JSON.stringify(url)}`;
  return `${why}; ${certManagerRepositoryHint}`;
}

/** cert-manager's `cert-manager.yaml`, its text and sha256 (undefined: the config installs no cert-manager). */
async function readCertManager(resolved: ResolvedProject, url: string | undefined): Promise<{ text: string; sha: string } | undefined> {
  const cm = resolved.resolution.certManager;
  if (!cm) return undefined;
  const location = cm.repo.fileLocation(cm.version, 'cert-manager.yaml');
  let bytes: Uint8Array | null;
  try {
    bytes = await resolved.store.read({ label: 'cert-manager', repo: cm.repo }, cm.version, 'cert-manager.yaml');
  } catch (err) {
    // A release that cannot be fetched (offline, not found, no network): where capiform looked, and how to point it elsewhere.
    if (!(err instanceof CapiformError) || err.exitCode !== ExitCode.resolution) throw err;
    throw Object.assign(err, { message: `cert-manager ${cm.version}: ${err.message}`, where: location, hint: `${certManagerLookedHint(url)}${err.hint ? ` (or: ${err.hint})` : ''}` });
  }
  if (bytes === null) {
    // A local repository lists its versions for free; a remote one would cost a request just for the hint.
    const available = cm.repo.kind === 'local' ? await cm.repo.listVersions().catch(() => []) : [];
    throw new ResolutionError(`failed to read "cert-manager.yaml" for cert-manager ${cm.version}: capiform looked for ${location}`, {
      where: location,
      hint: available.length > 0 ? `set certManager.version to one the repository has: ${available.join(', ')}` : certManagerLookedHint(url),
    });
  }
  return { text: decodeUtf8(bytes, cm.repo.fileLocation(cm.version, 'cert-manager.yaml'), { keepBom: true }), sha: sha256Hex(bytes) };
}

/** A file of a provider's release, through the artifact store (recorded and checked like every release file). */
async function readRelease(resolved: ResolvedProject, r: ProviderResolution, file: string): Promise<Uint8Array> {
  const bytes = await resolved.store.read({ label: r.provider.label, repo: r.repo }, r.version, file);
  if (bytes === null) {
    throw new ResolutionError(`failed to read "${file}" from provider's repository "${r.provider.label}": not found at ${r.version}`, {
      where: r.repo.fileLocation(r.version, file),
    });
  }
  return bytes;
}

async function readReleaseText(resolved: ResolvedProject, r: ProviderResolution, file: string): Promise<string> {
  return decodeUtf8(await readRelease(resolved, r, file), r.repo.fileLocation(r.version, file));
}
