/**
 * Remote repositories through the CLI (`capiform lock` / `capiform render`), against real HTTP servers on 127.0.0.1:
 * offline runs never reach the server, progress goes where each output mode wants it, and explicit `type:` entries
 * reach GitLab and HTTPS mirrors on any host.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixtureConfig, fixtureRepository } from '../helpers/pipeline-fixtures.js';
import { runCli } from '../helpers/cli.js';
import { testdir } from '../helpers/testdir.js';
import { FakeRemotes } from './fake-remotes.js';
import { tempDir } from './setup.js';

/** The fixture releases of a provider folder (`repo/cluster-api/v1.13.1/*`), as GitHub release assets. */
function releaseAssets(root: string, label: string, version: string): Record<string, Uint8Array> {
  const dir = join(root, 'repo', label, version);
  return Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f))]));
}

const githubCore = `{ name: 'cluster-api', version: '~1.13.0', url: 'https://github.com/acme/cluster-api/releases/latest/core-components.yaml' }`;

/** A project whose core provider comes from the fake GitHub; everything else from the local fixture repository. */
function project(fake: FakeRemotes, core = githubCore): string {
  const root = testdir();
  fixtureRepository(root);
  for (const v of ['v1.12.4', 'v1.13.1']) fake.addRelease('acme/cluster-api', { tag: v, assets: releaseAssets(root, 'cluster-api', v) });
  const config = fixtureConfig({ clusters: '' }).replace(/core: \{[^}]*\}/, `core: ${core}`);
  writeFileSync(join(root, 'capi.config.ts'), config);
  return root;
}

let fake: FakeRemotes;
beforeEach(async () => {
  fake = await new FakeRemotes().start();
});
afterEach(async () => {
  await fake.stop();
});

function env(cacheDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, CAPIFORM_CACHE_DIR: cacheDir, GITHUB_API_URL: fake.apiUrl, GOPROXY: 'off', ...extra };
}

describe('--offline', () => {
  it('lock --offline with an empty cache: exit 3 naming the missing listing and how to fetch it; no request', async () => {
    const dir = project(fake);
    const r = await runCli(['lock', '--offline'], { cwd: dir, env: env(tempDir()) });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('Error: offline: release list of acme/cluster-api is not in the cache');
    expect(r.stderr).toContain('without --offline');
    expect(r.stderr).toContain('capiform lock');
    expect(r.stderr).toContain('--bundle');
    expect(fake.count()).toBe(0);
  });
});

/** Core, kubeadm bootstrap and control plane from one GitHub repository; two infrastructure providers from two more. */
function allGitHubProject(fake: FakeRemotes): string {
  const root = testdir();
  fixtureRepository(root);
  for (const v of ['v1.12.4', 'v1.13.1']) {
    fake.addRelease('acme/cluster-api', {
      tag: v,
      assets: { ...releaseAssets(root, 'bootstrap-kubeadm', v), ...releaseAssets(root, 'control-plane-kubeadm', v), ...releaseAssets(root, 'cluster-api', v) },
    });
    fake.addRelease('acme/docker', { tag: v, assets: releaseAssets(root, 'infrastructure-docker', v) });
    fake.addRelease('acme/other', { tag: v, assets: releaseAssets(root, 'infrastructure-docker', v) });
  }
  const gh = (repo: string, file: string): string => `https://github.com/acme/${repo}/releases/latest/${file}`;
  writeFileSync(
    join(root, 'capi.config.ts'),
    `import { defineConfig } from 'capiform';
export default defineConfig({
  providers: {
    core: { name: 'cluster-api', version: '~1.13.0', url: '${gh('cluster-api', 'core-components.yaml')}' },
    bootstrap: [{ name: 'kubeadm', version: 'latest', url: '${gh('cluster-api', 'bootstrap-components.yaml')}' }],
    controlPlane: [{ name: 'kubeadm', version: 'latest', url: '${gh('cluster-api', 'control-plane-components.yaml')}' }],
    infrastructure: [
      { name: 'docker', version: '^1.12', url: '${gh('docker', 'infrastructure-components.yaml')}' },
      { name: 'other', version: '^1.12', url: '${gh('other', 'infrastructure-components.yaml')}' },
    ],
  },
  certManager: { version: 'v1.19.1', url: './repo' },
  clusters: [{ name: 'dev-1', namespace: 'team-a', infrastructure: 'docker', flavor: 'development', kubernetesVersion: 'v1.33.1' }],
});
`,
  );
  return root;
}

describe('remote providers through lock and render', () => {
  it('cold lock ≤ 10 GitHub API requests; then warm --offline and render --frozen make none at all', async () => {
    const dir = allGitHubProject(fake);
    const cache = tempDir();
    const cold = await runCli(['lock'], { cwd: dir, env: env(cache) });
    expect(cold.stderr).toBe('');
    expect(cold.code).toBe(0);
    expect(cold.stdout).toContain('cluster-api v1.13.1 (v1beta2)');
    expect(cold.stdout).toContain('infrastructure-other v1.13.1 (v1beta2)');
    const api = fake.count('api');
    console.info(`cli budget: cold \`capiform lock\` of 5 GitHub providers: ${api} API requests, ${fake.count()} requests in all`);
    expect(api).toBeLessThanOrEqual(10);
    const lock = readFileSync(join(dir, 'capi.lock.yaml'), 'utf8');
    expect(lock).toContain('https://github.com/acme/docker/releases/download/v1.13.1/infrastructure-components.yaml');

    fake.reset();
    const offline = await runCli(['lock', '--offline'], { cwd: dir, env: env(cache) });
    expect(offline.code).toBe(0);
    expect(offline.stdout).toContain('capi.lock.yaml is up to date');
    expect(fake.count()).toBe(0);

    const rendered = await runCli(['render', '--offline'], { cwd: dir, env: env(cache) });
    expect(rendered.stderr).toBe('');
    expect(rendered.code).toBe(0);
    expect(readFileSync(join(dir, 'providers/infrastructure-other/components.yaml'), 'utf8')).toContain('capd-controller-manager');
    expect(fake.count()).toBe(0);

    // Online but frozen: every locked byte is in the cache, so not a socket is opened either.
    const frozen = await runCli(['render', '--frozen', '--check'], { cwd: dir, env: env(cache) });
    expect(frozen.code).toBe(0);
    expect(fake.count()).toBe(0);
  });

  it('a warm lock with the cache lost: --offline names the missing file and how to fetch it', async () => {
    const dir = project(fake);
    const first = await runCli(['lock'], { cwd: dir, env: env(tempDir()) });
    expect(first.code).toBe(0);
    fake.reset();
    const r = await runCli(['render', '--offline'], { cwd: dir, env: env(tempDir()) });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/Error: offline: .*acme\/cluster-api.* is not in the cache/);
    expect(r.stderr).toContain('without --offline');
    expect(fake.count()).toBe(0);
  });
});
