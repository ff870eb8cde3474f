/**
 * GitLab generic packages as a provider repository (clusterctl `repository_gitlab.go`). GitLab cannot list the
 * versions of a generic package, so the repository offers exactly the version in its URL; pin others explicitly.
 * Unlike clusterctl, any host works (clusterctl only recognises hosts starting with `gitlab.`): declare the provider
 * `type: gitlab` in the config.
 */
import { NetworkError, ResolutionError } from '../../errors.js';
import type { HttpClient } from '../http/client.js';
import type { ProviderRepository } from '../repository.js';
import { PromiseMemo } from '../memo.js';
import { parseGitLabUrl, type GitLabLocation } from './url.js';

export interface GitLabRepositoryOptions {
  http: HttpClient;
  /** `gitlab-access-token` / `GITLAB_ACCESS_TOKEN`, sent as `Authorization: Bearer …`. */
  token?: string | undefined;
  /**
   * clusterctl's variables client, read for `gitlab-access-token` when no `token` is given. `null` is refused like
   * clusterctl's nil client.
   */
  variables?: ((name: string) => string | undefined) | null;
  /** Per request; clusterctl uses 30 s. */
  timeoutMs?: number;
  /** Accept `http://` on a loopback host (a provider declared `type: gitlab` pointing at a local mirror). */
  loopbackHttp?: boolean;
}

export class GitLabRepository implements ProviderRepository {
  readonly kind = 'gitlab' as const;
  readonly url: string;
  readonly componentsFile: string;
  readonly defaultVersion: string;
  readonly rootPath = '.';
  readonly location: GitLabLocation;
  private readonly http: HttpClient;
  private readonly token: string | undefined;
  private readonly timeoutMs: number;
  private readonly files = new PromiseMemo<string, Uint8Array | null>();
  private readonly missing = new Map<string, string>();

  constructor(url: string, opts: GitLabRepositoryOptions) {
    if (opts.variables === null) throw new ResolutionError("invalid arguments: configVariablesClient can't be nil");
    this.url = url;
    this.location = parseGitLabUrl(url, { loopbackHttp: opts.loopbackHttp ?? false });
    this.componentsFile = this.location.componentsPath;
    this.defaultVersion = this.location.defaultVersion;
    this.http = opts.http;
    const token = opts.token ?? opts.variables?.('gitlab-access-token');
    this.token = token && token !== '' ? token : undefined;
    this.http.addSecret(this.token);
    this.timeoutMs = opts.timeoutMs ?? 30_000;
  }

  /** `GetVersions` = `[defaultVersion]`. */
  async listVersions(): Promise<string[]> {
    return [this.defaultVersion];
  }

  fileLocation(version: string, file: string): string {
    const l = this.location;
    return `${l.scheme}://${l.host}/api/v4/projects/${l.projectSlug}/packages/generic/${l.packageName}/${version}/${file}`;
  }

  /** Why `getFile(version, file)` returned `null`, in clusterctl's words. */
  explainMissing(version: string, file: string): string | undefined {
    return this.missing.get(`${version}\n${file}`);
  }

  getFile(version: string, file: string): Promise<Uint8Array | null> {
    const key = `${version}\n${file}`;
    return this.files.get(key, () => this.fetchFile(version, file));
  }

  /**
   * `GetFile`: 200 → bytes; 404 → `null` (not found, so `latest`-style probing and the overrides layer can move on);
   * 401 → clusterctl's credentials message; any other status → clusterctl's `…, got <code>`.
   */
  private async fetchFile(version: string, file: string): Promise<Uint8Array | null> {
    const url = this.fileLocation(version, file);
    const prefix = `failed to get file ${JSON.stringify(file)} with version ${JSON.stringify(version)} from ${JSON.stringify(url)}`;
    const res = await this.http.request({
      url,
      service: 'gitlab',
      what: `${file} (${decodeURIComponent(this.location.projectSlug)} ${this.location.packageName} ${version})`,
      headers: this.token ? { authorization: `Bearer ${this.token}` } : {},
      timeoutMs: this.timeoutMs,
      revalidate: true,
    });
    if (res.status === 200) {
      await this.http.cache?.put(res.body);
      return res.body;
    }
    if (res.status === 404) {
      this.missing.set(`${version}\n${file}`, `${prefix}, got 404`);
      return null;
    }
    if (res.status === 401) {
      throw new NetworkError(`${prefix}: unauthorized access, please check your credentials`, {
        hint:
          this.location.scheme === 'http'
            ? 'no token is sent over plain http://; serve the repository over https:// for a token to be sent'
            : 'set GITLAB_ACCESS_TOKEN (or the gitlab-access-token variable) to a token with read_package_registry',
      });
    }
    throw new NetworkError(`${prefix}, got ${res.status}`);
  }
}
