import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, IntegrityError, NetworkError, ResolutionError } from '../../src/errors.js';
import { GitHubRepository } from '../../src/resolve/github/repository.js';
import { type HttpClient, OfflineError, RateLimitError } from '../../src/resolve/index.js';
import { createRemoteRepository } from '../../src/resolve/remote/index.js';
import { FakeRemotes } from './fake-remotes.js';
import { blobCount, httpFor, latestPatchRelease, metadataYaml, tempDir } from './setup.js';
import { thrown } from '../helpers/thrown.js';
import { haveOpenssl, loopbackTls, type LoopbackTls } from './tls-loopback.js';

const md = metadataYaml([
  { major: 1, minor: 0, contract: 'v1beta2' },
  { major: 1, minor: 1, contract: 'v1beta2' },
]);
const url = 'https://github.com/o/r/releases/latest/components.yaml';
const token = 'ghp_supersecret0123456789';

let fake: FakeRemotes;
let cacheDir: string;
beforeEach(async () => {
  fake = await new FakeRemotes().start();
  cacheDir = tempDir();
});
afterEach(async () => {
  await fake.stop();
});

function repoFor(http: HttpClient, env: NodeJS.ProcessEnv = {}, u = url): GitHubRepository {
  return createRemoteRepository('github', u, {
    http,
    env: { GITHUB_API_URL: fake.apiUrl, GOPROXY: 'off', ...env },
  }) as GitHubRepository;
}

function release(tag: string, extra: Partial<Parameters<FakeRemotes['addRelease']>[1]> = {}) {
  return { tag, assets: { 'metadata.yaml': md, 'components.yaml': `kind: Deployment # ${tag}\n` }, ...extra };
}

