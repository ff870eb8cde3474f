/**
 * The shared test vectors, every one as its own test case named by its id. Vectors are read from
 * $CAPIFORM_VECTORS_DIR (default ../shared/vectors). Handlers register per op in ./handlers/*.ts; an op without a
 * handler fails unless ./unsupported.ts lists it with a reason.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Vector, VectorFile, VectorHandler } from './types.js';
import { unsupported } from './unsupported.js';
import { sharedDir } from '../helpers/shared.js';

const here = dirname(fileURLToPath(import.meta.url));
const vectors = sharedDir('vectors');
const vectorsDir = vectors.path;

const handlers: Record<string, VectorHandler> = {};
for (const name of readdirSync(join(here, 'handlers')).sort()) {
  if (!/\.ts$/.test(name) || name.endsWith('.d.ts')) continue;
  const mod = (await import(pathToFileURL(join(here, 'handlers', name)).href)) as {
    handlers?: Record<string, VectorHandler>;
  };
  for (const [key, fn] of Object.entries(mod.handlers ?? {})) {
    if (handlers[key]) throw new Error(`vector handler ${key} is registered twice (second in ${name})`);
    handlers[key] = fn;
  }
}

export function opKey(file: VectorFile, vector: Vector): string {
  if (file.folder === 'capi-plan') return `capi-plan:${file.stem}:${vector.input.operation ?? '*'}`;
  if (file.folder === 'envsubst') return `envsubst:${file.stem}`;
  return `${file.folder}:${vector.input.op ?? '*'}`;
}

function vectorName(vector: Vector, index: number): string {
  if (typeof vector.id === 'string') return vector.id;
  const src = typeof vector.source === 'string' ? vector.source : JSON.stringify(vector.source ?? '');
  return `#${index} ${src}`;
}

function loadFiles(folder: string): VectorFile[] {
  const dir = join(vectorsDir, folder);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const path = join(dir, f);
      return { folder, stem: f.slice(0, -'.json'.length), path, doc: JSON.parse(readFileSync(path, 'utf8')) };
    });
}

if (!vectors.present) {
  it.skip(`vectors${vectors.skipped}`, () => {});
} else {
  for (const folder of readdirSync(vectorsDir).sort()) {
    const files = loadFiles(folder);
    if (files.length === 0) continue;
    describe(folder, () => {
      for (const file of files) {
        // envsubst files are arrays of cases; the others wrap them in {vectors: [...]}.
        const vectors = (Array.isArray(file.doc) ? file.doc : (file.doc.vectors as Vector[] | undefined)) ?? [];
        describe(file.stem, () => {
          vectors.forEach((vector, index) => {
            const key = opKey(file, vector as Vector);
            const name = vectorName(vector as Vector, index);
            const handler = handlers[key];
            const reason = unsupported[key];
            if (!handler && reason) {
              // The single documented exception: see ./unsupported.ts.
              it.skip(`${name} [unsupported op ${key}: ${reason}]`, () => {});
              return;
            }
            it(name, async () => {
              if (!handler) expect.fail(`no handler for vector op ${key}; add one in test/vectors/handlers/`);
              await handler(vector as Vector, file);
            });
          });
        });
      }
    });
  }
}
