/**
 * OCI provider repositories against a real registry (the distribution registry, started here on 127.0.0.1):
 * versions from the tag list, release files from titled layers under the names cluster-api-operator accepts, digests
 * verified, authentication by the registry's challenge, credentials never shown.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, listenOnLoopback } from './remote/loopback-server.js';
import { ContentCache } from '../src/cache/index.js';
import { CapiformError } from '../src/errors.js';
import { HttpClient, type ProviderRepository } from '../src/resolve/index.js';
import { createRemoteRepository } from '../src/resolve/remote/index.js';
import { OciRepository } from '../src/resolve/oci/index.js';
import { registryAvailability, TestRegistry } from './helpers/oci-registry.js';
import { tempDir, testdir } from './helpers/testdir.js';

const available = registryAvailability();
const text = (b: Uint8Array | null): string | null => (b === null ? null : new TextDecoder().decode(b));
const metadata = 'apiVersion: clusterctl.cluster.x-k8s.io/v1alpha3\nkind: Metadata\nreleaseSeries:\n- major: 1\n  minor: 2\n  contract: v1beta2\n';

function http(): HttpClient {
  return new HttpClient({ cache: new ContentCache(tempDir()), retries: 0, timeoutMs: 10_000 });
}

function repository(url: string, env: NodeJS.ProcessEnv = {}, client = http()): OciRepository {
  return createRemoteRepository('oci', url, {
    http: client,
    env,
    release: { type: 'InfrastructureProvider', name: 'docker', componentsFile: 'infrastructure-components.yaml' },
  }) as OciRepository;
}

async function failure(p: Promise<unknown>): Promise<CapiformError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CapiformError);
  return err as CapiformError;
}

describe.skipIf(!available.present)(`an OCI repository on a real registry${available.skipped}`, () => {
  let registry: TestRegistry;
  beforeAll(async () => {
    registry = await TestRegistry.start();
  }, 30_000);
  afterAll(async () => {
    await registry?.stop();
  });

  it('lists the tags as versions and reads files under their release names and the operator\'s names', async () => {
    await registry.pushRelease('capi/docker', 'v1.2.0', {
      'metadata.yaml': metadata,
      'infrastructure-components.yaml': 'kind: Namespace\n',
      'cluster-template.yaml': 'kind: Cluster\n',
    });
    // The operator's fully named files, as `capioperator publish` and its docs push them.
    await registry.pushRelease('capi/docker', 'v1.2.1', {
      'infrastructure-docker-v1.2.1-metadata.yaml': metadata,
      'infrastructure-docker-v1.2.1-components.yaml': 'kind: Namespace # full\n',
    });
    await registry.pushRelease('capi/docker', 'v1.2.2', { 'metadata.yaml': metadata, 'components.yaml': 'kind: Namespace # plain\n' });
    const repo = repository(`oci://${registry.host}/capi/docker`);
    expect(repo.kind).toBe('oci');
    expect((await repo.listVersions()).sort()).toEqual(['v1.2.0', 'v1.2.1', 'v1.2.2']);
    expect(text(await repo.getFile('v1.2.0', 'infrastructure-components.yaml'))).toBe('kind: Namespace\n');
    expect(text(await repo.getFile('v1.2.0', 'cluster-template.yaml'))).toBe('kind: Cluster\n');
    expect(await repo.getFile('v1.2.0', 'cluster-template-missing.yaml')).toBeNull();
    expect(await repo.listFiles('v1.2.0')).toEqual(['cluster-template.yaml', 'infrastructure-components.yaml', 'metadata.yaml']);
    expect(text(await repo.getFile('v1.2.1', 'metadata.yaml'))).toBe(metadata);
    expect(text(await repo.getFile('v1.2.1', 'infrastructure-components.yaml'))).toBe('kind: Namespace # full\n');
    expect(await repo.listFiles('v1.2.1')).toEqual(['infrastructure-components.yaml', 'metadata.yaml']);
    expect(text(await repo.getFile('v1.2.2', 'infrastructure-components.yaml'))).toBe('kind: Namespace # plain\n');
  });

  it('a url with a tag offers that one version; the location names the manifest digest it was read from', async () => {
    const pushed = await registry.pushRelease('capi/tagged', 'v0.3.0', { 'metadata.yaml': metadata, 'infrastructure-components.yaml': 'a: 1\n' });
    await registry.pushRelease('capi/tagged', 'v0.4.0', { 'metadata.yaml': metadata, 'infrastructure-components.yaml': 'a: 2\n' });
    const repo = repository(`oci://${registry.host}/capi/tagged:v0.3.0`);
    expect(await repo.listVersions()).toEqual(['v0.3.0']);
    expect(repo.defaultVersion).toBe('v0.3.0');
    expect(repo.fileLocation('v0.3.0', 'metadata.yaml')).toBe(`oci://${registry.host}/capi/tagged:v0.3.0#metadata.yaml`);
    await repo.getFile('v0.3.0', 'metadata.yaml');
    expect(repo.fileLocation('v0.3.0', 'metadata.yaml')).toBe(`oci://${registry.host}/capi/tagged:v0.3.0@${pushed.manifestDigest}#metadata.yaml`);
  });

  it('a missing tag is a resolution error naming the repository and the tag (exit 3)', async () => {
    await registry.pushRelease('capi/missing', 'v1.0.0', { 'metadata.yaml': metadata });
    const err = await failure(repository(`oci://${registry.host}/capi/missing`).getFile('v9.9.9', 'metadata.yaml'));
    expect(err.message).toBe(`oci://${registry.host}/capi/missing has no tag "v9.9.9"`);
    expect(err.exitCode).toBe(3);
    const none = await failure(repository(`oci://${registry.host}/capi/never-pushed`).listVersions());
    expect(none.message).toBe(`oci://${registry.host}/capi/never-pushed: the registry has no repository "capi/never-pushed" (404 NAME_UNKNOWN)`);
    expect(none.exitCode).toBe(3);
  });

  it('a tag pushed again with other bytes: a pinned manifest digest no longer matches (integrity error, exit 3)', async () => {
    const first = await registry.pushRelease('capi/repushed', 'v1.0.0', { 'metadata.yaml': metadata, 'infrastructure-components.yaml': 'a: 1\n' });
    const pinnedAt = `oci://${registry.host}/capi/repushed:v1.0.0@${first.manifestDigest}#metadata.yaml`;
    const second = await registry.pushRelease('capi/repushed', 'v1.0.0', { 'metadata.yaml': metadata, 'infrastructure-components.yaml': 'a: 666\n' });
    const repo = repository(`oci://${registry.host}/capi/repushed`);
    repo.pinLocation('v1.0.0', pinnedAt);
    const err = await failure(repo.getFile('v1.0.0', 'metadata.yaml'));
    expect(err.code).toBe('E_INTEGRITY');
    expect(err.exitCode).toBe(3);
    expect(err.message).toBe(
      `oci://${registry.host}/capi/repushed:v1.0.0 now points at manifest ${second.manifestDigest}, but capi.lock.yaml pins ${first.manifestDigest}: the tag was pushed again with other content`,
    );
  });

  it('an image index (a multi-platform image) is not a release: an input error naming the tag', async () => {
    const res = await fetch(`${registry.base}/v2/capi/index/manifests/v1.0.0`, {
      method: 'PUT',
      headers: { 'content-type': 'application/vnd.oci.image.index.v1+json' },
      body: JSON.stringify({ schemaVersion: 2, mediaType: 'application/vnd.oci.image.index.v1+json', manifests: [] }),
    });
    expect(res.status).toBe(201);
    const err = await failure(repository(`oci://${registry.host}/capi/index`).getFile('v1.0.0', 'metadata.yaml'));
    expect(err.message).toBe(`oci://${registry.host}/capi/index:v1.0.0 is an image index (application/vnd.oci.image.index.v1+json), not a provider release artifact`);
  });
});

describe.skipIf(!available.present)(`an OCI registry behind htpasswd (basic) auth${available.skipped}`, () => {
  const password = 's3cret-Pa55word';
  let registry: TestRegistry;
  beforeAll(async () => {
    registry = await TestRegistry.start({ basicAuth: { username: 'ci', password } });
    await registry.pushRelease('capi/private', 'v1.0.0', { 'metadata.yaml': metadata, 'infrastructure-components.yaml': 'a: 1\n' });
  }, 30_000);
  afterAll(async () => {
    await registry?.stop();
  });

  it('OCI_USERNAME/OCI_PASSWORD answer the Basic challenge (plain http to a loopback registry only)', async () => {
    const repo = repository(`oci://${registry.host}/capi/private`, { OCI_USERNAME: 'ci', OCI_PASSWORD: password });
    expect(await repo.listVersions()).toEqual(['v1.0.0']);
    expect(text(await repo.getFile('v1.0.0', 'infrastructure-components.yaml'))).toBe('a: 1\n');
  });

  it("docker's config.json (auths.<host>.auth) is read from DOCKER_CONFIG", async () => {
    const dockerConfig = testdir({ 'config.json': JSON.stringify({ auths: { [registry.host]: { auth: Buffer.from(`ci:${password}`).toString('base64') } } }) });
    const repo = repository(`oci://${registry.host}/capi/private`, { DOCKER_CONFIG: dockerConfig });
    expect(await repo.listVersions()).toEqual(['v1.0.0']);
  });

  it('without credentials, or with wrong ones: exit 3, what to set, and no credential in the message or the log', async () => {
    const anonymous = await failure(repository(`oci://${registry.host}/capi/private`, { HOME: tempDir() }).listVersions());
    expect(anonymous.exitCode).toBe(3);
    expect(anonymous.message).toBe(`tags of oci://${registry.host}/capi/private: the registry ${registry.host} refused access (401 Unauthorized): no credentials were found`);
    expect(anonymous.hint).toContain('set OCI_USERNAME and OCI_PASSWORD (or OCI_ACCESS_TOKEN), or log in with `docker login');
    const client = http();
    const wrong = await failure(repository(`oci://${registry.host}/capi/private`, { OCI_USERNAME: 'ci', OCI_PASSWORD: 'wrong-Pa55word' }, client).listVersions());
    expect(wrong.exitCode).toBe(3);
    expect(wrong.message).toContain('refused access (401 Unauthorized): the credentials from OCI_USERNAME/OCI_PASSWORD were refused');
    const shown = JSON.stringify([wrong.message, wrong.hint, wrong.where, client.log]);
    expect(shown).not.toContain('wrong-Pa55word');
    expect(shown).not.toContain(Buffer.from('ci:wrong-Pa55word').toString('base64'));
  });
});

/**
 * A token-auth front for the real registry, as Docker Hub, GHCR and Harbor work: every /v2/ request needs a bearer
 * token from its /token service (which wants the basic credentials), and it serves the tag list in pages of at most
 * two with `Link` headers, as the distribution spec allows (Debian's registry 2.8 ignores `n=`). The rest is proxied.
 */
