/**
 * Candidates from a paginated GitHub release listing: the same versions, in the same order, as reading every page,
 * while reading only the pages needed to be sure of each (pages of 3 releases here, so histories stay readable).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { constraintRule, settledCandidates } from '../../src/resolve/candidates.js';
import { createRemoteRepository } from '../../src/resolve/remote/index.js';
import { latestPatchRelease, type ProviderRepository } from '../../src/resolve/index.js';
import { FakeRemotes } from './fake-remotes.js';
import { httpFor, metadataYaml, tempDir } from './setup.js';

let fake: FakeRemotes;
beforeEach(async () => {
  fake = await new FakeRemotes().start();
  fake.pageSize = 3;
});
afterEach(async () => {
  await fake.stop();
});

const md = metadataYaml([10, 11, 12, 13, 14].map((minor) => ({ major: 1, minor, contract: 'v1beta2' })));

/** `tags` newest created first, as GitHub lists them. */
function repoWith(tags: string[], cacheDir = tempDir(), offline = false): ProviderRepository {
  if (!fake.repos.has('o/r')) {
    for (const tag of tags) fake.addRelease('o/r', { tag, prerelease: tag.includes('-'), assets: { 'metadata.yaml': md, 'c.yaml': tag } });
  }
  return createRemoteRepository('github', 'https://github.com/o/r/releases/latest/c.yaml', {
    http: httpFor(fake, cacheDir, { offline }),
    env: { GITHUB_API_URL: fake.apiUrl, GOPROXY: 'off' },
  });
}

async function first(repo: ProviderRepository, constraint: string, n = 1): Promise<string[]> {
  const out: string[] = [];
  for await (const v of settledCandidates(repo, constraintRule(constraint))) {
    out.push(v);
    if (out.length === n) break;
  }
  return out;
}

// Backports interleave: 1.10.9 is created after 1.13.1.
const history = ['v1.13.2', 'v1.10.9', 'v1.13.1', 'v1.11.4', 'v1.13.0', 'v1.12.5', 'v1.11.3', 'v1.10.8', 'v1.13.0-rc.0', 'v1.12.4', 'v1.11.2', 'v1.10.7'];

describe('settled candidates', () => {
  it('latest and ^: the newest release is settled by page 1 (every later page is below it)', async () => {
    const repo = repoWith(history);
    expect(await first(repo, 'latest')).toEqual(['v1.13.2']);
    expect(await first(repo, '^1.10')).toEqual(['v1.13.2']);
    expect(fake.count('api')).toBe(1);
  });

  it('~1.10.0 on a repository whose newest are 1.13.x: the highest 1.10.x, found on page 1, settled there', async () => {
    const repo = repoWith(history);
    expect(await first(repo, '~1.10.0', 2)).toEqual(['v1.10.9', 'v1.10.8']);
    // 1.10.8 is on page 3: the second candidate needed pages 2 and 3, not more.
    expect(fake.count('api')).toBe(3);
  });

  it('<1.12.0: 1.10.9 on page 1 is not settled while 1.11 is unseen; page 2 shows 1.11.4, which is', async () => {
    const repo = repoWith(history);
    expect(await first(repo, '<1.12.0')).toEqual(['v1.11.4']);
    expect(fake.count('api')).toBe(2);
  });

  it('a series only on a later page is still found (~1.12.0: page 2)', async () => {
    const repo = repoWith(history);
    expect(await first(repo, '~1.12.0')).toEqual(['v1.12.5']);
    expect(fake.count('api')).toBe(2);
  });

  it('every candidate, in order, is the order of the full listing', async () => {
    const repo = repoWith(history);
    for (const c of ['latest', '^1.10', '~1.10.0', '<1.12.0', '>=1.11.3 <1.13.0', 'v1.11.2', '>=1.13.0-rc.0']) {
      const all = constraintRule(c).order(await repo.listVersions());
      expect(await first(repo, c, 100), c).toEqual(all);
    }
  });

  it('nothing fits: every page is read, then nothing', async () => {
    const repo = repoWith(history);
    expect(await first(repo, '~1.9.0')).toEqual([]);
    expect(fake.count('api')).toBe(4);
  });

  it('offline after an online run that read page 1 only: the same choice; a full listing (plan upgrade) gets the cached pages', async () => {
    const cacheDir = tempDir();
    expect(await first(repoWith(history, cacheDir), '^1.10')).toEqual(['v1.13.2']);
    fake.reset();
    const offline = repoWith(history, cacheDir, true);
    expect(await first(offline, '^1.10')).toEqual(['v1.13.2']);
    expect(await offline.listVersions()).toEqual(['v1.13.2', 'v1.10.9', 'v1.13.1']);
    // A choice that needs a page no online run read still fails, naming it.
    await expect(first(repoWith(history, cacheDir, true), '~1.12.0')).rejects.toThrow(/offline: release list of o\/r is not in the cache \(.*page=2\)/);
    expect(fake.count()).toBe(0);
  });

  it("clusterctl's latest (latestPatchRelease): one page for the newest; a series filter reads on until it is settled", async () => {
    const repo = repoWith(history);
    expect(await latestPatchRelease(repo)).toBe('v1.13.2');
    expect(fake.count('api')).toBe(1);
    expect(await latestPatchRelease(repo, 1, 12)).toBe('v1.12.5');
    expect(fake.count('api')).toBe(2);
  });
});
