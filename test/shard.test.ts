/**
 * `render --shard I/N`: each shard writes only the paths it owns, so a CI matrix of N jobs renders a fleet in
 * parallel and the union of the shards is the full render, byte for byte.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureProject, fixtureRepository, testdir, writeFixtureConfig } from './helpers/pipeline-fixtures.js';
import { snapshotDir } from './helpers/dir-snapshot.js';
import { loadConfig } from '../src/config/index.js';
import { memoryCache } from '../src/lock/index.js';
import { checkProject, lockProject, renderProject } from '../src/pipeline/index.js';
import { clusterInShard, parseShard, pathInShard, shardIndexOf, shardKey, shardOfPath } from '../src/render/index.js';
import { thrown } from './helpers/thrown.js';
import { runCli } from './helpers/cli.js';

/** 48 clusters over 4 namespaces, both flavors, with Argo CD glue: enough for every shard of 4 to get several. */
const fleet = {
  clusters: Array.from({ length: 48 }, (_, i) =>
    i % 2 === 0
      ? `{ name: 'c${i}', namespace: 'team-${i % 4}', infrastructure: 'docker', flavor: 'development', kubernetesVersion: 'v1.33.1', workerMachineCount: ${1 + (i % 3)} }`
      : `{ name: 'c${i}', namespace: 'team-${i % 4}', infrastructure: 'docker', kubernetesVersion: 'v1.33.1', variables: { DOCKER_REGION: 'r${i}' } }`,
  ).join(',\n'),
  extra: `argocd: { repoURL: 'https://git.example.com/fleet.git' },`,
};

function project(): string {
  const dir = testdir({});
  writeFixtureConfig(dir, fleet, 'plain');
  fixtureRepository(dir);
  return dir;
}

/** The rendered tree (and lock and owned list) of a project, without the fixture's own files. */
function tree(dir: string): Record<string, string> {
  return Object.fromEntries(Object.entries(snapshotDir(dir)).filter(([p]) => !p.startsWith('repo') && p !== 'capi.config.ts' && !p.startsWith('.capiform/')));
}

describe('shard keys', () => {
  it('hash <target>/<namespace>/<name>, with target "" for the single management cluster', () => {
    expect(shardKey('', 'team-a', 'dev-1')).toBe('/team-a/dev-1');
    expect(shardKey('eu', 'team-a', 'dev-1')).toBe('eu/team-a/dev-1');
    // Stable across runs and machines: the first 64 bits of the key's SHA-256, modulo N.
    expect([1, 2, 3, 4, 7].map((n) => shardIndexOf('/team-a/dev-1', n))).toEqual([1, 2, 3, 2, 7]);
    expect(shardOfPath('clusters/team-a/dev-1/cluster.yaml', 7)).toBe(shardIndexOf('/team-a/dev-1', 7));
    expect(shardOfPath('targets/eu/clusters/team-a/dev-1/cluster.yaml', 7)).toBe(shardIndexOf('eu/team-a/dev-1', 7));
    for (const p of ['providers/cluster-api/core-components.yaml', 'clusters/team-a/namespace.yaml', 'clusterclasses/team-a/quick-start/clusterclass.yaml', 'argocd/clusters.yaml']) {
      expect(shardOfPath(p, 7), p).toBe(1);
    }
    expect(pathInShard({ index: 1, count: 1 }, 'clusters/a/b/cluster.yaml')).toBe(true);
    expect(clusterInShard({ index: shardIndexOf('/a/b', 5), count: 5 }, '', 'a', 'b')).toBe(true);
  });

  it('--shard takes I/N with 1 ≤ I ≤ N', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    for (const bad of ['0/4', '5/4', '1/0', '1', 'a/b', '1/2/3', '-1/2']) {
      expect(thrown(() => parseShard(bad)), bad).toMatchObject({ code: 'E_USAGE', message: expect.stringContaining(`invalid --shard "${bad}"`) });
    }
  });
});

