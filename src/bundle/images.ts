/**
 * Every container image a rendered stack runs, and where each one is used.
 *
 * - Provider and cert-manager manifests (`providers/**`): clusterctl's `InspectImages` rule — containers then init
 *   containers of every Deployment and DaemonSet (spec §5.3). Their images are already after the `images:` overrides.
 *   A provider in the Cluster API Operator's form holds the upstream release in a ConfigMap: its workloads are read
 *   from there, as the operator customizes them (./operator-images.ts).
 * - Cluster and ClusterClass manifests (`clusters/**`, `clusterclasses/**`): the pod templates of every workload
 *   kind, including manifests embedded in ConfigMaps and Secrets (what a ClusterResourceSet applies), but only images
 *   that are explicit: a value still holding `${…}` is not an image anyone can mirror.
 *
 * - The kubeadm images of every workload cluster's Kubernetes version (./kubeadm-images.ts): no manifest names them,
 *   yet no control-plane node starts without them.
 *
 * A fleet's tree holds the same folders per management cluster under `targets/<name>/`; each follows the same rules
 * (a topology Cluster's class is looked up in its own management cluster's folders).
 *
 * Each image is listed with its upstream source: the tree names images after the config's `images:` relocation, and
 * a mirror job must pull from where they come from. The list is de-duplicated and sorted by bytes (Go
 * `sort.Strings`), like `clusterctl init list-images`.
 */
import { compareGoStrings, isObject as isObj } from '../go/index.js';
import { InputError, UsageError } from '../errors.js';
import { alterImage, ImageReferenceError, isExplicitImage, normalizeImage, type ImageOverrides } from '../render/components/index.js';
import { parseManifests, splitDocuments, type KubeObject } from '../yaml/index.js';
import { kubeadmImages } from './kubeadm-images.js';
import { isOperatorForm, operatorWorkloads } from './operator-images.js';
import { targetRoot } from './tree-roots.js';

export interface ImageUse {
  /** Tree file: `providers/cluster-api/components.yaml`. */
  readonly file: string;
  /** `Deployment capi-system/capi-controller-manager`; embedded objects: `ConfigMap ns/crs-cni » DaemonSet kube-system/calico-node`. */
  readonly object: string;
  /** `manager`, or `init:install-cni` for an init container. */
  readonly container: string;
}

export interface ImageRecord {
  /** The image as the manifests name it (after `images:` overrides): where the stack pulls it from. */
  readonly image: string;
  /** Where it comes from upstream, before any `images:` relocation: what a mirror job pulls. */
  readonly source: string;
  readonly usedBy: readonly ImageUse[];
}

/** A found image; `source` when it differs from `image`. */
export interface FoundImage {
  readonly image: string;
  readonly source?: string;
  readonly use: ImageUse;
}

export interface TreeFileInput {
  readonly path: string;
  readonly content: string;
}

type Obj = Record<string, unknown>;

function objectName(o: Obj): string {
  const m = isObj(o.metadata) ? o.metadata : {};
  const ns = typeof m.namespace === 'string' && m.namespace ? `${m.namespace}/` : '';
  return `${String(o.kind ?? '?')} ${ns}${typeof m.name === 'string' ? m.name : ''}`;
}

/** The pod spec of a workload object, by kind. */
function podSpecs(o: Obj, allKinds: boolean): Obj[] {
  const spec = isObj(o.spec) ? o.spec : undefined;
  if (!spec) return [];
  const tplSpec = (s: Obj | undefined): Obj[] => {
    const t = s && isObj(s.template) ? s.template : undefined;
    return t && isObj(t.spec) ? [t.spec] : [];
  };
  switch (o.kind) {
    case 'Deployment':
    case 'DaemonSet':
      return tplSpec(spec);
    case 'StatefulSet':
    case 'ReplicaSet':
    case 'Job':
    case 'ReplicationController':
      return allKinds ? tplSpec(spec) : [];
    case 'CronJob': {
      if (!allKinds) return [];
      const jt = isObj(spec.jobTemplate) ? spec.jobTemplate : undefined;
      return tplSpec(jt && isObj(jt.spec) ? jt.spec : undefined);
    }
    case 'Pod':
      return allKinds ? [spec] : [];
    default:
      return [];
  }
}

function containerImages(ps: Obj): { container: string; image: string }[] {
  const out: { container: string; image: string }[] = [];
  for (const [field, prefix] of [
    ['containers', ''],
    ['initContainers', 'init:'],
  ] as const) {
    const list = ps[field];
    if (!Array.isArray(list)) continue;
    for (const c of list) {
      if (!isObj(c)) continue;
      out.push({ container: `${prefix}${typeof c.name === 'string' ? c.name : ''}`, image: typeof c.image === 'string' ? c.image : '' });
    }
  }
  return out;
}

