import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRepository } from '../../src/resolve/index.js';
import { FakeRemotes } from './fake-remotes.js';
import { httpFor, metadataYaml, tempDir } from './setup.js';
import { haveOpenssl, loopbackTls } from './tls-loopback.js';

let fake: FakeRemotes;
beforeEach(async () => {
  fake = await new FakeRemotes().start();
});
afterEach(async () => {
  await fake.stop();
});

const md = metadataYaml([
  { major: 1, minor: 5, contract: 'v1beta2' },
  { major: 2, minor: 0, contract: 'v1beta3' },
]);

describe('createRepository with remote URLs', () => {
  it('GitHub: resolves latest contract-aware (v1beta2) at construction', async () => {
    for (const tag of ['v2.0.0', 'v1.5.1', 'v1.5.0', 'v1.4.9']) {
      fake.addRelease('o/r', { tag, assets: { 'metadata.yaml': md, 'infrastructure-components.yaml': tag } });
    }
    const repo = await createRepository(
      { name: 'acme', type: 'InfrastructureProvider', url: 'https://github.com/o/r/releases/latest/infrastructure-components.yaml' },
      { http: httpFor(fake, tempDir()), env: { GITHUB_API_URL: fake.apiUrl, GOPROXY: 'off' } },
    );
    expect(repo.kind).toBe('github');
    expect(repo.defaultVersion).toBe('v1.5.1');
    expect(new TextDecoder().decode((await repo.getFile('v1.5.1', repo.componentsFile))!)).toBe('v1.5.1');
    expect(fake.count('api')).toBe(1);
  });

  it.skipIf(!haveOpenssl)('GitLab: the URL version, token from the variables (gitlab-access-token), sent over https', async () => {
    const tls = loopbackTls();
    const gitlab = await new FakeRemotes().start(tls);
    try {
      const path = '/api/v4/projects/g%2Fp/packages/generic/acme/v1.0.0';
      gitlab.gitlabToken = 'glpat-abcdef';
      gitlab.gitlabFiles.set(`${path}/metadata.yaml`, md);
      const repo = await createRepository(
        { name: 'acme', type: 'InfrastructureProvider', url: `https://gitlab.example.org${path}/infrastructure-components.yaml` },
        { http: httpFor(gitlab, tempDir(), { fetch: tls.fetch }), env: {}, get: (n) => (n === 'gitlab-access-token' ? 'glpat-abcdef' : undefined) },
      );
      expect(repo.defaultVersion).toBe('v1.0.0');
      expect(await repo.getFile('v1.0.0', 'metadata.yaml')).not.toBeNull();
      expect(gitlab.requests.map((r) => r.headers.authorization)).toEqual(['Bearer glpat-abcdef']);
    } finally {
      await gitlab.stop();
    }
  });

  it('GitHub without a client: each call gets its own, so a release published between two runs in one process is seen', async () => {
    fake.addRelease('o/r', { tag: 'v1.0.0', assets: { 'metadata.yaml': md } });
    const env = { GITHUB_API_URL: fake.apiUrl, GOPROXY: 'off', CAPIFORM_CACHE_DIR: tempDir() };
    const provider = { name: 'acme', type: 'InfrastructureProvider', url: 'https://github.com/o/r/releases/v1.0.0/infrastructure-components.yaml' };
    expect(await (await createRepository(provider, { env })).listVersions()).toEqual(['v1.0.0']);
    fake.addRelease('o/r', { tag: 'v1.1.0', assets: { 'metadata.yaml': md } });
    expect([...(await (await createRepository(provider, { env })).listVersions())].sort()).toEqual(['v1.0.0', 'v1.1.0']);
  });

  it('wraps construction errors like clusterctl', async () => {
    await expect(
      createRepository({ name: 'x', type: 'CoreProvider', url: 'https://github.com/dd/' }, { env: {} }),
    ).rejects.toThrow(
      'error creating the GitHub repository client: invalid url: a GitHub repository url should be in the form https://github.com/{owner}/{Repository}/releases/{latest|version-tag}/{componentsClient.yaml}',
    );
  });
});
