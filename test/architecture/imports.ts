/**
 * The import graph of src/, read from the sources as text (fast: no TypeScript program), and the layering rules of
 * DESIGN.md checked against it. Used by test/architecture.test.ts.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** DESIGN.md's layers, lowest first. An import may only point down this list (or stay in its own layer). */
export const layers = [
  'errors',
  'go',
  'capi',
  'yaml',
  'envsubst',
  'cache',
  'config',
  'resolve',
  'lock',
  // Kubernetes' schema machinery (k8s.io/apiextensions-apiserver, apimachinery's field paths): below topology and validate.
  'apiextensions',
  'topology',
  'render',
  'validate',
  'plan',
  'bundle',
  'pipeline',
  'cli',
  // The GitHub Action (action.yml): an entry point like cli, running the CLI and talking to GitHub's API.
  'action',
  // The package root re-exports the library surface of every layer.
  'index',
] as const;
export type Layer = (typeof layers)[number];

/** Files at the top of src/ that are layers of their own, or belong to one. */
const topFiles: Record<string, Layer> = {
  'errors.ts': 'errors',
  'index.ts': 'index',
  // Reads package.json and digests capiform's own code: what cache keys are built from.
  'version.ts': 'cache',
};

export interface ImportEdge {
  from: string;
  to: string;
  /** The specifier as written. */
  spec: string;
  line: number;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) return sourceFiles(p);
      return /\.ts$/.test(name) && !/\.(test|d)\.ts$/.test(name) ? [p] : [];
    });
}

const importPattern = /(?:^|[\s;])(?:import|export)\s[^'"`]*?from\s*['"]([^'"]+)['"]|(?:^|[^\w.])import\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm;

/** Every relative import between files of src/, as repository-relative paths (`src/pipeline/compositions.ts`). */
export function importGraph(repoRoot: string): { files: string[]; edges: ImportEdge[] } {
  const src = join(repoRoot, 'src');
  const files = sourceFiles(src);
  const edges: ImportEdge[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(importPattern)) {
      const spec = m[1] ?? m[2] ?? m[3];
      if (!spec || !spec.startsWith('.')) continue;
      const target = resolve(dirname(file), spec.replace(/\.js$/, '.ts'));
      const line = text.slice(0, m.index).split('\n').length + (m[0].startsWith('\n') ? 1 : 0);
      edges.push({ from: relative(repoRoot, file), to: relative(repoRoot, target), spec, line });
    }
  }
  return { files: files.map((f) => relative(repoRoot, f)), edges };
}

/** The layer of a repository-relative source path. */
export function layerOf(path: string): Layer {
  const parts = path.split('/');
  if (parts[0] !== 'src') throw new Error(`not a source file: ${path}`);
  if (parts.length === 2) {
    const layer = topFiles[parts[1]!];
    if (!layer) throw new Error(`${path}: a file at the top of src/ must be listed in test/architecture/imports.ts (topFiles)`);
    return layer;
  }
  const layer = parts[1] as Layer;
  if (!layers.includes(layer)) throw new Error(`${path}: src/${parts[1]} is not a layer of DESIGN.md`);
  return layer;
}

/** The folder that is a layer's room (`src/render`), or the file for top-level layers. */
function roomOf(path: string): string {
  const parts = path.split('/');
  if (parts.length === 2) return path;
  return `src/${parts[1]}`;
}

export interface Violation {
  rule: 'upward import' | 'bypasses index.ts' | 'import circle';
  /** A stable text naming the files: used to compare with the recorded list. */
  key: string;
  /** What a reader is told. */
  detail: string;
}

export function violations(repoRoot: string): Violation[] {
  const { files, edges } = importGraph(repoRoot);
  const out: Violation[] = [];
  for (const e of edges) {
    const from = layerOf(e.from);
    const to = layerOf(e.to);
    if (layers.indexOf(to) > layers.indexOf(from)) {
      out.push({
        rule: 'upward import',
        key: `${e.from} -> ${e.to}`,
        detail: `${e.from}:${e.line} imports ${e.spec}: layer ${from} may not import from ${to}, which sits above it in DESIGN.md`,
      });
    }
    const fromRoom = roomOf(e.from);
    const toRoom = roomOf(e.to);
    if (fromRoom !== toRoom && toRoom.startsWith('src/') && toRoom.split('/').length > 1 && !toRoom.endsWith('.ts')) {
      // A folder's index.ts is its door: the room's own, or that of a folder inside it (src/resolve/github/index.ts).
      if (!e.to.endsWith('/index.ts')) {
        out.push({
          rule: 'bypasses index.ts',
          key: `${e.from} -> ${e.to}`,
          detail: `${e.from}:${e.line} imports ${e.spec}: import ${toRoom} through its door ${toRoom}/index.ts`,
        });
      }
    }
  }
  for (const circle of circles(files, edges)) {
    out.push({ rule: 'import circle', key: circle.join(' -> '), detail: `import circle: ${circle.join(' -> ')} -> ${circle[0]}` });
  }
  return out.sort((a, b) => (a.rule + a.key < b.rule + b.key ? -1 : 1));
}

/** Strongly connected components of more than one file (Tarjan), each as its files in a stable order. */
function circles(files: string[], edges: ImportEdge[]): string[][] {
  const next = new Map<string, string[]>(files.map((f) => [f, []]));
  for (const e of edges) if (next.has(e.to)) next.get(e.from)!.push(e.to);
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index);
    index += 1;
    stack.push(v);
    on.add(v);
    for (const w of next.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) out.push(scc.sort());
    }
  };
  for (const f of files) if (!idx.has(f)) visit(f);
  return out;
}
