/**
 * The objects of a rendered tree, keyed by identity: API group, kind, namespace, name. The apiVersion's version
 * is not part of the key, so `v1beta1` → `v1beta2` is a field change of the same object.
 */
import { CapiformError } from '../../errors.js';
import { parseManifests } from '../../yaml/index.js';
import type { Owner } from './types.js';
import type { RenderedTree } from './tree.js';
import { isObject as isRecord } from '../../go/index.js';

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

export { isRecord };

export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

export function objectKey(group: string, kind: string, namespace: string, name: string): string {
  return `${group || 'core'}/${kind}/${namespace}/${name}`;
}

// Parsed documents by file text: the two sides of a diff share most files, so each text is parsed once.
const parseCache = new Map<string, { docs: unknown[]; error?: string }>();

/**
 * Splits a YAML stream at `---` lines (apimachinery's rule), keeping each separator line with the document that
 * follows, so every chunk parses on its own and identical chunks are identical objects.
 */
export function splitDocuments(text: string): string[] {
  const out: string[] = [];
  const re = /^---(?:[ \t].*)?$/gm;
  let start = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    if (m.index > start) out.push(text.slice(start, m.index));
    start = m.index;
    re.lastIndex = m.index + m[0].length;
    if (m[0].length === 0) re.lastIndex++;
  }
  if (start < text.length) out.push(text.slice(start));
  return out;
}

