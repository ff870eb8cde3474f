/**
 * Remote repositories through the CLI (`capiform lock` / `capiform render`), against real HTTP servers on 127.0.0.1:
 * offline runs never reach the server, progress goes where each output mode wants it, and explicit `type:` entries
 * reach GitLab and HTTPS mirrors on any host.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/resolve/index.js';
import { proxyFetch, proxySettings, withoutExperimentalWarning } from '../../src/resolve/http/proxy.js';
import { fixtureConfig, fixtureRepository } from '../helpers/pipeline-fixtures.js';
import { runCli } from '../helpers/cli.js';
import { compiledCli } from '../helpers/compiled-cli.js';
import { testdir } from '../helpers/testdir.js';
import { FakeRemotes } from './fake-remotes.js';
import { ForwardProxy } from './forward-proxy.js';
import { closeServer, listenOnLoopback } from './loopback-server.js';
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

describe('--offline', { timeout: 240_000 }, () => {
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

describe('diff --render --offline', { timeout: 240_000 }, () => {
  it('renders both sides from the cache with no request; a cold cache fails naming what is missing (exit 3)', async () => {
    const dir = project(fake);
    const cache = tempDir();
    expect((await runCli(['render'], { cwd: dir, env: env(cache) })).code).toBe(0);
    const git = (...args: string[]): void => {
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir, stdio: 'pipe' });
    };
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'rendered');
    fake.reset();
    const warm = await runCli(['diff', '--render', '--offline'], { cwd: dir, env: env(cache) });
    expect(warm.stderr).toBe('');
    expect(warm.code).toBe(0);
    expect(warm.stdout).toContain('no changes');
    expect(fake.count()).toBe(0);

    const cold = await runCli(['diff', '--render', '--offline'], { cwd: dir, env: env(tempDir()) });
    expect(cold.code).toBe(3);
    expect(cold.stderr).toContain('HEAD (rendered): offline: ');
    expect(cold.stderr).toContain('is not in the cache');
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

describe('remote providers through lock and render', { timeout: 240_000 }, () => {
  it('cold lock ≤ 10 GitHub API requests; then warm lock (online or --offline), render --offline and render --frozen make none at all', async () => {
    const dir = allGitHubProject(fake);
    const cache = tempDir();
    const cold = await runCli(['lock'], { cwd: dir, env: env(cache) });
    // docker's release stands in for `other`: the lock-time contract lint, remote releases included, finds docker's
    // labels on it (SHOULD rules: reported, locked anyway).
    expect(cold.stderr.split('\n').filter((l) => l !== '')).toEqual([
      'provider contract: infrastructure-other v1.13.1: 5 warnings (components.provider-label ×4, components.variables-prefixed ×1); locked anyway (contractLint: "strict" refuses MUST violations, "off" skips the lint); `capiform validate --contract` lists each finding',
    ]);
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

    // Online, not frozen: the lock still fits the config and the cache has every pinned file, so again no request.
    const warm = await runCli(['lock'], { cwd: dir, env: env(cache) });
    expect(warm.stdout).toContain('capi.lock.yaml is up to date');
    expect(fake.count()).toBe(0);
  });

  it('a warm lock with the cache lost: --offline names the missing file and how to fetch it', async () => {
    const dir = project(fake);
    const first = await runCli(['lock'], { cwd: dir, env: env(tempDir()) });
    expect(first.code).toBe(0);
    fake.reset();
    const r = await runCli(['render', '--offline'], { cwd: dir, env: env(tempDir()) });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/Error: offline: release v1\.13\.1 of acme\/cluster-api is not in the cache \(.*\), needed for (metadata|core-components)\.yaml of cluster-api v1\.13\.1 \(pinned by capi\.lock\.yaml\)/);
    expect(r.stderr).toContain('without --offline');
    expect(fake.count()).toBe(0);
  });
});

describe('download progress', { timeout: 240_000 }, () => {
  it('on a terminal: one updating line per download on stderr', async () => {
    const dir = project(fake);
    const r = await runCli(['lock'], { cwd: dir, env: env(tempDir()), isTTY: true });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('\r\x1b[K✓ release list of acme/cluster-api');
    expect(r.stderr).toMatch(/\r\x1b\[K✓ core-components\.yaml \(acme\/cluster-api v1\.13\.1\) {2}\d+(\.\d)? k?B/);
    expect(r.stdout).not.toContain('\x1b');
  });

  it('images (rendering from the config): progress on stderr, the image list alone on stdout', async () => {
    const dir = project(fake);
    const r = await runCli(['images'], { cwd: dir, env: env(tempDir()), isTTY: true });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('\r\x1b[K✓ core-components.yaml (acme/cluster-api v1.13.1)');
    expect(r.stdout.split('\n').filter(Boolean).every((l) => /^[\w./:-]+$/.test(l))).toBe(true);
    expect(r.stdout).toContain('registry.k8s.io/cluster-api/capi-controller:v0.0.0');
  });

  it('silent with --quiet, in CI, and when stderr is not a terminal', async () => {
    const dir = project(fake);
    for (const [args, extra, isTTY] of [
      [['-q', 'lock'], {}, true],
      [['lock'], { CI: 'true' }, true],
      [['lock'], {}, false],
    ] as const) {
      const r = await runCli([...args], { cwd: dir, env: env(tempDir(), extra), isTTY });
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.stderr, `${args.join(' ')} ${JSON.stringify(extra)} tty=${isTTY}`).toBe('');
    }
  });

  it('--json: one JSON event per download on stderr; stdout stays one JSON document', async () => {
    const dir = project(fake);
    const r = await runCli(['--json', 'lock'], { cwd: dir, env: env(tempDir()), isTTY: true });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ changed: true, contract: 'v1beta2' });
    const events = r.stderr.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(events.map((e) => e.what)).toEqual([
      'release list of acme/cluster-api',
      'metadata.yaml (acme/cluster-api v1.13.1)',
      'core-components.yaml (acme/cluster-api v1.13.1)',
    ]);
    expect(events[2]).toMatchObject({ event: 'download', bytes: expect.any(Number), cached: false });
    // The URL that answered (GitHub's signed redirect target), with its signature masked.
    expect(events[2]!.url).toBe(`${fake.origin}/objects/acme/cluster-api/v1.13.1/core-components.yaml?sig=***`);
  });
});

/**
 * A GitLab generic-package API on a host that does not start with `gitlab.` (any self-hosted instance), over plain
 * http on 127.0.0.1, so anonymous: capiform sends no token over plain http. Records the Authorization headers it sees.
 */
