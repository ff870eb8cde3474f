/**
 * Request budget (issue 4): a cold resolution of core + bootstrap + control plane + two infrastructure providers
 * stays within 10 GitHub API requests, and a warm run satisfied by the cache makes none at all. The fake upstream
 * serves the corpus releases (../shared/corpus) when present, else small fixtures, and counts every request.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ContentCache, sha256Hex } from '../../src/lock/cache.js';
import type { HttpClient } from '../../src/resolve/http/client.js';
import { createRemoteRepository } from '../../src/resolve/remote.js';
import type { ProviderRepository } from '../../src/resolve/repository.js';
import { FakeRemotes } from './fake-remotes.js';
import { httpFor, latestPatchRelease, metadataYaml, tempDir } from './setup.js';

const corpus = resolve(import.meta.dirname, '../..', process.env.CAPIFORM_CORPUS_DIR ?? '../shared/corpus');
const haveCorpus = existsSync(join(corpus, 'index.json'));

interface CorpusEntry {
  label: string;
  version: string;
  files: string[];
  source: { repo: string };
}

/** Releases per GitHub repository, built from the corpus (several labels share kubernetes-sigs/cluster-api). */
function loadReleases(fake: FakeRemotes): void {
  if (!haveCorpus) {
    const md = metadataYaml([{ major: 1, minor: 13, contract: 'v1beta2' }]);
    const capi = { 'metadata.yaml': md, 'core-components.yaml': 'core', 'bootstrap-components.yaml': 'b', 'control-plane-components.yaml': 'cp' };
    fake.addRelease('kubernetes-sigs/cluster-api', { tag: 'v1.13.5', assets: capi });
    fake.addRelease('kubernetes-sigs/cluster-api', { tag: 'v1.12.11', assets: capi });
    for (const r of ['kubernetes-sigs/cluster-api-provider-aws', 'kubernetes-sigs/cluster-api-provider-azure']) {
      fake.addRelease(r, { tag: 'v2.11.1', assets: { 'metadata.yaml': md, 'infrastructure-components.yaml': r } });
    }
    return;
  }
  const index = JSON.parse(readFileSync(join(corpus, 'index.json'), 'utf8')) as CorpusEntry[];
  const byRepo = new Map<string, Map<string, Record<string, Uint8Array>>>();
  for (const e of index) {
    const tags = byRepo.get(e.source.repo) ?? new Map<string, Record<string, Uint8Array>>();
    byRepo.set(e.source.repo, tags);
    const assets = tags.get(e.version) ?? {};
    tags.set(e.version, assets);
    const dir = join(corpus, 'repository', e.label, e.version);
    for (const f of readdirSync(dir)) assets[f] ??= readFileSync(join(dir, f));
  }
  for (const [repo, tags] of byRepo) {
    for (const [tag, assets] of tags) fake.addRelease(repo, { tag, assets });
  }
}

const providers = [
  ['cluster-api', 'https://github.com/kubernetes-sigs/cluster-api/releases/latest/core-components.yaml'],
  ['kubeadm bootstrap', 'https://github.com/kubernetes-sigs/cluster-api/releases/latest/bootstrap-components.yaml'],
  ['kubeadm control plane', 'https://github.com/kubernetes-sigs/cluster-api/releases/latest/control-plane-components.yaml'],
  ['aws', 'https://github.com/kubernetes-sigs/cluster-api-provider-aws/releases/latest/infrastructure-components.yaml'],
  ['azure', 'https://github.com/kubernetes-sigs/cluster-api-provider-azure/releases/latest/infrastructure-components.yaml'],
] as const;

interface Locked {
  version: string;
  files: Record<string, string>;
}

/** What `capiform lock` does per provider: resolve `latest`, fetch metadata.yaml and the components file. */
async function resolveAll(http: HttpClient, env: NodeJS.ProcessEnv, extra: { assetDownload?: 'auto' | 'api' } = {}): Promise<Locked[]> {
  return Promise.all(
    providers.map(async ([, url]) => {
      const repo: ProviderRepository = createRemoteRepository('github', url, { http, env, ...extra });
      const version = await latestPatchRelease(repo);
      const files: Record<string, string> = {};
      for (const f of ['metadata.yaml', repo.componentsFile]) {
        const bytes = await repo.getFile(version, f);
        expect(bytes, `${url} ${f}`).not.toBeNull();
        files[f] = sha256Hex(bytes!);
      }
      return { version, files };
    }),
  );
}

let fake: FakeRemotes;
beforeEach(async () => {
  fake = await new FakeRemotes().start();
  loadReleases(fake);
});
afterEach(async () => {
  await fake.stop();
});

describe('request budget', () => {
  it(`cold: ≤ 10 GitHub API requests for 5 providers (${haveCorpus ? 'corpus releases' : 'fixtures; ../shared/corpus absent'})`, async () => {
    if (!haveCorpus) console.warn('budget: ../shared/corpus not found; using small fixtures');
    const cacheDir = tempDir();
    const lock = await resolveAll(httpFor(fake, cacheDir), { GITHUB_API_URL: fake.apiUrl, GOPROXY: 'off' });
    const api = fake.count('api');
    console.info(`budget: cold resolution made ${api} GitHub API requests, ${fake.count('web')} downloads (${fake.count()} requests in all)`);
    expect(api).toBeLessThanOrEqual(10);
    expect(api).toBe(3); // one release listing per repository
    expect(new Set(lock.slice(0, 3).map((l) => l.version)).size).toBe(1);

    // Warm, with the lock: every pinned byte is in the cache, so not a single request of any kind.
    fake.reset();
    const cache = new ContentCache(cacheDir);
    for (const entry of lock) for (const sha of Object.values(entry.files)) expect(await cache.get(sha)).not.toBeNull();
    expect(fake.count()).toBe(0);

    // Warm, without the lock (re-resolving): listings revalidate with 304s (GitHub does not count them), bytes come
    // from the cache by digest.
    const again = await resolveAll(httpFor(fake, cacheDir), { GITHUB_API_URL: fake.apiUrl, GOPROXY: 'off' });
    expect(again).toEqual(lock);
    expect(fake.requests.map((r) => r.status)).toEqual([304, 304, 304]);

    // Offline, from the same cache: nothing leaves the process.
    fake.reset();
    const offline = await resolveAll(httpFor(fake, cacheDir, { offline: true }), { GITHUB_API_URL: fake.apiUrl, GOPROXY: 'off' });
    expect(offline).toEqual(lock);
    expect(fake.count()).toBe(0);
  });

  it('assets through the API (assetDownload: api, token set): counted', async () => {
    const cacheDir = tempDir();
    await resolveAll(httpFor(fake, cacheDir), { GITHUB_API_URL: fake.apiUrl, GOPROXY: 'off', GITHUB_TOKEN: 'ghp_x1234567' }, { assetDownload: 'api' });
    const api = fake.count('api');
    console.info(`budget: with assetDownload=api, cold resolution made ${api} GitHub API requests`);
    // 3 listings + metadata.yaml per repository (3) + one components file per provider (5).
    expect(api).toBe(11);
  });
});