function parseFile(text: string): { docs: unknown[]; error?: string } {
  const hit = parseCache.get(text);
  if (hit) return hit;
  let result: { docs: unknown[]; error?: string };
  try {
    // Kubernetes' reading of YAML (apimachinery split, go-yaml v2 scalars): src/yaml. A repeated key keeps the last
    // value silently: diff shows what a tree means, and this text has no file name a warning could point at.
    result = { docs: parseManifests(text, { duplicateKeys: 'last-wins' }) };
  } catch (err) {
    // Only where: the message quotes the document, which may be a Secret.
    const where = err instanceof CapiformError && err.where ? ` at ${err.where}` : '';
    result = { docs: [], error: `the document${where} is not valid YAML (or not a mapping)` };
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
  if (parts[0] === 'clusterclasses' && parts.length >= 3) return { type: 'namespace', namespace: parts[1] ?? '' };
  if (parts[0] === 'argocd') return { type: 'argocd' };
  return { type: 'other' };
}

/**
 * The objects of a tree, parsed lazily file by file: a diff parses the files that differ between the two sides and,
 * for context (Clusters of a class, users of a template, a provider's CRDs), the few files a text search points at.
 * Parsing every file of a 1,000-cluster tree would cost seconds; the unchanged files cannot hold a change.
 */
export class TreeIndex {
  readonly label: string;
  readonly files: Map<string, string>;
  /** Every object parsed so far, by key. */
  readonly objects = new Map<string, TreeObject>();
  readonly warnings: string[] = [];
  private readonly parsed = new Map<string, TreeObject[]>();
  private readonly queries = new Map<string, TreeObject[]>();

  constructor(tree: RenderedTree) {
    this.label = tree.label;
    this.files = tree.files;
  }

  private readonly chunks = new Map<string, { texts: string[]; objects: (TreeObject[] | undefined)[] }>();

  /** The documents of a file as text chunks (see `splitDocuments`). */
  chunksOf(file: string): string[] {
    return this.chunkState(file).texts;
  }

  private chunkState(file: string): { texts: string[]; objects: (TreeObject[] | undefined)[] } {
    let st = this.chunks.get(file);
    if (!st) {
      const texts = splitDocuments(this.files.get(file) ?? '');
      st = { texts, objects: texts.map(() => undefined) };
      this.chunks.set(file, st);
    }
    return st;
  }

  /** The objects of one document chunk of a file (parsed on first use). */
  objectsOfChunk(file: string, index: number): TreeObject[] {
    const st = this.chunkState(file);
    let list = st.objects[index];
    if (!list) {
      list = this.parse(file, st.texts[index] ?? '', index);
      st.objects[index] = list;
    }
    return list;
  }

  /** The objects of one file (parsed on first use). */
  objectsOf(file: string): TreeObject[] {
    const hit = this.parsed.get(file);
    if (hit) return hit;
    const st = this.chunkState(file);
    const list = st.texts.flatMap((_t, i) => this.objectsOfChunk(file, i));
    this.parsed.set(file, list);
    return list;
  }

  /** Objects of the files whose path and text pass the filter; cached by `cacheKey`. */
  where(cacheKey: string, filter: (path: string, text: string) => boolean): TreeObject[] {
    const hit = this.queries.get(cacheKey);
    if (hit) return hit;
    const out: TreeObject[] = [];
    for (const [path, text] of this.files) if (filter(path, text)) out.push(...this.objectsOf(path));
    this.queries.set(cacheKey, out);
    return out;
  }

  private dirs: Map<string, string[]> | null = null;

  /** Objects of the files under a folder given as `a/b/` or `a/b/c/` (indexed once). */
  under(dir: string): TreeObject[] {
    return this.filesUnder(dir).flatMap((p) => this.objectsOf(p));
  }

  /** Paths of the files under a folder given as `a/b/` or `a/b/c/`. */
  filesUnder(dir: string): string[] {
    if (!this.dirs) {
      this.dirs = new Map();
      for (const path of this.files.keys()) {
        const parts = path.split('/');
        for (const depth of [2, 3]) {
          if (parts.length <= depth) continue;
          const prefix = `${parts.slice(0, depth).join('/')}/`;
          const list = this.dirs.get(prefix);
          if (list) list.push(path);
          else this.dirs.set(prefix, [path]);
        }
      }
    }
    return this.dirs.get(dir) ?? [];
  }

  /** Parses every file (library callers that want the whole tree). */
  all(): TreeObject[] {
    return this.where('*', () => true);
  }

  /** Number of objects: parsed files counted exactly, others by their top-level `kind:` lines. */
  private countCache: { parsed: number; n: number } | null = null;

  objectCount(): number {
    if (this.countCache && this.countCache.parsed === this.parsed.size) return this.countCache.n;
    let n = 0;
    for (const [path, text] of this.files) {
      const parsed = this.parsed.get(path);
      n += parsed ? parsed.length : (text.match(/^kind:/gm) ?? []).length;
    }
    this.countCache = { parsed: this.parsed.size, n };
    return n;
  }

  private parse(file: string, text: string, chunk: number): TreeObject[] {
    const out: TreeObject[] = [];
    const { docs, error } = parseFile(text);
    const fileText = this.files.get(file) ?? '';
    if (error !== undefined) this.warnings.push(`${this.label}: ${file}: YAML error: ${error}`);
    docs.forEach((doc, j) => {
      const i = chunk + j;
      if (doc === null || doc === undefined) return;
      if (!isRecord(doc)) {
        this.warnings.push(`${this.label}: ${file}: document ${i + 1} is not an object; skipped`);
        return;
      }
      const apiVersion = typeof doc.apiVersion === 'string' ? doc.apiVersion : '';
      const kind = typeof doc.kind === 'string' ? doc.kind : '';
      if (!apiVersion || !kind) {
        this.warnings.push(`${this.label}: ${file}: document ${i + 1} has no apiVersion/kind; skipped`);
        return;
      }
      const meta = isRecord(doc.metadata) ? doc.metadata : {};
      const namespace = typeof meta.namespace === 'string' ? meta.namespace : '';
      let name = typeof meta.name === 'string' ? meta.name : '';
      // kustomization.yaml has no name: it is identified by its folder.
      if (!name) name = file.slice(0, file.lastIndexOf('/') + 1) + `#${i}`;
      const group = groupOf(apiVersion);
      const key = objectKey(group, kind, namespace, name);
      const prev = this.objects.get(key);
      if (prev) {
        this.warnings.push(`${this.label}: ${file}: ${kind} ${namespace ? `${namespace}/` : ''}${name} is defined twice (also in ${prev.file}); the first one is compared`);
        return;
      }
      const obj: TreeObject = { key, group, apiVersion, kind, namespace, name, file, object: doc, fileText };
      this.objects.set(key, obj);
      out.push(obj);
    });
    return out;
  }
}

/** An index of the tree (parsed lazily; call `.all()` to parse everything). */
export function indexTree(tree: RenderedTree): TreeIndex {
  return new TreeIndex(tree);
}