function tokenFront(upstream: string, credentials: string, accessToken: string): { server: Server; seen: string[] } {
  const seen: string[] = [];
  const issued = 'issued-Token-0123456789';
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url!, 'http://front');
      seen.push(`${req.method} ${url.pathname}${url.search}`);
      const port = (server.address() as { port: number }).port;
      if (url.pathname === '/token') {
        const basic = `Basic ${Buffer.from(credentials).toString('base64')}`;
        if (req.headers.authorization !== basic) return res.writeHead(401).end('{"details":"bad credentials"}');
        return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ token: issued }));
      }
      const name = /^\/v2\/(.+?)\/(?:tags|manifests|blobs)\//.exec(url.pathname)?.[1] ?? '';
      if (req.headers.authorization !== `Bearer ${issued}` && req.headers.authorization !== `Bearer ${accessToken}`) {
        return res
          .writeHead(401, { 'www-authenticate': `Bearer realm="http://127.0.0.1:${port}/token",service="front",scope="repository:${name}:pull"` })
          .end('{"errors":[{"code":"UNAUTHORIZED"}]}');
      }
      const up = await fetch(`${upstream}${url.pathname}`, { headers: { accept: req.headers.accept ?? '*/*' } });
      const body = Buffer.from(await up.arrayBuffer());
      if (url.pathname.endsWith('/tags/list') && up.status === 200) {
        const all = ((JSON.parse(body.toString()) as { tags: string[] }).tags ?? []).sort();
        const last = url.searchParams.get('last');
        const n = Math.min(Number(url.searchParams.get('n') ?? '100'), 2);
        const from = last === null ? 0 : all.indexOf(last) + 1;
        const page = all.slice(from, from + n);
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (from + n < all.length) headers.link = `</v2/${name}/tags/list?n=${n}&last=${page[page.length - 1]}>; rel="next"`;
        return res.writeHead(200, headers).end(JSON.stringify({ name, tags: page }));
      }
      const headers: Record<string, string> = {};
      for (const h of ['content-type', 'docker-content-digest']) {
        const v = up.headers.get(h);
        if (v !== null) headers[h] = v;
      }
      res.writeHead(up.status, headers).end(body);
    })();
  });
  return { server, seen };
}

