/**
 * GitHub releases as a provider repository (clusterctl `repository_github.go`).
 *
 * Request budget, cold: the pages of the release listing that version resolution needs (100 releases per page,
 * usually one; see candidates.ts). Each release carries its assets with name, size and sha256 digest, so finding a
 * listed release by tag and an asset by name costs nothing more. Asset bytes come from the release's download URL on
 * the web host, which does not count against the API rate limit; when that fails (private repository, GitHub
 * Enterprise without anonymous access) the asset is fetched through the API (`Accept: application/octet-stream`) and
 * the repository keeps using the API; the `assetDownload: 'api'` option always uses the API. Every JSON answer is
 * revalidated with its ETag (304s do not count against GitHub's limit); assets with a digest already in the cache
 * are not downloaded at all.
 */
import { posix } from 'node:path';
import type { Octokit } from '@octokit/rest';
import { IntegrityError, ResolutionError } from '../../errors.js';
import type { HttpClient } from '../http/client.js';
import { OfflineError } from '../http/errors.js';
import { GoproxyClient, type GoproxyTarget } from '../goproxy/index.js';
import { PromiseMemo } from '../memo.js';
import type { ProviderRepository, VersionPage } from '../repository.js';
import { createOctokit, defaultGitHubApiUrl, githubFailure } from './client.js';
import { releaseListSchema, releaseSchema, type Release, type ReleaseAsset } from './schema.js';
import { isSemanticVersion } from './semantic.js';
import { githubDomain, parseGitHubUrl, type GitHubLocation } from './url.js';
import { sha256Hex } from '../../cache/index.js';

export interface GitHubRepositoryOptions {
  http: HttpClient;
  /** `github-token` / `GITHUB_TOKEN`. */
  token?: string | undefined;
  /**
   * clusterctl's variables client, read for `github-token` when no `token` is given. `null` is refused like
   * clusterctl's nil client (`newGitHubRepository`); leave it out when the caller resolves the token itself.
   */
  variables?: ((name: string) => string | undefined) | null;
  /** API base URL (`GITHUB_API_URL`, checked by the caller); default https://api.github.com, `https://<host>/api/v3` for GHE. */
  baseUrl?: string | undefined;
  /** Where release downloads live: default `https://<host of the provider URL>`. */
  webBaseUrl?: string | undefined;
  /** From `goproxySchemeAndHost(GOPROXY)`; `null` or an empty host disables the proxy. */
  goproxy?: GoproxyTarget | null | undefined;
  /** `auto` (download URL, API as fallback) or `api` (always the API). Default `auto`. */
  assetDownload?: 'auto' | 'api';
  /** Accept any https host (GitHub Enterprise), as for providers declared `type: github`. */
  anyHost?: boolean;
}

/** What a release says about one of its files, before downloading it. */
export interface RemoteFileInfo {
  url: string;
  size?: number;
  /** From GitHub's asset `digest` (`sha256:<hex>`), when reported. */
  sha256?: string;
}

export class GitHubRepository implements ProviderRepository {
  readonly kind = 'github' as const;
  readonly url: string;
  readonly componentsFile: string;
  /** The URL's version segment; `createRepository` replaces `latest` with the resolved version. */
  defaultVersion: string;
  readonly rootPath: string;
  readonly location: GitHubLocation;
  readonly apiBaseUrl: string;
  private readonly http: HttpClient;
  private readonly octokit: Octokit;
  private readonly goproxy: GoproxyClient | null;
  private readonly webBaseUrl: string;
  private readonly assetDownload: 'auto' | 'api';
  /** Shared by every provider of the same GitHub repository in this process (core, bootstrap, control plane). */
  private readonly state: RepoState;