/**
 * Manifests embedded as text in an object: ConfigMap and Secret data (what a ClusterResourceSet applies, Secret
 * `data` base64-decoded) and any other string field holding one, such as a static Pod in a KubeadmControlPlane's
 * `files[].content` (kube-vip).
 */
function embeddedManifests(o: Obj): string[] {
  const texts: string[] = [];
  const looksLikeManifest = (t: string): boolean => /^\s*kind:\s*\S/m.test(t) && /(^|\n)\s*(- )?image:/.test(t);
  const walk = (v: unknown, base64: boolean): void => {
    if (typeof v === 'string') {
      const text = base64 ? Buffer.from(v, 'base64').toString('utf8') : v;
      if (looksLikeManifest(text)) texts.push(text);
    } else if (Array.isArray(v)) for (const x of v) walk(x, false);
    else if (isObj(v)) for (const x of Object.values(v)) walk(x, false);
  };
  for (const [k, v] of Object.entries(o)) {
    if (k === 'metadata' || k === 'apiVersion' || k === 'kind') continue;
    if (o.kind === 'Secret' && k === 'data' && isObj(v)) for (const x of Object.values(v)) walk(x, true);
    else walk(v, false);
  }
  return texts;
}

/**
 * Images used by `objects` of one tree file. `providerRule`: only Deployments and DaemonSets (clusterctl), every
 * image kept as written; otherwise every workload kind, embedded manifests, explicit images only.
 */
export function imagesOfObjects(objects: readonly KubeObject[], file: string, providerRule: boolean, parentName = ''): { image: string; use: ImageUse }[] {
  const out: { image: string; use: ImageUse }[] = [];
  for (const o of objects) {
    const name = parentName ? `${parentName} » ${objectName(o)}` : objectName(o);
    for (const ps of podSpecs(o, !providerRule)) {
      for (const { container, image } of containerImages(ps)) {
        if (!providerRule && !isExplicitImage(image)) continue;
        out.push({ image, use: { file, object: name, container } });
      }
    }
    if (providerRule) continue;
    for (const text of embeddedManifests(o)) {
      let inner: KubeObject[];
      try {
        inner = parseManifests(text, { source: `${file} (${name})` });
      } catch {
        continue; // data that only looks like a manifest (a script, a template) carries no image we can list
      }
      out.push(...imagesOfObjects(inner, file, false, name));
    }
  }
  return out;
}

/** Which rule a tree file follows, or null for files that hold no workloads (kustomizations, Argo CD glue). */
function ruleFor(treePath: string): 'provider' | 'cluster' | null {
  const path = treePath.slice(targetRoot(treePath).length);
  if (!/\.ya?ml$/.test(path) || /(^|\/)kustomization\.ya?ml$/.test(path)) return null;
  if (path.startsWith('providers/')) return /(^|\/)inventory\.yaml$|clusterctl-inventory-crd\.yaml$/.test(path) ? null : 'provider';
  if (path.startsWith('clusters/') || path.startsWith('clusterclasses/')) return 'cluster';
  return null;
}

/**
 * Only the documents that can hold an image are parsed: CRDs make up most of the bytes of a provider release and
 * never name one. Documents are split the way apimachinery splits them (a line starting with `---`).
 */