describe('sharded renders', { timeout: 240_000 }, () => {
  it('the shards of 4, rendered one after another, write exactly the full render; each shard only its own paths', async () => {
    const full = project();
    const cache = memoryCache();
    await renderProject({ config: await loadConfig({ cwd: full }), cache });
    const expected = tree(full);
    const owned = readFileSync(join(full, '.capiform/owned.json'), 'utf8');

    const sharded = project();
    const config = await loadConfig({ cwd: sharded });
    await lockProject({ config, cache });
    const counts: number[] = [];
    for (let i = 1; i <= 4; i++) {
      const before = tree(sharded);
      const res = await renderProject({ config, cache, shard: { index: i, count: 4 } });
      const after = tree(sharded);
      const changed = Object.keys(after).filter((p) => after[p] !== before[p] && !after[p]!.startsWith('dir'));
      // Every file a shard wrote is its own, and it wrote all of them.
      for (const p of changed) expect(pathInShard({ index: i, count: 4 }, p), `${p} written by shard ${i}`).toBe(true);
      expect(res.files.every((f) => pathInShard({ index: i, count: 4 }, f.path))).toBe(true);
      counts.push(res.files.filter((f) => f.path.endsWith('/cluster.yaml')).length);
    }
    expect(counts.every((n) => n > 0)).toBe(true);
    expect(counts.reduce((a, b) => a + b)).toBe(48);
    expect(tree(sharded)).toEqual(expected);
    expect(readFileSync(join(sharded, '.capiform/owned.json'), 'utf8')).toBe(owned);
    // The whole tree is up to date, and so is each shard.
    expect((await checkProject({ config, cache, frozen: true })).changes).toEqual({ added: [], changed: [], removed: [] });
    for (let i = 1; i <= 4; i++) expect((await checkProject({ config, cache, frozen: true, shard: { index: i, count: 4 } })).changes).toEqual({ added: [], changed: [], removed: [] });
  });

  it('a shard checks and removes only its own clusters; other shards stay untouched', async () => {
    const dir = project();
    const cache = memoryCache();
    const config = await loadConfig({ cwd: dir });
    await renderProject({ config, cache });
    // Drop two clusters from the config: each is removed by its own shard only.
    const gone = ['c2', 'c3'];
    const smaller = { ...fleet, clusters: fleet.clusters.split(',\n').filter((l) => !gone.some((g) => l.includes(`name: '${g}'`))).join(',\n') };
    writeFixtureConfig(dir, smaller, 'plain');
    const next = await loadConfig({ cwd: dir });
    const shardOf = (name: string, ns: string): number => shardIndexOf(shardKey('', ns, name), 3);
    const owners = new Set([shardOf('c2', 'team-2'), shardOf('c3', 'team-3')]);
    for (let i = 1; i <= 3; i++) {
      const checked = await checkProject({ config: next, cache, shard: { index: i, count: 3 } });
      const removedClusters = checked.changes!.removed.filter((p) => p.endsWith('/cluster.yaml'));
      const mine = ['clusters/team-2/c2/cluster.yaml', 'clusters/team-3/c3/cluster.yaml'].filter((p) => shardOfPath(p, 3) === i);
      expect(removedClusters, `shard ${i}`).toEqual(mine);
    }
    const other = [1, 2, 3].find((i) => !owners.has(i) && i !== 1);
    if (other !== undefined) {
      const before = snapshotDir(dir);
      await renderProject({ config: next, cache, shard: { index: other, count: 3 } });
      const after = snapshotDir(dir);
      expect(Object.keys(after).filter((p) => after[p] !== before[p] && !p.startsWith('.capiform'))).toEqual([]);
    }
  });

  it('the CLI: render --shard and render --check --shard report their own files; a bad --shard is a usage error', async () => {
    const dir = project();
    const env = { PATH: process.env.PATH, HOME: dir, CAPIFORM_CACHE_DIR: join(dir, '.cache') };
    expect((await runCli(['lock'], { cwd: dir, env })).code).toBe(0);
    const two = await runCli(['--json', 'render', '--frozen', '--shard', '2/3'], { cwd: dir, env });
    expect(two.code).toBe(0);
    const written = JSON.parse(two.stdout) as { shard: string; added: string[] };
    expect(written.shard).toBe('2/3');
    expect(written.added.length).toBeGreaterThan(0);
    expect(written.added.every((p) => shardOfPath(p, 3) === 2)).toBe(true);
    const check = await runCli(['render', '--check', '--frozen', '--shard', '2/3'], { cwd: dir, env });
    expect(check).toMatchObject({ code: 0, stdout: 'tree is up to date\n' });
    const other = await runCli(['render', '--check', '--frozen', '--shard', '3/3'], { cwd: dir, env });
    expect(other.code).toBe(1);
    const bad = await runCli(['render', '--shard', '4/3'], { cwd: dir, env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('invalid --shard "4/3"');
  });

  it('a shard other than 1 does not write the lock: it needs one that already pins every file', async () => {
    const dir = fixtureProject({}, 'plain');
    const config = await loadConfig({ cwd: dir });
    const shard = { index: 2, count: 2 };
    const err = await renderProject({ config, cache: memoryCache(), shard }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'E_LOCK_STALE', hint: expect.stringContaining('--shard 1/N') });
  });
});
