import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CapiformError } from '../../src/errors.js';
import { processYaml, type GenerateIO } from '../../src/pipeline/generate/index.js';
import { invalidGitHubUrlMessage, readTemplateSource, type TemplateSourceOptions } from '../../src/resolve/template-source/index.js';
import { FakeRemotes } from './fake-remotes.js';
import { httpFor, tempDir } from './setup.js';

const template = 'apiVersion: cluster.x-k8s.io/v1beta1\nkind: Cluster\n---\napiVersion: cluster.x-k8s.io/v1beta1\nkind: Machine';

let fake: FakeRemotes;
let dir: string;
let opts: TemplateSourceOptions;
beforeEach(async () => {
  fake = await new FakeRemotes().start();
  dir = tempDir();
  opts = {
    http: httpFor(fake, tempDir()),
    cwd: dir,
    githubApiUrl: fake.apiUrl,
    readStdin: async () => new TextEncoder().encode('from stdin'),
  };
});
afterEach(async () => {
  await fake.stop();
});

async function fails(url: string, o: TemplateSourceOptions = opts): Promise<CapiformError> {
  const err = await readTemplateSource(url, o).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(CapiformError);
  return err as CapiformError;
}

describe('template sources (--from)', () => {
  it('GITHUB_API_URL over plain http to a non-loopback host: exit 2 naming it, before any request', async () => {
    const err = await fails('https://github.com/o/r/blob/main/t.yaml', { ...opts, githubApiUrl: 'http://ghe.example.com/api/v3', token: 'ghp_canary0123' });
    expect(err.message).toBe('GITHUB_API_URL=http://ghe.example.com/api/v3 is not an https:// URL: the API would be read, and a token sent, in plain text');
    expect(err.exitCode).toBe(2);
    expect(fake.count()).toBe(0);
  });

  it('GitHub blob URL → contents API with ?ref=branch, base64 decoded', async () => {
    fake.contents.set('kubernetes-sigs/cluster-api/main/config/default/cluster-template.yaml', template);
    const url = 'https://github.com/kubernetes-sigs/cluster-api/blob/main/config/default/cluster-template.yaml';
    expect(await readTemplateSource(url, opts)).toBe(template);
    expect(fake.requests[0]!.path).toBe('/api/repos/kubernetes-sigs/cluster-api/contents/config%2Fdefault%2Fcluster-template.yaml?ref=main');
    const missing = await fails('https://github.com/kubernetes-sigs/cluster-api/blob/main/config/default/something-else.yaml');
    expect(missing.message).toMatch(/^failed to get "config\/default\/something-else.yaml": 404/);
  });

  it('only base64 content is accepted', async () => {
    fake.contents.set('o/r/main/t.yaml', { encoding: 'none', content: '' });
    expect((await fails('https://github.com/o/r/blob/main/t.yaml')).message).toBe(
      'invalid encoding detected for "t.yaml". Only base64 encoding supported',
    );
  });

  it('release asset URL → release by tag, asset by exact name', async () => {
    fake.addRelease('some-owner/some-repo', { tag: 'v1.0.0', assets: { 'cluster-template.yaml': template } });
    expect(await readTemplateSource('https://github.com/some-owner/some-repo/releases/download/v1.0.0/cluster-template.yaml', opts)).toBe(template);
    const asset = fake.requests.find((r) => r.path.includes('/releases/assets/'))!;
    expect(asset.headers.accept).toBe('application/octet-stream');
    expect((await fails('https://github.com/some-owner/some-repo/releases/download/v1.0.0/other.yaml')).message).toBe(
      'failed to get asset other.yaml from some-owner/some-repo repository',
    );
  });

  it('other github.com forms and short URLs: clusterctl errors (exit 2)', async () => {
    const unknown = await fails('https://github.com/some-owner/some-repo/releases/wrong/v1.0.0/cluster-template.yaml');
    expect(unknown.message).toBe('unknown github URL: https://github.com/some-owner/some-repo/releases/wrong/v1.0.0/cluster-template.yaml');
    expect(unknown.exitCode).toBe(2);
    const short = await fails('https://github.com/o/r/blob');
    expect(short.message).toBe(invalidGitHubUrlMessage('https://github.com/o/r/blob'));
    expect(short.message).toContain('- https://github.com/{owner}/{repository}/releases/download/{tag}/{asset-file-name}');
  });

  it('other https hosts: a plain GET; non-200 → `failed to get file, got <code>`', async () => {
    fake.files.set('/t.yaml', template);
    expect(await readTemplateSource('https://mirror.example.org/t.yaml', opts)).toBe(template);
    expect((await fails('https://mirror.example.org/nope.yaml')).message).toBe('failed to get file, got 404');
  });

  it('local files: plain path, relative path, file://; directory and missing file errors', async () => {
    writeFileSync(join(dir, 'cluster-template.yaml'), template);
    mkdirSync(join(dir, 'sub'));
    expect(await readTemplateSource(join(dir, 'cluster-template.yaml'), opts)).toBe(template);
    expect(await readTemplateSource('cluster-template.yaml', opts)).toBe(template);
    expect(await readTemplateSource(`file://${join(dir, 'cluster-template.yaml')}`, opts)).toBe(template);
    const d = await fails(join(dir, 'sub'));
    expect(d.message).toBe(`invalid path: file "${join(dir, 'sub')}" is actually a directory`);
    expect(d.exitCode).toBe(2);
    expect((await fails(join(dir, 'something-else.yaml'))).message).toBe(`failed to read file "${join(dir, 'something-else.yaml')}"`);
  });

  it('`-` reads stdin; http:// and other schemes are refused', async () => {
    expect(await readTemplateSource('-', opts)).toBe('from stdin');
    expect((await fails('http://example.com/t.yaml')).message).toBe(
      'unable to read content from "http://example.com/t.yaml". Only reading from GitHub and local file system is supported',
    );
    expect(fake.count()).toBe(0);
  });
});

describe('generate yaml --from a GitHub URL', () => {
  const url = 'https://github.com/o/r/blob/main/cluster-template.yaml';
  const io = (): GenerateIO => ({
    env: { GITHUB_API_URL: fake.apiUrl, CAPIFORM_CACHE_DIR: tempDir(), XDG_CONFIG_HOME: tempDir() },
    cwd: dir,
    readStdin: async () => new Uint8Array(),
  });

  it('reads through the client the caller passes', async () => {
    fake.contents.set('o/r/main/cluster-template.yaml', template);
    const http = httpFor(fake, tempDir());
    const t = await processYaml({ ...io(), http }, { from: url });
    expect(t.yaml()).toContain('kind: Machine');
    expect(http.requestCount()).toBe(1);
  });

  it('without one builds its own for the call and leaves the caller\'s IO as it was', async () => {
    fake.contents.set('o/r/main/cluster-template.yaml', template);
    const given = io();
    await processYaml(given, { from: url });
    expect(fake.count('api')).toBe(1);
    expect(given.http).toBeUndefined();
  });
});
