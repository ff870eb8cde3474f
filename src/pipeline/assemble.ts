/**
 * The fourth stage, data in and data out: the rendered directories become the tree (namespaces, duplicate objects
 * dropped, Argo CD glue), every problem of the run is reported at once, and the lock the run resolved is modelled.
 */
import { compareGoStrings } from '../go/index.js';
import { formatLock, lockfileVersion, LockStaleError, resolutionDigest, type Lock, type LockedFile } from '../lock/index.js';
import {
  addDir,
  aggregate,
  argocdManifests,
  fleetArgocdManifests,
  headerText,
  isTemplateFileName,
  mergeDuplicates,
  namespaceDir,
  namespaceFile,
  namespaceYaml,
  providerNamespaces,
  providerSyncWave,
  secretsError,
  syncWaves,
  withHeader,
  workloadNamespaces,
  type FleetArgoCdInput,
  type RenderContext,
  type TreeFile,
} from '../render/index.js';
import type { ResolvedArgoCd, ResolvedConfig } from '../config/index.js';
import type { ProviderResolution, Resolution } from '../resolve/index.js';
import type { PipelineContext } from './context.js';
import type { ProjectState } from './read-project.js';
import type { ResolvedProject } from './resolve-stage.js';

/** The tree's files (unsorted); throws the run's problems, credentials in plain text first. */
export function assembleTree(rendered: RenderContext, resolution: Resolution): TreeFile[] {
  const { config, files } = rendered;
  const namespaces = workloadNamespaces(config.clusters, providerNamespaces(rendered));
  for (const ns of namespaces) addDir(files, namespaceDir(ns), [{ name: namespaceFile, content: withHeader(namespaceYaml(ns)) }]);

  if (rendered.leaks.length > 0) throw secretsError(rendered.leaks, config.secrets.policy);
  if (rendered.problems.length > 0) throw aggregate(rendered.problems, config);
  mergeDuplicates(rendered);

  // With generator "clusters" the fleet's one ApplicationSet (fleetGlue) stamps this management cluster's Applications.
  if (config.argocd && config.argocd.generator !== 'clusters') {
    const a = config.argocd;
    const providerDirs = resolution.providers.map((r) => ({
      label: r.provider.label,
      dir: `providers/${r.provider.label}`,
      wave: providerSyncWave(r.provider.type),
    }));
    if (resolution.certManager) providerDirs.unshift({ label: 'cert-manager', dir: 'providers/cert-manager', wave: providerSyncWave('CertManager') });
    const glue = argocdManifests({
      ...argoSettings(a),
      providers: providerDirs,
      clusterClasses: rendered.classDirs,
      namespaces: namespaces.map((ns) => ({ namespace: ns, dir: namespaceDir(ns), wave: syncWaves.namespaces })),
      clusters: config.clusters.map((c) => ({ namespace: c.namespace, name: c.name, dir: `clusters/${c.namespace}/${c.name}`, wave: syncWaves.clusters })),
      mode: a.mode,
      ...(a.generator !== undefined && a.generator !== 'clusters' ? { generator: a.generator } : {}),
      ...(a.destination ? { destination: a.destination } : {}),
    });
    files.push(...withHeaders(glue));
  }
  return files;
}

/** The config's Argo CD settings every piece of glue shares. */
function argoSettings(a: ResolvedArgoCd): Omit<FleetArgoCdInput, 'targets'> {
  return {
    repoURL: a.repoURL,
    targetRevision: a.targetRevision,
    ...(a.path ? { pathPrefix: a.path } : {}),
    ...(a.project ? { project: a.project } : {}),
    ...(a.namespace ? { argocdNamespace: a.namespace } : {}),
    ...(a.namePrefix !== undefined ? { namePrefix: a.namePrefix } : {}),
    ...(a.automated !== undefined ? { automated: a.automated } : {}),
    header: headerText,
  };
}

function withHeaders(glue: readonly TreeFile[]): TreeFile[] {
  return glue.map((f) => ({ path: f.path, content: f.content.startsWith('#') ? f.content : withHeader(f.content) }));
}

