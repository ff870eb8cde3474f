/**
 * CAPD's real releases name their components `infrastructure-components-development.yaml`. With the provider's url
 * pointing at a repository root, the air-gapped side has no repository to look into: the name must come from the
 * lock and the bundle, for every command that reads a bundle.
 */
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { git } from './helpers/diff-fixtures.js';
import { runCli } from './helpers/cli.js';
import { sharedDir } from './helpers/shared.js';
import { tempDir, testdir } from './helpers/testdir.js';

const shared = sharedDir('corpus');
const corpus = join(shared.path, 'repository');

const config = `export default {
  providers: {
    core: [{ name: 'cluster-api', version: '~1.12.0', url: './repository' }],
    infrastructure: [{ name: 'docker', version: '~1.12.0', url: './repository' }],
  },
  certManager: { version: 'v1.19.4', url: './repository' },
  // The development flavor is a topology Cluster: CAPI's and CAPD's webhooks need ClusterTopology on.
  variables: { CLUSTER_TOPOLOGY: 'true' },
  clusters: [{ name: 'dev-1', namespace: 'team-a', infrastructure: 'docker', flavor: 'development', kubernetesVersion: 'v1.33.1' }],
};
`;

/** A project over a copy of the corpus releases it needs: the repository goes away after bundling. */
function corpusProject(): string {
  const dir = testdir({ 'capi.config.ts': config, '.gitignore': 'dist/\n' });
  for (const rel of ['cluster-api/v1.12.11', 'infrastructure-docker/v1.12.11', 'cert-manager/v1.19.4']) {
    cpSync(join(corpus, rel), join(dir, 'repository', rel), { recursive: true });
  }
  return dir;
}

function freshCache(): NodeJS.ProcessEnv {
  const cache = tempDir('capiform-cache-');
  return { PATH: process.env.PATH, HOME: process.env.HOME, CAPIFORM_CACHE_DIR: cache, GOPROXY: 'off' };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe.skipIf(!shared.present)(`the corpus CAPD (infrastructure-components-development.yaml) from a bundle${shared.skipped}`, () => {
  it('lock records the real file name; render, lock, plan upgrade and diff read it from the bundle alone', async () => {
    const dir = corpusProject();
    const env = freshCache();
    const lock = await runCli(['lock'], { cwd: dir, env });
    // The components file is the one clusterctl's catalog names for CAPD: the contract lint has nothing to say.
    expect(lock.stderr).toBe('');
    const lockText = readFileSync(join(dir, 'capi.lock.yaml'), 'utf8');
    expect(lockText).toContain('- name: infrastructure-components-development.yaml');
    expect(lockText).not.toContain('- name: infrastructure-components.yaml');
    expect((await runCli(['render'], { cwd: dir, env })).code).toBe(0);
    const connected = readFileSync(join(dir, 'providers', 'infrastructure-docker', 'components.yaml'), 'utf8');
    const b = await runCli(['bundle', '--out', 'dist/site.tar.gz'], { cwd: dir, env });
    expect(b.stderr).toBe('');
    const bundle = join(dir, 'dist', 'site.tar.gz');

    // The air-gapped site: config and lock committed in git, the bundle, an empty cache, no repository, no network.
    rmSync(join(dir, 'repository'), { recursive: true });
    const site = testdir({ 'capi.config.ts': config, 'capi.lock.yaml': lockText });
    git(site, 'init', '-q', '-b', 'main');
    git(site, 'add', '-A');
    git(site, 'commit', '-q', '-m', 'config and lock');
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockRejectedValue(new Error('network disabled in this test'));

    const render = await runCli(['render', '--frozen', '--bundle', bundle], { cwd: site, env: freshCache() });
    expect(render.stderr).toBe('');
    expect(render.code).toBe(0);
    expect(readFileSync(join(site, 'providers', 'infrastructure-docker', 'components.yaml'), 'utf8')).toBe(connected);

    const relock = await runCli(['lock', '--bundle', bundle], { cwd: site, env: freshCache() });
    // The bundle's bytes are the release's: the same contract findings as online.
    expect(relock.stderr).toBe(lock.stderr);
    expect(relock.stdout).toContain('capi.lock.yaml is up to date');
    expect(readFileSync(join(site, 'capi.lock.yaml'), 'utf8')).toBe(lockText);

    const plan = await runCli(['plan', 'upgrade', '--bundle', bundle], { cwd: site, env: freshCache() });
    expect(plan.stderr).toBe('');
    expect(plan.stdout).toMatch(/infrastructure-docker\s+capd-system\s+InfrastructureProvider\s+v1\.12\.11\s+Already up to date/);

    const diff = await runCli(['diff', '--bundle', bundle], { cwd: site, env: freshCache() });
    expect(diff.stderr).toBe('');
    expect(diff.code).toBe(0);
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});
