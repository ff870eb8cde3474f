import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NetworkError, ResolutionError } from '../../src/errors.js';
import { GitLabRepository } from '../../src/resolve/gitlab/repository.js';
import { gitlabUrlFormMessage } from '../../src/resolve/gitlab/url.js';
import { HttpsRepository } from '../../src/resolve/https/repository.js';
import { createRemoteRepository, remoteKindOf } from '../../src/resolve/remote/index.js';
import { createServer } from 'node:http';
import { FakeRemotes } from './fake-remotes.js';
import { closeServer, listenOnLoopback } from './loopback-server.js';
import { httpFor, tempDir } from './setup.js';
import { haveOpenssl, loopbackTls } from './tls-loopback.js';
import { thrown } from '../helpers/thrown.js';

let fake: FakeRemotes;
let cacheDir: string;
beforeEach(async () => {
  fake = await new FakeRemotes().start();
  cacheDir = tempDir();
});
afterEach(async () => {
  await fake.stop();
});

const glUrl = 'https://gitlab.example.org/api/v4/projects/group%2Fproject/packages/generic/capi/v1.2.3/infrastructure-components.yaml';
const glPath = '/api/v4/projects/group%2Fproject/packages/generic/capi/v1.2.3';

describe('GitLab generic packages', () => {
  it('reads files from the package of the URL version; one version only', async () => {
    fake.gitlabFiles.set(`${glPath}/infrastructure-components.yaml`, 'kind: Namespace\n');
    fake.gitlabFiles.set(`${glPath}/metadata.yaml`, 'md');
    const repo = createRemoteRepository('gitlab', glUrl, { http: httpFor(fake, cacheDir), env: {} }) as GitLabRepository;
    expect(repo.kind).toBe('gitlab');
    expect(repo.location.projectSlug).toBe('group%2Fproject');
    expect(await repo.listVersions()).toEqual(['v1.2.3']);
    expect(new TextDecoder().decode((await repo.getFile('v1.2.3', 'infrastructure-components.yaml'))!)).toBe('kind: Namespace\n');
    expect(fake.requests[0]!.path).toBe(`/gitlab${glPath}/infrastructure-components.yaml`);
    expect(await repo.getFile('v1.2.3', 'cluster-template.yaml')).toBeNull();
    expect(repo.explainMissing('v1.2.3', 'cluster-template.yaml')).toBe(
      `failed to get file "cluster-template.yaml" with version "v1.2.3" from "https://gitlab.example.org${glPath}/cluster-template.yaml", got 404`,
    );
  });

  it.skipIf(!haveOpenssl)('sends GITLAB_ACCESS_TOKEN as Bearer over https, never prints it; 401 → clusterctl credentials message', async () => {
    const tls = loopbackTls();
    const gitlab = await new FakeRemotes().start(tls);
    try {
      const token = 'glpat-secret-0123456789';
      gitlab.gitlabToken = token;
      gitlab.gitlabFiles.set(`${glPath}/metadata.yaml`, 'md');
      const http = httpFor(gitlab, cacheDir, { fetch: tls.fetch });
      const ok = createRemoteRepository('gitlab', glUrl, { http, env: { GITLAB_ACCESS_TOKEN: token } });
      expect(await ok.getFile('v1.2.3', 'metadata.yaml')).not.toBeNull();
      expect(gitlab.requests[0]!.headers.authorization).toBe(`Bearer ${token}`);
      const wrong = createRemoteRepository('gitlab', glUrl, { http, env: { GITLAB_ACCESS_TOKEN: 'glpat-wrong-999' } });
      const err = (await wrong.getFile('v1.2.3', 'metadata.yaml').catch((e: unknown) => e)) as NetworkError;
      expect(err).toBeInstanceOf(NetworkError);
      expect(err.message).toBe(
        `failed to get file "metadata.yaml" with version "v1.2.3" from "https://gitlab.example.org${glPath}/metadata.yaml": unauthorized access, please check your credentials`,
      );
      expect(err.hint).toContain('GITLAB_ACCESS_TOKEN');
      expect(err.exitCode).toBe(3);
      expect(JSON.stringify([err.message, err.hint, http.log])).not.toContain('glpat-');
    } finally {
      await gitlab.stop();
    }
  });

  it('never sends the token over plain http (type: gitlab on a loopback host); a 401 says so', async () => {
    const token = 'glpat-secret-0123456789';
    const seen: (string | undefined)[] = [];
    let requireToken = false;
    const server = createServer((req, res) => {
      seen.push(req.headers.authorization);
      if (requireToken && req.headers.authorization !== `Bearer ${token}`) res.writeHead(401).end('{"message":"401 Unauthorized"}');
      else res.writeHead(200).end('md');
    });
    const port = await listenOnLoopback(server);
    try {
      const repo = createRemoteRepository('gitlab', `http://127.0.0.1:${port}${glPath}/infrastructure-components.yaml`, {
        http: httpFor(fake, cacheDir, { retries: 0 }),
        env: { GITLAB_ACCESS_TOKEN: token },
        explicitKind: true,
      });
      expect(await repo.getFile('v1.2.3', 'metadata.yaml')).not.toBeNull();
      expect(seen).toEqual([undefined]);
      requireToken = true;
      const err = (await repo.getFile('v1.2.3', 'infrastructure-components.yaml').catch((e: unknown) => e)) as NetworkError;
      expect(err).toBeInstanceOf(NetworkError);
      expect(err.message).toContain('unauthorized access, please check your credentials');
      expect(err.hint).toBe('no token is sent over plain http://; serve the repository over https:// for a token to be sent');
      expect(seen).toEqual([undefined, undefined]);
    } finally {
      await closeServer(server);
    }
  });

  it('other statuses: retried when 5xx, then `…, got <code>`', async () => {
    fake.fault(`/gitlab${glPath}/metadata.yaml`, ...Array(5).fill({ kind: 'status', status: 418 }));
    const repo = createRemoteRepository('gitlab', glUrl, { http: httpFor(fake, cacheDir), env: {} });
    await expect(repo.getFile('v1.2.3', 'metadata.yaml')).rejects.toThrow(
      `failed to get file "metadata.yaml" with version "v1.2.3" from "https://gitlab.example.org${glPath}/metadata.yaml", got 418`,
    );
    fake.faults.clear();
    fake.gitlabFiles.set(`${glPath}/metadata.yaml`, 'md');
    fake.fault(`/gitlab${glPath}/metadata.yaml`, { kind: 'status', status: 500 });
    const repo2 = createRemoteRepository('gitlab', glUrl, { http: httpFor(fake, tempDir()), env: {} });
    expect(await repo2.getFile('v1.2.3', 'metadata.yaml')).not.toBeNull();
  });

  it.each([
    'http://gitlab.example.org/api/v4/projects/group%2Fproject/packages/generic/my-package/v1.0/path',
    'https://gitlab.example.org/api/v4/projects/group%2Fproject/packages/generic/my-package/v1.0/path/grrr',
    'https://gitlab.example.org/subpath/api/v4/projects/group%2Fproject/packages/generic/my-package/v1.0/path',
    'https://gitlab.example.org/api/v4/projects/group%2Fproject/packages-invalid/generic/my-package/v1.0/path',
  ])('rejects %s with clusterctl message (exit 3)', (u) => {
    let err: unknown;
    try {
      createRemoteRepository('gitlab', u, { http: httpFor(fake, cacheDir), env: {} });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ResolutionError);
    expect((err as ResolutionError).message).toBe(gitlabUrlFormMessage);
    expect((err as ResolutionError).exitCode).toBe(3);
  });

  it('plain http only for a loopback host of a provider declared `type: gitlab`', () => {
    const u = 'http://127.0.0.1:9/api/v4/projects/42/packages/generic/p/v1/c.yaml';
    expect(() => createRemoteRepository('gitlab', u, { http: httpFor(fake, cacheDir), env: {} })).toThrow(gitlabUrlFormMessage);
    const repo = createRemoteRepository('gitlab', u, { http: httpFor(fake, cacheDir), env: {}, explicitKind: true });
    expect(repo.fileLocation('v1', 'metadata.yaml')).toBe('http://127.0.0.1:9/api/v4/projects/42/packages/generic/p/v1/metadata.yaml');
    const lan = 'http://10.0.0.7/api/v4/projects/42/packages/generic/p/v1/c.yaml';
    const e = thrown(() => createRemoteRepository('gitlab', lan, { http: httpFor(fake, cacheDir), env: {}, explicitKind: true }), ResolutionError);
    expect(e.message).toBe(gitlabUrlFormMessage);
    expect(e.hint).toContain('use https://10.0.0.7…; plain http:// is accepted only for a loopback host');
  });

  it('works on any host (explicit type) and with a numeric project id', () => {
    const repo = createRemoteRepository('gitlab', 'https://code.corp/api/v4/projects/42/packages/generic/p/v1/c.yaml', {
      http: httpFor(fake, cacheDir),
      env: {},
    }) as GitLabRepository;
    expect(repo.location).toMatchObject({ host: 'code.corp', projectSlug: '42', packageName: 'p', defaultVersion: 'v1' });
  });
});