async function gitlabServer(files: Record<string, Uint8Array>): Promise<{ url: string; paths: string[]; authorization: (string | undefined)[]; stop: () => Promise<void> }> {
  const paths: string[] = [];
  const authorization: (string | undefined)[] = [];
  const server = createServer((req, res) => {
    paths.push(req.url ?? '');
    authorization.push(req.headers.authorization);
    const body = files[req.url ?? ''];
    if (!body) res.writeHead(404).end('{"message":"404 Not Found"}');
    else res.writeHead(200, { 'content-length': String(body.length) }).end(body);
  });
  const port = await listenOnLoopback(server);
  return { url: `http://127.0.0.1:${port}`, paths, authorization, stop: () => closeServer(server) };
}

describe('explicit repository types', { timeout: 240_000 }, () => {
  it('type: gitlab on any host (loopback http: GITLAB_ACCESS_TOKEN not sent), type: github for a GitHub Enterprise host, type: https for a plain mirror', async () => {
    const root = testdir();
    fixtureRepository(root);
    const prefix = '/api/v4/projects/platform%2Fcapi/packages/generic';
    const gitlabFiles: Record<string, Uint8Array> = {};
    for (const [f, bytes] of Object.entries(releaseAssets(root, 'bootstrap-kubeadm', 'v1.13.1'))) gitlabFiles[`${prefix}/kubeadm-bootstrap/v1.13.1/${f}`] = bytes;
    const gitlab = await gitlabServer(gitlabFiles);
    try {
      fake.addRelease('platform/cluster-api', { tag: 'v1.13.1', assets: releaseAssets(root, 'cluster-api', 'v1.13.1') });
      for (const [f, bytes] of Object.entries(releaseAssets(root, 'infrastructure-docker', 'v1.13.1'))) fake.files.set(`/mirror/docker/v1.13.1/${f}`, bytes);
      const config = fixtureConfig({
        clusters: '',
        infra: `{ name: 'docker', version: 'v1.13.1', type: 'https', url: '${fake.origin}/files/mirror/docker/v1.13.1/infrastructure-components.yaml' }`,
      })
        .replace(/core: \{[^}]*\}/, `core: { name: 'cluster-api', version: '~1.13.0', type: 'github', url: 'https://ghe.example.internal/platform/cluster-api/releases/latest/core-components.yaml' }`)
        .replace(/bootstrap: \[[^\]]*\]/, `bootstrap: [{ name: 'kubeadm', version: 'v1.13.1', type: 'gitlab', url: '${gitlab.url}${prefix}/kubeadm-bootstrap/v1.13.1/bootstrap-components.yaml' }]`);
      writeFileSync(join(root, 'capi.config.ts'), config);
      const r = await runCli(['lock'], { cwd: root, env: env(tempDir(), { GITLAB_ACCESS_TOKEN: 'glpat-secret-1234' }) });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('cluster-api v1.13.1 (v1beta2)');
      expect(r.stdout).toContain('bootstrap-kubeadm v1.13.1 (v1beta2)');
      expect(r.stdout).toContain('infrastructure-docker v1.13.1 (v1beta2)');
      expect(gitlab.paths).toEqual([`${prefix}/kubeadm-bootstrap/v1.13.1/metadata.yaml`, `${prefix}/kubeadm-bootstrap/v1.13.1/bootstrap-components.yaml`]);
      expect(gitlab.authorization).toEqual([undefined, undefined]);
      expect(fake.requests.filter((q) => q.area === 'api').map((q) => q.path)).toEqual(['/api/repos/platform/cluster-api/releases?per_page=100']);
      expect(fake.requests.filter((q) => q.area === 'files').map((q) => q.path)).toEqual([
        '/files/mirror/docker/v1.13.1/metadata.yaml',
        '/files/mirror/docker/v1.13.1/infrastructure-components.yaml',
      ]);
      const lock = readFileSync(join(root, 'capi.lock.yaml'), 'utf8');
      expect(lock).toContain('https://ghe.example.internal/platform/cluster-api/releases/download/v1.13.1/core-components.yaml');
      expect(lock).not.toContain('glpat-secret-1234');
    } finally {
      await gitlab.stop();
    }
  });

  it('GITHUB_API_URL over plain http:// to a non-loopback host: exit 2 naming the variable and its value; lock untouched, no request', async () => {
    const dir = project(fake);
    const cache = tempDir();
    expect((await runCli(['lock'], { cwd: dir, env: env(cache) })).code).toBe(0);
    const before = readFileSync(join(dir, 'capi.lock.yaml'), 'utf8');
    fake.reset();
    const r = await runCli(['lock', '--upgrade'], { cwd: dir, env: env(tempDir(), { GITHUB_API_URL: 'http://ghe.example.com/api/v3', GITHUB_TOKEN: 'ghp_canary0123456789' }) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Error: GITHUB_API_URL=http://ghe.example.com/api/v3 is not an https:// URL');
    expect(r.stderr).toContain('fix: use https://ghe.example.com/api/v3; plain http:// is accepted only for loopback hosts');
    expect(r.stderr).not.toContain('ghp_canary');
    expect(readFileSync(join(dir, 'capi.lock.yaml'), 'utf8')).toBe(before);
    expect(fake.count()).toBe(0);
  });

  it('plain http:// is refused except on loopback hosts: exit 3 naming the config entry', async () => {
    const dir = project(fake);
    writeFileSync(
      join(dir, 'capi.config.ts'),
      fixtureConfig({ clusters: '', infra: `{ name: 'docker', version: 'v1.13.1', type: 'https', url: 'http://mirror.example.internal/docker/v1.13.1/infrastructure-components.yaml' }` }),
    );
    const r = await runCli(['lock'], { cwd: dir, env: env(tempDir()) });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('invalid url: an https repository url should be in the form https://{host}/{path}/{components file}');
    expect(r.stderr).toContain('at: providers.infrastructure[0]');
    expect(r.stderr).toContain('plain http:// is accepted only for loopback hosts');
  });
});