describe.skipIf(!available.present)(`an OCI registry with token auth and a paginated tag list${available.skipped}`, () => {
  let registry: TestRegistry;
  let front: ReturnType<typeof tokenFront>;
  let host: string;
  beforeAll(async () => {
    registry = await TestRegistry.start();
    for (const tag of ['v1.0.0', 'v1.1.0', 'v1.2.0', 'v1.3.0', 'v2.0.0']) {
      await registry.pushRelease('capi/paged', tag, { 'metadata.yaml': metadata, 'infrastructure-components.yaml': `tag: ${tag}\n` });
    }
    front = tokenFront(registry.base, 'robot:Robot-Pa55', 'static-Access-Token-42');
    host = `127.0.0.1:${await listenOnLoopback(front.server)}`;
  }, 30_000);
  afterAll(async () => {
    await closeServer(front?.server);
    await registry?.stop();
  });

  it('fetches a bearer token from the challenge realm with the credentials, and follows Link pages of the tag list', async () => {
    front.seen.length = 0;
    const client = http();
    const repo = repository(`oci://${host}/capi/paged`, { OCI_USERNAME: 'robot', OCI_PASSWORD: 'Robot-Pa55' }, client);
    expect(await repo.listVersions()).toEqual(['v1.0.0', 'v1.1.0', 'v1.2.0', 'v1.3.0', 'v2.0.0']);
    expect(front.seen).toEqual([
      'GET /v2/capi/paged/tags/list?n=1000',
      'GET /token?service=front&scope=repository%3Acapi%2Fpaged%3Apull',
      'GET /v2/capi/paged/tags/list?n=1000',
      'GET /v2/capi/paged/tags/list?n=2&last=v1.1.0',
      'GET /v2/capi/paged/tags/list?n=2&last=v1.3.0',
    ]);
    expect(text(await repo.getFile('v1.3.0', 'infrastructure-components.yaml'))).toBe('tag: v1.3.0\n');
    expect(JSON.stringify(client.log)).not.toContain('issued-Token');
  });

  it('OCI_ACCESS_TOKEN is sent as the bearer token as it is', async () => {
    front.seen.length = 0;
    const repo = repository(`oci://${host}/capi/paged:v2.0.0`, { OCI_ACCESS_TOKEN: 'static-Access-Token-42' });
    expect(text(await repo.getFile('v2.0.0', 'infrastructure-components.yaml'))).toBe('tag: v2.0.0\n');
    expect(front.seen.some((r) => r.startsWith('GET /token'))).toBe(false);
  });

  it('credentials the token service refuses: exit 3, naming where they came from, never showing them', async () => {
    const client = http();
    const err = await failure(repository(`oci://${host}/capi/paged`, { OCI_USERNAME: 'robot', OCI_PASSWORD: 'Wrong-Pa55' }, client).listVersions());
    expect(err.exitCode).toBe(3);
    expect(err.message).toBe(`a token for oci://${host}/capi/paged: the registry ${host} refused access (401 Unauthorized): the credentials from OCI_USERNAME/OCI_PASSWORD were refused`);
    expect(JSON.stringify([err.message, err.hint, client.log])).not.toMatch(/Wrong-Pa55|cm9ib3Q6V3Jvbmct/);
  });
});

