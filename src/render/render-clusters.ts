/**
 * The cluster directories of the tree and the ClusterClasses they use: each cluster's template rendered with its
 * variables (machine templates named by content when asked, images relocated, credentials screened out). Each
 * directory is a function of its inputs record (tree/dir-inputs.ts); the pipeline's memo returns a directory whose
 * record did not change instead of it being rendered again.
 */
import { CapiformError, InputError, ResolutionError } from '../errors.js';
import type { ResolvedCluster } from '../config/index.js';
import { templatePinKey } from '../lock/index.js';
import type { ProviderResolution } from '../resolve/index.js';
import { parseManifests } from '../yaml/index.js';
import { alterImage } from './components/images.js';
import { relocateCrsImages } from './crs-images.js';
import { clusterLookup, imageOverridesOf } from './lookups.js';
import { withVariablesHint, type Problem } from './problems.js';
import { clusterClassFileName, templateFileName, templatePinNote } from './template-names.js';
import { applyJsonPatches } from './tree/customize.js';
import { classDirInputs, clusterDirInputs } from './tree/dir-inputs.js';
import { hashTemplateNames, isHashNamedTemplate } from './template-hash.js';
import { addDir, fileContent, screenSecrets, withHeader, type OmittedObject, type RenderContext } from './tree-context.js';
import type { TreeFile } from './tree/tree-file.js';
import { recordClusterUse } from './unused-variables.js';
import {
  clusterClassReferences,
  clusterDirectorySyncWaves,
  emitManifests,
  getVariables,
  renderClusterTemplate,
  syncWaves,
  type KubeObject,
} from './tree/deps.js';

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

/** A file of a release or of the project as text, with the sha256 of its bytes (the digest its directory's record holds). */
export interface ReleaseText {
  text: string;
  sha: string;
}

/** A cluster's own template file (`clusters[i].template`), read by the caller. */
export type OwnTemplate = ReleaseText;

/**
 * A cluster directory as it is produced, with the ClusterClass directories it uses: what a check of a Cluster against
 * its class reads. Handed to `checkCluster` one at a time, so a fleet's objects are never all held at once.
 */
export interface ProducedCluster {
  cluster: ResolvedCluster;
  /** `clusters[3] (ns/name)`: where a problem about it is reported. */
  where: string;
  /**
   * The cluster or one of its classes was rendered in this run; else all were taken from the tree cache, and they
   * passed every check when they were recorded (the cache is saved only after a successful render).
   */
  fresh: boolean;
  /** The cluster's objects and those of its classes (read again from the tree when taken from the cache). */
  objects(): KubeObject[];
}

export interface RenderClustersOptions {
  /** Reads a file of a provider's release (null: the release has none), through the artifact store. */
  readRelease: (r: ProviderResolution, file: string) => Promise<ReleaseText | null>;
  /** The clusters to render (one shard's); default: all. */
  only?: (c: ResolvedCluster) => boolean;
  /** The own template of each cluster that has one, by its config path (`clusters[3]`). */
  ownTemplates?: ReadonlyMap<string, OwnTemplate>;
  /** The release each template pin resolved to, by `templatePinKey(label, templateVersion)`. */
  templatePins?: ReadonlyMap<string, string>;
  /**
   * Checks each cluster as it is produced (the topology variables against its class: validate's); the problems come
   * after the render problems, in cluster order.
   */
  checkCluster?: (p: ProducedCluster) => Promise<Problem[]> | Problem[];
}

/** A ClusterClass put into the tree: its key, the first cluster that uses it and the release it comes from. */
interface ClassInTree {
  inputs: string;
  by: string;
  namespace: string;
  name: string;
  dir: string;
  raw: string;
  from: string;
}

