/**
 * Request budget: a cold resolution of core + bootstrap + control plane + two infrastructure providers stays within
 * 10 GitHub API requests however long the providers' release histories, and a warm run satisfied by the lock and the
 * cache makes none at all. The fake upstream counts every request; it serves the corpus releases (../shared/corpus)
 * to the in-process resolution, and release histories of 300 releases to `capiform lock`.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/cache/index.js';
import type { HttpClient, ProviderRepository } from '../../src/resolve/index.js';
import { createRemoteRepository } from '../../src/resolve/remote/index.js';
import { fixtureRepository } from '../helpers/pipeline-fixtures.js';
import { runCli } from '../helpers/cli.js';
import { testdir } from '../helpers/testdir.js';
import { sharedDir } from '../helpers/shared.js';
import { FakeRemotes } from './fake-remotes.js';
import { httpFor, latestPatchRelease, metadataYaml, tempDir } from './setup.js';

const shared = sharedDir('corpus');
const corpus = shared.path;
const haveCorpus = shared.present;

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

    fake.reset();
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

/**
 * A release history as GitHub lists it, newest created first: each minor opens with a beta, an rc and its .0, then
 * monthly patch releases of the three maintained series (oldest series first on each day), so listing order is far
 * from semver order (1.11.9 is created after 1.13.0). The newest `count` releases.
 */
function releaseHistory(major: number, minors: number, count: number): string[] {
  const created: string[] = [];
  const patch = new Map<number, number>();
  for (let m = 0; m < minors; m++) {
    created.push(`v${major}.${m}.0-beta.0`, `v${major}.${m}.0-rc.0`, `v${major}.${m}.0`);
    patch.set(m, 0);
    for (let month = 0; month < 8; month++) {
      for (const s of [m - 2, m - 1, m].filter((x) => x >= 0)) {
        const p = patch.get(s)! + 1;
        patch.set(s, p);
        created.push(`v${major}.${s}.${p}`);
      }
    }
  }
  return created.reverse().slice(0, count);
}

/** Five providers from five GitHub repositories of 300 releases each: the worst case for the listing budget. */
const historyProviders = [
  { key: 'core', label: 'cluster-api', repo: 'acme/cluster-api', major: 1, version: '^1.10', file: 'core-components.yaml', fixture: 'cluster-api' },
  { key: 'bootstrap', label: 'bootstrap-kubeadm', repo: 'acme/bootstrap', major: 1, version: '~1.10.0', file: 'bootstrap-components.yaml', fixture: 'bootstrap-kubeadm' },
  { key: 'controlPlane', label: 'control-plane-kubeadm', repo: 'acme/control-plane', major: 1, version: 'latest', file: 'control-plane-components.yaml', fixture: 'control-plane-kubeadm' },
  { key: 'infrastructure', label: 'infrastructure-docker', repo: 'acme/docker', major: 2, version: '~2.4.0', file: 'infrastructure-components.yaml', fixture: 'infrastructure-docker' },
  { key: 'infrastructure', label: 'infrastructure-other', repo: 'acme/other', major: 3, version: '>=3.2.0 <3.9.0', file: 'infrastructure-components.yaml', fixture: 'infrastructure-docker' },
] as const;

function historyProject(fake: FakeRemotes): { dir: string; expected: Map<string, string> } {
  const dir = testdir();
  fixtureRepository(dir);
  const expected = new Map<string, string>();
  const entries: Record<string, string[]> = { core: [], bootstrap: [], controlPlane: [], infrastructure: [] };
  for (const p of historyProviders) {
    const md = metadataYaml(Array.from({ length: 14 }, (_, minor) => ({ major: p.major, minor, contract: 'v1beta2' })));
    const fixtureDir = join(dir, 'repo', p.fixture, 'v1.13.1');
    const components = readFileSync(join(fixtureDir, p.file));
    const tags = releaseHistory(p.major, 14, 300);
    for (const tag of tags) fake.addRelease(p.repo, { tag, prerelease: tag.includes('-'), assets: { 'metadata.yaml': md, [p.file]: components } });
    // What reading every page would choose: the highest release in the constraint (every series has the contract).
    expected.set(p.label, semver.maxSatisfying(tags, p.version === 'latest' ? '*' : p.version)!);
    const name = p.label.replace(/^(bootstrap|control-plane|infrastructure)-/, '');
    entries[p.key]!.push(`{ name: '${name}', version: '${p.version}', url: 'https://github.com/${p.repo}/releases/latest/${p.file}' }`);
  }
  writeFileSync(
    join(dir, 'capi.config.ts'),
    `import { defineConfig } from 'capiform';
export default defineConfig({
  providers: {
    core: ${entries.core![0]},
    bootstrap: [${entries.bootstrap!.join(', ')}],
    controlPlane: [${entries.controlPlane!.join(', ')}],
    infrastructure: [${entries.infrastructure!.join(', ')}],
  },
  certManager: { version: 'v1.19.1', url: './repo' },
  clusters: [],
});
`,
  );
  return { dir, expected };
}

describe('request budget through `capiform lock`, with long release histories', { timeout: 240_000 }, () => {
  it('cold: ≤ 10 GitHub API requests for five repositories of 300 releases, the same versions as a full listing; warm with the lock: none', async () => {
    const { dir, expected } = historyProject(fake);
    const cache = tempDir();
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, CAPIFORM_CACHE_DIR: cache, GITHUB_API_URL: fake.apiUrl, GOPROXY: 'off' };
    const cold = await runCli(['lock'], { cwd: dir, env });
    // docker's release stands in for `other`: the lock-time contract lint finds docker's labels on it (warnings only).
    expect(cold.stderr).toMatch(/(^|\n)provider contract: infrastructure-other v3\.8\.24: 5 warnings \([^\n]*\); locked anyway [^\n]*`capiform validate --contract` lists each finding\n$/);
    expect(cold.code).toBe(0);
    for (const [label, version] of expected) expect(cold.stdout).toContain(`${label} ${version} (v1beta2)`);
    expect([...expected.values()]).toEqual(['v1.13.8', 'v1.10.24', 'v1.13.8', 'v2.4.24', 'v3.8.24']);
    const api = fake.count('api');
    console.info(`budget: cold \`capiform lock\` of 5 providers with 300 releases each: ${api} GitHub API requests, ${fake.count()} requests in all`);
    expect(api).toBeLessThanOrEqual(10);

    // Warm, with the lock: the lock still fits the config and every pinned byte is in the cache.
    fake.reset();
    const warm = await runCli(['lock'], { cwd: dir, env });
    expect(warm.code).toBe(0);
    expect(warm.stdout).toContain('capi.lock.yaml is up to date');
    expect(fake.count()).toBe(0);
    const frozen = await runCli(['render', '--frozen'], { cwd: dir, env });
    expect(frozen.stderr).toBe('');
    expect(frozen.code).toBe(0);
    expect(fake.count()).toBe(0);

    // Warm, re-resolving everything: the same pages again, each answered 304 (GitHub does not count those).
    const upgraded = await runCli(['lock', '--upgrade'], { cwd: dir, env });
    expect(upgraded.code).toBe(0);
    expect(fake.count('api')).toBe(api);
    expect(fake.requests.filter((r) => r.area === 'api').every((r) => r.status === 304)).toBe(true);
  });
});