describe('OCI repository urls', () => {
  const bad = (url: string): CapiformError => {
    try {
      repository(url);
    } catch (err) {
      return err as CapiformError;
    }
    throw new Error(`accepted ${url}`);
  };
  it.each([
    ['oci://ghcr.io', 'it needs a registry and a repository'],
    ['oci://ghcr.io/Org/Repo', '"Org/Repo" is not a repository name (lowercase letters, digits and . _ - separators, parts joined by /)'],
    ['oci://user:pw@ghcr.io/org/repo', 'credentials do not belong in the url (use OCI_USERNAME/OCI_PASSWORD or docker login)'],
    ['oci://ghcr.io/org/repo@sha256:abc', 'a digest reference (@sha256:…) is not supported; name a tag, capi.lock.yaml pins its digest'],
  ])('%s is a config error (exit 2)', (url, why) => {
    const err = bad(url);
    expect(err.message).toBe(`invalid OCI repository url ${JSON.stringify(url)}: ${why}`);
    expect(err.exitCode).toBe(2);
  });

  it('a non-loopback registry is spoken to over https', () => {
    const repo: ProviderRepository = repository('oci://ghcr.io/org/providers/docker:v1.2.3');
    expect(repo.defaultVersion).toBe('v1.2.3');
    expect(repo.fileLocation('v1.2.3', 'metadata.yaml')).toBe('oci://ghcr.io/org/providers/docker:v1.2.3#metadata.yaml');
  });
});