/** One renderClusters call: what it reads and what it has put into the tree so far. */
interface ClustersRun {
  ctx: RenderContext;
  opts: RenderClustersOptions;
  /** The variables each template uses, by its sha256; null when it does not parse (it is rendered, and fails). */
  variables: Map<string, string[] | null>;
  /** ClusterClasses in the tree by `namespace/name`. */
  classes: Map<string, ClassInTree>;
  /** The objects of each ClusterClass directory, and whether this run rendered it. */
  classObjects: Map<string, { fresh: boolean; objects: () => KubeObject[] }>;
  /** The problems `checkCluster` reported, in cluster order. */
  checked: Problem[];
}

/**
 * Renders `clusters/<namespace>/<name>` for every cluster (or those `only` accepts) and the ClusterClasses they use;
 * failures go to `ctx.problems`. A cluster's `patches` apply to its template's objects before machine templates are
 * named by content, so a patched spec gets a name of its own.
 */
export async function renderClusters(ctx: RenderContext, providers: readonly ProviderResolution[], opts: RenderClustersOptions): Promise<void> {
  const run: ClustersRun = { ctx, opts, variables: new Map(), classes: new Map(), classObjects: new Map(), checked: [] };
  for (const c of ctx.config.clusters) {
    if (opts.only && !opts.only(c)) continue;
    const produced = await renderClusterEntry(run, providers, c);
    if (produced) await checkProduced(run, produced);
  }
  ctx.classDirs = [...run.classes.values()].map((k) => ({ namespace: k.namespace, name: k.name, dir: k.dir, wave: syncWaves.clusterClasses }));
  ctx.problems.push(...run.checked);
}

/** One cluster's directory (and the classes it uses), its failure recorded as a problem; what was produced. */
async function renderClusterEntry(run: ClustersRun, providers: readonly ProviderResolution[], c: ResolvedCluster): Promise<ProducedDir | undefined> {
  const where = `${c.configPath} (${c.namespace}/${c.name})`;
  try {
    const infra = providers.find((x) => x.provider.type === 'InfrastructureProvider' && x.provider.name === c.infrastructure)!;
    return await renderCluster(run, templateRelease(infra, c, run.opts.templatePins), c, where);
  } catch (err) {
    if (!(err instanceof CapiformError)) throw err;
    if (!run.ctx.lockMode) run.ctx.problems.push({ where, error: withVariablesHint(err, `${c.configPath}.variables`) });
    return undefined;
  }
}

/** A cluster directory produced in this run (rendered, or taken from the tree cache) and the class dirs it uses. */
interface ProducedDir {
  c: ResolvedCluster;
  where: string;
  fresh: boolean;
  objects: () => KubeObject[];
  classDirs: string[];
}

/** Hands a produced cluster to `checkCluster`, with the objects of its classes. */
async function checkProduced(run: ClustersRun, p: ProducedDir): Promise<void> {
  const check = run.opts.checkCluster;
  if (!check) return;
  const fresh = p.fresh || p.classDirs.some((d) => run.classObjects.get(d)?.fresh);
  const objects = (): KubeObject[] => [...p.objects(), ...p.classDirs.flatMap((d) => run.classObjects.get(d)?.objects() ?? [])];
  run.checked.push(...(await check({ cluster: p.c, where: p.where, fresh, objects })));
}

