/**
 * The remote repository kinds, registered by hand (the factory switches on the kind and calls this). Settings come
 * from the environment and the config:
 *   GitHub: token `github-token` / GITHUB_TOKEN; API base config `baseUrl` > GITHUB_API_URL > https://api.github.com;
 *           GOPROXY (clusterctl semantics) for version lists.
 *   GitLab: token `gitlab-access-token` / GITLAB_ACCESS_TOKEN (Bearer).
 *   HTTPS:  one version, from the URL's folder or the config's `version`.
 */
import { GitHubRepository } from './github/repository.js';
import { GitLabRepository } from './gitlab/repository.js';
import { goproxySchemeAndHost } from './goproxy/index.js';
import { ContentCache, defaultCacheDir } from '../lock/cache.js';
import { HttpClient } from './http/client.js';
import { HttpsRepository } from './https/repository.js';
import type { ProviderRepository } from './repository.js';

const defaultClients = new Map<string, HttpClient>();

/**
 * One online HttpClient per cache dir for callers that do not bring their own, so providers of the same GitHub
 * repository (core, bootstrap, control plane) share one release listing within a run.
 */
export function defaultHttpClient(env: NodeJS.ProcessEnv): HttpClient {
  const dir = defaultCacheDir(env);
  let client = defaultClients.get(dir);
  if (!client) {
    client = new HttpClient({ cache: new ContentCache(dir) });
    defaultClients.set(dir, client);
  }
  return client;
}

export type RemoteKind = 'github' | 'gitlab' | 'https';

export interface RemoteRepositoryOptions {
  http: HttpClient;
  env: NodeJS.ProcessEnv;
  /** clusterctl variable lookup (overrides > env > clusterctl.yaml); `github-token`, `gitlab-access-token`. */
  variables?: ((name: string) => string | undefined) | undefined;
  /** GitHub API base URL from the config (wins over GITHUB_API_URL). */
  baseUrl?: string | undefined;
  /** The provider was declared with an explicit type (`type: github` allows GitHub Enterprise hosts). */
  explicitKind?: boolean;
  /** HTTPS: the version when the URL does not carry it. */
  version?: string | undefined;
  /** GitHub: `auto` (download URL first, API fallback) or `api`. */
  assetDownload?: 'auto' | 'api';
  /** GitHub: where release downloads live (tests and mirrors). */
  webBaseUrl?: string | undefined;
}

function variable(opts: RemoteRepositoryOptions, name: string, envName: string): string | undefined {
  const v = opts.variables?.(name) ?? opts.env[envName];
  return v && v !== '' ? v : undefined;
}

/** The kind clusterctl's factory would pick for an https URL, or `https` for anything else (§4.1 plus capiform's mirrors). */
export function remoteKindOf(url: string): RemoteKind {
  try {
    const u = new URL(url);
    if (u.host === 'github.com') return 'github';
    if (u.host.startsWith('gitlab.') && u.pathname.startsWith('/api/v4/projects/')) return 'gitlab';
  } catch {
    // fall through: the repository's own parser reports the error
  }
  return 'https';
}

export function createRemoteRepository(kind: RemoteKind, url: string, opts: RemoteRepositoryOptions): ProviderRepository {
  switch (kind) {
    case 'github': {
      const apiUrl = opts.baseUrl ?? (opts.env.GITHUB_API_URL && opts.env.GITHUB_API_URL !== '' ? opts.env.GITHUB_API_URL : undefined);
      return new GitHubRepository(url, {
        http: opts.http,
        token: variable(opts, 'github-token', 'GITHUB_TOKEN'),
        baseUrl: apiUrl,
        webBaseUrl: opts.webBaseUrl,
        goproxy: goproxySchemeAndHost(opts.env.GOPROXY),
        anyHost: opts.explicitKind ?? false,
        ...(opts.assetDownload ? { assetDownload: opts.assetDownload } : {}),
      });
    }
    case 'gitlab':
      return new GitLabRepository(url, { http: opts.http, token: variable(opts, 'gitlab-access-token', 'GITLAB_ACCESS_TOKEN') });
    case 'https':
      return new HttpsRepository(url, { http: opts.http, version: opts.version });
  }
}
