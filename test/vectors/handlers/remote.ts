/**
 * Vector handlers for remote repositories (version-resolution.json: goproxy, GitHub, GitLab ops) and template
 * sources (template-sources.json). Each vector's fake world (goproxy lists, GitHub releases, GitLab packages, served
 * files) is served by a real HTTP server on 127.0.0.1; the code under test talks to it through the HTTP layer's
 * origin rewrites (github.com, proxy.golang.org, gitlab.example.org, mirror.example.org) and GITHUB_API_URL.
 * `latestPatchRelease`, `latestRelease` and `local.GetVersions` are in handlers/resolve.ts;
 * `GetFromConfigMap` needs a cluster (test/vectors/unsupported.ts).
 */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { ContentCache } from '../../../src/cache/index.js';
import { handleGithubErr, type GoGitHubError } from '../../../src/resolve/github/client.js';
import { GitHubRepository } from '../../../src/resolve/github/repository.js';
import { componentsPathOf } from '../../../src/resolve/github/url.js';
import { GitLabRepository } from '../../../src/resolve/gitlab/repository.js';
import { GoproxyClient, goproxySchemeAndHost } from '../../../src/resolve/goproxy/index.js';
import { HttpClient } from '../../../src/resolve/index.js';
import { readLocalFile, readRawUrl, readTemplateSource } from '../../../src/resolve/template-source/index.js';
import { FakeRemotes, type FakeRelease } from '../../remote/fake-remotes.js';
import type { Vector, VectorFile, VectorHandler } from '../types.js';
import { tempDir } from '../../helpers/testdir.js';

type Input = Record<string, unknown>;
const text = (b: Uint8Array | null): string | null => (b === null ? null : new TextDecoder().decode(b));

/** Runs `fn` against a fresh fake world; `fn` gets the server and an HttpClient pointed at it. */
async function withWorld<T>(setup: (fake: FakeRemotes) => void, fn: (fake: FakeRemotes, http: HttpClient) => Promise<T>): Promise<T> {
  const fake = await new FakeRemotes().start();
  try {
    setup(fake);
    const http = new HttpClient({
      cache: new ContentCache(tempDir('capiform-vec-')),
      retries: 1,
      retryDelayMs: 1,
      timeoutMs: 5_000,
      origins: {
        'https://github.com': fake.webUrl,
        'https://proxy.golang.org': fake.goproxy,
        'https://gitlab.example.org': `${fake.origin}/gitlab`,
        'https://mirror.example.org': `${fake.origin}/files`,
      },
    });
    return await fn(fake, http);
  } finally {
    await fake.stop();
  }
}

/** Asserts the vector's expected outcome: an error (with message rules) or the value check. */
async function outcome<T>(vector: Vector, run: () => Promise<T>, check: (value: T) => void): Promise<void> {
  const exp = vector.expected;
  let value: T;
  try {
    value = await run();
  } catch (err) {
    if (!exp.error && exp.errorMessage === undefined && exp.errorContains === undefined) throw err;
    const message = (err as Error).message;
    if (typeof exp.errorMessage === 'string') expect(message).toBe(exp.errorMessage);
    if (typeof exp.errorContains === 'string') expect(message).toContain(exp.errorContains);
    return;
  }
  if (exp.error || exp.errorMessage !== undefined) expect.fail(`expected an error, got ${JSON.stringify(value)}`);
  check(value);
}

function goproxyLists(fake: FakeRemotes, lists: unknown): void {
  for (const [path, body] of Object.entries((lists as Record<string, string> | undefined) ?? {})) {
    fake.goproxyLists.set(path.replace(/\/@v\/list$/, ''), body);
  }
}

function ownerRepo(url: string): string {
  const parts = new URL(url).pathname.split('/');
  return `${parts[1]}/${parts[2]}`;
}

function githubRepo(http: HttpClient, fake: FakeRemotes, url: string, goproxy: string, extra: object = {}): GitHubRepository {
  return new GitHubRepository(url, {
    http,
    baseUrl: fake.apiUrl,
    goproxy: goproxySchemeAndHost(goproxy),
    ...extra,
  });
}

