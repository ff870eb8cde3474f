/**
 * What the commands users wait for load. A command's start-up is mostly loading modules, so `generate provider`,
 * `render --check` and `--version` must not pull in the parts of capiform and the packages they do not use (the
 * validator, the topology engine, zod, jiti, octokit, CEL, RE2, handlebars, the `yaml` package for portable files):
 * one import in the wrong place once put ~20 modules back on `generate`'s path unnoticed. No timing here: each command
 * runs in a real process (the CLI built as `npm run build` builds it) with a hook that lists every module it loads,
 * and the sources of each bundled chunk (from its source map), and the list is checked.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { compiledCli } from './helpers/compiled-cli.js';
import { tempDir, testdir } from './helpers/testdir.js';

const repoRoot = join(import.meta.dirname, '..');

/** Module paths no command below may load, with why each is heavy. */
const heavy: Record<string, RegExp> = {
  'the validator (src/validate)': /\/src\/validate\//,
  'the topology engine (src/topology)': /\/src\/topology\//,
  zod: /\/node_modules\/zod\//,
  jiti: /\/node_modules\/jiti\//,
  octokit: /\/node_modules\/@octokit\//,
  CEL: /\/node_modules\/@bufbuild\/cel/,
  RE2: /\/node_modules\/@bufbuild\/re2\//,
  handlebars: /\/node_modules\/handlebars\//,
  // Its package.json alone is read for the version the render caches key on.
  'the yaml package': /\/node_modules\/yaml\/(?!package\.json$)/,
};

let cli: string;
let hook: string;

beforeAll(async () => {
  cli = await compiledCli();
  // ES modules through a resolve hook, CommonJS ones (required through createRequire) from the require cache at exit.
  const dir = testdir({
    'hooks.mjs': [
      "import { appendFileSync } from 'node:fs';",
      'export async function resolve(specifier, context, next) {',
      '  const r = await next(specifier, context);',
      "  appendFileSync(process.env.CAPIFORM_TEST_MODULES, r.url + '\\n');",
      '  return r;',
      '}',
      '',
    ].join('\n'),
  });
  hook = join(dir, 'register.mjs');
  writeFileSync(
    hook,
    [
      "import { register, createRequire } from 'node:module';",
      "import { appendFileSync } from 'node:fs';",
      `register(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)});`,
      'const cache = createRequire(import.meta.url).cache;',
      "process.on('exit', () => appendFileSync(process.env.CAPIFORM_TEST_MODULES, Object.keys(cache).join('\\n') + '\\n'));",
      '',
    ].join('\n'),
  );
}, 120_000);

/** The source files a bundled chunk was built from (absolute paths), from its source map. */
function sourcesOf(module: string): string[] {
  if (!module.startsWith('file:') || !module.endsWith('.js')) return [];
  const file = fileURLToPath(module);
  if (!existsSync(`${file}.map`)) return [];
  const map = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[] };
  return map.sources.map((s) => resolve(dirname(file), s));
}

/** Runs the CLI and returns the modules it loaded (file URLs and paths), after checking it succeeded. */
function modulesOf(argv: string[], cwd: string, env: Record<string, string> = {}): string[] {
  const list = join(tempDir('capiform-modules-'), 'modules.txt');
  writeFileSync(list, '');
  const r = spawnSync(process.execPath, ['--import', pathToFileURL(hook).href, cli, ...argv], {
    cwd,
    env: { PATH: process.env.PATH, HOME: cwd, NO_COLOR: '1', CAPIFORM_TEST_MODULES: list, ...env },
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  const loaded = readFileSync(list, 'utf8').split('\n').filter(Boolean);
  // A chunk of the bundled CLI stands for the sources its source map lists.
  const modules = loaded.flatMap((m) => [m, ...sourcesOf(m)]);
  // The hook saw the CLI itself: an empty list would pass every check below.
  expect(modules.some((m) => m.endsWith('/src/cli/main.ts'))).toBe(true);
  return modules;
}

/** The heavy parts among `modules`, each with the first module of it that loaded. */
function heavyIn(modules: string[], except: string[] = []): string[] {
  return Object.entries(heavy)
    .filter(([what]) => !except.includes(what))
    .flatMap(([what, pattern]) => modules.filter((m) => pattern.test(m)).slice(0, 1).map((m) => `${what}: ${m}`));
}

describe('modules the everyday commands load', () => {
  it('--version loads the command line and nothing that renders', () => {
    const modules = modulesOf(['--version'], tempDir());
    expect(heavyIn(modules)).toEqual([]);
    expect(modules.filter((m) => /\/src\/(render|resolve|pipeline)\//.test(m))).toEqual([]);
  });

  it('generate provider with a clusterctl.yaml loads none of the heavy parts', () => {
    const repository = join(repoRoot, 'examples', 'repository', 'cluster-api');
    const dir = testdir({
      'clusterctl.yaml': `providers:\n- name: cluster-api\n  type: CoreProvider\n  url: ${join(repository, 'latest', 'core-components.yaml')}\n`,
    });
    const cache = tempDir('capiform-modules-cache-');
    const argv = ['generate', 'provider', '--core', 'cluster-api:v1.12.4', '--target-namespace', 'capi-test', '--config', 'clusterctl.yaml'];
    // With an empty render cache, a document the fast reader leaves to the package needs it; with the cache the first
    // run filled, nothing is parsed.
    expect(heavyIn(modulesOf(argv, dir, { CAPIFORM_CACHE_DIR: cache }), ['the yaml package'])).toEqual([]);
    expect(heavyIn(modulesOf(argv, dir, { CAPIFORM_CACHE_DIR: cache }))).toEqual([]);
  });

  it('render --check --frozen on the up-to-date example loads none of the heavy parts once its caches are warm', () => {
    const dir = tempDir('capiform-modules-example-');
    for (const p of ['capi.lock.yaml', 'examples/repository', 'providers', 'clusters', 'clusterclasses', 'argocd', '.capiform/owned.json']) {
      cpSync(join(repoRoot, p), join(dir, p), { recursive: true });
    }
    // The same config without the `capiform` import, which resolves only inside this repository.
    const config = readFileSync(join(repoRoot, 'capi.config.ts'), 'utf8');
    writeFileSync(join(dir, 'capi.config.ts'), config.replace("import { defineConfig } from 'capiform';\n", '').replace('export default defineConfig({', 'export default ({'));
    const env = { CAPIFORM_CACHE_DIR: tempDir('capiform-modules-cache-') };
    // The first check compiles the config (jiti) and validates it and the lock (zod); later ones reuse both.
    modulesOf(['render', '--check', '--frozen'], dir, env);
    expect(heavyIn(modulesOf(['render', '--check', '--frozen'], dir, env))).toEqual([]);
  });
});