describe('GitHub releases', () => {
  it('follows pagination (Link headers), keeps API order, drops drafts and non-semver tags', async () => {
    fake.pageSize = 2;
    for (const t of ['v1.1.0', 'v1.0.1', 'v1.2.0-rc.0', 'nightly', 'v1.0.0']) fake.addRelease('o/r', release(t));
    fake.addRelease('o/r', release('v2.0.0', { draft: true }));
    const repo = repoFor(httpFor(fake, cacheDir));
    expect(await repo.listVersions()).toEqual(['v1.1.0', 'v1.0.1', 'v1.2.0-rc.0', 'v1.0.0']);
    expect(fake.count('api')).toBe(3);
    expect(fake.requests.map((r) => r.path)).toEqual([
      '/api/repos/o/r/releases?per_page=100',
      '/api/repos/o/r/releases?per_page=2&page=2',
      '/api/repos/o/r/releases?per_page=2&page=3',
    ]);
    // The draft is not a release: no file from it.
    expect(await repo.getFile('v2.0.0', 'components.yaml')).toBeNull();
    expect(repo.explainMissing('v2.0.0', 'components.yaml')).toBe(
      'release not found for version v2.0.0, please retry later or set "GOPROXY=off" to get the current stable release',
    );
  });

  it('resolves latest: releases before pre-releases, skips a release without metadata.yaml', async () => {
    fake.addRelease('o/r', release('v1.2.0-rc.0'));
    fake.addRelease('o/r', { tag: 'v1.1.1', assets: { 'components.yaml': 'x' } }); // no metadata.yaml
    fake.addRelease('o/r', release('v1.1.0'));
    fake.addRelease('o/r', release('v1.0.0'));
    const repo = repoFor(httpFor(fake, cacheDir));
    expect(repo.defaultVersion).toBe('latest');
    expect(await latestPatchRelease(repo)).toBe('v1.1.0');
    expect(repo.explainMissing('v1.1.1', 'metadata.yaml')).toBe('failed to get file "metadata.yaml" from "v1.1.1" release');
    // Only the listing hit the API; the metadata came from the download host.
    expect(fake.count('api')).toBe(1);
  });

  it('picks a pre-release only when no release has metadata', async () => {
    fake.addRelease('o/r', release('v2.0.0-beta.1'));
    fake.addRelease('o/r', { tag: 'v1.0.0', assets: {} });
    expect(await latestPatchRelease(repoFor(httpFor(fake, cacheDir)))).toBe('v2.0.0-beta.1');
  });

  it('reads a pinned version without listing (release by tag), rootPath from the URL', async () => {
    fake.addRelease('o/r', { tag: 'v1.0.0', assets: { 'sub/components.yaml': 'a: 1\n', 'sub/metadata.yaml': md } });
    const repo = repoFor(httpFor(fake, cacheDir), {}, 'https://github.com/o/r/releases/v1.0.0/sub/components.yaml');
    expect(repo.rootPath).toBe('sub');
    expect(repo.componentsFile).toBe('components.yaml');
    expect(new TextDecoder().decode((await repo.getFile('v1.0.0', 'components.yaml'))!)).toBe('a: 1\n');
    expect(await repo.listFiles('v1.0.0')).toEqual(['components.yaml', 'metadata.yaml']);
    expect(fake.requests.filter((r) => r.area === 'api').map((r) => r.path)).toEqual(['/api/repos/o/r/releases/tags/v1.0.0']);
  });

  it('404: unknown repository is a ResolutionError naming it; unknown release/file are "not found"', async () => {
    const repo = repoFor(httpFor(fake, cacheDir), {}, 'https://github.com/o/missing/releases/latest/components.yaml');
    const err = await repo.listVersions().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResolutionError);
    expect((err as ResolutionError).message).toContain('failed to get the list of releases of o/missing: 404');
    expect((err as ResolutionError).exitCode).toBe(3);
    fake.addRelease('o/r', release('v1.0.0'));
    const repo2 = repoFor(httpFor(fake, cacheDir));
    expect(await repo2.getFile('v1.0.0', '404.file')).toBeNull();
    expect(repo2.explainMissing('v1.0.0', '404.file')).toBe('failed to get file "404.file" from "v1.0.0" release');
  });

  it('403 rate limit: says when it resets and that GITHUB_TOKEN raises it; not retried', async () => {
    const reset = Math.floor(Date.now() / 1000) + 1800;
    fake.fault('/api/repos/o/r/releases', { kind: 'rateLimit', resetEpoch: reset });
    const err = await repoFor(httpFor(fake, cacheDir)).listVersions().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    const e = err as RateLimitError;
    expect(e.message).toContain('rate limit for github api has been reached');
    expect(e.message).toContain(`resets at ${new Date(reset * 1000).toISOString()}`);
    expect(e.message).toMatch(/in (29|30) min/);
    expect(e.hint).toContain('GITHUB_TOKEN');
    expect(e.exitCode).toBe(3);
    expect(fake.count()).toBe(1);
  });

  it('429 with Retry-After is a rate limit too', async () => {
    fake.fault('/api/repos/o/r/releases', { kind: 'rateLimit', status: 429, retryAfter: 120 });
    const err = (await repoFor(httpFor(fake, cacheDir)).listVersions().catch((e: unknown) => e)) as RateLimitError;
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err.resetAt!.getTime()).toBeGreaterThan(Date.now() + 100_000);
  });

  it('500 then success: retried with backoff', async () => {
    fake.addRelease('o/r', release('v1.0.0'));
    fake.fault('/api/repos/o/r/releases', { kind: 'status', status: 500 }, { kind: 'status', status: 502 });
    expect(await repoFor(httpFor(fake, cacheDir)).listVersions()).toEqual(['v1.0.0']);
    expect(fake.count('api')).toBe(3);
  });

  it('5xx forever: bounded retries, then a NetworkError', async () => {
    fake.addRelease('o/r', release('v1.0.0'));
    fake.fault('/api/repos/o/r/releases', ...Array(10).fill({ kind: 'status', status: 503 }));
    const err = await repoFor(httpFor(fake, cacheDir, { retries: 2 })).listVersions().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as Error).message).toMatch(/failed after 3 attempts: 503 Service Unavailable/);
    expect(fake.count('api')).toBe(3);
  });

  it('connection reset mid-download and a truncated body are retried; nothing partial is cached', async () => {
    fake.addRelease('o/r', release('v1.0.0'));
    fake.fault('/objects/o/r/v1.0.0/components.yaml', { kind: 'reset' }, { kind: 'truncate' });
    const repo = repoFor(httpFor(fake, cacheDir));
    const bytes = await repo.getFile('v1.0.0', 'components.yaml');
    expect(new TextDecoder().decode(bytes!)).toBe('kind: Deployment # v1.0.0\n');
    expect(fake.requests.filter((r) => r.path.startsWith('/objects/')).map((r) => r.status)).toEqual([-1, -2, 200]);
  });

  it('a body truncated on every attempt never enters the cache', async () => {
    fake.addRelease('o/r', release('v1.0.0'));
    fake.fault('/objects/o/r/v1.0.0/components.yaml', ...Array(5).fill({ kind: 'truncate' }));
    const repo = repoFor(httpFor(fake, cacheDir, { retries: 1 }));
    await repo.listVersions();
    const before = blobCount(cacheDir);
    const err = await repo.getFile('v1.0.0', 'components.yaml').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    // undici reports the early close itself ("other side closed"); a short body with an intact connection is ours.
    expect((err as Error).message).toMatch(
      /failed after 2 attempts: (truncated body for|connection lost while reading) components\.yaml \(o\/r v1\.0\.0\)/,
    );
    expect(blobCount(cacheDir)).toBe(before);
  });

  it('digest mismatch: IntegrityError with both digests, bytes not cached', async () => {
    const wrong = `sha256:${'0'.repeat(64)}`;
    fake.addRelease('o/r', { tag: 'v1.0.0', assets: { 'components.yaml': { body: 'tampered', digest: wrong } } });
    const repo = repoFor(httpFor(fake, cacheDir));
    await repo.listVersions();
    const before = blobCount(cacheDir);
    const err = (await repo.getFile('v1.0.0', 'components.yaml').catch((e: unknown) => e)) as IntegrityError;
    expect(err).toBeInstanceOf(IntegrityError);
    expect(err.message).toContain(`GitHub reports sha256 ${'0'.repeat(64)}`);
    expect(err.message).toContain('the downloaded bytes have sha256 ');
    expect(err.message).toContain('"components.yaml" of release v1.0.0 (o/r)');
    expect(blobCount(cacheDir)).toBe(before);
  });

  it('revalidates listings with ETags: a second run gets 304 and reuses the cached body', async () => {
    fake.pageSize = 1;
    fake.addRelease('o/r', release('v1.1.0')).addRelease('o/r', release('v1.0.0'));
    expect(await repoFor(httpFor(fake, cacheDir)).listVersions()).toEqual(['v1.1.0', 'v1.0.0']);
    fake.reset();
    const versions = await repoFor(httpFor(fake, cacheDir)).listVersions();
    expect(versions).toEqual(['v1.1.0', 'v1.0.0']);
    expect(fake.requests.map((r) => r.status)).toEqual([304, 304]);
    expect(fake.requests.every((r) => typeof r.headers['if-none-match'] === 'string')).toBe(true);
  });

  it('falls back to the API when the download URL is refused (private repository)', async () => {
    fake.addRelease('o/r', release('v1.0.0'));
    fake.fault('/web/o/r/releases/download/v1.0.0/components.yaml', { kind: 'status', status: 404 });
    const repo = repoFor(httpFor(fake, cacheDir));
    await repo.listVersions();
    expect(await repo.getFile('v1.0.0', 'components.yaml')).not.toBeNull();
    expect(fake.requests.some((r) => r.path.includes('/releases/assets/'))).toBe(true);
  });

  it('offline with a cold cache: no socket, an error naming what is missing and how to fetch it', async () => {
    fake.addRelease('o/r', release('v1.0.0'));
    const repo = repoFor(httpFor(fake, cacheDir, { offline: true }));
    const err = (await repo.listVersions().catch((e: unknown) => e)) as OfflineError;
    expect(err).toBeInstanceOf(OfflineError);
    expect(err.message).toBe(`offline: release list of o/r is not in the cache (${fake.apiUrl}/repos/o/r/releases?per_page=100)`);
    expect(err.hint).toContain('capiform lock');
    expect(err.exitCode).toBe(3);
    expect(fake.count()).toBe(0);
  });

  it('offline with a warm cache: everything answered from the cache, zero requests', async () => {
    fake.addRelease('o/r', release('v1.1.0')).addRelease('o/r', release('v1.0.0'));
    const online = repoFor(httpFor(fake, cacheDir));
    const tag = await latestPatchRelease(online);
    const components = await online.getFile(tag, 'components.yaml');
    fake.reset();
    const offline = repoFor(httpFor(fake, cacheDir, { offline: true }));
    expect(await latestPatchRelease(offline)).toBe(tag);
    expect(await offline.getFile(tag, 'components.yaml')).toEqual(components);
    expect(fake.count()).toBe(0);
  });

  it('offline after an online run through the goproxy: lists and files from the cache', async () => {
    fake.goproxyLists.set('github.com/o/r', 'v1.0.0\nv1.1.0\n');
    fake.addRelease('o/r', release('v1.1.0')).addRelease('o/r', release('v1.0.0'));
    const online = repoFor(httpFor(fake, cacheDir), { GOPROXY: '' });
    const tag = await latestPatchRelease(online);
    const bytes = await online.getFile(tag, 'components.yaml');
    fake.reset();
    const offline = repoFor(httpFor(fake, cacheDir, { offline: true }), { GOPROXY: '' });
    expect(await latestPatchRelease(offline)).toBe(tag);
    expect(await offline.getFile(tag, 'components.yaml')).toEqual(bytes);
    expect(fake.count()).toBe(0);
  });

  it('goproxy first: versions from <proxy>/github.com/o/r/@v/list (+ /v2), files from the download URL, no API call', async () => {
    fake.goproxyLists.set('github.com/o/r', 'v1.0.0\nv1.1.0\ngarbage\n');
    fake.goproxyLists.set('github.com/o/r/v2', 'v2.0.0\n');
    fake.addRelease('o/r', release('v2.0.0'));
    const repo = repoFor(httpFor(fake, cacheDir), { GOPROXY: '' });
    expect(await repo.listVersions()).toEqual(['v1.0.0', 'v1.1.0', 'v2.0.0']);
    expect(await latestPatchRelease(repo)).toBe('v2.0.0');
    expect(fake.count('api')).toBe(0);
    expect(fake.count('goproxy')).toBe(3);
  });

  it('GitHub Enterprise: any host with an explicit type, API at https://<host>/api/v3 unless GITHUB_API_URL is set', () => {
    const http = httpFor(fake, cacheDir);
    expect(() => createRemoteRepository('github', 'https://ghe.corp/o/r/releases/v1/c.yaml', { http, env: {} })).toThrow(
      'invalid url: a GitHub repository url should start with https://github.com',
    );
    const ghe = createRemoteRepository('github', 'https://ghe.corp/o/r/releases/v1/c.yaml', {
      http,
      env: {},
      explicitKind: true,
    }) as GitHubRepository;
    expect(ghe.apiBaseUrl).toBe('https://ghe.corp/api/v3');
    const configured = createRemoteRepository('github', 'https://ghe.corp/o/r/releases/v1/c.yaml', {
      http,
      env: { GITHUB_API_URL: 'https://env.example/api/v3/' },
      explicitKind: true,
    }) as GitHubRepository;
    expect(configured.apiBaseUrl).toBe('https://env.example/api/v3');
  });
});

