/**
 * octokit (`@octokit/rest`: endpoints, pagination) on top of capiform's HTTP layer, which it reaches through
 * `request.fetch`: retries, rate limits, ETags, counting, offline and redaction stay in one place.
 */
import { Octokit } from '@octokit/rest';
import { CapiformError, ConfigError, NetworkError } from '../../errors.js';
import type { HttpClient } from '../http/client.js';
import { githubRateLimitMessage } from '../http/errors.js';
import { redactUrl } from '../http/redact.js';
import { isLoopbackHost } from '../repository-kind.js';

export const defaultGitHubApiUrl = 'https://api.github.com';

/**
 * `GITHUB_API_URL` (GitHub Enterprise: `https://ghe.example.com/api/v3`), or `undefined` when unset. A base URL over
 * plain http would expose the token and every answer to the network, so it is refused except on a loopback host
 * (a local test server), where the HTTP layer still sends no token.
 */
export function githubApiUrlFrom(env: NodeJS.ProcessEnv): string | undefined {
  const value = env.GITHUB_API_URL;
  if (value === undefined || value === '') return undefined;
  checkApiBaseUrl('GITHUB_API_URL', value);
  return value;
}

/** An API base URL read from `variable`: https, or http on a loopback host; else a ConfigError naming both. */
export function checkApiBaseUrl(variable: string, value: string): void {
  const shown = `${variable}=${redactUrl(value)}`;
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new ConfigError(`${shown} is not a URL`, { where: variable, hint: `set ${variable} to the API root, e.g. https://ghe.example.com/api/v3` });
  }
  if (u.protocol === 'https:' || (u.protocol === 'http:' && isLoopbackHost(u.host))) return;
  throw new ConfigError(`${shown} is not an https:// URL: the API would be read, and a token sent, in plain text`, {
    where: variable,
    hint: `use https://${u.host}${u.pathname === '/' ? '' : u.pathname}; plain http:// is accepted only for loopback hosts (127.0.0.1, localhost), and no token is sent over it`,
  });
}

export interface GitHubApiOptions {
  http: HttpClient;
  /** `github-token` / `GITHUB_TOKEN`. Sent only to the API host, never printed. */
  token?: string | undefined;
  /** GitHub Enterprise: `https://ghe.example.com/api/v3`. Default `GITHUB_API_URL` or https://api.github.com. */
  baseUrl?: string | undefined;
}

const silentLog = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

export function createOctokit(opts: GitHubApiOptions): Octokit {
  opts.http.addSecret(opts.token);
  return new Octokit({
    ...(opts.token ? { auth: opts.token } : {}),
    baseUrl: (opts.baseUrl ?? defaultGitHubApiUrl).replace(/\/+$/, ''),
    userAgent: 'capiform',
    log: silentLog,
    request: { fetch: opts.http.fetchFor('github') },
  });
}

/** An octokit failure: the HTTP layer's own error (rate limit, offline, retries exhausted) or a status. */
export interface GitHubFailure {
  status: number;
  message: string;
}

/** Rethrows capiform's errors that octokit wrapped; returns the HTTP status of anything else. */
export function githubFailure(err: unknown): GitHubFailure {
  if (err instanceof CapiformError) throw err;
  const e = err as { status?: unknown; cause?: unknown; message?: unknown };
  if (e.cause instanceof CapiformError) throw e.cause;
  if (typeof e.status === 'number' && e.status !== 500) {
    return { status: e.status, message: typeof e.message === 'string' ? e.message : String(err) };
  }
  const detail = e.cause instanceof Error ? e.cause.message : typeof e.message === 'string' ? e.message : String(err);
  throw new NetworkError(`GitHub API request failed: ${detail}`);
}

/** What `handleGithubErr` receives in clusterctl: a rate-limit error, an API error response, or anything else. */
export type GoGitHubError =
  | { kind: 'rateLimit' }
  | { kind: 'response'; status: number; message?: string }
  | { kind: 'other'; message: string };

/**
 * `gitHubRepository.handleGithubErr` (repository client: `repository: true`) and the template client's
 * `handleGithubErr`: rate limit → clusterctl's fixed text; a 404 response (repository client only) → `404 Not Found`;
 * anything else → `<message formatted with args>: <err>`.
 */
export function handleGithubErr(err: GoGitHubError, message: string, args: string[], repository: boolean): string {
  if (err.kind === 'rateLimit') return githubRateLimitMessage;
  if (repository && err.kind === 'response' && err.status === 404) return '404 Not Found';
  let i = 0;
  const formatted = message.replace(/%[sqvd]/g, (verb) => {
    const a = args[i++] ?? '';
    return verb === '%q' ? JSON.stringify(a) : a;
  });
  const inner = err.kind === 'other' ? err.message : (err.message ?? `${err.status}`);
  return `${formatted}: ${inner}`;
}
