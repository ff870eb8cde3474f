/**
 * The cluster directories of the tree and the ClusterClasses they use: each cluster's template rendered with its
 * variables (machine templates named by content when asked, images relocated, credentials screened out). A directory
 * whose inputs did not change is taken from the tree cache.
 */
import { CapiformError, InputError, ResolutionError } from '../errors.js';
import type { ResolvedCluster } from '../config/index.js';
import { digestOf, sha256Hex } from '../cache/index.js';
import { templatePinKey } from '../lock/index.js';
import type { ProviderResolution } from '../resolve/index.js';
import { codeFingerprint } from '../version.js';
import { decodeUtf8, parseManifests } from '../yaml/index.js';
import { alterImage } from './components/images.js';
import { relocateCrsImages } from './crs-images.js';
import { clusterLookup, imageOverridesOf, valuesOf } from './lookups.js';
import { withVariablesHint } from './problems.js';
import { clusterClassFileName, templateFileName, templatePinNote } from './template-names.js';
import { applyJsonPatches } from './tree/customize.js';
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

/** A Cluster to check against its classes: its objects (read again when taken from the tree cache) and class dirs. */
interface TopologyCheck {
  c: ResolvedCluster;
  where: string;
  /** Rendered in this run (else taken from the tree cache: checked only when one of its classes was rendered). */
  fresh: boolean;
  objects: () => KubeObject[];
  classDirs: string[];
}

/** A cluster's own template file (`clusters[i].template`), read by the caller. */
export interface OwnTemplate {
  text: string;
  sha: string;
}

export interface RenderClustersOptions {
  /** The clusters to render (one shard's); default: all. */
  only?: (c: ResolvedCluster) => boolean;
  /** The own template of each cluster that has one, by its config path (`clusters[3]`). */
  ownTemplates?: ReadonlyMap<string, OwnTemplate>;
  /** The release each template pin resolved to, by `templatePinKey(label, templateVersion)`. */
  templatePins?: ReadonlyMap<string, string>;
}

/**
 * Renders `clusters/<namespace>/<name>` for every cluster (or those `only` accepts) and the ClusterClasses they use;
 * failures go to `ctx.problems`. A cluster's `patches` apply to its template's objects before machine templates are
 * named by content, so a patched spec gets a name of its own.
 */
