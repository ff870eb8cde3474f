/**
 * A fleet at the scale it is meant for: two management clusters with 150 workload clusters each (plain templates
 * and ClusterClass topologies, several namespaces, per-cluster variables), rendered by a CI matrix of 4 shards. The
 * union of the shards is the full render byte for byte, every shard checks clean, and a shard other than 1 never
 * writes a lock that would change. One locked project is copied for each run, so the providers resolve once.
 */
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { fixtureProject, fleetFixtureConfig, fleetProject, testdir } from './helpers/pipeline-fixtures.js';
import { snapshotDir } from './helpers/dir-snapshot.js';
import { loadConfig } from '../src/config/index.js';
import { memoryCache } from '../src/lock/index.js';
import { lockProject, renderProject } from '../src/pipeline/index.js';
import { shardOfPath } from '../src/render/index.js';

const fleetConfig = fleetFixtureConfig;

/** `count` clusters of a management cluster: every third a ClusterClass topology, the rest plain, in 6 namespaces. */
function clusters(target: string, count: number): string {
  return Array.from({ length: count }, (_, i) => {
    const base = `name: '${target}-c${i}', namespace: 'team-${i % 6}', infrastructure: 'docker', kubernetesVersion: 'v1.33.1'`;
    return i % 3 === 0
      ? `{ ${base}, flavor: 'development', workerMachineCount: ${1 + (i % 4)} }`
      : `{ ${base}, variables: { DOCKER_REGION: 'r${i % 7}' } }`;
  }).join(',\n        ');
}

/** The fixture fleet (test/fixtures/fleet) with 150 clusters in each management cluster, Argo CD glue included. */
const scaledConfig = fleetConfig
  .replace(/( {4}'eu-west': \{\n {6}clusters: \[)[^\]]*\]/, `$1\n        ${clusters('eu', 150)},\n      ]`)
  .replace(/(clusters: \[\{ name: 'plain', namespace: 'team-b'[^\]]*\])/, `clusters: [\n        ${clusters('us', 150)},\n      ]`);

/** The rendered tree, lock and owned list, without the fixture's own files and the tree cache. */
function tree(dir: string): Record<string, string> {
  return Object.fromEntries(Object.entries(snapshotDir(dir)).filter(([p]) => !p.startsWith('repo') && p !== 'capi.config.mjs' && !p.startsWith('.capiform/cache')));
}

function copyOf(dir: string): string {
  const to = testdir({});
  cpSync(dir, to, { recursive: true });
  return to;
}

describe('a fleet of 300 clusters in 4 shards', { timeout: 300_000 }, () => {
  it('the union of the shards is the full render, and each shard checks clean', async () => {
    expect(scaledConfig.match(/infrastructure: 'docker', kubernetesVersion/g)).toHaveLength(300);
    const locked = fleetProject(scaledConfig);
    const cache = memoryCache();
    await lockProject({ config: await loadConfig({ cwd: locked }), cache });

    const full = copyOf(locked);
    await renderProject({ config: await loadConfig({ cwd: full }), cache });
    const expected = tree(full);
    expect(Object.keys(expected).filter((p) => p.endsWith('/cluster.yaml'))).toHaveLength(300);

    const sharded = copyOf(locked);
    const config = await loadConfig({ cwd: sharded });
    const owners = new Map<number, number>();
    for (let i = 1; i <= 4; i++) {
      const res = await renderProject({ config, cache, shard: { index: i, count: 4 }, frozen: true });
      expect(res.lockWritten).toBe(false);
      expect(res.files.every((f) => shardOfPath(f.path, 4) === i)).toBe(true);
      owners.set(i, res.files.filter((f) => f.path.endsWith('/cluster.yaml')).length);
    }
    // Every shard gets a fair part of the 300 clusters.
    expect([...owners.values()].reduce((a, b) => a + b)).toBe(300);
    for (const n of owners.values()) expect(n).toBeGreaterThan(40);
    expect(tree(sharded)).toEqual(expected);

    for (let i = 1; i <= 4; i++) {
      const check = await runCli(['render', '--check', '--frozen', '--shard', `${i}/4`], { cwd: sharded });
      expect(check, `shard ${i}/4`).toEqual({ code: 0, stdout: 'tree is up to date\n', stderr: '' });
    }
  });
});

describe('a shard other than 1 and a lock that would change', { timeout: 120_000 }, () => {
  /** The core provider's constraint widened: the lock keeps v1.12.4 but records the new constraint and digest. */
  const widen = (text: string): string => text.replace("core: { name: 'cluster-api', version: '~1.12.0'", "core: { name: 'cluster-api', version: '^1.12.0'");

  it('fails with E_LOCK_STALE (exit 2), saying what to run, and writes nothing', async () => {
    const dir = fleetProject();
    expect((await runCli(['render'], { cwd: dir })).code).toBe(0);
    testdir({ 'capi.config.mjs': widen(fleetConfig) }, dir);
    const before = snapshotDir(dir);
    for (const args of [['render', '--shard', '2/3'], ['render', '--shard', '3/3', '--target', 'us-east'], ['render', '--check', '--shard', '2/3']]) {
      const r = await runCli(args, { cwd: dir });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain('capi.lock.yaml is out of date: a shard other than 1 renders from the lock as it is');
      expect(r.stderr).toContain('run `capiform lock` (or `capiform render --shard 1/N`) and commit capi.lock.yaml before rendering the other shards');
      expect(snapshotDir(dir), args.join(' ')).toEqual(before);
    }
    // Shard 1 owns the lock: it writes it, and then the other shards render.
    expect((await runCli(['render', '--shard', '1/3'], { cwd: dir })).code).toBe(0);
    expect((await runCli(['render', '--shard', '2/3'], { cwd: dir })).code).toBe(0);
  });

  it('the same in the single management cluster form', async () => {
    const dir = fixtureProject({ core: '~1.12.0' }, 'plain');
    expect((await runCli(['render'], { cwd: dir })).code).toBe(0);
    const config = readFileSync(join(dir, 'capi.config.ts'), 'utf8');
    testdir({ 'capi.config.ts': config.replace("version: '~1.12.0'", "version: '^1.12.0'") }, dir);
    const before = snapshotDir(dir);
    const r = await runCli(['render', '--shard', '2/2'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('capi.lock.yaml is out of date: a shard other than 1 renders from the lock as it is');
    expect(snapshotDir(dir)).toEqual(before);
  });
});
