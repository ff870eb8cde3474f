/**
 * What the caches behind a fast no-op run remember, and that each stands only for what it was keyed on: the
 * compiled TypeScript config (its source), configs and locks found valid (their exact value or text), and the
 * directories a `render --check` found up to date (the tree cache's inputs and file digests).
 */
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/index.js';
import { configSchema } from '../src/config/schema.js';
import { parseLock } from '../src/lock/format.js';
import { decodeLock } from '../src/lock/format.js';
import { runCli } from './helpers/cli.js';
import { tempDir, testdir } from './helpers/testdir.js';

const repoRoot = join(import.meta.dirname, '..');

/** Every file under `dir` (relative paths), or [] when it does not exist. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1));
}

const config = (repo: string, extra = ''): string => `import { defineConfig } from 'capiform';
${extra}
export default defineConfig({
  providers: { core: { name: 'cluster-api', version: 'latest', url: '${repo}' } },
  variables: { FROM_ENV: process.env.CAPIFORM_TEST_VALUE ?? 'unset' },
});
`;

describe('compiled TypeScript configs', () => {
  it('compiles a config once and runs the compiled code on later loads, reading its environment afresh', async () => {
    const dir = testdir({ 'capi.config.ts': config('./repo') });
    const cache = tempDir();
    const env = { CAPIFORM_CACHE_DIR: cache };
    const first = await loadConfig({ cwd: dir, env });
    const compiled = filesUnder(join(cache, 'config'));
    expect(compiled).toHaveLength(1);
    expect(first.variables.FROM_ENV).toBe('unset');

    process.env.CAPIFORM_TEST_VALUE = 'set';
    try {
      expect((await loadConfig({ cwd: dir, env })).variables.FROM_ENV).toBe('set');
    } finally {
      delete process.env.CAPIFORM_TEST_VALUE;
    }
    // The later load ran the cached code: a marker put into it shows up.
    const path = join(cache, 'config', compiled[0]!);
    writeFileSync(path, readFileSync(path, 'utf8').replace("'unset'", "'from the compiled copy'"));
    expect((await loadConfig({ cwd: dir, env })).variables.FROM_ENV).toBe('from the compiled copy');

    // Another source is another key.
    writeFileSync(join(dir, 'capi.config.ts'), config('./repo', '// edited'));
    expect((await loadConfig({ cwd: dir, env })).variables.FROM_ENV).toBe('unset');
    expect(filesUnder(join(cache, 'config'))).toHaveLength(2);
  });

  it('never keeps a config that holds one of its credential values as a literal', async () => {
    const dir = testdir({ 'capi.config.ts': config('./repo').replace("variables: {", "variables: { VSPHERE_PASSWORD: 'canary-credential-1234',") });
    const cache = tempDir();
    const loaded = await loadConfig({ cwd: dir, env: { CAPIFORM_CACHE_DIR: cache } });
    expect(loaded.variables.VSPHERE_PASSWORD).toBe('canary-credential-1234');
    expect(filesUnder(join(cache, 'config'))).toEqual([]);
  });

  it('keeps jiti for a config that imports another file', async () => {
    const dir = testdir({
      'repo.ts': "export const repo = './repo';\n",
      'capi.config.ts': config('${repo}', "import { repo } from './repo.ts';").replace("url: '${repo}'", 'url: repo'),
    });
    const cache = tempDir();
    const loaded = await loadConfig({ cwd: dir, env: { CAPIFORM_CACHE_DIR: cache } });
    expect(loaded.providers[0]!.url).toBe('./repo');
    expect(filesUnder(join(cache, 'config'))).toEqual([]);
  });
});

describe('inputs found valid before', () => {
  it('the config schema only checks: what it returns for the example config is the value itself', async () => {
    const example = await loadConfig({ cwd: repoRoot, env: { CAPIFORM_CACHE_DIR: tempDir() } });
    expect(example.providers.length).toBeGreaterThan(0);
    const dir = testdir({ 'capi.config.ts': readFileSync(join(repoRoot, 'capi.config.ts'), 'utf8') });
    const { readConfigFile } = await import('../src/config/index.js');
    const value = await readConfigFile(join(dir, 'capi.config.ts'));
    expect(configSchema.parse(value)).toStrictEqual(value);
  });

  it('a config that failed validation is explained again; one that passed is remembered', async () => {
    const dir = testdir({ 'capi.config.json': JSON.stringify({ providers: { core: { name: 'cluster-api', version: '1.x.y', url: './repo' } } }) });
    const cache = tempDir();
    for (let i = 0; i < 2; i++) {
      await expect(loadConfig({ cwd: dir, env: { CAPIFORM_CACHE_DIR: cache } })).rejects.toThrow('is not a version or range');
    }
    expect(filesUnder(join(cache, 'validated'))).toEqual([]);
    writeFileSync(join(dir, 'capi.config.json'), JSON.stringify({ providers: { core: { name: 'cluster-api', version: 'v1.12.0', url: './repo' } } }));
    await loadConfig({ cwd: dir, env: { CAPIFORM_CACHE_DIR: cache } });
    expect(filesUnder(join(cache, 'validated'))).toHaveLength(1);
  });

  it('the lock schema only checks, and a broken lock is explained every time', () => {
    const text = readFileSync(join(repoRoot, 'capi.lock.yaml'), 'utf8');
    const cache = tempDir();
    const once = parseLock(text, 'capi.lock.yaml', cache);
    expect(filesUnder(join(cache, 'validated'))).toHaveLength(1);
    expect(parseLock(text, 'capi.lock.yaml', cache)).toStrictEqual(once);
    expect(parseLock(text, 'capi.lock.yaml')).toStrictEqual(once);
    expect(decodeLock(text, 'capi.lock.yaml')).toMatchObject({ providers: once.providers.map((p) => ({ name: p.name, version: p.version })) });

    const broken = text.replace(/sha256: [0-9a-f]{64}/, 'sha256: abc');
    for (let i = 0; i < 2; i++) expect(() => parseLock(broken, 'capi.lock.yaml', cache)).toThrow('must be 64 lowercase hex digits');
    expect(filesUnder(join(cache, 'validated'))).toHaveLength(1);
  });
});

describe('render --check and the tree cache', () => {
  it('a check remembers the directories it found up to date, and a later edit is still found', async () => {
    const dir = tempDir('capiform-check-cache-');
    for (const p of ['capi.config.ts', 'capi.lock.yaml', 'examples/repository', 'providers', 'clusters', 'clusterclasses', 'argocd', '.capiform/owned.json']) {
      cpSync(join(repoRoot, p), join(dir, p), { recursive: true });
    }
    const cache = tempDir();
    const env = { PATH: process.env.PATH, HOME: cache, CAPIFORM_CACHE_DIR: cache };
    const check = () => runCli(['render', '--check', '--frozen'], { cwd: dir, env });
    expect(await check()).toMatchObject({ code: 0, stdout: 'tree is up to date\n' });
    const trees = filesUnder(join(cache, 'trees'));
    expect(trees).toHaveLength(1);
    const saved = JSON.parse(readFileSync(join(cache, 'trees', trees[0]!), 'utf8')) as { entries: Record<string, unknown> };
    expect(Object.keys(saved.entries)).toContain('providers/cluster-api');

    const file = join(dir, 'clusters/team-b/prod-1/cluster.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('replicas: 3', 'replicas: 4'));
    const stale = await check();
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('  clusters/team-b/prod-1/cluster.yaml\n');
    expect(await runCli(['render'], { cwd: dir, env })).toMatchObject({ code: 0 });
    expect(await check()).toMatchObject({ code: 0, stdout: 'tree is up to date\n' });
  });
});