describe('HTTP proxies (HTTP_PROXY, HTTPS_PROXY, NO_PROXY)', { timeout: 240_000 }, () => {
  let proxy: ForwardProxy;
  beforeEach(async () => {
    proxy = await new ForwardProxy().start();
  });
  afterEach(async () => {
    await proxy.stop();
  });

  it('every request, octokit\'s included, goes through HTTP_PROXY; NO_PROXY hosts go direct', async () => {
    const dir = project(fake);
    // A proxy that refuses tunnels: the first request (octokit's release listing) already fails, so nothing bypasses it.
    const refused = await runCli(['lock'], { cwd: dir, env: env(tempDir(), { HTTP_PROXY: proxy.url }) });
    expect(refused.code).toBe(3);
    expect(fake.count()).toBe(0);
    expect(proxy.seen[0]).toBe(`CONNECT 127.0.0.1:${fake.port}`);

    proxy.seen.length = 0;
    proxy.refuseConnect = false;
    const viaProxy = await runCli(['lock'], { cwd: dir, env: env(tempDir(), { HTTP_PROXY: proxy.url }) });
    expect(viaProxy.stderr).toBe('');
    expect(viaProxy.code).toBe(0);
    expect(fake.count()).toBeGreaterThan(0);
    expect(proxy.seen.length).toBeGreaterThan(0);
    expect(new Set(proxy.seen)).toEqual(new Set([`CONNECT 127.0.0.1:${fake.port}`]));

    proxy.seen.length = 0;
    fake.reset();
    const direct = await runCli(['lock', '--upgrade'], { cwd: dir, env: env(tempDir(), { http_proxy: proxy.url, no_proxy: `localhost,127.0.0.1:${fake.port}` }) });
    expect(direct.code).toBe(0);
    expect(fake.count()).toBeGreaterThan(0);
    expect(proxy.seen).toEqual([]);
  });

  it('an unreachable proxy: exit 3, the hint names the proxy without its credentials', async () => {
    const closed = await new ForwardProxy().start();
    await closed.stop();
    const dir = project(fake);
    const r = await runCli(['lock'], { cwd: dir, env: env(tempDir(), { HTTP_PROXY: `http://alice:pr0xy-s3cret@127.0.0.1:${closed.port}` }) });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('ECONNREFUSED');
    expect(r.stderr).toContain(`fix: requests go through HTTP_PROXY=http://127.0.0.1:${closed.port}: check the proxy, or list the host in NO_PROXY`);
    expect(r.stderr).not.toContain('pr0xy-s3cret');
    expect(fake.count()).toBe(0);
  });

  it("HTTPS_PROXY set: no \"EnvHttpProxyAgent is experimental\" warning from Node on stderr (a real process)", async () => {
    const dir = project(fake);
    proxy.refuseConnect = false;
    const cli = await compiledCli();
    // Asynchronous: the proxy and the fake GitHub answer from this process.
    const run = await new Promise<{ status: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [cli, 'lock'], { cwd: dir, env: { ...env(tempDir()), HTTPS_PROXY: proxy.url, HTTP_PROXY: proxy.url } });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('close', (status) => resolve({ status, stderr }));
    });
    expect(run.stderr).not.toContain('EnvHttpProxyAgent');
    expect(run.stderr).not.toContain('Warning');
    expect(run.status).toBe(0);
    expect(proxy.seen).toContain(`CONNECT 127.0.0.1:${fake.port}`);
  });

  it('only undici\'s UNDICI-EHPA warning is held back, only while the agent is built', async () => {
    const seen: string[] = [];
    const listener = (w: Error & { code?: string }): void => {
      seen.push(w.code ?? w.message);
    };
    process.on('warning', listener);
    try {
      const emit = process.emitWarning;
      withoutExperimentalWarning(() => {
        process.emitWarning('EnvHttpProxyAgent is experimental, expect them to change at any time.', { code: 'UNDICI-EHPA' });
        process.emitWarning('something else', { code: 'CAPIFORM-TEST-OTHER' });
        process.emitWarning('old style', 'Warning', 'CAPIFORM-TEST-OLD');
      });
      expect(process.emitWarning).toBe(emit);
      // Warnings reach listeners on a later tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', listener);
    }
    expect(seen).toEqual(['CAPIFORM-TEST-OTHER', 'CAPIFORM-TEST-OLD']);
  });

  it('https targets tunnel through HTTPS_PROXY with CONNECT', async () => {
    const http = new HttpClient({ fetch: proxyFetch({ HTTPS_PROXY: proxy.url })!, retries: 0, timeoutMs: 5_000 });
    await expect(http.request({ url: 'https://releases.capiform.invalid/v1.0.0/metadata.yaml' })).rejects.toThrow(/failed after 1 attempt/);
    expect(proxy.seen).toEqual(['CONNECT releases.capiform.invalid:443']);
  });

  it('without proxy variables the built-in fetch is used', () => {
    expect(proxyFetch({ NO_PROXY: '*' })).toBeUndefined();
    expect(proxySettings({ https_proxy: 'http://a:1', HTTPS_PROXY: 'http://b:2' })).toEqual({ httpProxy: undefined, httpsProxy: 'http://a:1', noProxy: '' });
  });
});