/** `releases: { <tag>: { assets?: {name: content}, tag_name? } }` → fake releases of `repo`. */
function addReleases(fake: FakeRemotes, repo: string, releases: unknown): void {
  for (const [tag, r] of Object.entries((releases as Record<string, { assets?: Record<string, string>; tag_name?: string }>) ?? {})) {
    const rel: FakeRelease = { tag, assets: r.assets ?? {} };
    if (r.tag_name !== undefined) rel.tagName = r.tag_name;
    fake.addRelease(repo, rel);
  }
}

/** The fixture template of template-sources.json (its first note). */
function fixtureTemplate(file: VectorFile): string {
  const notes = (file.doc.notes as string[] | undefined) ?? [];
  for (const n of notes) {
    const m = /^Fixture template[^:]*: (".*")$/.exec(n);
    if (m) return JSON.parse(m[1]!) as string;
  }
  throw new Error('template-sources.json: no fixture template note');
}

/** The world of clusterctl's template client tests: a GitHub repo file, a release asset, a local file. */
function templateWorld(fake: FakeRemotes, template: string): void {
  fake.contents.set('kubernetes-sigs/cluster-api/main/config/default/cluster-template.yaml', template);
  fake.addRelease('some-owner/some-repo', { tag: 'v1.0.0', assets: { 'cluster-template.yaml': template } });
  // The test's second release serves its asset behind a redirect (the fake redirects every asset download).
  fake.addRelease('some-owner/some-repo', { tag: 'v2.0.0', assets: { 'cluster-template.yaml': template } });
}

function tmpWithTemplate(template: string): string {
  const dir = tempDir('capiform-tpl-');
  writeFileSync(join(dir, 'cluster-template.yaml'), template);
  return dir;
}

function goError(input: Input, vector: Vector): GoGitHubError {
  const desc = String(input.error ?? (vector.source as { case?: string } | undefined)?.case ?? '');
  if (/RateLimit/i.test(desc)) return { kind: 'rateLimit' };
  const status = /status (\d+)/.exec(desc);
  if (status) return { kind: 'response', status: Number(status[1]), message: `${status[1]} Not Found` };
  return { kind: 'other', message: typeof input.errorText === 'string' ? input.errorText : 'error' };
}

