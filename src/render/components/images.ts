/**
 * Container images: distribution/reference `ParseNamed` (canonical references only), clusterctl's
 * `container.ImageFromString`, `AlterImage` with the `images:` overrides of clusterctl.yaml, `FixImages` and
 * `InspectImages` (spec §2.8, §5.3).
 */
import { ConfigError, InputError } from '../../errors.js';
import { isObject as isObj } from '../../go/index.js';

export interface Image {
  repository: string;
  name: string;
  tag: string;
  digest: string;
}

/** One `images:` entry of clusterctl.yaml. */
export interface ImageMeta {
  repository?: string;
  name?: string;
  tag?: string;
}
/** The `images:` map of clusterctl.yaml: `all`, `<component>`, `<component>/<imageName>`. */
export type ImageOverrides = Record<string, ImageMeta>;

const domainComponent = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const domain = `(?:${domainComponent}(?:\\.${domainComponent})*|\\[(?:[a-fA-F0-9:]+)\\])(?::[0-9]+)?`;
const pathComponent = '[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*';
const name = `(?:${domain}/)?${pathComponent}(?:/${pathComponent})*`;
const tag = '[\\w][\\w.-]{0,127}';
const digest = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*[:][0-9a-fA-F]{32,}';
const referenceRe = new RegExp(`^(${name})(?::(${tag}))?(?:@(${digest}))?$`);
const identifierRe = /^[a-f0-9]{64}$/;

export class ImageReferenceError extends Error {}

interface Named {
  name: string;
  tag: string;
  digest: string;
}

function parse(s: string): Named {
  const m = referenceRe.exec(s);
  if (!m) {
    if (s === '') throw new ImageReferenceError('repository name must have at least one component');
    if (referenceRe.test(s.toLowerCase())) throw new ImageReferenceError('repository name must be lowercase');
    throw new ImageReferenceError('invalid reference format');
  }
  const n = m[1] as string;
  if (n.length > 255) throw new ImageReferenceError('repository name must not be more than 255 characters');
  return { name: n, tag: m[2] ?? '', digest: m[3] ?? '' };
}

function splitDockerDomain(s: string): [string, string] {
  const i = s.indexOf('/');
  let dom: string;
  let rem: string;
  if (i === -1 || (!/[.:]/.test(s.slice(0, i)) && s.slice(0, i) !== 'localhost' && s.slice(0, i).toLowerCase() === s.slice(0, i))) {
    dom = 'docker.io';
    rem = s;
  } else {
    dom = s.slice(0, i);
    rem = s.slice(i + 1);
  }
  if (dom === 'index.docker.io') dom = 'docker.io';
  if (dom === 'docker.io' && !rem.includes('/')) rem = 'library/' + rem;
  return [dom, rem];
}

/** distribution/reference `ParseNamed`: the reference must already be in canonical form. */
export function parseNamed(s: string): Named {
  if (identifierRe.test(s))
    throw new ImageReferenceError(`invalid repository name (${s}), cannot specify 64-byte hexadecimal strings`);
  const [dom, rem] = splitDockerDomain(s);
  const tagSep = rem.indexOf(':');
  const remoteName = tagSep > -1 ? rem.slice(0, tagSep) : rem;
  if (remoteName.toLowerCase() !== remoteName)
    throw new ImageReferenceError(`invalid reference format: repository name (${remoteName}) must be lowercase`);
  const ref = parse(`${dom}/${rem}`);
  const str = ref.name + (ref.tag ? `:${ref.tag}` : '') + (ref.digest ? `@${ref.digest}` : '');
  if (str !== s) throw new ImageReferenceError('repository name must be canonical');
  return ref;
}

/** clusterctl `container.ImageFromString`. */
export function imageFromString(image: string): Image {
  let ref: Named;
  try {
    ref = parseNamed(image);
  } catch (e) {
    if (e instanceof ImageReferenceError) throw new ImageReferenceError(`couldn't parse image name: ${e.message}`);
    throw e;
  }
  const i = ref.name.lastIndexOf('/');
  return { repository: ref.name.slice(0, i), name: ref.name.slice(i + 1), tag: ref.tag, digest: ref.digest };
}

export function imageToString(img: Image): string {
  let s = `${img.repository}/${img.name}`;
  if (img.tag) s += `:${img.tag}`;
  if (img.digest) s += `@${img.digest}`;
  return s;
}

/** clusterctl `imageMetaClient.AlterImage(component, image)`; `overrides` undefined = no `images:` key at all. */
export function alterImage(component: string, image: string, overrides?: ImageOverrides | null): string {
  const img = imageFromString(image);
  if (!overrides) return image;
  const meta: ImageMeta = {};
  for (const key of ['all', component, `${component}/${img.name}`]) {
    const m = overrides[key];
    if (!m) continue;
    if (m.repository) meta.repository = m.repository;
    if (m.name) meta.name = m.name;
    if (m.tag) meta.tag = m.tag;
  }
  if (meta.repository) img.repository = meta.repository.replace(/\/$/, '');
  if (meta.name) img.name = meta.name;
  if (meta.tag) img.tag = meta.tag;
  return imageToString(img);
}