describe('HTTPS mirrors', () => {
  it('one version from the folder name; siblings next to the components file', async () => {
    fake.files.set('/capi/v1.5.0/infrastructure-components.yaml', 'c');
    fake.files.set('/capi/v1.5.0/metadata.yaml', 'm');
    const repo = createRemoteRepository('https', 'https://mirror.example.org/capi/v1.5.0/infrastructure-components.yaml', {
      http: httpFor(fake, cacheDir),
      env: {},
    });
    expect(repo.defaultVersion).toBe('v1.5.0');
    expect(repo.componentsFile).toBe('infrastructure-components.yaml');
    expect(await repo.listVersions()).toEqual(['v1.5.0']);
    expect(new TextDecoder().decode((await repo.getFile('v1.5.0', 'metadata.yaml'))!)).toBe('m');
    expect(await repo.getFile('v1.5.0', 'cluster-template.yaml')).toBeNull();
    expect(await repo.getFile('v9.0.0', 'metadata.yaml')).toBeNull();
    expect(repo.fileLocation('v1.5.0', 'metadata.yaml')).toBe('https://mirror.example.org/capi/v1.5.0/metadata.yaml');
  });

  it('needs a version when the URL has none', () => {
    const http = httpFor(fake, cacheDir);
    expect(() => new HttpsRepository('https://mirror.example.org/latest/c.yaml', { http })).toThrow(
      'cannot tell the version of https://mirror.example.org/latest/c.yaml',
    );
    expect(new HttpsRepository('https://mirror.example.org/latest/c.yaml', { http, version: 'v1.0.0' }).defaultVersion).toBe('v1.0.0');
  });

  it('factory kind detection follows clusterctl (§4.1)', () => {
    expect(remoteKindOf('https://github.com/o/r/releases/latest/c.yaml')).toBe('github');
    expect(remoteKindOf('https://gitlab.com/api/v4/projects/1/packages/generic/p/v/c.yaml')).toBe('gitlab');
    expect(remoteKindOf('https://mirror.example.org/v1.0.0/c.yaml')).toBe('https');
  });
});
