import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { fixtureConfig, fixtureProject, fixtureRepository, testdir } from './helpers/pipeline-fixtures.js';
import { loadConfig } from '../src/config/index.js';
import { runPipeline } from '../src/pipeline/index.js';
import { memoryCache } from '../src/lock/index.js';
import { sha256Hex } from '../src/cache/index.js';

const lockOf = (dir: string): string => readFileSync(join(dir, 'capi.lock.yaml'), 'utf8');

describe('capiform lock', { timeout: 240_000 }, () => {
  it('writes a byte-stable lock: versions, contract, sources and every file with sha256 and size, no absolute paths', async () => {
    const dir = fixtureProject();
    const r = await runCli(['lock'], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        'cluster-api v1.13.1 (v1beta2)',
        'bootstrap-kubeadm v1.13.1 (v1beta2)',
        'control-plane-kubeadm v1.13.1 (v1beta2)',
        'infrastructure-docker v1.13.1 (v1beta2)',
        'cert-manager v1.19.1',
        'wrote capi.lock.yaml',
        '',
      ].join('\n'),
    );
    const lock = lockOf(dir);
    expect(lock.split('\n')[1]).toBe('lockfileVersion: 1');
    expect(lock).not.toContain(dir);
    expect(lock).toContain('path: repo/infrastructure-docker/v1.13.1/clusterclass-quick-start.yaml');
    expect(lock).toContain('name: cluster-template-development.yaml');
    expect(lock).toContain(`sha256: ${sha256Hex(readFileSync(join(dir, 'repo/cluster-api/v1.13.1/core-components.yaml')))}`);
    // Same inputs, same bytes; a second run reports no change.
    const again = await runCli(['lock'], { cwd: dir });
    expect(again.stdout).toContain('capi.lock.yaml is up to date');
    expect(lockOf(dir)).toBe(lock);
    // Same bytes from another copy of the project.
    const other = fixtureProject();
    await runCli(['lock'], { cwd: other });
    expect(lockOf(other)).toBe(lock);
  });

  it('fails on an unknown provider (a config error, exit 2), naming it and what is known', async () => {
    const dir = fixtureProject({ infra: `{ name: 'docker', version: '^1.12', url: './repo' }, { name: 'nonesuch', version: 'latest' }` });
    const r = await runCli(['lock'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Error: unknown provider "nonesuch" of type InfrastructureProvider');
    expect(r.stderr).toContain('at: providers.infrastructure[1]');
    expect(r.stderr).toContain('fix: clusterctl knows aws, azure, byoh,');
  });

  it('fails on an unsatisfiable range, listing the versions available', async () => {
    const dir = fixtureProject({ core: '~2.0.0' });
    const r = await runCli(['lock'], { cwd: dir });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('cluster-api (providers.core.version): no version satisfies "~2.0.0"; available: v1.13.1, v1.12.4');
  });

  it('fails on a contract conflict, naming the provider, the versions tried and their contracts', async () => {
    const dir = fixtureProject({ infra: `{ name: 'docker', version: '^1.12', url: './repo' }, { name: 'old', version: 'latest', url: './repo' }` });
    const r = await runCli(['lock'], { cwd: dir });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('cannot resolve the providers for contract v1beta2:');
    expect(r.stderr).toContain(
      'infrastructure-old (providers.infrastructure[1]): no version satisfying "latest" implements the management contract v1beta2 (compatible: v1beta2, v1beta1); tried v1.10.0 (v1alpha4)',
    );
  });

  it('pins the contract: the core provider must implement it', async () => {
    const dir = fixtureProject({ core: 'latest', extra: `contract: 'v1beta1',` });
    const r = await runCli(['lock'], { cwd: dir });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(
      'cluster-api (providers.core): no version satisfying "latest" implements the pinned contract v1beta1; tried v1.13.1 (v1beta2), v1.12.4 (v1beta2)',
    );
    const ok = fixtureProject({ core: 'latest', extra: `contract: 'v1beta2',` });
    expect((await runCli(['lock'], { cwd: ok })).stdout).toContain('cluster-api v1.13.1 (v1beta2)');
  });

  it('keeps locked versions until `lock --upgrade`, for all or the named providers', async () => {
    const dir = fixtureProject({ core: 'latest' });
    const v13 = join(dir, 'repo-v13');
    // Hide the v1.13.1 releases, lock, bring them back.
    for (const l of ['cluster-api', 'bootstrap-kubeadm', 'control-plane-kubeadm', 'infrastructure-docker']) {
      cpSync(join(dir, 'repo', l, 'v1.13.1'), join(v13, l), { recursive: true });
      rmSync(join(dir, 'repo', l, 'v1.13.1'), { recursive: true });
    }
    expect((await runCli(['lock'], { cwd: dir })).stdout).toContain('cluster-api v1.12.4');
    for (const l of ['cluster-api', 'bootstrap-kubeadm', 'control-plane-kubeadm', 'infrastructure-docker']) {
      cpSync(join(v13, l), join(dir, 'repo', l, 'v1.13.1'), { recursive: true });
    }
    expect((await runCli(['lock'], { cwd: dir })).stdout).toContain('cluster-api v1.12.4');
    const some = await runCli(['lock', '--upgrade', 'cluster-api', 'docker'], { cwd: dir });
    expect(some.stdout).toContain('cluster-api v1.13.1');
    expect(some.stdout).toContain('infrastructure-docker v1.13.1');
    expect(some.stdout).toContain('bootstrap-kubeadm v1.12.4');
    expect(some.stderr).toContain('cluster-api: v1.12.4 → v1.13.1');
    const all = await runCli(['lock', '--upgrade'], { cwd: dir });
    expect(all.stdout).toContain('bootstrap-kubeadm v1.13.1');
    const bad = await runCli(['lock', '--upgrade', 'nope'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Error: --upgrade nope: no such provider in the config');
  });

  it('explains a stale lock in --frozen runs, naming the entry and the fixing command', async () => {
    const dir = fixtureProject();
    await runCli(['lock'], { cwd: dir });
    writeFileSync(
      join(dir, 'capi.config.ts'),
      fixtureConfig({
        core: '~1.12.0',
        infra: `{ name: 'docker', version: '^1.12', url: './repo2' }, { name: 'other', version: 'latest', url: './repo' }`,
      }),
    );
    const r = await runCli(['render', '--frozen'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Error: capi.lock.yaml is out of date: the config no longer matches it:');
    expect(r.stderr).toContain('range changed: cluster-api: "~1.13.0" → "~1.12.0"');
    expect(r.stderr).toContain('source moved: infrastructure-docker: repo → repo2');
    expect(r.stderr).toContain('provider added: infrastructure-other (providers.infrastructure[1]) is not in the lock');
    expect(r.stderr).toContain('at: capi.lock.yaml providers.cluster-api, providers.infrastructure-docker, providers.infrastructure-other');
    expect(r.stderr).toContain('fix: run `capiform lock`');
    expect(lockOf(dir)).toContain('constraint: ~1.13.0');
  });

  it('names each stale lock entry once, even when it drifted in two ways (cert-manager version and source)', async () => {
    const dir = fixtureProject();
    await runCli(['lock'], { cwd: dir });
    writeFileSync(join(dir, 'capi.config.ts'), fixtureConfig().replace("certManager: { version: 'v1.19.1', url: './repo' }", "certManager: { version: 'v1.18.2', url: './repo/cert-manager/v1.18.2/cert-manager.yaml' }"));
    const r = await runCli(['render', '--frozen'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('version changed: cert-manager v1.19.1 → v1.18.2');
    expect(r.stderr).toContain('source moved: cert-manager: ');
    expect(r.stderr).toMatch(/\n {2}at: capi\.lock\.yaml certManager\n/);
  });

  it('a cert-manager version the local repository does not have lists the versions it has (exit 3)', async () => {
    const dir = testdir({
      'capi.config.json': JSON.stringify({
        providers: { core: { name: 'cluster-api', version: 'latest', url: './repo' } },
        certManager: { version: 'v1.17.0', url: './repo' },
      }),
    });
    fixtureRepository(dir);
    const r = await runCli(['lock'], { cwd: dir });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('Error: failed to read "cert-manager.yaml" for cert-manager v1.17.0');
    expect(r.stderr).toContain('  fix: set certManager.version to one the repository has: v1.18.2, v1.19.1');
  });

  it('--frozen without a lock fails', async () => {
    const dir = fixtureProject();
    const r = await runCli(['render', '--frozen'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Error: capi.lock.yaml is out of date: there is no capi.lock.yaml');
  });

  it('explains a lock edited by hand: broken, too new, or a digest that no longer matches (exit 3)', async () => {
    const dir = fixtureProject();
    await runCli(['lock'], { cwd: dir });
    const good = lockOf(dir);
    writeFileSync(join(dir, 'capi.lock.yaml'), good.replace('lockfileVersion: 1', 'lockfileVersion: 7'));
    let r = await runCli(['render'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Error: capi.lock.yaml has lockfileVersion 7, written by a newer capiform; this one reads version 1');

    writeFileSync(join(dir, 'capi.lock.yaml'), good.replace(/size: \d+/, 'size: big').replace('contract: v1beta2\n', 'contract: [\n'));
    r = await runCli(['render'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Error: capi.lock.yaml is (not valid YAML|broken)/);

    writeFileSync(join(dir, 'capi.lock.yaml'), good.replace(/size: \d+/, 'size: big'));
    r = await runCli(['render'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Error: capi.lock.yaml is broken (edited by hand?):\n  providers[0].files[0].size: expected number, received string');
    expect(r.stderr).toContain('fix: delete capi.lock.yaml and run `capiform lock`');

    const sha = sha256Hex(readFileSync(join(dir, 'repo/cluster-api/v1.13.1/core-components.yaml')));
    const forged = 'a'.repeat(64);
    writeFileSync(join(dir, 'capi.lock.yaml'), good.replace(sha, forged));
    r = await runCli(['render'], { cwd: dir });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`Error: core-components.yaml of cluster-api v1.13.1 does not match capi.lock.yaml: expected sha256 ${forged}, got ${sha}`);
  });

  it('fails with an integrity error (exit 3) when a repository file changes under the lock', async () => {
    const dir = fixtureProject();
    await runCli(['lock'], { cwd: dir });
    const file = join(dir, 'repo/infrastructure-docker/v1.13.1/clusterclass-quick-start.yaml');
    const before = sha256Hex(readFileSync(file));
    writeFileSync(file, `${readFileSync(file, 'utf8')}# tampered\n`);
    const after = sha256Hex(readFileSync(file));
    const r = await runCli(['render', '--frozen'], { cwd: dir, env: { PATH: process.env.PATH, CAPIFORM_CACHE_DIR: join(dir, '.fresh-cache') } });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`clusterclass-quick-start.yaml of infrastructure-docker v1.13.1 does not match capi.lock.yaml: expected sha256 ${before}, got ${after}`);
    expect(r.stderr).toContain(`at: ${file}`);
  });

  it('fails with an integrity error when a cached artifact was tampered with', async () => {
    const dir = fixtureProject();
    await runCli(['lock'], { cwd: dir });
    const config = await loadConfig({ cwd: dir });
    const file = join(dir, 'repo/cluster-api/v1.13.1/core-components.yaml');
    const sha = sha256Hex(readFileSync(file));
    const cache = memoryCache();
    const evil = new TextEncoder().encode('kind: Evil\n');
    cache.get = async (s) => (s === sha ? evil : null);
    await expect(runPipeline({ config, mode: 'check', frozen: true, cache })).rejects.toMatchObject({
      exitCode: 3,
      message: `core-components.yaml of cluster-api v1.13.1 does not match capi.lock.yaml: expected sha256 ${sha}, got ${sha256Hex(evil)} (read from the cache)`,
    });
  });

  it('a lock without absolute paths still works from another checkout location', async () => {
    const dir = fixtureProject();
    await runCli(['render'], { cwd: dir });
    const copy = testdir({});
    cpSync(dir, copy, { recursive: true });
    const r = await runCli(['render', '--check', '--frozen'], { cwd: copy });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});
