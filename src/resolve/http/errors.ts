/**
 * The network failures every remote source shares. All are NetworkErrors (exit 3); the subclasses let callers and
 * tests tell them apart without parsing messages.
 */
import { NetworkError, type ErrorDetails } from '../../errors.js';

/** clusterctl's rate-limit text (`repository_github.go`, `cluster/template.go`). */
export const githubRateLimitMessage =
  'rate limit for github api has been reached. Please wait one hour or get a personal API token and assign it to the GITHUB_TOKEN environment variable';

/** 403/429 with rate-limit headers. `resetAt` comes from `x-ratelimit-reset` or `retry-after` when the server sent one. */
export class RateLimitError extends NetworkError {
  readonly resetAt: Date | undefined;
  readonly host: string;
  constructor(message: string, host: string, resetAt: Date | undefined, details: ErrorDetails = {}) {
    super(message, details, 'E_RATE_LIMIT');
    this.host = host;
    this.resetAt = resetAt;
  }
}

/** `--offline` and the cache cannot answer: names what is missing and how to get it. */
export class OfflineError extends NetworkError {
  readonly url: string;
  constructor(what: string, url: string, details: ErrorDetails = {}) {
    super(`offline: ${what} is not in the cache (${url})`, {
      hint:
        'run the same command once without --offline on a machine with network access (`capiform lock` fetches everything the lock needs into the cache); lock and render also read releases from an air-gapped bundle with --bundle FILE',
      ...details,
    }, 'E_OFFLINE');
    this.url = url;
  }
}

/** A remote answered with a status the caller does not handle (after retries for 5xx). */
export class HttpStatusError extends NetworkError {
  readonly status: number;
  readonly url: string;
  constructor(message: string, status: number, url: string, details: ErrorDetails = {}) {
    super(message, details, 'E_HTTP_STATUS');
    this.status = status;
    this.url = url;
  }
}
