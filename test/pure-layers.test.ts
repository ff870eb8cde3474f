/**
 * No IO in the pure layers (DESIGN.md "Pipeline"): render, topology, validate and plan import neither the file
 * system nor child processes, and from src/cache only its pure helpers (hashing, byte order, reproducible gzip),
 * never the cache, atomic writes or locks. Disk, network and memoization are the pipeline's.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const pureLayers = ['render', 'topology', 'validate', 'plan'];
const pureCacheHelpers = new Set(['sha256Hex', 'digestOf', 'canonicalDigest', 'canonicalJson', 'compareBytes', 'gzipReproducible']);

/**
 * Files still doing IO, for the branches that move it out to clear: remove a line when its file is fixed.
 */
const exceptions = new Set([
  // The markdown report reads a template file: moves with the review composition to src/pipeline/review.
  'src/plan/diff/format-markdown.ts',
]);

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

function ioImports(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/import\s+(?:type\s+)?(?:\{([^}]*)\}\s+from\s+)?(?:[\w*\s,]+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    const spec = m[2] ?? m[3] ?? '';
    if (/^(node:)?(fs|fs\/promises|child_process)$/.test(spec)) out.push(spec);
    else if (/(^|\/)cache\/index\.js$/.test(spec)) {
      const names = (m[1] ?? '*').split(',').map((n) => n.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]!).filter(Boolean);
      for (const n of names) if (!pureCacheHelpers.has(n)) out.push(`${spec} (${n})`);
    }
  }
  return out;
}

describe('architecture: no IO in pure layers (render, topology, validate, plan)', () => {
  const found: string[] = [];
  for (const layer of pureLayers) {
    for (const file of filesUnder(join(root, 'src', layer))) {
      const rel = relative(root, file).split('\\').join('/');
      if (exceptions.has(rel)) continue;
      for (const i of ioImports(readFileSync(file, 'utf8'))) found.push(`${rel} imports ${i}`);
    }
  }
  it('no file system, child process or cache import', () => {
    expect(found, 'move the IO into src/pipeline (or an adapter) and hand the pure layer data').toEqual([]);
  });
  it('every exception is still an offender (a fixed file leaves the list)', () => {
    for (const rel of exceptions) expect(ioImports(readFileSync(join(root, rel), 'utf8')), rel).not.toEqual([]);
  });
});
