/**
 * The layers of DESIGN.md, checked on every run: an import only points down (errors, go, capi, yaml, envsubst, cache,
 * config, resolve, lock, apiextensions, topology, render, validate, plan, bundle, pipeline, cli, action), no import
 * circles, and other folders import a folder through its index.ts (its own, or that of a folder inside it). A failure
 * names the file, the line, the import and the rule.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { violations } from './architecture/imports.js';
import { testdir } from './helpers/testdir.js';

const root = join(import.meta.dirname, '..');
const found = violations(root);

describe('architecture: the layers of DESIGN.md', () => {
  for (const rule of ['upward import', 'import circle', 'bypasses index.ts'] as const) {
    it(`no ${rule}`, () => {
      expect(found.filter((v) => v.rule === rule).map((v) => v.detail), `${rule}: fix these (DESIGN.md "Layout")`).toEqual([]);
    });
  }
});

describe('architecture: the checker itself', () => {
  it('names an upward import, a door bypassed and a circle, with file and line', () => {
    const dir = testdir({
      'src/errors.ts': 'export class E {}\n',
      'src/yaml/index.ts': "export * from './parse.js';\n",
      'src/yaml/parse.ts': "import { render } from '../render/emit.js';\nexport const parse = render;\n",
      'src/render/index.ts': "export * from './emit.js';\n",
      'src/render/emit.ts': "import { parse } from '../yaml/parse.js';\nexport const render = (): unknown => parse;\n",
      'src/render/ok.ts': "import { parse } from '../yaml/index.js';\nimport { E } from '../errors.js';\nexport const ok = [parse, E];\n",
    });
    const v = violations(dir);
    expect(v.map((x) => `${x.rule}: ${x.detail}`)).toEqual([
      'bypasses index.ts: src/render/emit.ts:1 imports ../yaml/parse.js: import src/yaml through its door src/yaml/index.ts',
      'bypasses index.ts: src/yaml/parse.ts:1 imports ../render/emit.js: import src/render through its door src/render/index.ts',
      'import circle: import circle: src/render/emit.ts -> src/yaml/parse.ts -> src/render/emit.ts',
      'upward import: src/yaml/parse.ts:1 imports ../render/emit.js: layer yaml may not import from render, which sits above it in DESIGN.md',
    ]);
  });
});
