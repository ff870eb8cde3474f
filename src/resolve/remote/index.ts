/**
 * The remote repository kinds, registered by hand (the factory switches on the kind and calls this). Settings come
 * from the environment and the config:
 *   GitHub: token `github-token` / GITHUB_TOKEN; API base GITHUB_API_URL (https, or http on a loopback host) >
 *           `https://<host>/api/v3` for a GitHub Enterprise host > https://api.github.com;
 *           GOPROXY (clusterctl semantics) for version lists.
 *   GitLab: token `gitlab-access-token` / GITLAB_ACCESS_TOKEN (Bearer).
 *   HTTPS:  one version, from the URL's folder or the config's `version`.
 *   OCI:    versions from the tag list (or the URL's tag); OCI_USERNAME/OCI_PASSWORD/OCI_ACCESS_TOKEN, else docker's
 *           config.json ($DOCKER_CONFIG, ~/.docker).
 */
import { githubApiUrlFrom } from '../github/client.js';
import { GitHubRepository } from '../github/repository.js';
import { GitLabRepository } from '../gitlab/repository.js';
import { goproxySchemeAndHost } from '../goproxy/index.js';
import { ContentCache, defaultCacheDir } from '../../cache/index.js';
import { HttpClient, type ProgressListener } from '../http/client.js';
import { describeProxies, proxyFetch, proxySettings } from '../http/proxy.js';
import { remoteKindOf } from '../repository-kind.js';
import { HttpsRepository } from '../https/repository.js';
import type { ProviderRepository, RepositoryKind } from '../repository.js';
import { OciRepository, RegistryStore, ociCredentials, parseOciUrl } from '../oci/index.js';

export interface RunHttpOptions {
  /** Never open a socket: answer from the cache or fail naming what is missing (`--offline`). */
  offline?: boolean;
  /** Download progress for the CLI (`progressReporter`). */
  onProgress?: ProgressListener | undefined;
}

/**
 * The HTTP client for one run of a command: the content-addressed cache of `env` (`$CAPIFORM_CACHE_DIR`, XDG), the
 * proxies of `env` (HTTPS_PROXY, HTTP_PROXY, NO_PROXY), offline mode and progress. The caller owns it and passes it
 * down: repositories built on one client share their release listings and files (GitHub's per-client state), so a
 * client must not outlive its run.
 */
export function httpClientFor(env: NodeJS.ProcessEnv, opts: RunHttpOptions = {}): HttpClient {
  const fetch = proxyFetch(env);
  const proxies = proxySettings(env);
  return new HttpClient({
    cache: new ContentCache(defaultCacheDir(env)),
    ...(opts.offline ? { offline: true } : {}),
    ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
    ...(fetch ? { fetch } : {}),
    ...(proxies ? { proxyDescription: describeProxies(proxies) } : {}),
  });
}

export type RemoteKind = Exclude<RepositoryKind, 'local'>;

export interface RemoteRepositoryOptions {
  http: HttpClient;
  env: NodeJS.ProcessEnv;
  /** clusterctl variable lookup (overrides > env > clusterctl.yaml); `github-token`, `gitlab-access-token`. */
  variables?: ((name: string) => string | undefined) | undefined;
  /**
   * The provider was declared with an explicit type: `type: github` allows GitHub Enterprise hosts, `type: gitlab`
   * plain http on a loopback host.
   */
  explicitKind?: boolean;
  /** HTTPS: the version when the URL does not carry it. */
  version?: string | undefined;
  /** GitHub: `auto` (download URL first, API fallback) or `api`. */
  assetDownload?: 'auto' | 'api';
  /** GitHub: where release downloads live (tests and mirrors). */
  webBaseUrl?: string | undefined;
  /** OCI: the provider the artifacts belong to, for the file names cluster-api-operator accepts. */
  release?: { type: string; name: string; componentsFile: string };
}

function variable(opts: RemoteRepositoryOptions, name: string, envName: string): string | undefined {
  const v = opts.variables?.(name) ?? opts.env[envName];
  return v && v !== '' ? v : undefined;
}

export { remoteKindOf };

/** cluster-api-operator's OCI variables, from clusterctl's variables when given (they win over the environment). */
function ociVariables(opts: RemoteRepositoryOptions): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ['OCI_USERNAME', 'OCI_PASSWORD', 'OCI_ACCESS_TOKEN']) {
    const v = opts.variables?.(name);
    if (v !== undefined && v !== '') out[name] = v;
  }
  return out;
}

export function createRemoteRepository(kind: RemoteKind, url: string, opts: RemoteRepositoryOptions): ProviderRepository {
  switch (kind) {
    case 'github': {
      return new GitHubRepository(url, {
        http: opts.http,
        token: variable(opts, 'github-token', 'GITHUB_TOKEN'),
        baseUrl: githubApiUrlFrom(opts.env),
        webBaseUrl: opts.webBaseUrl,
        goproxy: goproxySchemeAndHost(opts.env.GOPROXY),
        anyHost: opts.explicitKind ?? false,
        ...(opts.assetDownload ? { assetDownload: opts.assetDownload } : {}),
      });
    }
    case 'gitlab':
      return new GitLabRepository(url, {
        http: opts.http,
        token: variable(opts, 'gitlab-access-token', 'GITLAB_ACCESS_TOKEN'),
        loopbackHttp: opts.explicitKind ?? false,
      });
    case 'https':
      return new HttpsRepository(url, { http: opts.http, version: opts.version });
    case 'oci': {
      const ref = parseOciUrl(url);
      const credentials = ociCredentials(ref.registry, { ...opts.env, ...ociVariables(opts) });
      const store = new RegistryStore(ref, opts.http, credentials, opts.env);
      const release = opts.release ?? { type: '', name: '', componentsFile: 'components.yaml' };
      return new OciRepository(url, store, release, ref.tag);
    }
  }
}

/** The API base rules every GitHub client follows (https, or http on a loopback host), for the Action's comments. */
export { checkApiBaseUrl, githubApiUrlFrom } from '../github/client.js';
export { proxyFetch } from '../http/proxy.js';