function parseRelevant(text: string, source: string, rule: 'provider' | 'cluster'): KubeObject[] {
  const docs = splitDocuments(text, source).map((c) => text.slice(c.start, c.end));
  // A Secret's manifests are base64: their `image:` is not in the text.
  const keep = docs.filter((d) => (rule === 'provider' ? /^kind:[ \t]*["']?(Deployment|DaemonSet)["']?[ \t]*$/m.test(d) : d.includes('image') || /^kind:[ \t]*["']?Secret["']?[ \t]*$/m.test(d)));
  if (keep.length === 0) return [];
  return parseManifests(keep.join('\n---\n'), { source });
}

const useKey = (u: ImageUse): string => `${u.file}\0${u.object}\0${u.container}`;

/**
 * Merges uses into records: de-duplicated, sorted by bytes; uses sorted by file, object, container. Two upstream
 * images relocated onto one name would make the mirror hold only one of them: an input error naming both.
 */
export function collectImages(found: Iterable<FoundImage>): ImageRecord[] {
  const by = new Map<string, { source: string; from: ImageUse; uses: ImageUse[] }>();
  for (const f of found) {
    const source = f.source ?? f.image;
    const entry = by.get(f.image);
    if (!entry) {
      by.set(f.image, { source, from: f.use, uses: [f.use] });
      continue;
    }
    if (entry.source !== source) {
      throw new InputError(`two images are relocated onto ${f.image}: ${entry.source} (${entry.from.object} in ${entry.from.file}) and ${source} (${f.use.object} in ${f.use.file})`, {
        where: f.use.file,
        hint: 'give one of them its own name with a per-image `images` entry (`<label>/<image>: { name: … }`)',
      });
    }
    entry.uses.push(f.use);
  }
  return [...by]
    .sort(([a], [b]) => compareGoStrings(a, b))
    .map(([image, { source, uses }]) => {
      const seen = new Set<string>();
      const usedBy = uses.filter((u) => (seen.has(useKey(u)) ? false : (seen.add(useKey(u)), true))).sort((a, b) => compareGoStrings(useKey(a), useKey(b)));
      return { image, source, usedBy };
    });
}

function imagesInFiles(files: readonly TreeFileInput[]): { image: string; use: ImageUse }[] {
  const found: { image: string; use: ImageUse }[] = [];
  for (const f of files) {
    const rule = ruleFor(f.path);
    if (!rule) continue;
    // A provider in operator form holds its release in a ConfigMap: list what the operator runs from it.
    const objects = rule === 'provider' && isOperatorForm(f.content) ? operatorWorkloads(f.content, f.path) : parseRelevant(f.content, f.path, rule);
    found.push(...imagesOfObjects(objects, f.path, rule === 'provider'));
  }
  return found;
}

export interface TreeImagesOptions {
  /**
   * The same tree rendered without any `images:` relocation: each image's source is the image at the same place
   * (file, object, container) there. Without it every image is its own source.
   */
  readonly sources?: readonly TreeFileInput[];
  /** The config's `images:` (global and per provider), applied to the kubeadm images as to the provider images. */
  readonly overrides?: ImageOverrides;
}

/** The component key of the kubeadm images in `images:` (besides `all`): `kubeadm`, `kubeadm/etcd`, … */
export const kubeadmImagesKey = 'kubeadm';

/** The images of a rendered tree (paths relative to the tree root). */
export function imagesOfTree(files: readonly TreeFileInput[], opts: TreeImagesOptions = {}): ImageRecord[] {
  const found: FoundImage[] = imagesInFiles(files);
  const bad = found.find((f) => f.image === '');
  if (bad) {
    throw new InputError(`${bad.use.object} in ${bad.use.file}: container ${bad.use.container} has no image`, { where: bad.use.file });
  }
  if (opts.sources) {
    const upstream = new Map(imagesInFiles(opts.sources).map((f) => [useKey(f.use), f.image]));
    for (let i = 0; i < found.length; i++) {
      const f = found[i]!;
      const source = upstream.get(useKey(f.use));
      if (source !== undefined && source !== f.image) found[i] = { ...f, source };
    }
  }
  for (const k of kubernetesVersions(files)) {
    for (const { name, image } of kubeadmImages(k.version, k.file)) {
      const relocated = opts.overrides ? alterImage(kubeadmImagesKey, image, opts.overrides) : image;
      found.push({ image: relocated, source: image, use: { file: k.file, object: k.object, container: `kubeadm:${name}` } });
    }
  }
  return collectImages(found);
}

/**
 * The Kubernetes version of every kubeadm-managed control plane in the tree: a KubeadmControlPlane's
 * `spec.version`, or a topology Cluster's `spec.topology.version` when its ClusterClass (in the tree) uses a
 * KubeadmControlPlaneTemplate.
 */
function kubernetesVersions(files: readonly TreeFileInput[]): { version: string; file: string; object: string }[] {
  const out: { version: string; file: string; object: string }[] = [];
  const kubeadmClasses = new Set<string>();
  const topologies: { version: string; file: string; object: string; ns: string; cls: string }[] = [];
  for (const f of files) {
    if (ruleFor(f.path) !== 'cluster' || !/\bkind:[ \t]*["']?(Cluster|ClusterClass|KubeadmControlPlane)["']?[ \t]*$/m.test(f.content)) continue;
    const docs = splitDocuments(f.content, f.path)
      .map((c) => f.content.slice(c.start, c.end))
      .filter((d) => /^kind:[ \t]*["']?(Cluster|ClusterClass|KubeadmControlPlane)["']?[ \t]*$/m.test(d));
    if (docs.length === 0) continue;
    for (const o of parseManifests(docs.join('\n---\n'), { source: f.path })) {
      const spec = isObj(o.spec) ? o.spec : {};
      const m = isObj(o.metadata) ? o.metadata : {};
      const ns = typeof m.namespace === 'string' ? m.namespace : '';
      if (o.kind === 'KubeadmControlPlane' && typeof spec.version === 'string' && isExplicitImage(spec.version)) {
        out.push({ version: spec.version, file: f.path, object: objectName(o) });
      } else if (o.kind === 'ClusterClass') {
        const cp = isObj(spec.controlPlane) ? spec.controlPlane : {};
        const ref = isObj(cp.ref) ? cp.ref : isObj(cp.templateRef) ? cp.templateRef : {};
        if (ref.kind === 'KubeadmControlPlaneTemplate') kubeadmClasses.add(`${targetRoot(f.path)}${ns}/${String(m.name)}`);
      } else if (o.kind === 'Cluster' && isObj(spec.topology) && typeof spec.topology.version === 'string' && isExplicitImage(spec.topology.version)) {
        const t = spec.topology;
        const classRef = isObj(t.classRef) ? t.classRef : undefined;
        const cls = typeof t.class === 'string' ? t.class : typeof classRef?.name === 'string' ? classRef.name : '';
        const clsNs = typeof t.classNamespace === 'string' ? t.classNamespace : typeof classRef?.namespace === 'string' ? classRef.namespace : ns;
        topologies.push({ version: t.version as string, file: f.path, object: objectName(o), ns: clsNs, cls });
      }
    }
  }
  for (const t of topologies) if (kubeadmClasses.has(`${targetRoot(t.file)}${t.ns}/${t.cls}`)) out.push({ version: t.version, file: t.file, object: t.object });
  return out;
}

/**
 * The image list of `capiform images` and `images.txt`: one line per image, `<source>` when the stack pulls it from
 * where it comes from, `<source> <image>` when the config relocates it (pull the first, push it as the second).
 */
export function formatImageList(images: readonly ImageRecord[]): string {
  return images.map((r) => (r.source === r.image ? `${r.image}\n` : `${r.source} ${r.image}\n`)).join('');
}

// ---------------------------------------------------------------------------------------------------------------
// Relocation

export interface Relocation {
  readonly source: string;
  readonly destination: string;
}

export const relocationFormats = ['lines', 'skopeo', 'crane', 'yaml'] as const;
export type RelocationFormat = (typeof relocationFormats)[number];

/**
 * Where `image` goes in `registry`, with clusterctl's `images: { all: { repository } }` semantics (everything before
 * the last `/` replaced), so rendering with that setting names exactly the copied images. A digest-pinned image keeps
 * its digest only when it has no tag (a registry cannot push to `name:tag@digest`).
 */
export function relocateImage(image: string, registry: string): string {
  const r = registry.replace(/^[a-z]+:\/\//, '').replace(/\/+$/, '');
  if (r === '' || /\s/.test(r)) throw new UsageError(`--relocate: "${registry}" is not a registry or repository`, { hint: 'e.g. --relocate registry.internal/mirror' });
  let moved: string;
  try {
    moved = alterImage('', normalizeImage(image), { all: { repository: r } });
  } catch (err) {
    if (!(err instanceof ImageReferenceError)) throw err;
    throw new InputError(`cannot relocate image "${image}": ${err.message}`, { hint: 'use a full image reference such as docker.io/library/nginx:1.27' });
  }
  const at = moved.indexOf('@');
  if (at === -1) return moved;
  const named = moved.slice(0, at);
  return named.lastIndexOf(':') > named.lastIndexOf('/') ? named : moved;
}

/** Source → destination for every image; two sources landing on one destination is an error. */
export function relocations(images: readonly string[], registry: string): Relocation[] {
  const out = images.map((source) => ({ source, destination: relocateImage(source, registry) }));
  const by = new Map<string, string[]>();
  for (const r of out) by.set(r.destination, [...(by.get(r.destination) ?? []), r.source]);
  const clashes = [...by].filter(([, s]) => s.length > 1);
  if (clashes.length > 0) {
    throw new InputError(
      `--relocate ${registry}: different images would land on the same destination:\n${clashes.map(([d, s]) => `  ${d} ← ${s.join(', ')}`).join('\n')}`,
      { hint: 'give the clashing images their own names with per-image `images` overrides (`<label>/<image>: { name: … }`)' },
    );
  }
  return out;
}

function yamlScalar(s: string): string {
  return /^[A-Za-z0-9][A-Za-z0-9._/:@+-]*$/.test(s) && !/^(true|false|yes|no|on|off|null|y|n|~)$/i.test(s) && !s.includes(': ') ? s : JSON.stringify(s);
}

/** The mapping for a mirroring tool. */
export function formatRelocations(list: readonly Relocation[], format: RelocationFormat): string {
  switch (format) {
    case 'lines':
      return list.map((r) => `${r.source} ${r.destination}\n`).join('');
    case 'skopeo':
      return list.map((r) => `skopeo copy --all docker://${r.source} docker://${r.destination}\n`).join('');
    case 'crane':
      return list.map((r) => `crane copy ${r.source} ${r.destination}\n`).join('');
    case 'yaml':
      return list.length === 0 ? '[]\n' : list.map((r) => `- source: ${yamlScalar(r.source)}\n  destination: ${yamlScalar(r.destination)}\n`).join('');
  }
}
