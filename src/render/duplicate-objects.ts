/**
 * One object, one place in the tree. A cluster template may define a ClusterClass (and its templates) inline while
 * another cluster of the namespace gets the same class from `clusterclasses/`; kubectl and Argo CD would apply
 * both, the last one winning, and two Applications would fight over the object. The same object with the same
 * content is kept once (the first file in path order keeps it); with different content it is an input error that
 * names both files and the release files they came from.
 */
import { compareGoStrings } from '../go/index.js';
import { InputError } from '../errors.js';
import { deepEqual, parseManifests, splitDocuments, type KubeObject } from '../yaml/index.js';

export interface RenderedFile {
  readonly path: string;
  readonly content: string;
}

interface Seen {
  readonly path: string;
  readonly object: KubeObject;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** `Kind namespace/name`, with the API group so `Cluster` and `DockerCluster` of one name never collide. */
function identity(o: KubeObject): { key: string; label: string } | null {
  const m = (o.metadata ?? {}) as Record<string, unknown>;
  const name = str(m.name);
  if (!name || typeof o.kind !== 'string') return null;
  const api = str(o.apiVersion);
  const group = api.includes('/') ? api.slice(0, api.indexOf('/')) : '';
  const ns = str(m.namespace);
  return { key: `${group}\0${o.kind}\0${ns}\0${name}`, label: `${o.kind} ${ns ? `${ns}/` : ''}${name}` };
}

function isManifestFile(path: string): boolean {
  return (path.startsWith('clusters/') || path.startsWith('clusterclasses/')) && /\.ya?ml$/.test(path) && !/(^|\/)kustomization\.ya?ml$/.test(path);
}

/** `text` without the documents at `drop` (indexes of splitDocuments), keeping a leading comment header. */
function withoutDocuments(text: string, drop: ReadonlySet<number>): string {
  const chunks = splitDocuments(text);
  const header = /^(#[^\n]*\n)+/.exec(text)?.[0] ?? '';
  const kept = chunks
    .map((c, i) => ({ i, body: text.slice(c.start, c.end) }))
    .filter((c) => !drop.has(c.i))
    .map((c) => (c.i === 0 ? c.body.slice(header.length) : c.body))
    .map((b) => (b.endsWith('\n') ? b : `${b}\n`))
    .filter((b) => b.trim() !== '');
  return header + kept.join('---\n');
}

/**
 * Checks the cluster and ClusterClass files of the tree for objects emitted more than once. Returns the files
 * whose content changes (identical copies dropped), by path. `contentOf` gives a file's text (a file taken from
 * the tree cache carries none); `sourceOf` names what rendered a file (`infrastructure-docker v1.12.4
 * clusterclass-quick-start.yaml`).
 */
export function mergeDuplicateObjects(
  files: readonly RenderedFile[],
  contentOf: (f: RenderedFile) => string,
  sourceOf: (path: string) => string | undefined,
): Map<string, string> {
  const seen = new Map<string, Seen>();
  const conflicts: { text: string; path: string }[] = [];
  const changed = new Map<string, string>();
  const paths = files.filter((f) => isManifestFile(f.path)).sort((a, b) => compareGoStrings(a.path, b.path));
  for (const f of paths) {
    const text = contentOf(f);
    const drop = new Set<number>();
    splitDocuments(text, f.path).forEach((c, i) => {
      for (const o of parseManifests(text.slice(c.start, c.end), { source: f.path })) {
        const id = identity(o);
        if (!id) continue;
        const first = seen.get(id.key);
        if (!first) {
          seen.set(id.key, { path: f.path, object: o });
          continue;
        }
        if (deepEqual(first.object, o)) drop.add(i);
        else conflicts.push({ text: `${id.label}: ${describe(first.path, sourceOf)} and ${describe(f.path, sourceOf)}`, path: f.path });
      }
    });
    if (drop.size > 0) changed.set(f.path, withoutDocuments(text, drop));
  }
  if (conflicts.length > 0) {
    const first = conflicts[0]!.text;
    const what = conflicts.length === 1 ? `${first.slice(0, first.indexOf(':'))} is` : `${conflicts.length} objects are`;
    throw new InputError(`${what} rendered twice with different content:\n  ${conflicts.map((c) => c.text).join('\n  ')}`, {
      where: conflicts[0]!.path,
      hint: 'an object can come from one place only: rename it (e.g. the ClusterClass) in one of the templates, put the clusters in different namespaces, or make both render the same content',
    });
  }
  return changed;
}

function describe(path: string, sourceOf: (path: string) => string | undefined): string {
  const dir = path.slice(0, path.lastIndexOf('/'));
  const source = sourceOf(dir);
  return source ? `${path} (from ${source})` : path;
}