describe.skipIf(!haveOpenssl)('tokens: sent over https to the API only, never over plain http nor through a redirect', () => {
  let tls: LoopbackTls;
  let api: FakeRemotes;
  /** GitHub's object host on another port, over plain http: where release downloads redirect. */
  let objects: FakeRemotes;
  beforeEach(async () => {
    tls ??= loopbackTls();
    api = await new FakeRemotes().start(tls);
    objects = await new FakeRemotes().start();
    api.objectsOrigin = objects.origin;
    for (const f of [api, objects]) f.addRelease('o/r', release('v1.0.0'));
  });
  afterEach(async () => {
    await api.stop();
    await objects.stop();
  });

  function tlsRepo(extra: { assetDownload?: 'api'; retries?: number } = {}): { repo: GitHubRepository; http: HttpClient } {
    const http = httpFor(api, cacheDir, { fetch: tls.fetch, ...(extra.retries !== undefined ? { retries: extra.retries } : {}) });
    const repo = createRemoteRepository('github', url, {
      http,
      env: { GITHUB_API_URL: api.apiUrl, GOPROXY: 'off', GITHUB_TOKEN: token },
      ...(extra.assetDownload ? { assetDownload: extra.assetDownload } : {}),
    }) as GitHubRepository;
    return { repo, http };
  }

  it('the API gets the token over https; the download host and the redirect target do not; errors never print it', async () => {
    api.apiToken = token;
    const { repo, http } = tlsRepo({ retries: 0 });
    await repo.listVersions();
    expect(new TextDecoder().decode((await repo.getFile('v1.0.0', 'components.yaml'))!)).toContain('v1.0.0');
    expect(api.requests.filter((r) => r.area === 'api').map((r) => r.headers.authorization)).toEqual([`token ${token}`]);
    // The download URL on the web host (https, same server), then GitHub's 302 to the object host (http, another port).
    expect(api.requests.filter((r) => r.area === 'web').map((r) => [r.status, r.headers.authorization])).toEqual([[302, undefined]]);
    expect(objects.requests.map((r) => [r.area, r.status, r.headers.authorization])).toEqual([['objects', 200, undefined]]);
    // An error on an authenticated request does not leak the token, nor do the request log or the signed URL.
    api.fault('/api/repos/o/r2/releases/tags/v9.9.9', { kind: 'status', status: 500 });
    const other = createRemoteRepository('github', 'https://github.com/o/r2/releases/v9.9.9/c.yaml', {
      http,
      env: { GITHUB_API_URL: api.apiUrl, GOPROXY: 'off', GITHUB_TOKEN: token },
    });
    const err = (await other.getFile('v9.9.9', 'c.yaml').catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(NetworkError);
    const everything = JSON.stringify([err.message, (err as NetworkError).hint, http.log]);
    expect(everything).not.toContain(token);
    expect(everything).not.toContain('secret-signature');
  });

  it('an asset through the API (Accept: application/octet-stream): 302 to the object host on another port, followed without the token', async () => {
    const { repo } = tlsRepo({ assetDownload: 'api' });
    await repo.listVersions();
    expect(new TextDecoder().decode((await repo.getFile('v1.0.0', 'components.yaml'))!)).toContain('v1.0.0');
    const asset = api.requests.find((r) => r.path.includes('/releases/assets/'))!;
    expect(asset.headers.accept).toBe('application/octet-stream');
    expect(asset.headers.authorization).toBe(`token ${token}`);
    expect(asset.status).toBe(302);
    expect(objects.requests.map((r) => [r.path.split('?')[0], r.status, r.headers.authorization])).toEqual([
      ['/objects/o/r/v1.0.0/components.yaml', 200, undefined],
    ]);
    expect(api.count('web')).toBe(0);
  });

  it('a redirect to another https host drops the token too', async () => {
    const elsewhere = await new FakeRemotes().start(tls);
    try {
      elsewhere.addRelease('o/r', release('v1.0.0'));
      api.objectsOrigin = elsewhere.origin;
      const { repo } = tlsRepo({ assetDownload: 'api' });
      await repo.listVersions();
      expect(await repo.getFile('v1.0.0', 'components.yaml')).not.toBeNull();
      expect(elsewhere.requests.map((r) => [r.area, r.status, r.headers.authorization])).toEqual([['objects', 200, undefined]]);
    } finally {
      await elsewhere.stop();
    }
  });
});

describe('GITHUB_API_URL over plain http', () => {
  it('on a loopback host: accepted, and the token is not sent; a 401 says why', async () => {
    fake.addRelease('o/r', release('v1.0.0'));
    const repo = repoFor(httpFor(fake, cacheDir, { retries: 0 }), { GITHUB_TOKEN: token }, url);
    expect(repo.apiBaseUrl).toBe(fake.apiUrl);
    await repo.listVersions();
    expect(await repo.getFile('v1.0.0', 'components.yaml')).not.toBeNull();
    expect(fake.requests.length).toBeGreaterThan(0);
    expect(fake.requests.every((r) => r.headers.authorization === undefined)).toBe(true);

    fake.apiToken = token;
    const err = (await repoFor(httpFor(fake, tempDir(), { retries: 0 }), { GITHUB_TOKEN: token }, url)
      .listVersions()
      .catch((e: unknown) => e)) as ResolutionError;
    expect(err).toBeInstanceOf(ResolutionError);
    expect(err.message).toContain('401');
    expect(err.hint).toContain(`GITHUB_TOKEN, which is not sent over plain http:// (${fake.apiUrl})`);
  });

  it.each([
    ['http://ghe.example.com/api/v3', 'https://ghe.example.com/api/v3'],
    ['http://10.0.0.7:8080', 'https://10.0.0.7:8080'],
  ])('elsewhere (%s): a ConfigError (exit 2) naming the variable and its value; hint: %s', (value, fixed) => {
    const e = thrown(() => repoFor(httpFor(fake, cacheDir), { GITHUB_API_URL: value, GITHUB_TOKEN: token }), ConfigError);
    expect(e.message).toBe(`GITHUB_API_URL=${value} is not an https:// URL: the API would be read, and a token sent, in plain text`);
    expect(e.where).toBe('GITHUB_API_URL');
    expect(e.hint).toContain(`use ${fixed};`);
    expect(e.exitCode).toBe(2);
    expect(fake.count()).toBe(0);
  });
});