/** The template a cluster renders: its own file, else the release's for its flavor; an input error when missing. */
async function clusterTemplate(run: ClustersRun, r: ProviderResolution, c: ResolvedCluster): Promise<{ raw: ReleaseText; file: string; source: string }> {
  const own = c.template === undefined ? undefined : run.opts.ownTemplates?.get(c.configPath);
  if (c.template !== undefined && own === undefined) throw new InputError(`the template file ${c.template} was not read`, { where: `${c.configPath}.template` });
  const file = c.template ?? templateFileName(c.flavor);
  const source = own ? `${c.template} (${c.configPath}.template)` : `${r.provider.label} ${r.version} ${file}`;
  const raw = own ?? (await run.opts.readRelease(r, file));
  if (raw !== null) return { raw, file, source };
  const all = (await r.repo.listFiles?.(r.version)) ?? [];
  const flavors = all
    .filter((f) => /^cluster-template(-.+)?\.yaml$/.test(f))
    .map((f) => (f === 'cluster-template.yaml' ? '(default)' : f.slice('cluster-template-'.length, -'.yaml'.length)))
    .sort();
  const pinned = c.templateVersion === undefined ? '' : ` (the release ${c.configPath}.templateVersion "${c.templateVersion}" pins)`;
  throw new InputError(`${r.provider.label} ${r.version}${pinned} has no ${file}${c.flavor ? ` (flavor "${c.flavor}")` : ''}`, {
    hint: flavors.length ? `flavors available: ${flavors.join(', ')}` : 'this release ships no cluster templates',
  });
}

/** The variables a template uses, once per distinct text; null when it does not parse (it is rendered, and fails). */
function templateVariables(run: ClustersRun, raw: ReleaseText): string[] | null {
  let v = run.variables.get(raw.sha);
  if (v === undefined) {
    try {
      v = getVariables(raw.text);
    } catch {
      v = null;
    }
    run.variables.set(raw.sha, v);
  }
  return v;
}

/** `clusters/<namespace>/<name>`: taken from the tree cache when its record is unchanged, else rendered. */
async function renderCluster(run: ClustersRun, r: ProviderResolution, c: ResolvedCluster, where: string): Promise<ProducedDir | undefined> {
  const { ctx } = run;
  const { config } = ctx;
  const { raw, file, source } = await clusterTemplate(run, r, c);
  const dir = `clusters/${c.namespace}/${c.name}`;
  ctx.sources.set(dir, `${source}, cluster ${c.namespace}/${c.name}`);
  const images = imageOverridesOf(config, r.provider);
  const lookup = clusterLookup(config, c);
  const used = templateVariables(run, raw);
  recordClusterUse(ctx.variableUse, c.configPath, used);
  // A template that does not parse has no record: it is rendered (and fails) every time.
  const inputs = used === null ? undefined : ctx.cache.key(clusterDirInputs(config, c, { sha: raw.sha, file, version: r.version, label: r.provider.label, used, lookup, images }));
  if (!ctx.lockMode && inputs !== undefined) {
    const reused = await reuseCluster(run, r, c, dir, inputs, lookup, where);
    if (reused) return reused;
  }
  const t = withPatches(renderClusterTemplate({ raw: raw.text, source, targetNamespace: c.namespace, variables: lookup }), c);
  const extra: ClusterExtra = { classes: [], omitted: [] };
  for (const cls of referencedClasses(t.objects)) {
    extra.classes.push(cls);
    await includeClass(run, c, r, cls, lookup, where);
  }
  if (ctx.lockMode) return undefined;
  const omittedBefore = ctx.omitted.length;
  let named = withTemplateNames(t, c.templates.hashNames);
  // The CNI and add-ons a ClusterResourceSet installs follow the infrastructure provider's `images:` too.
  const relocated = Object.keys(images).length > 0 ? relocateCrsImages(named.objects, (img) => alterImage(r.provider.label, img, images)) : null;
  if (relocated) named = { objects: relocated, yaml: emitManifests(relocated) };
  let yaml = named.yaml;
  const kept = screenSecrets(ctx, named.objects, yaml, `${dir}/cluster.yaml`, where);
  if (kept) yaml = emitManifests(kept);
  const clusterObjects = kept ?? named.objects;
  if (c.templateVersion !== undefined) yaml = `${templatePinNote(r.provider.label, r.version, c.templateVersion)}\n${yaml}`;
  const dirFiles = addDir(ctx.files, dir, [{ name: 'cluster.yaml', content: withHeader(yaml) }], config.argocd ? { syncWaves: clusterDirectorySyncWaves } : {});
  extra.omitted = ctx.omitted.slice(omittedBefore);
  if (inputs !== undefined) ctx.cache.record(dir, inputs, dirFiles, extra);
  return { c, where, fresh: true, objects: () => clusterObjects, classDirs: extra.classes.map(classDirOf) };
}