  constructor(url: string, opts: GitHubRepositoryOptions) {
    if (opts.variables === null) throw new ResolutionError("invalid arguments: configVariablesClient can't be nil");
    this.url = url;
    this.location = parseGitHubUrl(url, { anyHost: opts.anyHost ?? false });
    this.componentsFile = this.location.componentsPath;
    this.defaultVersion = this.location.defaultVersion;
    this.rootPath = this.location.rootPath;
    this.http = opts.http;
    const enterprise = this.location.host !== githubDomain;
    this.apiBaseUrl = (opts.baseUrl ?? (enterprise ? `https://${this.location.host}/api/v3` : defaultGitHubApiUrl)).replace(/\/+$/, '');
    this.webBaseUrl = (opts.webBaseUrl ?? `https://${this.location.host}`).replace(/\/+$/, '');
    this.octokit = createOctokit({ http: opts.http, token: opts.token ?? opts.variables?.('github-token'), baseUrl: this.apiBaseUrl });
    const proxy = opts.goproxy;
    this.goproxy = proxy && proxy.host !== '' ? new GoproxyClient(opts.http, proxy) : null;
    this.assetDownload = opts.assetDownload ?? 'auto';
    this.state = this.http.shared(`github ${this.apiBaseUrl} ${this.webBaseUrl} ${this.slug} ${proxy?.host ?? ''}`, newRepoState);
  }

  private get slug(): string {
    return `${this.location.owner}/${this.location.repository}`;
  }

  /** `GetVersions`: the Go module proxy when enabled, else (or when it has nothing) the releases API, every page. */
  async listVersions(): Promise<string[]> {
    const proxied = await this.goproxyVersions();
    if (proxied) return proxied;
    const releases = await this.listReleases();
    return releases.filter((r) => isSemanticVersion(r.tag_name)).map((r) => r.tag_name);
  }

  /**
   * One page of the releases API (100 releases, newest created first), so resolution can stop paging once its
   * candidates are settled (candidates.ts). The goproxy's list is one page.
   */
  async listVersionPage(index: number): Promise<VersionPage> {
    const proxied = await this.goproxyVersions();
    if (proxied) return { versions: index === 0 ? proxied : [], last: true };
    const s = this.state;
    while (s.pages.length <= index && !s.complete) await this.readNextPage();
    return { versions: s.pages[index] ?? [], last: s.complete && index >= s.pages.length - 1 };
  }

  /** The goproxy's version list, or `null` when it is disabled or has nothing (clusterctl then uses the API). */
  private goproxyVersions(): Promise<string[] | null> {
    const proxy = this.goproxy;
    if (!proxy) return Promise.resolve(null);
    // clusterctl logs a failure and falls back to the GitHub API (offline: to the cached API listing).
    this.state.goproxyVersions ??= proxy.listVersions(`${this.location.host}/${this.slug}`).catch(() => null);
    return this.state.goproxyVersions;
  }

  /**
   * The releases API, every page (100 per page), drafts dropped, in API order. Offline, the pages an online run read
   * (`capiform lock` reads only those its choice needs): `plan upgrade`, always offline, then sees the newest releases
   * instead of failing on a page no online run needed.
   */
  async listReleases(): Promise<Release[]> {
    while (!this.state.complete) {
      try {
        await this.readNextPage();
      } catch (err) {
        if (err instanceof OfflineError && this.state.pages.length > 0) break;
        throw err;
      }
    }
    return [...this.state.listing.values()];
  }

  /** Reads the next page of the listing; concurrent callers (core, bootstrap, control plane) take turns. */
  private readNextPage(): Promise<void> {
    const s = this.state;
    const read = s.reading.then(() => this.readPage());
    s.reading = read.catch(() => undefined);
    return read;
  }