type Obj = Record<string, unknown>;

function podSpecOf(o: Obj): Obj | undefined {
  const spec = o.spec;
  if (!isObj(spec)) return undefined;
  const tpl = spec.template;
  if (!isObj(tpl)) return undefined;
  return isObj(tpl.spec) ? tpl.spec : undefined;
}

function containers(ps: Obj | undefined, field: string): Obj[] {
  const v = ps?.[field];
  return Array.isArray(v) ? (v.filter(isObj) as Obj[]) : [];
}

/** `InspectImages`: containers then initContainers of every Deployment and DaemonSet, in object order. */
export function inspectImages(objs: Obj[]): string[] {
  const out: string[] = [];
  for (const o of objs) {
    if (o.kind !== 'Deployment' && o.kind !== 'DaemonSet') continue;
    const ps = podSpecOf(o);
    for (const f of ['containers', 'initContainers'])
      for (const c of containers(ps, f)) out.push(typeof c.image === 'string' ? c.image : '');
  }
  return out;
}

/** `IsDeploymentWithManager`: a Deployment with a container named `manager`. */
export function isDeploymentWithManager(o: Obj): boolean {
  if (o.kind !== 'Deployment') return false;
  return containers(podSpecOf(o), 'containers').some((c) => c.name === 'manager');
}

/**
 * Applies `alter` to every container and init container image of a Deployment or DaemonSet pod spec (already
 * round-tripped), returning a new object; errors carry clusterctl's wrapping (`deamonSet` sic).
 */
export function fixPodImages(o: Obj, alter: (image: string) => string): Obj {
  const ps = podSpecOf(o);
  if (!ps) return o;
  const what = o.kind === 'DaemonSet' ? 'deamonSet' : 'deployment';
  const meta = isObj(o.metadata) ? o.metadata : {};
  const objName = typeof meta.name === 'string' ? meta.name : '';
  let newPs = ps;
  for (const [field, label] of [
    ['containers', 'failed to fix containers'],
    ['initContainers', 'failed to fix init containers'],
  ] as const) {
    const list = ps[field];
    if (!Array.isArray(list)) continue;
    let changed = false;
    const out = list.map((c: unknown) => {
      if (!isObj(c)) return c;
      const image = typeof c.image === 'string' ? c.image : '';
      let next: string;
      try {
        next = alter(image);
      } catch (e) {
        const msg = e instanceof Error ? e.message : String(e);
        const cname = typeof c.name === 'string' ? c.name : '';
        throw new InputError(
          `failed to fix containers in ${what} ${objName}: ${label}: failed to fix image for container ${cname}: ${msg}`,
          {
            hint: 'Every Deployment and DaemonSet image must be a canonical reference with a registry host, e.g. docker.io/library/nginx:1.27 instead of nginx:1.27.',
          },
        );
      }
      if (next === image) return c;
      changed = true;
      const nc: Obj = { ...c, image: next };
      if (next === '' && !('image' in c)) delete nc.image;
      return nc;
    });
    if (changed) newPs = { ...newPs, [field]: out };
  }
  if (newPs === ps) return o;
  const spec = o.spec as Obj;
  const tpl = spec.template as Obj;
  return { ...o, spec: { ...spec, template: { ...tpl, spec: newPs } } };
}

/** Validates the `images:` value of clusterctl.yaml: a map of `{repository, name, tag}` maps. */
export function parseImageOverrides(raw: unknown, where = 'images'): ImageOverrides | null {
  if (raw === undefined || raw === null) return null;
  if (!isObj(raw)) throw new ConfigError(`failed to unmarshal images configuration: expected a map`, { where });
  const out: ImageOverrides = {};
  for (const [k, v] of Object.entries(raw)) {
    if (v === null) {
      out[k] = {};
      continue;
    }
    if (!isObj(v)) throw new ConfigError(`failed to unmarshal images configuration: ${k} must be a map`, { where: `${where}.${k}` });
    const m: ImageMeta = {};
    for (const f of ['repository', 'name', 'tag'] as const) {
      const x = v[f];
      if (x === undefined || x === null) continue;
      if (typeof x !== 'string') throw new ConfigError(`failed to unmarshal images configuration: ${k}.${f} must be a string`, { where: `${where}.${k}.${f}` });
      m[f] = x;
    }
    out[k] = m;
  }
  return out;
}

/** An image a mirror can copy: non-empty, no unexpanded variable, no whitespace. */
export function isExplicitImage(image: string): boolean {
  return image !== '' && !image.includes('${') && !/\s/.test(image) && !image.includes('$(');
}

/**
 * The canonical form of a familiar image name, as docker reads it (`nginx:1` → `docker.io/library/nginx:1`,
 * `kindest/node` → `docker.io/kindest/node`), for images of cluster manifests, which clusterctl does not check.
 */
export function normalizeImage(image: string): string {
  const slash = image.indexOf('/');
  const first = slash === -1 ? '' : image.slice(0, slash);
  if (slash !== -1 && (first.includes('.') || first.includes(':') || first === 'localhost')) return image;
  return slash === -1 ? `docker.io/library/${image}` : `docker.io/${image}`;
}