/** The cluster directory from the tree cache, with the classes it uses (each judged by its own record); undefined: a miss. */
async function reuseCluster(
  run: ClustersRun,
  r: ProviderResolution,
  c: ResolvedCluster,
  dir: string,
  inputs: string,
  lookup: (name: string) => string | undefined,
  where: string,
): Promise<ProducedDir | undefined> {
  const { ctx } = run;
  const reused = ctx.cache.reuse(dir, inputs);
  if (!reused || !isClusterExtra(reused.extra)) return undefined;
  const extra = reused.extra;
  for (const cls of extra.classes) await includeClass(run, c, r, cls, lookup, where);
  const files = reused.files;
  ctx.files.push(...files);
  ctx.omitted.push(...extra.omitted);
  return { c, where, fresh: false, objects: () => objectsOfFiles(ctx, files), classDirs: extra.classes.map(classDirOf) };
}

/** The ClusterClasses the objects reference that they do not define themselves. */
function referencedClasses(objects: readonly KubeObject[]): ClassRef[] {
  const inline = new Set(
    objects.filter((o) => o.kind === 'ClusterClass').map((o) => {
      const m = (o.metadata ?? {}) as { name?: string; namespace?: string };
      return `${m.namespace ?? ''}/${m.name ?? ''}`;
    }),
  );
  return clusterClassReferences([...objects])
    .map((ref) => ({ key: `${ref.namespace}/${ref.name}`, namespace: ref.namespace, name: ref.name }))
    .filter((ref) => !inline.has(ref.key));
}

/**
 * Claims the class for cluster `c`: true when another cluster put it in the tree already (with the same inputs);
 * an input error when the two differ.
 */
function claimClass(run: ClustersRun, c: ResolvedCluster, cls: ClassInTree): boolean {
  const prev = run.classes.get(`${cls.namespace}/${cls.name}`);
  if (prev && prev.raw !== cls.raw && prev.from !== cls.from) {
    // Two releases of the provider (a template pin and the installed one, or two pins) ship different classes of one name.
    const key = `${cls.namespace}/${cls.name}`;
    throw new InputError(
      `ClusterClass ${key} of ${cls.from} (cluster ${c.namespace}/${c.name}) differs from the one of ${prev.from} (cluster ${prev.by}): a namespace holds one ClusterClass of a name`,
      {
        where: `clusterclasses/${cls.namespace}/${cls.name}`,
        hint: 'give both clusters the same templateVersion (or none), or put them in different namespaces; a cluster that needs its own copy of the class can use its own template file (template:) with a class of another name',
      },
    );
  }
  if (prev && prev.inputs !== cls.inputs) {
    throw new InputError(`ClusterClass ${cls.namespace}/${cls.name} renders differently for cluster ${c.namespace}/${c.name} than for ${prev.by}`, {
      hint: 'clusters sharing a ClusterClass must give the variables it uses the same values, or use different classes',
    });
  }
  if (prev) return true;
  run.classes.set(`${cls.namespace}/${cls.name}`, cls);
  return false;
}

/**
 * Puts the ClusterClass `ref` into the tree for cluster `c`: its record holds the class file as it is now and the
 * values `c` gives the variables it uses, whether the cluster itself was rendered or reused.
 */