  private async readPage(): Promise<void> {
    const s = this.state;
    if (s.complete) return;
    s.pager ??= this.octokit.paginate
      .iterator(this.octokit.rest.repos.listReleases, {
        owner: this.location.owner,
        repo: this.location.repository,
        per_page: 100,
        headers: { 'x-capiform-what': `release list of ${this.slug}` },
      })
      [Symbol.asyncIterator]();
    let next: IteratorResult<{ data: unknown; headers: { link?: string | undefined } }>;
    try {
      next = await s.pager.next();
    } catch (err) {
      const f = githubFailure(err);
      throw new ResolutionError(`failed to get the list of releases of ${this.slug}: ${f.status} ${f.message}`, {
        where: this.url,
        hint:
          f.status === 404 || f.status === 401
            ? `check the owner and repository in the URL; private repositories need GITHUB_TOKEN${
                this.apiBaseUrl.startsWith('http:') ? `, which is not sent over plain http:// (${this.apiBaseUrl})` : ''
              }`
            : undefined,
      });
    }
    if (next.done) {
      s.complete = true;
      return;
    }
    const parsed = releaseListSchema.safeParse(next.value.data);
    if (!parsed.success) {
      throw new ResolutionError(`unexpected answer from the GitHub releases API for ${this.slug}: ${parsed.error.message}`);
    }
    const versions: string[] = [];
    for (const r of parsed.data) {
      if (r.draft || s.listing.has(r.tag_name)) continue;
      s.listing.set(r.tag_name, r);
      if (isSemanticVersion(r.tag_name)) versions.push(r.tag_name);
    }
    s.pages.push(versions);
    s.listed = true;
    if (!/\brel="next"/.test(next.value.headers.link ?? '')) s.complete = true;
  }

  /**
   * `getReleaseByTag`: from the listing when it holds the tag (or was read to the end), else one API call; `null`
   * when there is no such release.
   */
  releaseByTag(tag: string): Promise<Release | null> {
    const listed = this.state.listing.get(tag);
    if (listed || this.state.complete) return Promise.resolve(listed ?? null);
    let p = this.state.byTag.get(tag);
    if (!p) {
      p = this.fetchRelease(tag);
      this.state.byTag.set(tag, p);
    }
    return p;
  }

  private async fetchRelease(tag: string): Promise<Release | null> {
    let data: unknown;
    try {
      const res = await this.octokit.rest.repos.getReleaseByTag({
        owner: this.location.owner,
        repo: this.location.repository,
        tag,
        headers: { 'x-capiform-what': `release ${tag} of ${this.slug}` },
      });
      data = res.data;
    } catch (err) {
      const f = githubFailure(err);
      if (f.status === 404) return null;
      throw new ResolutionError(`failed to get GitHub release ${tag}: ${f.status} ${f.message}`, { where: this.url });
    }
    const parsed = releaseSchema.safeParse(data);
    if (!parsed.success) throw new ResolutionError(`unexpected answer from the GitHub API for release ${tag}: ${parsed.error.message}`);
    return parsed.data.draft ? null : parsed.data;
  }

  private assetName(file: string): string {
    return posix.join(this.rootPath, file);
  }

  fileLocation(version: string, file: string): string {
    return `${this.webBaseUrl}/${this.slug}/releases/download/${version}/${this.assetName(file)}`;
  }

  async listFiles(version: string): Promise<string[] | null> {
    const release = await this.releaseByTag(version);
    if (!release) return null;
    const prefix = this.rootPath === '.' ? '' : `${this.rootPath}/`;
    return release.assets
      .map((a) => a.name)
      .filter((n) => n.startsWith(prefix))
      .map((n) => n.slice(prefix.length))
      .sort();
  }

  /** URL, size and sha256 of a release file as GitHub reports them, or `null` when there is no such file. */
  async fileInfo(version: string, file: string): Promise<RemoteFileInfo | null> {
    const release = await this.releaseByTag(version);
    const asset = release?.assets.find((a) => a.name === this.assetName(file));
    if (!asset) return null;
    const sha = digestOf(asset);
    return {
      url: this.fileLocation(version, file),
      ...(asset.size !== undefined ? { size: asset.size } : {}),
      ...(sha ? { sha256: sha } : {}),
    };
  }

  /** Why the last `getFile(version, file)` returned `null`, in clusterctl's words. */
  explainMissing(version: string, file: string): string | undefined {
    return this.state.missing.get(`${version}\n${this.assetName(file)}`);
  }

  getFile(version: string, file: string): Promise<Uint8Array | null> {
    const key = `${version}\n${this.assetName(file)}`;
    return this.state.files.get(key, () => this.loadFile(version, file));
  }

  private async loadFile(version: string, file: string): Promise<Uint8Array | null> {
    const name = this.assetName(file);
    const what = `${name} (${this.slug} ${version})`;
    // clusterctl: with the goproxy enabled, a plain GET of the download URL comes first (no API call).
    if (this.goproxy && !this.state.listed && this.assetDownload === 'auto' && !this.state.browserDownloadsFail) {
      const res = await this.http.request({ url: this.fileLocation(version, file), service: 'github', what, revalidate: true });
      if (res.status === 200) {
        await this.http.cache?.put(res.body);
        return res.body;
      }
    }
    const release = await this.releaseByTag(version);
    if (!release) {
      this.state.missing.set(
        `${version}\n${name}`,
        `release not found for version ${version}, please retry later or set "GOPROXY=off" to get the current stable release`,
      );
      return null;
    }
    const asset = release.assets.find((a) => a.name === name);
    if (!asset) {
      this.state.missing.set(`${version}\n${name}`, `failed to get file ${JSON.stringify(name)} from ${JSON.stringify(release.tag_name)} release`);
      return null;
    }
    return this.downloadAsset(release, asset, what);
  }

  /** Bytes of an asset, checked against GitHub's sha256 digest before they reach the cache. */
  async downloadAsset(release: Release, asset: ReleaseAsset, what: string): Promise<Uint8Array> {
    const expected = digestOf(asset);
    const cache = this.http.cache;
    if (expected && cache) {
      const cached = await cache.get(expected);
      if (cached) return cached;
    }
    let bytes: Uint8Array | null = null;
    if (this.assetDownload === 'auto' && !this.state.browserDownloadsFail) {
      const res = await this.http.request({ url: asset.browser_download_url, service: 'github', what, revalidate: !expected });
      if (res.status === 200) bytes = res.body;
      else if ([401, 403, 404].includes(res.status)) this.state.browserDownloadsFail = true;
      else throw new ResolutionError(`failed to download ${what}: ${res.status} from ${this.http.redact(asset.browser_download_url)}`);
    }
    if (bytes === null) bytes = await this.downloadThroughApi(release, asset, what);
    if (expected) {
      const actual = sha256Hex(bytes);
      if (actual !== expected) {
        throw new IntegrityError(
          `digest mismatch for asset ${JSON.stringify(asset.name)} of release ${release.tag_name} (${this.slug}): GitHub reports sha256 ${expected}, the downloaded bytes have sha256 ${actual}`,
          { where: this.fileLocation(release.tag_name, asset.name), hint: 'the download was truncated or tampered with; nothing was cached. Run again, and report it upstream if it persists' },
        );
      }
    }
    await cache?.put(bytes);
    return bytes;
  }

  private async downloadThroughApi(release: Release, asset: ReleaseAsset, what: string): Promise<Uint8Array> {
    try {
      const res = await this.octokit.request('GET /repos/{owner}/{repo}/releases/assets/{asset_id}', {
        owner: this.location.owner,
        repo: this.location.repository,
        asset_id: asset.id,
        headers: { accept: 'application/octet-stream', 'x-capiform-what': what },
      });
      const data = res.data as unknown;
      if (data instanceof ArrayBuffer) return new Uint8Array(data);
      if (typeof data === 'string') return new TextEncoder().encode(data);
      return new TextEncoder().encode(JSON.stringify(data));
    } catch (err) {
      const f = githubFailure(err);
      throw new ResolutionError(
        `failed to download files from GitHub release ${release.tag_name}: failed to download asset ${JSON.stringify(asset.name)}: ${f.status} ${f.message}`,
        { where: this.fileLocation(release.tag_name, asset.name) },
      );
    }
  }
}

interface RepoState {
  goproxyVersions?: Promise<string[] | null>;
  /** The releases read so far through the API, by tag, in API order. */
  listing: Map<string, Release>;
  /** The semver tags of each page read. */
  pages: string[][];
  /** Some page of the listing was read through the API. */
  listed: boolean;
  /** The listing was read to its last page. */
  complete: boolean;
  pager?: AsyncIterator<{ data: unknown; headers: { link?: string | undefined } }>;
  /** The page being read: the next one waits for it. */
  reading: Promise<void>;
  byTag: Map<string, Promise<Release | null>>;
  files: PromiseMemo<string, Uint8Array | null>;
  missing: Map<string, string>;
  browserDownloadsFail: boolean;
}

/** clusterctl caches versions and files per process; capiform per HTTP client (one per run). */
function newRepoState(): RepoState {
  return {
    listing: new Map(),
    pages: [],
    listed: false,
    complete: false,
    reading: Promise.resolve(),
    byTag: new Map(),
    files: new PromiseMemo(),
    missing: new Map(),
    browserDownloadsFail: false,
  };
}

/** `sha256:<hex>` → `<hex>`; other algorithms are ignored. */
export function digestOf(asset: ReleaseAsset): string | undefined {
  const d = asset.digest;
  if (!d) return undefined;
  const m = /^sha256:([0-9a-fA-F]{64})$/.exec(d);
  return m ? m[1]!.toLowerCase() : undefined;
}
