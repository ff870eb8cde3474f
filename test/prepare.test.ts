/**
 * npm's `prepare` (scripts/prepare.mjs) builds only when the sources changed since the last build: `npm ci` builds,
 * and the `npx capiform` that follows in a clone of capiform (npm installs the project into its npx cache and runs
 * `prepare` again) finds dist/ built and returns. Run in a project of the same layout whose build only writes the
 * outputs and counts its runs.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { testdir } from './helpers/testdir.js';

const repoRoot = join(import.meta.dirname, '..');

const build = [
  "const fs = require('node:fs');",
  "for (const d of ['dist/cli', 'dist/cli-bundle']) fs.mkdirSync(d, { recursive: true });",
  "for (const f of ['dist/index.js', 'dist/cli/main.js', 'dist/code-digest.json']) fs.writeFileSync(f, '');",
  "fs.appendFileSync('builds.log', 'build\\n');",
].join(' ');

function project(): string {
  const dir = testdir({
    'package.json': JSON.stringify({ name: 'p', private: true, scripts: { build: `node build.cjs && node scripts/prepare.mjs --stamp` } }),
    'build.cjs': build,
    'tsconfig.json': '{}',
    'tsconfig.build.json': '{}',
    'scripts/bundle-cli.mjs': '',
    'scripts/stamp-code-digest.mjs': '',
    'src/index.ts': 'export const a = 1;\n',
  });
  cpSync(join(repoRoot, 'scripts/prepare.mjs'), join(dir, 'scripts/prepare.mjs'));
  return dir;
}

function prepare(dir: string): { out: string; builds: number } {
  const r = spawnSync(process.execPath, ['scripts/prepare.mjs'], { cwd: dir, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  let log = '';
  try {
    log = readFileSync(join(dir, 'builds.log'), 'utf8');
  } catch {
    // no build yet
  }
  return { out: r.stdout, builds: log.split('\n').filter(Boolean).length };
}

it('builds once, then only when a source, a build script or a setting changes, or an output is missing', () => {
  const dir = project();
  expect(prepare(dir).builds).toBe(1); // npm ci
  const again = prepare(dir); // npx capiform
  expect(again.builds).toBe(1);
  expect(again.out).toContain('dist/ is already built from these sources');

  writeFileSync(join(dir, 'src/index.ts'), 'export const a = 2;\n');
  expect(prepare(dir).builds).toBe(2);
  writeFileSync(join(dir, 'tsconfig.build.json'), '{ "compilerOptions": {} }');
  expect(prepare(dir).builds).toBe(3);
  writeFileSync(join(dir, 'src/new.ts'), '');
  expect(prepare(dir).builds).toBe(4);
  rmSync(join(dir, 'dist/cli-bundle'), { recursive: true });
  expect(prepare(dir).builds).toBe(5);
  expect(prepare(dir).builds).toBe(5);
});
