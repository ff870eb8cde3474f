/** Shared wiring for the remote tests: a fake upstream, a temp cache, and an HttpClient pointed at both. */
import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { ContentCache } from '../../src/cache/index.js';
import { HttpClient, type HttpClientOptions, type ProviderRepository } from '../../src/resolve/index.js';
import { isSemanticVersion } from '../../src/resolve/github/semantic.js';
import { FakeRemotes } from './fake-remotes.js';
import { tempDir as testTempDir } from '../helpers/testdir.js';

export function tempDir(prefix = 'capiform-remote-'): string {
  return testTempDir(prefix);
}

export function httpFor(fake: FakeRemotes, cacheDir: string, opts: HttpClientOptions = {}): HttpClient {
  return new HttpClient({
    cache: new ContentCache(cacheDir),
    retryDelayMs: 1,
    timeoutMs: 5_000,
    origins: {
      'https://github.com': fake.webUrl,
      'https://proxy.golang.org': fake.goproxy,
      'https://gitlab.example.org': `${fake.origin}/gitlab`,
      'https://mirror.example.org': `${fake.origin}/files`,
    },
    ...opts,
  });
}

/** Every blob in a cache dir (to prove what did and did not get in). */
export function blobCount(cacheDir: string): number {
  const root = join(cacheDir, 'blobs', 'sha256');
  if (!existsSync(root)) return 0;
  return readdirSync(root).reduce((n, d) => n + readdirSync(join(root, d)).length, 0);
}

export const metadataYaml = (series: { major: number; minor: number; contract: string }[]): string =>
  `apiVersion: clusterctl.cluster.x-k8s.io/v1alpha3\nkind: Metadata\nreleaseSeries:\n${series
    .map((s) => `  - major: ${s.major}\n    minor: ${s.minor}\n    contract: ${s.contract}\n`)
    .join('')}`;

/**
 * clusterctl's `latestPatchRelease` (spec §4.5) over any repository: releases before pre-releases, descending, first
 * 5 candidates, the first whose metadata.yaml exists wins. (src/resolve/versions.ts is the product
 * implementation; this mirror keeps the remote tests independent of it.)
 */
export async function latestPatchRelease(repo: ProviderRepository, major?: number, minor?: number): Promise<string> {
  const parsed = (await repo.listVersions())
    .filter(isSemanticVersion)
    .map((v) => semver.parse(v.replace(/^v/, ''))!)
    .filter((v) => (major === undefined || v.major === major) && (minor === undefined || v.minor === minor));
  parsed.sort((a, b) => {
    const ap = a.prerelease.length > 0;
    const bp = b.prerelease.length > 0;
    if (ap !== bp) return ap ? 1 : -1;
    return semver.rcompare(a, b);
  });
  for (const v of parsed.slice(0, 5)) {
    const tag = `v${v.version}${v.build.length ? `+${v.build.join('.')}` : ''}`;
    if ((await repo.getFile(tag, 'metadata.yaml')) !== null) return tag;
  }
  throw new Error('failed to find releases tagged with a valid semantic version number');
}