describe('generate provider from a GitHub release', { timeout: 240_000 }, () => {
  function generateProject(): string {
    const root = testdir();
    fixtureRepository(root);
    fake.addRelease('acme/docker', { tag: 'v1.13.1', assets: releaseAssets(root, 'infrastructure-docker', 'v1.13.1') });
    writeFileSync(
      join(root, 'clusterctl.yaml'),
      'providers:\n  - name: acme\n    type: InfrastructureProvider\n    url: https://github.com/acme/docker/releases/v1.13.1/infrastructure-components.yaml\n',
    );
    return root;
  }
  const generate = ['generate', 'provider', '--infrastructure', 'acme:v1.13.1', '--config', 'clusterctl.yaml'];

  it('shows download progress on a terminal (stderr) and keeps stdout the YAML', async () => {
    const r = await runCli(generate, { cwd: generateProject(), env: env(tempDir()), isTTY: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('name: capd-controller-manager');
    expect(r.stdout).not.toContain('\x1b');
    expect(r.stderr).toContain('\r\x1b[K✓ infrastructure-components.yaml (acme/docker v1.13.1)');
  });

  it('--offline: exit 3 naming what is missing with a cold cache, the same YAML with a warm one; no request', async () => {
    const root = generateProject();
    const cache = tempDir();
    const cold = await runCli([...generate, '--offline'], { cwd: root, env: env(cache) });
    expect(cold.code).toBe(3);
    expect(cold.stderr).toContain('offline: release v1.13.1 of acme/docker is not in the cache');
    expect(fake.count()).toBe(0);
    const online = await runCli(generate, { cwd: root, env: env(cache) });
    expect(online.code).toBe(0);
    fake.reset();
    const warm = await runCli([...generate, '--offline'], { cwd: root, env: env(cache) });
    expect(warm.code).toBe(0);
    expect(warm.stdout).toBe(online.stdout);
    expect(fake.count()).toBe(0);
  });
});
