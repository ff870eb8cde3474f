/**
 * The objects of a rendered tree, keyed by identity: API group, kind, namespace, name. The apiVersion's version
 * is not part of the key, so `v1beta1` → `v1beta2` is a field change of the same object.
 */
import { parseAllDocuments } from 'yaml';
import type { Owner } from './types.js';
import type { RenderedTree } from './tree.js';

export type KubeObject = Record<string, unknown>;

export interface TreeObject {
  key: string;
  group: string;
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  file: string;
  object: KubeObject;
  /** The source text of the file, to skip comparing files that did not change. */
  fileText: string;
}

export interface TreeIndex {
  label: string;
  objects: Map<string, TreeObject>;
  files: number;
  warnings: string[];
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

export function objectKey(group: string, kind: string, namespace: string, name: string): string {
  return `${group || 'core'}/${kind}/${namespace}/${name}`;
}

// Parsed documents by file text: the two sides of a diff share most files, so each text is parsed once.
const parseCache = new Map<string, { docs: unknown[]; error?: string }>();

function parseFile(text: string): { docs: unknown[]; error?: string } {
  const hit = parseCache.get(text);
  if (hit) return hit;
  let result: { docs: unknown[]; error?: string };
  try {
    // YAML 1.1 like sigs.k8s.io/yaml (DESIGN.md "YAML"); switch to src/yaml's parseManifests once it lands.
    const docs = parseAllDocuments(text, { version: '1.1', uniqueKeys: false });
    const list = Array.isArray(docs) ? docs : [docs];
    const out: unknown[] = [];
    let error: string | undefined;
    for (const d of list) {
      if (d.errors.length > 0 && error === undefined) error = d.errors[0]?.message;
      out.push(d.toJS({ maxAliasCount: 1000 }));
    }
    result = error === undefined ? { docs: out } : { docs: out, error };
  } catch (err) {
    result = { docs: [], error: err instanceof Error ? err.message : String(err) };
  }
  if (parseCache.size > 50_000) parseCache.clear();
  parseCache.set(text, result);
  return result;
}

/** Who an object belongs to, from where it lives in the tree (refined later with Cluster labels). */
export function ownerFromPath(file: string): Owner {
  const parts = file.split('/');
  if (parts[0] === 'providers' && parts.length >= 3) return { type: 'provider', label: parts[1] ?? '' };
  if (parts[0] === 'clusters' && parts.length >= 4) return { type: 'cluster', namespace: parts[1] ?? '', name: parts[2] ?? '' };
  if (parts[0] === 'clusters' && parts.length >= 3) return { type: 'namespace', namespace: parts[1] ?? '' };
  if (parts[0] === 'argocd') return { type: 'argocd' };
  return { type: 'other' };
}

/** Parses every YAML document of the tree into keyed objects. Bad documents become warnings, not errors. */
export function indexTree(tree: RenderedTree): TreeIndex {
  const objects = new Map<string, TreeObject>();
  const warnings: string[] = [];
  for (const [file, text] of tree.files) {
    const { docs, error } = parseFile(text);
    if (error !== undefined) warnings.push(`${tree.label}: ${file}: YAML error: ${error}`);
    docs.forEach((doc, i) => {
      if (doc === null || doc === undefined) return;
      if (!isRecord(doc)) {
        warnings.push(`${tree.label}: ${file}: document ${i + 1} is not an object; skipped`);
        return;
      }
      const apiVersion = typeof doc.apiVersion === 'string' ? doc.apiVersion : '';
      const kind = typeof doc.kind === 'string' ? doc.kind : '';
      if (!apiVersion || !kind) {
        warnings.push(`${tree.label}: ${file}: document ${i + 1} has no apiVersion/kind; skipped`);
        return;
      }
      const meta = isRecord(doc.metadata) ? doc.metadata : {};
      const namespace = typeof meta.namespace === 'string' ? meta.namespace : '';
      let name = typeof meta.name === 'string' ? meta.name : '';
      // kustomization.yaml has no name: it is identified by its folder.
      if (!name) name = file.slice(0, file.lastIndexOf('/') + 1) + `#${i}`;
      const group = groupOf(apiVersion);
      const key = objectKey(group, kind, namespace, name);
      if (objects.has(key)) {
        warnings.push(`${tree.label}: ${file}: ${kind} ${namespace ? `${namespace}/` : ''}${name} is defined twice (also in ${objects.get(key)?.file}); the first one is compared`);
        return;
      }
      objects.set(key, { key, group, apiVersion, kind, namespace, name, file, object: doc, fileText: text });
    });
  }
  return { label: tree.label, objects, files: tree.files.size, warnings };
}