export async function renderClusters(ctx: RenderContext, providers: readonly ProviderResolution[], opts: RenderClustersOptions = {}): Promise<void> {
  const { config, store } = ctx;
  const only = opts.only ?? ((): boolean => true);
  /** ClusterClasses in the tree by `namespace/name`: their inputs digest and the first cluster that uses them. */
  const classes = new Map<string, { inputs: string; by: string; namespace: string; name: string; dir: string; raw: string; from: string }>();
  const rawCache = new Map<string, Promise<{ text: string; sha: string } | null>>();
  const readRaw = (r: ProviderResolution, file: string): Promise<{ text: string; sha: string } | null> => {
    const key = `${r.provider.label}/${r.version}/${file}`;
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
  /**
   * The objects of each ClusterClass directory, and whether this run rendered it: a Cluster is checked against its
   * class when either was rendered now (a directory taken from the tree cache passed the check when it was recorded;
   * the cache is saved only after a successful render).
   */
  const classObjects = new Map<string, { fresh: boolean; objects: () => KubeObject[] }>();
  /**
   * Each Cluster's variables are checked against its class as soon as both are in hand, and its objects dropped, so a
   * fleet's memory does not grow with its clusters; the problems found come after the render problems, in cluster
   * order, as one list.
   */
  const topologyProblems: RenderContext['problems'] = [];
  const reportedClasses = new Set<string>();
  let topology: typeof import('./topology-variables.js') | undefined;
  const checkTopology = async (check: TopologyCheck): Promise<void> => {
    if (!check.fresh && !check.classDirs.some((d) => classObjects.get(d)?.fresh)) return;
    // The topology engine (CEL, Go templates) loads only when a Cluster or class was rendered in this run.
    topology ??= await import('./topology-variables.js');
    const objects = [...check.objects(), ...check.classDirs.flatMap((d) => classObjects.get(d)?.objects() ?? [])];
    const findings = topology.topologyVariableFindings(objects);
    for (const finding of findings.clusters) topologyProblems.push({ where: check.where, error: topology.topologyVariableError(finding, check.c.configPath) });
    // A class shared by several Clusters is reported once.
    for (const message of findings.invalidClasses.filter((m) => !reportedClasses.has(m))) {
      reportedClasses.add(message);
      topologyProblems.push({ where: check.where, error: topology.invalidClassError(message) });
    }
  };
  const clusterKustomize = config.argocd ? { syncWaves: clusterDirectorySyncWaves } : {};

  const useClass = (c: ResolvedCluster, cls: ClassRef & { inputs: string; dir: string; raw: string; from: string }): boolean => {
    const prev = classes.get(cls.key);
    if (prev && prev.raw !== cls.raw && prev.from !== cls.from) {
      // Two releases of the provider (a template pin and the installed one, or two pins) ship different classes of one name.
      throw new InputError(
        `ClusterClass ${cls.key} of ${cls.from} (cluster ${c.namespace}/${c.name}) differs from the one of ${prev.from} (cluster ${prev.by}): a namespace holds one ClusterClass of a name`,
        {
          where: `clusterclasses/${cls.namespace}/${cls.name}`,
          hint: 'give both clusters the same templateVersion (or none), or put them in different namespaces; a cluster that needs its own copy of the class can use its own template file (template:) with a class of another name',
        },
      );
    }
    if (prev && prev.inputs !== cls.inputs) {
      throw new InputError(`ClusterClass ${cls.key} renders differently for cluster ${c.namespace}/${c.name} than for ${prev.by}`, {
        hint: 'clusters sharing a ClusterClass must give the variables it uses the same values, or use different classes',
      });
    }
    if (prev) return true;
    classes.set(cls.key, { inputs: cls.inputs, by: `${c.namespace}/${c.name}`, namespace: cls.namespace, name: cls.name, dir: cls.dir, raw: cls.raw, from: cls.from });
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
    const used = variablesOf(classRaw);
    recordClusterUse(ctx.variableUse, c.configPath, used);
    if (ctx.lockMode) return;
    const classDir = `clusterclasses/${ref.namespace}/${ref.name}`;
    if (!ctx.sources.has(classDir)) ctx.sources.set(classDir, `${r.provider.label} ${r.version} ${classFile}`);
    const classInputs = digestOf({
      fp,
      kind: 'clusterclass',
      key: ref.key,
      raw: classRaw.sha,
      secrets: config.secrets,
      templates: config.templates,
      values: used === null ? classRaw.sha : valuesOf(used, lookup),
    });
    if (useClass(c, { ...ref, dir: classDir, inputs: classInputs, raw: classRaw.sha, from: `${r.provider.label} ${r.version}` })) return;
    const fromDisk = used === null ? null : ctx.cache.reuse(classDir, classInputs);
    if (fromDisk) {
      classObjects.set(classDir, { fresh: false, objects: () => objectsOfFiles(ctx, fromDisk.files) });
      ctx.files.push(...fromDisk.files);
      if (Array.isArray(fromDisk.extra)) ctx.omitted.push(...(fromDisk.extra as OmittedObject[]));
      return;
    }
    const ct = renderClusterTemplate({ raw: classRaw.text, source: `${r.provider.label} ${r.version} ${classFile}`, targetNamespace: ref.namespace, variables: lookup });
    const rendered = withTemplateNames(ct, config.templates.hashNames);
    const omittedBefore = ctx.omitted.length;
    const kept = screenSecrets(ctx, rendered.objects, rendered.yaml, `${classDir}/clusterclass.yaml`, where);
    const classObjectsNow = kept ?? rendered.objects;
    classObjects.set(classDir, { fresh: true, objects: () => classObjectsNow });
    const classFiles = addDir(ctx.files, classDir, [{ name: 'clusterclass.yaml', content: withHeader(kept ? emitManifests(kept) : rendered.yaml) }]);
    if (used !== null) ctx.cache.record(classDir, classInputs, classFiles, ctx.omitted.slice(omittedBefore));
  };

  for (const c of config.clusters) {
    if (!only(c)) continue;
    const where = `${c.configPath} (${c.namespace}/${c.name})`;
    let check: TopologyCheck | undefined;
    try {
      const r = templateRelease(providers.find((x) => x.provider.type === 'InfrastructureProvider' && x.provider.name === c.infrastructure)!, c, opts.templatePins);
      const own = c.template === undefined ? undefined : opts.ownTemplates?.get(c.configPath);
      if (c.template !== undefined && own === undefined) throw new InputError(`the template file ${c.template} was not read`, { where: `${c.configPath}.template` });
      const file = c.template ?? templateFileName(c.flavor);
      const source = own ? `${c.template} (${c.configPath}.template)` : `${r.provider.label} ${r.version} ${file}`;
      const raw = own ?? (await readRaw(r, file));
      if (raw === null) {
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
      const dir = `clusters/${c.namespace}/${c.name}`;
      ctx.sources.set(dir, `${source}, cluster ${c.namespace}/${c.name}`);
      const overrides = imageOverridesOf(config, r.provider);
      const lookup = clusterLookup(config, c);
      const used = variablesOf(raw);
      recordClusterUse(ctx.variableUse, c.configPath, used);
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
          const reusedFiles = reused.files;
          check = { c, where, fresh: false, objects: () => objectsOfFiles(ctx, reusedFiles), classDirs: extra.classes.map(classDirOf) };
          ctx.files.push(...reused.files);
          ctx.omitted.push(...extra.omitted);
          await checkTopology(check);
          continue;
        }
      }
      const t = withPatches(renderClusterTemplate({ raw: raw.text, source, targetNamespace: c.namespace, variables: lookup }), c);
      const inline = new Set(
        t.objects.filter((o) => o.kind === 'ClusterClass').map((o) => {
          const m = (o.metadata ?? {}) as { name?: string; namespace?: string };
          return `${m.namespace ?? ''}/${m.name ?? ''}`;
        }),
      );
      const extra: ClusterExtra = { classes: [], omitted: [] };
      for (const ref of clusterClassReferences(t.objects)) {
        const key = `${ref.namespace}/${ref.name}`;
        if (inline.has(key)) continue;
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
      const clusterObjects = kept ?? named.objects;
      check = { c, where, fresh: true, objects: () => clusterObjects, classDirs: extra.classes.map(classDirOf) };
      if (c.templateVersion !== undefined) yaml = `${templatePinNote(r.provider.label, r.version, c.templateVersion)}\n${yaml}`;
      const dirFiles = addDir(ctx.files, dir, [{ name: 'cluster.yaml', content: withHeader(yaml) }], clusterKustomize);
      extra.omitted = ctx.omitted.slice(omittedBefore);
      if (inputs !== undefined) ctx.cache.record(dir, inputs, dirFiles, extra);
    } catch (err) {
      if (!(err instanceof CapiformError)) throw err;
      if (ctx.lockMode) continue;
      ctx.problems.push({ where, error: withVariablesHint(err, `${c.configPath}.variables`) });
    }
    if (check) await checkTopology(check);
  }
  ctx.classDirs = [...classes.values()].map((k) => ({ namespace: k.namespace, name: k.name, dir: k.dir, wave: syncWaves.clusterClasses }));
  ctx.problems.push(...topologyProblems);
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
