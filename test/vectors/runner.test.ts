/**
 * The shared test vectors, every one as its own test case named by its id. Vectors are read from
 * $CAPIFORM_VECTORS_DIR (default ../shared/vectors): `<dir>/<format>/*.json`, or `*.json` directly in it (format
 * inferred from the document). Handlers register per op in ./handlers/*.ts (see ./registry.ts); an op without a
 * handler fails unless ./unsupported.ts lists it with a reason.
 *
 * A second suite runs ./fixtures, the repo's own vectors in the same formats: one at least per handler added for
 * a function the public vector files do not exercise yet, so each handler is proven to run.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sharedDir } from '../helpers/shared.js';
import { dispatch, loadVectorFiles, vectorsOf } from './registry.js';
import type { Vector, VectorFile } from './types.js';

const here = dirname(fileURLToPath(import.meta.url));
const vectors = sharedDir('vectors');
const vectorsDir = vectors.path;
const fixturesDir = resolve(here, 'fixtures');

function vectorName(vector: Vector, index: number): string {
  if (typeof vector.id === 'string') return vector.id;
  const src = typeof vector.source === 'string' ? vector.source : JSON.stringify(vector.source ?? '');
  return `#${index} ${src}`;
}

function registerFile(file: VectorFile): void {
  describe(file.stem, () => {
    vectorsOf(file).forEach((raw, index) => {
      // A vector without `input`/`expected` still dispatches (and its handler fails it), never crashes the file.
      const vector: Vector = { ...raw, input: raw.input ?? {}, expected: raw.expected ?? {} };
      const name = vectorName(vector, index);
      const { key, handler, unsupported } = dispatch(file, vector);
      if (!handler && unsupported) {
        // The single documented exception: see ./unsupported.ts.
        it.skip(`${name} [unsupported op ${key}: ${unsupported}]`, () => {});
        return;
      }
      it(name, async () => {
        if (!handler) expect.fail(`no handler for vector op ${key}; add one in test/vectors/handlers/`);
        await handler(vector, file);
      });
    });
  });
}

export function registerVectorSuite(dir: string): void {
  for (const { group, files } of loadVectorFiles(dir)) {
    describe(group, () => {
      for (const file of files) {
        if (typeof file === 'string') {
          it(`unreadable vector file`, () => expect.fail(file));
          continue;
        }
        registerFile(file);
      }
    });
  }
}

if (!vectors.present) {
  it.skip(`vectors${vectors.skipped}`, () => {});
} else {
  describe('vectors', () => registerVectorSuite(vectorsDir));
}

if (vectorsDir !== fixturesDir) {
  describe('repo fixtures (test/vectors/fixtures)', () => registerVectorSuite(fixturesDir));
}