/** A fleet's own files: with `argocd.generator: "clusters"`, the one ApplicationSet under the top-level `argocd/`. */
export function fleetGlue(fleet: ResolvedConfig): TreeFile[] {
  const a = fleet.argocd;
  if (!fleet.targets || !a) return [];
  const targets = fleet.targets.map((t) => t.target).filter((t): t is string => t !== undefined);
  return withHeaders(fleetArgocdManifests({ ...argoSettings(a), targets }));
}

/** The tree's files in the order they are written and listed. */
export function sortTree(files: TreeFile[]): void {
  files.sort((a, b) => compareGoStrings(a.path, b.path));
}

/** The lock this run resolved, its text and whether it differs from the one on disk. */
export interface LockModel {
  lock: Lock;
  text: string;
  changed: boolean;
}

/**
 * Models the lock; a frozen run that would change it fails. A `partial` run (a shard other than 1) reads only some
 * release files: the lock keeps the files the existing lock pins for the same versions, and must not change, since
 * shard 1 (or `capiform lock`) owns it.
 */
export function lockModel(ctx: PipelineContext, project: ProjectState, resolved: ResolvedProject, partial = false): LockModel {
  const { resolution, store } = resolved;
  const pinned = (label: string, version: string): readonly LockedFile[] => {
    if (!partial) return [];
    const e = label === 'cert-manager' ? project.existing?.certManager : project.existing?.providers.find((p) => p.label === label);
    return e && e.version === version ? e.files : [];
  };
  const files = (label: string, version: string): LockedFile[] => mergeFiles(pinned(label, version), store.filesFor(label, version));
  // A template pin's entry lists only the templates and ClusterClasses its clusters read from that release.
  const pinFiles = (t: { label: string; constraint: string; version: string }): LockedFile[] => {
    const before = partial ? project.existing?.templatePins?.find((x) => x.label === t.label && x.constraint === t.constraint && x.version === t.version)?.files ?? [] : [];
    return mergeFiles(before, store.filesFor(t.label, t.version)).filter((f) => isTemplateFileName(f.name));
  };
  const templatePins = resolved.templatePins.map((t) => ({ label: t.label, constraint: t.constraint, version: t.version, source: t.ref.source, files: pinFiles(t) }));
  const lock: Lock = {
    lockfileVersion,
    configDigest: resolutionDigest(ctx.config),
    contract: resolution.contract,
    providers: resolution.providers.map((r) => lockedProvider(r, files(r.provider.label, r.version))),
    certManager: resolution.certManager
      ? { version: resolution.certManager.version, source: resolution.certManager.source, files: files('cert-manager', resolution.certManager.version) }
      : undefined,
    ...(templatePins.length > 0 ? { templatePins } : {}),
  };
  const text = formatLock(lock);
  const changed = project.existingDocument?.text !== text;
  // In a fleet, the section of the management cluster that needs them.
  const entry = ctx.config.target === undefined ? 'files' : `targets.${ctx.config.target}`;
  if (changed && ctx.frozen) {
    throw new LockStaleError('rendering needs entries the lock does not have', entry, 'run `capiform lock` and commit capi.lock.yaml');
  }
  if (changed && partial) {
    throw new LockStaleError(
      'a shard other than 1 renders from the lock as it is, and this config needs entries it does not have',
      entry,
      'run `capiform lock` (or `capiform render --shard 1/N`) and commit capi.lock.yaml before rendering the other shards',
    );
  }
  return { lock, text, changed };
}

/** The lock's files of one release: those pinned before, replaced by what this run read, in name order. */
function mergeFiles(pinned: readonly LockedFile[], read: readonly LockedFile[]): LockedFile[] {
  if (pinned.length === 0) return [...read];
  const byName = new Map(pinned.map((f) => [f.name, f]));
  for (const f of read) byName.set(f.name, f);
  return [...byName.values()].sort((a, b) => compareGoStrings(a.name, b.name));
}

function lockedProvider(r: ProviderResolution, files: LockedFile[]): Lock['providers'][number] {
  return {
    name: r.provider.name,
    type: r.provider.type,
    label: r.provider.label,
    constraint: r.provider.constraint,
    version: r.version,
    contract: r.contract,
    source: r.source,
    files,
  };
}
