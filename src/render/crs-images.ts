/**
 * The config's `images:` relocation for what a ClusterResourceSet applies. clusterctl relocates provider
 * components only; the CNI and add-ons a CRS installs in the workload cluster are manifests carried as text in
 * ConfigMap and Secret data, and in an air gap those images must come from the mirror too. The text keeps its own
 * formatting: only the value of each `image:` line changes.
 */
import { ImageReferenceError, isExplicitImage, normalizeImage } from './components/images.js';
import type { KubeObject } from '../yaml/index.js';
import { isObject as isObj } from '../go/index.js';

type Obj = Record<string, unknown>;

const imageLine = /^(\s*(?:-\s+)?image:[ \t]*)(["']?)([^\s"'#]+)\2([ \t]*(?:#.*)?)$/gm;

/** `text` with every explicit image on an `image:` line passed through `alter` (canonical names, e.g. docker.io/…). */
export function relocateImageLines(text: string, alter: (image: string) => string): string {
  return text.replace(imageLine, (line, head: string, quote: string, image: string, tail: string) => {
    if (!isExplicitImage(image)) return line;
    let moved: string;
    try {
      moved = alter(normalizeImage(image));
    } catch (err) {
      if (err instanceof ImageReferenceError) return line; // not an image reference: leave the text as written
      throw err;
    }
    return moved === normalizeImage(image) ? line : `${head}${quote}${moved}${quote}${tail}`;
  });
}

function crsResources(objects: readonly KubeObject[]): Set<string> {
  const refs = new Set<string>();
  for (const o of objects) {
    if (o.kind !== 'ClusterResourceSet') continue;
    const ns = isObj(o.metadata) && typeof o.metadata.namespace === 'string' ? o.metadata.namespace : '';
    const resources = isObj(o.spec) && Array.isArray(o.spec.resources) ? o.spec.resources : [];
    for (const r of resources) if (isObj(r) && typeof r.kind === 'string' && typeof r.name === 'string') refs.add(`${r.kind}\0${ns}\0${r.name}`);
  }
  return refs;
}

function relocateValues(values: unknown, alter: (image: string) => string, base64: boolean): { values: unknown; changed: boolean } {
  if (!isObj(values)) return { values, changed: false };
  let changed = false;
  const out: Obj = {};
  for (const [k, v] of Object.entries(values)) {
    if (typeof v !== 'string') {
      out[k] = v;
      continue;
    }
    const text = base64 ? Buffer.from(v, 'base64').toString('utf8') : v;
    const moved = relocateImageLines(text, alter);
    changed ||= moved !== text;
    out[k] = moved === text ? v : base64 ? Buffer.from(moved, 'utf8').toString('base64') : moved;
  }
  return { values: out, changed };
}

/**
 * `objects` with the images inside every ConfigMap and Secret a ClusterResourceSet of the same set references
 * relocated, or `null` when nothing changed (so the rendered text stays clusterctl's, byte for byte).
 */
export function relocateCrsImages(objects: readonly KubeObject[], alter: (image: string) => string): KubeObject[] | null {
  const refs = crsResources(objects);
  if (refs.size === 0) return null;
  let changed = false;
  const out = objects.map((o) => {
    const ns = isObj(o.metadata) && typeof o.metadata.namespace === 'string' ? o.metadata.namespace : '';
    const name = isObj(o.metadata) && typeof o.metadata.name === 'string' ? o.metadata.name : '';
    if ((o.kind !== 'ConfigMap' && o.kind !== 'Secret') || !refs.has(`${o.kind}\0${ns}\0${name}`)) return o;
    const copy: KubeObject = { ...o };
    for (const [field, base64] of [['data', o.kind === 'Secret'], ['stringData', false]] as const) {
      if (!(field in o)) continue;
      const r = relocateValues(o[field], alter, base64);
      if (r.changed) {
        copy[field] = r.values;
        changed = true;
      }
    }
    return copy;
  });
  return changed ? out : null;
}
