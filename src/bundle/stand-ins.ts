/**
 * TEMPORARY narrow stand-ins for teammates' modules that are not on main yet (B: parseManifests and alterImage,
 * F: the capi.lock.yaml reader). Only what src/bundle needs. Delete this file when they land and import theirs.
 */
import { parseAllDocuments, parse as parseYaml } from 'yaml';
import { InputError } from '../errors.js';

export type KubeObject = Record<string, unknown>;

/** Stand-in for B's `parseManifests` (src/yaml): YAML 1.1 documents, non-mappings dropped. */
export function parseManifests(text: string, opts: { source?: string } = {}): KubeObject[] {
  const docs = parseAllDocuments(text, { version: '1.1' });
  const out: KubeObject[] = [];
  for (const d of docs) {
    if (d.errors.length > 0) throw new InputError(`failed to parse ${opts.source ?? 'manifest'}: ${d.errors[0]!.message}`, opts.source ? { where: opts.source } : {});
    const v = d.toJS() as unknown;
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) out.push(v as KubeObject);
  }
  return out;
}

export interface ImageMeta {
  repository?: string;
  name?: string;
  tag?: string;
}
export type ImageOverrides = Record<string, ImageMeta>;

/** Stand-in for B's `alterImage` (clusterctl `AlterImage`), without the canonical-reference check. */
export function alterImage(component: string, image: string, overrides?: ImageOverrides | null): string {
  if (!overrides) return image;
  const at = image.indexOf('@');
  const digest = at === -1 ? '' : image.slice(at + 1);
  const named = at === -1 ? image : image.slice(0, at);
  const slash = named.lastIndexOf('/');
  const colon = named.lastIndexOf(':');
  const hasTag = colon > slash;
  const path = hasTag ? named.slice(0, colon) : named;
  let tag = hasTag ? named.slice(colon + 1) : '';
  const i = path.lastIndexOf('/');
  let repository = path.slice(0, i);
  let name = path.slice(i + 1);
  const meta: ImageMeta = {};
  for (const key of ['all', component, `${component}/${name}`]) {
    const m = overrides[key];
    if (!m) continue;
    if (m.repository) meta.repository = m.repository;
    if (m.name) meta.name = m.name;
    if (m.tag) meta.tag = m.tag;
  }
  if (meta.repository) repository = meta.repository.replace(/\/$/, '');
  if (meta.name) name = meta.name;
  if (meta.tag) tag = meta.tag;
  return `${repository}/${name}${tag ? `:${tag}` : ''}${digest ? `@${digest}` : ''}`;
}

export interface StandInLockedFile {
  name: string;
  path?: string;
  url?: string;
  sha256: string;
  size: number;
}
export interface StandInLockEntry {
  name: string;
  type: string;
  label: string;
  version: string;
  source: { kind: string; url: string };
  files: StandInLockedFile[];
}
export interface StandInLock {
  contract: string;
  providers: StandInLockEntry[];
  certManager: { version: string; source: { kind: string; url: string }; files: StandInLockedFile[] } | undefined;
}

/** Stand-in for F's `parseLock` (src/lock/format.ts): only the fields a bundle needs. */
export function parseLock(text: string, where: string): StandInLock {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (err) {
    throw new InputError(`${where} is not valid YAML: ${(err as Error).message}`, { where });
  }
  const d = doc as Partial<StandInLock> | null;
  if (!d || typeof d !== 'object' || !Array.isArray(d.providers)) throw new InputError(`${where} is not a capi.lock.yaml`, { where });
  return { contract: String(d.contract ?? ''), providers: d.providers, certManager: d.certManager ?? undefined };
}
