/**
 * A TypeScript or JavaScript config is code. One that never finishes loading (an endless loop, a promise that never
 * settles) is stopped after CAPIFORM_CONFIG_TIMEOUT seconds (default 10), and one that calls process.exit ends only
 * its own thread: both are config errors (exit 2) naming the file, and nothing is written.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { needsFullApi } from '../../src/config/load-isolated.js';
import { runCli } from '../helpers/cli.js';
import { compiledCli } from '../helpers/compiled-cli.js';
import { fixtureRepository, fixtureConfig } from '../helpers/pipeline-fixtures.js';
import { testdir } from '../helpers/testdir.js';

let cli: string;
beforeAll(async () => {
  cli = await compiledCli();
});

/** `capiform render` in a real process; the spawn's own limit only turns a hang (the bug) into a failure. */
function renderIn(dir: string, env: NodeJS.ProcessEnv = {}): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [cli, 'render'], {
    cwd: dir,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: dir, ...env },
    timeout: 50_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('loading a config is bounded', () => {
  it('an endless loop is stopped and reported as a config error', () => {
    const dir = testdir({ 'capi.config.ts': 'while (true) {}\nexport default {};\n' });
    const r = renderIn(dir, { CAPIFORM_CONFIG_TIMEOUT: '1' });
    expect(r.stderr).toBe(
      `Error: the config did not finish loading within 1 s\n  at: ${join(dir, 'capi.config.ts')}\n` +
        '  fix: look for an endless loop or a promise that never settles in the config; if it is just slow, raise the bound with CAPIFORM_CONFIG_TIMEOUT=<seconds>\n',
    );
    expect(r.code).toBe(2);
    expect(readdirSync(dir)).toEqual(['capi.config.ts']);
  });

  it('a promise that never settles, awaited at the top level or exported', () => {
    for (const [name, text] of [
      ['capi.config.mjs', 'await new Promise(() => {});\nexport default {};\n'],
      ['capi.config.ts', 'export default new Promise(() => {});\n'],
    ] as const) {
      const dir = testdir({ [name]: text });
      const r = renderIn(dir, { CAPIFORM_CONFIG_TIMEOUT: '0.5' });
      expect(r.stderr).toContain(`Error: the config did not finish loading within 0.5 s\n  at: ${join(dir, name)}\n`);
      expect(r.code).toBe(2);
      expect(readdirSync(dir)).toEqual([name]);
    }
  });

  it('process.exit in the config ends only its thread', () => {
    for (const code of [0, 3]) {
      const dir = testdir({ 'capi.config.ts': `process.exit(${code});\nexport default {};\n` });
      const r = renderIn(dir);
      expect(r.stderr).toBe(
        `Error: the config ended its loading with process.exit(${code}) instead of exporting a config\n  at: ${join(dir, 'capi.config.ts')}\n` +
          '  fix: remove the process.exit call: a config only exports its value\n',
      );
      expect(r.code).toBe(2);
      expect(readdirSync(dir)).toEqual(['capi.config.ts']);
    }
  });

  it('CAPIFORM_CONFIG_TIMEOUT must be a positive number of seconds', async () => {
    const dir = testdir({ 'capi.config.ts': 'export default {};\n' });
    const r = await runCli(['render'], { cwd: dir, env: { PATH: process.env.PATH, HOME: dir, CAPIFORM_CONFIG_TIMEOUT: 'soon' } });
    expect(r.stderr).toBe(
      'Error: CAPIFORM_CONFIG_TIMEOUT must be a positive number of seconds, not "soon"\n  at: CAPIFORM_CONFIG_TIMEOUT\n  fix: unset it for the default of 10 s, or set it to e.g. 30\n',
    );
    expect(r.code).toBe(2);
    expect(readdirSync(dir)).toEqual(['capi.config.ts']);
  });

  it('a value that is not plain data is a config error', async () => {
    const dir = testdir({ 'capi.config.ts': 'export default { providers: {}, render: () => 1 };\n' });
    const r = await runCli(['render'], { cwd: dir, env: { PATH: process.env.PATH, HOME: dir } });
    expect(r.stderr).toMatch(/^Error: the config's value is not plain data: /);
    expect(r.code).toBe(2);
  });

  it('a config using more of the library than defineConfig still loads', () => {
    const dir = testdir();
    fixtureRepository(dir);
    const config = fixtureConfig().replace(
      "import { defineConfig } from 'capiform';",
      "import { defineConfig, providerTypes } from 'capiform';\nif (!providerTypes.includes('CoreProvider')) throw new Error('no library');",
    );
    writeFileSync(join(dir, 'capi.config.ts'), config);
    const r = spawnSync(process.execPath, [cli, 'lock'], { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: dir }, timeout: 50_000 });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});

describe('which configs need the whole library in their thread', () => {
  it.each([
    ["import { defineConfig } from 'capiform';", false],
    ["import { defineConfig, type CapiformConfig } from 'capiform';", false],
    ["import type { CapiformConfig } from 'capiform';", false],
    ['const x = 1;', false],
    ["import { defineConfig, providerTypes } from 'capiform';", true],
    ["import * as capiform from 'capiform';", true],
    ["import capiform from 'capiform';", true],
    ["const { substitute } = await import('capiform');", true],
    ["const c = require('capiform');", true],
  ])('%s → %s', (source, expected) => {
    expect(needsFullApi(source)).toBe(expected);
  });
});