async function includeClass(run: ClustersRun, c: ResolvedCluster, r: ProviderResolution, ref: ClassRef, lookup: (name: string) => string | undefined, where: string): Promise<void> {
  const { ctx } = run;
  const { config } = ctx;
  const classFile = clusterClassFileName(ref.name);
  const classRaw = await run.opts.readRelease(r, classFile);
  if (classRaw === null) {
    throw new ResolutionError(`failed to get the cluster class template for "${ref.key}": ${r.provider.label} ${r.version} has no ${classFile}`);
  }
  const used = templateVariables(run, classRaw);
  recordClusterUse(ctx.variableUse, c.configPath, used);
  if (ctx.lockMode) return;
  const classDir = classDirOf(ref);
  if (!ctx.sources.has(classDir)) ctx.sources.set(classDir, `${r.provider.label} ${r.version} ${classFile}`);
  const classInputs = ctx.cache.key(classDirInputs(config, ref.key, classRaw.sha, used ?? [], lookup));
  const claimed = { by: `${c.namespace}/${c.name}`, namespace: ref.namespace, name: ref.name, dir: classDir, inputs: classInputs, raw: classRaw.sha, from: `${r.provider.label} ${r.version}` };
  if (claimClass(run, c, claimed)) return;
  // A class file that does not parse is rendered (and fails) every time.
  const fromDisk = used === null ? null : ctx.cache.reuse(classDir, classInputs);
  if (fromDisk) {
    run.classObjects.set(classDir, { fresh: false, objects: () => objectsOfFiles(ctx, fromDisk.files) });
    ctx.files.push(...fromDisk.files);
    if (Array.isArray(fromDisk.extra)) ctx.omitted.push(...(fromDisk.extra as OmittedObject[]));
    return;
  }
  const ct = renderClusterTemplate({ raw: classRaw.text, source: `${r.provider.label} ${r.version} ${classFile}`, targetNamespace: ref.namespace, variables: lookup });
  const rendered = withTemplateNames(ct, config.templates.hashNames);
  const omittedBefore = ctx.omitted.length;
  const kept = screenSecrets(ctx, rendered.objects, rendered.yaml, `${classDir}/clusterclass.yaml`, where);
  const classObjectsNow = kept ?? rendered.objects;
  run.classObjects.set(classDir, { fresh: true, objects: () => classObjectsNow });
  const classFiles = addDir(ctx.files, classDir, [{ name: 'clusterclass.yaml', content: withHeader(kept ? emitManifests(kept) : rendered.yaml) }]);
  if (used !== null) ctx.cache.record(classDir, classInputs, classFiles, ctx.omitted.slice(omittedBefore));
}

/** The release a cluster's template comes from: its `templateVersion` pin's, else the provider's locked one. */
function templateRelease(r: ProviderResolution, c: ResolvedCluster, pins: ReadonlyMap<string, string> | undefined): ProviderResolution {
  if (c.templateVersion === undefined) return r;
  const version = pins?.get(templatePinKey(r.provider.label, c.templateVersion));
  if (version === undefined) throw new Error(`renderClusters: template pin "${c.templateVersion}" of ${c.configPath} was not resolved`);
  return version === r.version ? r : { ...r, version };
}

function classDirOf(cls: ClassRef): string {
  return `clusterclasses/${cls.namespace}/${cls.name}`;
}

/** The objects of a directory's YAML files (taken from the tree cache: their contents, else their bytes on disk). */
function objectsOfFiles(ctx: RenderContext, files: readonly TreeFile[]): KubeObject[] {
  return files
    .filter((f) => /\.ya?ml$/.test(f.path) && !f.path.endsWith('kustomization.yaml'))
    .flatMap((f) => parseManifests(fileContent(ctx, f), { source: f.path }));
}

/** The template's objects after the cluster's `patches` (a copy; none: the template as rendered). */
function withPatches(t: { objects: KubeObject[]; yaml(): string }, c: ResolvedCluster): { objects: KubeObject[]; yaml(): string } {
  if (c.patches.length === 0) return t;
  const objects = structuredClone(t.objects);
  applyJsonPatches(objects, c.patches, c.configPath, `cluster ${c.namespace}/${c.name}`);
  return { objects, yaml: () => emitManifests(objects) };
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