export const handlers: Record<string, VectorHandler> = {
  'clusterctl:goproxy.GetSchemeAndHost': (v) => {
    const got = goproxySchemeAndHost(String(v.input.GOPROXY ?? ''));
    expect(got).toEqual({ scheme: v.expected.scheme, host: v.expected.host });
  },

  'clusterctl:goproxy.GetVersions': (v) =>
    withWorld(
      (fake) => goproxyLists(fake, v.input.lists),
      (_fake, http) =>
        outcome(
          v,
          () => new GoproxyClient(http, { scheme: 'https', host: 'proxy.golang.org' }).listVersions(String(v.input.module)),
          (versions) => expect(versions).toEqual(v.expected.versions),
        ),
    ),

  'clusterctl:github.GetVersions': (v) =>
    withWorld(
      (fake) => {
        goproxyLists(fake, v.input.goproxyLists);
        const releases = v.input.githubReleases as string[] | null | undefined;
        for (const tag of releases ?? []) fake.addRelease(ownerRepo(String(v.input.url)), { tag, assets: {} });
      },
      (fake, http) =>
        outcome(
          v,
          () => githubRepo(http, fake, String(v.input.url), '').listVersions(),
          (versions) => expect(versions).toEqual(v.expected.versions),
        ),
    ),

  'clusterctl:github.getVersions(API only)': (v) =>
    withWorld(
      (fake) => {
        const pages = v.input.githubReleasePages as string[][];
        fake.pageSize = Math.max(1, ...pages.map((p) => p.length));
        for (const tag of pages.flat()) fake.addRelease(ownerRepo(String(v.input.url)), { tag, assets: {} });
      },
      (fake, http) =>
        outcome(
          v,
          () => githubRepo(http, fake, String(v.input.url), 'off').listVersions(),
          (versions) => {
            if (v.expected.versionsAnyOrder) expect([...versions].sort()).toEqual([...(v.expected.versionsAnyOrder as string[])].sort());
            else expect(versions).toEqual(v.expected.versions);
          },
        ),
    ),

  'clusterctl:NewGitHubRepository': (v) =>
    outcome(
      v,
      async () =>
        new GitHubRepository(String(v.input.url), {
          http: new HttpClient({ offline: true }),
          // clusterctl's "missing variableClient" case: a nil variables client is refused.
          variables: 'variablesClient' in v.input && v.input.variablesClient === null ? null : () => undefined,
        }),
      (repo) =>
        expect({
          owner: repo.location.owner,
          repository: repo.location.repository,
          defaultVersion: repo.defaultVersion,
          rootPath: repo.rootPath,
          componentsPath: repo.componentsFile,
        }).toEqual(v.expected),
    ),

  'clusterctl:getComponentsPath': (v) => {
    expect(componentsPathOf(String(v.input.path), String(v.input.rootPath))).toBe(v.expected.componentsPath);
  },

  'clusterctl:github.GetFile': (v) =>
    withWorld(
      (fake) => addReleases(fake, ownerRepo(String(v.input.url)), v.input.releases),
      (fake, http) => {
        const repo = githubRepo(http, fake, String(v.input.url), 'off');
        const version = String(v.input.version);
        const file = String(v.input.file);
        return outcome(
          v,
          async () => {
            const bytes = await repo.getFile(version, file);
            if (bytes === null) throw new Error(repo.explainMissing(version, file) ?? 'not found');
            return text(bytes);
          },
          (content) => expect(content).toBe(v.expected.content),
        );
      },
    ),

  'clusterctl:github.getReleaseByTag': (v) =>
    withWorld(
      (fake) => addReleases(fake, 'o/r', v.input.releases),
      (fake, http) =>
        outcome(
          v,
          async () => {
            const release = await githubRepo(http, fake, 'https://github.com/o/r/releases/v0.4.1/path', 'off').releaseByTag(String(v.input.tag));
            if (!release) throw new Error('404 Not Found');
            return release;
          },
          (release) => expect(release.tag_name).toBe(v.expected.tagName),
        ),
    ),

  'clusterctl:github.downloadFilesFromRelease': (v) =>
    withWorld(
      (fake) => {
        const assets: Record<string, string> = {};
        // "content(redirected)": the asset's bytes are served behind a redirect (the fake always redirects).
        for (const [name, c] of Object.entries(v.input.assets as Record<string, string>)) assets[name] = c.replace(/\(redirected\)$/, '');
        fake.addRelease('o/r', { tag: 'v0.4.1', assets });
        // `redirect: "another-host"`: the 302 points to a different host name (GitHub → its object storage).
        if (v.input.redirect === 'another-host') fake.objectsOrigin = `http://localhost:${fake.port}`;
      },
      (fake, http) => {
        const repo = githubRepo(http, fake, 'https://github.com/o/r/releases/v0.4.1/path', 'off', {
          assetDownload: 'api',
          ...(typeof v.input.token === 'string' ? { token: v.input.token } : {}),
        });
        const file = String(v.input.file);
        return outcome(
          v,
          async () => {
            const bytes = await repo.getFile('v0.4.1', file);
            if (bytes === null) throw new Error(repo.explainMissing('v0.4.1', file) ?? 'not found');
            return text(bytes);
          },
          (content) => {
            expect(content).toBe(v.expected.content);
            const objects = fake.requests.filter((r) => r.area === 'objects');
            if (v.input.redirect === 'another-host') expect(objects.length, 'the download went through the redirect').toBeGreaterThan(0);
            // A token sent to the API never follows a redirect to another host.
            if (v.expected.tokenSentToRedirectHost === false) {
              for (const r of objects) expect(r.headers.authorization).toBeUndefined();
            }
          },
        );
      },
    ),

  'clusterctl:handleGithubErr': (v) => {
    // clusterctl's test calls it as handleGithubErr(err, "message %s and %s", "arg1", "arg2").
    const args = (v.input.args as string[] | undefined) ?? ['arg1', 'arg2'];
    const msg = handleGithubErr(goError(v.input, v), String(v.input.message ?? 'message %s and %s'), args, true);
    expect(msg).toBe(v.expected.errorMessage);
  },

  'clusterctl:cluster.handleGithubErr': (v) => {
    const args = (v.input.args as string[] | undefined) ?? ['arg1', 'arg2'];
    const msg = handleGithubErr(goError(v.input, v), String(v.input.message ?? 'message %s and %s'), args, false);
    expect(msg).toBe(v.expected.errorMessage);
  },

  'clusterctl:NewGitLabRepository': (v) =>
    outcome(
      v,
      async () =>
        new GitLabRepository(String(v.input.url), {
          http: new HttpClient({ offline: true }),
          variables: 'variablesClient' in v.input && v.input.variablesClient === null ? null : () => undefined,
        }),
      (repo) =>
        expect({
          host: repo.location.host,
          projectSlug: repo.location.projectSlug,
          packageName: repo.location.packageName,
          defaultVersion: repo.defaultVersion,
          rootPath: repo.rootPath,
          componentsPath: repo.componentsFile,
        }).toEqual(v.expected),
    ),

  'clusterctl:gitlab.GetFile': (v) =>
    withWorld(
      (fake) => {
        for (const [path, body] of Object.entries((v.input.served as Record<string, string>) ?? {})) fake.gitlabFiles.set(path, body);
      },
      (fake, http) => {
        const url = String(
          v.input.url ?? 'https://<host>/api/v4/projects/group%2Fproject/packages/generic/my-package/v0.4.1/file.yaml',
        ).replace('<host>', 'gitlab.example.org');
        const repo = new GitLabRepository(url, { http });
        const version = String(v.input.version);
        const file = String(v.input.file);
        return outcome(
          v,
          async () => {
            const bytes = await repo.getFile(version, file);
            if (bytes === null) throw new Error(repo.explainMissing(version, file) ?? 'not found');
            return text(bytes);
          },
          (content) => {
            expect(content).toBe(v.expected.content);
            if (typeof v.expected.requestEscapedPath === 'string') {
              expect(fake.requests[0]!.path).toBe(`/gitlab${v.expected.requestEscapedPath}`);
            }
          },
        );
      },
    ),

  'clusterctl:getGitHubFileContent': (v, file) =>
    withWorld(
      (fake) => templateWorld(fake, fixtureTemplate(file)),
      (fake, http) =>
        outcome(
          v,
          () => readTemplateSource(String(v.input.url), { http, cwd: tmpdir(), githubApiUrl: fake.apiUrl }),
          (content) => expect(content).toBe(v.expected.content ?? v.expected.rawTemplate),
        ),
    ),

  'clusterctl:getRawURLFileContent': (v) =>
    withWorld(
      (fake) => fake.files.set('/', String(v.input.served ?? '')),
      (_fake, http) =>
        outcome(
          v,
          async () => text(await readRawUrl(String(v.input.url).replace('<server>', 'mirror.example.org'), { http })),
          (content) => expect(content).toBe(v.expected.content),
        ),
    ),

  'clusterctl:getLocalFileContent': (v, file) => {
    const dir = tmpWithTemplate(fixtureTemplate(file));
    return outcome(
      v,
      async () => text(readLocalFile(String(v.input.path).replace('<tmp>', dir), dir)),
      (content) => expect(content).toBe(v.expected.content ?? v.expected.rawTemplate),
    );
  },

  'clusterctl:GetFromURL': (v, file) => {
    const template = fixtureTemplate(file);
    const dir = tmpWithTemplate(template);
    return withWorld(
      (fake) => templateWorld(fake, template),
      (fake, http) =>
        outcome(
          v,
          () =>
            readTemplateSource(String(v.input.url).replace('<tmp>', dir), {
              http,
              cwd: dir,
              githubApiUrl: fake.apiUrl,
              readStdin: async () => new TextEncoder().encode(template),
            }),
          (raw) => expect(raw).toBe(v.expected.rawTemplate),
        ),
    );
  },
};

/**
 * For the `latestPatchRelease` / `latestRelease` handlers (handlers/resolve.ts): a GitHubRepository over a vector's fake world —
 * `goproxyLists` served by the goproxy, `releasesWithMetadata` as GitHub releases holding `metadata.yaml` (content
 * `metadata`) — with the goproxy enabled as clusterctl's tests have it.
 */
export function withVectorGitHubRepository<T>(
  input: Record<string, unknown>,
  metadata: string,
  fn: (repo: GitHubRepository) => Promise<T>,
): Promise<T> {
  return withWorld(
    (fake) => {
      goproxyLists(fake, input.goproxyLists);
      for (const [repo, tags] of Object.entries((input.releasesWithMetadata as Record<string, string[]>) ?? {})) {
        for (const tag of tags) fake.addRelease(repo, { tag, assets: { 'metadata.yaml': metadata } });
      }
    },
    (fake, http) => fn(githubRepo(http, fake, String(input.url), '')),
  );
}
