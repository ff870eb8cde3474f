/**
 * The one HTTP layer every remote source uses (GitHub through octokit's `request.fetch`, GitLab, HTTPS, goproxy,
 * template URLs). It owns what every source needs once: timeouts, bounded retries with backoff on 5xx and broken
 * connections, rate-limit errors that say when the limit resets, ETag revalidation against the cache, request counts
 * per host (for budgets and tests), progress events, offline mode (no socket is ever opened), credential redaction, and
 * credentials sent over https only (never over plain http, nor through a redirect).
 *
 * Statuses other than 5xx/429/rate-limited 403 are returned to the caller, which knows what a 404 means for it
 * ("not found" is a value; an unhealthy upstream is an error).
 */
import { NetworkError } from '../../errors.js';
import { sha256Hex, type ContentCache, type HttpCacheEntry } from '../../cache/index.js';
import { HttpStatusError, OfflineError, RateLimitError, githubRateLimitMessage } from './errors.js';
import { Redactor, redactUrl } from './redact.js';
import { isLoopbackHost } from '../repository-kind.js';

/** A download as the CLI shows it: what it is, how far it got. */
export interface ProgressEvent {
  type: 'start' | 'progress' | 'done';
  /** Human label: `core-components.yaml (cluster-api v1.13.5)` or the URL. */
  what: string;
  /** Redacted URL. */
  url: string;
  bytes: number;
  /** From `content-length`, when the server sent one. */
  total?: number;
  /** `done` only: the bytes came from the cache after a 304 or offline. */
  cached?: boolean;
}

export type ProgressListener = (event: ProgressEvent) => void;

/** Which upstream a request goes to; decides the wording of rate-limit errors. */
export type HttpService = 'github' | 'gitlab' | 'goproxy' | 'https' | 'oci';

export interface HttpClientOptions {
  /** Never open a socket: answer from the cache (ETag store) or fail with an OfflineError. */
  offline?: boolean;
  /** Stores listing bodies and their ETags; without it there are no conditional requests. */
  cache?: ContentCache;
  /** Per attempt, including reading the body. Default 30 s (clusterctl's GitLab timeout). */
  timeoutMs?: number;
  /** Extra attempts after a 5xx, a reset connection, a timeout or a truncated body. Default 3. */
  retries?: number;
  /** First backoff; doubles per attempt, capped at 10 s. Default 500 ms. */
  retryDelayMs?: number;
  onProgress?: ProgressListener;
  /**
   * Origin rewrites, like curl's `--connect-to`: `{ 'https://github.com': 'http://127.0.0.1:8080' }`. Used for
   * mirrors and by the tests; URLs in errors and counts keep the original origin.
   */
  origins?: Record<string, string>;
  /** The fetch implementation (default: Node's global fetch). */
  fetch?: typeof fetch;
  /** The proxies in use (credentials removed), named in the hint of a failed request. */
  proxyDescription?: string;
  userAgent?: string;
}

export interface HttpRequest {
  url: string;
  method?: 'GET' | 'HEAD';
  headers?: Record<string, string>;
  /** For errors and progress: `metadata.yaml of cluster-api v1.13.5`. Default: the URL. */
  what?: string;
  /**
   * Use the HTTP store: remember a 200 answer, send `If-None-Match` when it had an ETag, reuse the stored body on
   * 304, and answer from it offline.
   */
  revalidate?: boolean;
  service?: HttpService;
  timeoutMs?: number;
  /**
   * Send the request's credentials over plain `http://` when the target is a loopback host (an OCI registry on this
   * machine, which docker also talks to without TLS). Never through a redirect, never to another host.
   */
  loopbackCredentials?: boolean;
}

export interface HttpResponse {
  status: number;
  headers: Headers;
  body: Uint8Array;
  /** The URL that answered (after redirects), as requested (before origin rewrites). */
  url: string;
  /** The body came from the cache (a 304, or offline). */
  fromCache: boolean;
}

interface RequestRecord {
  method: string;
  url: string;
  host: string;
  status: number | 'error';
}

const retryableStatus = new Set([500, 502, 503, 504]);
const redirectStatus = new Set([301, 302, 303, 307, 308]);
const replayHeaders = ['content-type', 'link', 'etag', 'last-modified'];

class RetryableFailure extends Error {}

export class HttpClient {
  readonly offline: boolean;
  readonly cache: ContentCache | undefined;
  /** Every request that left the process, in order (redacted). */
  readonly log: RequestRecord[] = [];
  private readonly opts: HttpClientOptions;
  private readonly redactor = new Redactor();
  private readonly doFetch: typeof fetch;
  private readonly runState = new Map<string, unknown>();

  constructor(opts: HttpClientOptions = {}) {
    this.opts = opts;
    this.offline = opts.offline ?? false;
    this.cache = opts.cache;
    this.doFetch = opts.fetch ?? globalThis.fetch.bind(globalThis);
  }

  /**
   * What the repositories built on this client keep in memory (GitHub's release listings and files), by `key`, made
   * by `create` on first use. A client serves one run, so this state ends with the run and is shared within it.
   */
  shared<T>(key: string, create: () => T): T {
    if (!this.runState.has(key)) this.runState.set(key, create());
    // Each key is written only here, by the one caller that owns the key's prefix and its type.
    return this.runState.get(key) as T;
  }

  /** Requests sent to `host` (`api.github.com`, `127.0.0.1:4567`), or to every host. Retries and redirects count. */
  requestCount(host?: string): number {
    return host === undefined ? this.log.length : this.log.filter((r) => r.host === host).length;
  }

  countsByHost(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const r of this.log) out[r.host] = (out[r.host] ?? 0) + 1;
    return out;
  }

  /** Registers a credential so it is masked wherever this client reports text. */
  addSecret(secret: string | undefined): void {
    this.redactor.add(secret);
  }

  redact(text: string): string {
    return this.redactor.text(text);
  }

  async request(req: HttpRequest): Promise<HttpResponse> {
    const method = req.method ?? 'GET';
    const headers = { ...(req.headers ?? {}) };
    if (this.opts.userAgent && !hasHeader(headers, 'user-agent')) headers['user-agent'] = this.opts.userAgent;
    this.redactor.addFromHeaders(headers);
    const shownUrl = this.redactor.text(req.url);
    const what = req.what ?? shownUrl;
    const cacheKey = req.revalidate && this.cache ? this.cacheKey(method, req.url, headers) : undefined;
    const stored = cacheKey && this.cache ? await this.cache.getHttpEntry(cacheKey) : null;
    const storedBody = stored && this.cache ? await this.readStored(stored) : null;

    if (this.offline) {
      if (stored && storedBody) return this.fromStored(stored, storedBody, req.url, what);
      throw new OfflineError(what, shownUrl);
    }
    if (stored && storedBody && stored.etag && stored.status === 200) headers['if-none-match'] = stored.etag;

    const attempts = (this.opts.retries ?? 3) + 1;
    let lastFailure = '';
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (attempt > 1) await sleep(Math.min((this.opts.retryDelayMs ?? 500) * 2 ** (attempt - 2), 10_000));
      let res: HttpResponse;
      try {
        res = await this.once(method, req.url, headers, what, req.timeoutMs ?? this.opts.timeoutMs ?? 30_000, req.loopbackCredentials ?? false);
      } catch (err) {
        if (!(err instanceof RetryableFailure)) throw err;
        lastFailure = err.message;
        continue;
      }
      if (res.status === 304 && stored && storedBody) return this.fromStored(stored, storedBody, res.url, what);
      const limited = this.rateLimit(res, req.service);
      if (limited) throw limited;
      if (retryableStatus.has(res.status)) {
        lastFailure = `${res.status} ${statusText(res.status)}`;
        continue;
      }
      // Stored even without an ETag, and "not found" too (goproxy probes `/v2/@v/list`, latest probes
      // metadata.yaml): offline runs answer exactly as the online run saw it; online runs simply fetch again.
      if (cacheKey && this.cache && (res.status === 200 || res.status === 404 || res.status === 410)) {
        await this.store(cacheKey, res);
      }
      return res;
    }
    const proxy = this.opts.proxyDescription;
    throw new NetworkError(`${method} ${shownUrl} failed after ${attempts} ${attempts === 1 ? "attempt" : "attempts"}: ${lastFailure}`, {
      hint: proxy
        ? `requests go through ${proxy}: check the proxy, or list the host in NO_PROXY; with a warm cache, --offline works without the network`
        : 'check the network connection; with a warm cache, --offline works without it',
    });
  }

  /** `request` that turns every status other than 200 into an HttpStatusError naming `what`. */
  async get(req: HttpRequest): Promise<HttpResponse> {
    const res = await this.request(req);
    if (res.status !== 200) {
      throw new HttpStatusError(
        `failed to get ${req.what ?? this.redact(req.url)}: ${res.status} ${statusText(res.status)} from ${this.redact(res.url)}`,
        res.status,
        this.redact(res.url),
      );
    }
    return res;
  }

  /**
   * A `fetch` for octokit (`new Octokit({ request: { fetch } })`) that goes through this layer. JSON GETs are
   * revalidated with ETags; a request header `x-capiform-what` labels the download and is not sent.
   */
  fetchFor(service: HttpService): typeof fetch {
    return async (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      const headers: Record<string, string> = {};
      new Headers(init?.headers).forEach((value, key) => {
        headers[key] = value;
      });
      const what = headers['x-capiform-what'];
      delete headers['x-capiform-what'];
      const method = (init?.method ?? 'GET').toUpperCase();
      if (method !== 'GET' && method !== 'HEAD') throw new TypeError(`capiform only reads from remotes (${method} ${url})`);
      const accept = headers['accept'] ?? '';
      const res = await this.request({
        url,
        method,
        headers,
        service,
        revalidate: method === 'GET' && !accept.includes('octet-stream'),
        ...(what ? { what } : {}),
      });
      const nullBody = res.status === 204 || res.status === 304 || method === 'HEAD';
      return new Response(nullBody ? null : res.body, { status: res.status, headers: res.headers });
    };
  }

  private async once(
    method: string,
    url: string,
    headers: Record<string, string>,
    what: string,
    timeoutMs: number,
    loopbackCredentials: boolean,
  ): Promise<HttpResponse> {
    let current = url;
    let hdrs = { ...headers };
    for (let hop = 0; hop <= 5; hop++) {
      const target = this.rewrite(current);
      const host = hostOf(current);
      const record: RequestRecord = { method, url: this.redactor.text(current), host, status: 'error' };
      this.log.push(record);
      let res: Response;
      const signal = AbortSignal.timeout(timeoutMs);
      // A token never travels in plain text: over http (a loopback test server or mirror, or where a redirect
      // leads) the request goes without it.
      const plainAllowed = loopbackCredentials && hop === 0 && isLoopbackHost(hostOf(target));
      const sent = target.startsWith('http:') && !plainAllowed ? withoutCredentials(hdrs) : hdrs;
      try {
        res = await this.doFetch(target, { method, headers: sent, redirect: 'manual', signal });
      } catch (err) {
        throw new RetryableFailure(this.describe(err, timeoutMs));
      }
      record.status = res.status;
      const location = res.headers.get('location');
      if (redirectStatus.has(res.status) && location) {
        await res.body?.cancel().catch(() => undefined);
        const next = new URL(location, current).href;
        // Credentials are never forwarded through a redirect: GitHub sends asset downloads to a signed URL on
        // another host, and a mirror that redirects elsewhere must not receive the token either.
        hdrs = withoutCredentials(hdrs);
        current = next;
        continue;
      }
      const body = method === 'HEAD' ? new Uint8Array() : await this.readBody(res, current, what, timeoutMs);
      return { status: res.status, headers: res.headers, body, url: current, fromCache: false };
    }
    throw new NetworkError(`too many redirects for ${this.redactor.text(url)}`);
  }

  private async readBody(res: Response, url: string, what: string, timeoutMs: number): Promise<Uint8Array> {
    const lengthHeader = res.headers.get('content-length');
    // fetch decodes gzip/br bodies, so content-length (the encoded size) says nothing about the decoded bytes; undici
    // reports an early close of an encoded body itself.
    const encoding = res.headers.get('content-encoding');
    const encoded = encoding !== null && encoding !== '' && encoding !== 'identity';
    const total = !encoded && lengthHeader !== null && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : undefined;
    const ok = res.status >= 200 && res.status < 300;
    const shown = this.redactor.text(url);
    const progress = ok ? this.opts.onProgress : undefined;
    progress?.({ type: 'start', what, url: shown, bytes: 0, ...(total !== undefined ? { total } : {}) });
    const chunks: Uint8Array[] = [];
    let bytes = 0;
    try {
      if (res.body) {
        const reader = res.body.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          chunks.push(value);
          bytes += value.byteLength;
          progress?.({ type: 'progress', what, url: shown, bytes, ...(total !== undefined ? { total } : {}) });
        }
      }
    } catch (err) {
      throw new RetryableFailure(`connection lost while reading ${what} after ${bytes} bytes (${this.describe(err, timeoutMs)})`);
    }
    if (total !== undefined && bytes !== total) {
      throw new RetryableFailure(`truncated body for ${what}: got ${bytes} of ${total} bytes`);
    }
    progress?.({ type: 'done', what, url: shown, bytes, ...(total !== undefined ? { total } : {}) });
    const out = new Uint8Array(bytes);
    let offset = 0;
    for (const c of chunks) {
      out.set(c, offset);
      offset += c.byteLength;
    }
    return out;
  }

  private rateLimit(res: HttpResponse, service: HttpService | undefined): RateLimitError | null {
    if (res.status !== 429 && res.status !== 403) return null;
    const remaining = res.headers.get('x-ratelimit-remaining');
    const retryAfter = res.headers.get('retry-after');
    if (res.status === 403 && remaining !== '0' && retryAfter === null) return null;
    let resetAt: Date | undefined;
    if (retryAfter !== null) {
      resetAt = /^\d+$/.test(retryAfter) ? new Date(Date.now() + Number(retryAfter) * 1000) : new Date(retryAfter);
    } else {
      const reset = res.headers.get('x-ratelimit-reset');
      if (reset !== null && /^\d+$/.test(reset)) resetAt = new Date(Number(reset) * 1000);
    }
    if (resetAt && Number.isNaN(resetAt.getTime())) resetAt = undefined;
    const host = hostOf(res.url);
    const github = service === 'github' || /(^|\.)github\.com$/.test(host.replace(/:\d+$/, ''));
    let when = '';
    if (resetAt) {
      const minutes = Math.max(0, Math.ceil((resetAt.getTime() - Date.now()) / 60_000));
      when = `; the limit resets at ${resetAt.toISOString()} (in ${minutes} min)`;
    }
    const message = github
      ? `${githubRateLimitMessage}${when}`
      : `rate limit reached for ${host} (${res.status} ${statusText(res.status)})${when}`;
    const hint = github
      ? `wait until ${resetAt ? resetAt.toISOString() : 'the limit resets'}, or set GITHUB_TOKEN to a personal access token (5,000 API requests per hour instead of 60)`
      : `wait until ${resetAt ? resetAt.toISOString() : 'the limit resets'} and run again`;
    return new RateLimitError(message, host, resetAt, { hint });
  }

  private async readStored(entry: HttpCacheEntry): Promise<Uint8Array | null> {
    try {
      return (await this.cache?.get(entry.sha256)) ?? null;
    } catch {
      return null; // a corrupt blob is dropped by the cache; fetch the listing again
    }
  }

  private fromStored(entry: HttpCacheEntry, body: Uint8Array, url: string, what: string): HttpResponse {
    this.opts.onProgress?.({ type: 'done', what, url: this.redactor.text(url), bytes: body.byteLength, cached: true });
    return { status: entry.status, headers: new Headers(entry.headers), body, url, fromCache: true };
  }

  private async store(key: string, res: HttpResponse): Promise<void> {
    if (!this.cache) return;
    const sha = await this.cache.put(res.body);
    const headers: Record<string, string> = {};
    for (const name of replayHeaders) {
      const v = res.headers.get(name);
      if (v !== null) headers[name] = v;
    }
    const etag = res.headers.get('etag');
    const lastModified = res.headers.get('last-modified');
    await this.cache.putHttpEntry(key, {
      url: this.redactor.text(res.url),
      ...(etag ? { etag } : {}),
      ...(lastModified ? { lastModified } : {}),
      status: res.status,
      headers,
      sha256: sha,
      storedAt: new Date().toISOString(),
    });
  }

  /** ETags depend on who asks: the key includes a digest of the credentials, never the credentials. */
  private cacheKey(method: string, url: string, headers: Record<string, string>): string {
    const auth = Object.entries(headers)
      .filter(([k]) => ['authorization', 'private-token', 'accept'].includes(k.toLowerCase()))
      .map(([k, v]) => `${k.toLowerCase()}=${v}`)
      .sort()
      .join('\n');
    return `${method} ${url} ${sha256Hex(auth).slice(0, 16)}`;
  }

  private rewrite(url: string): string {
    const origins = this.opts.origins;
    if (!origins) return url;
    const u = new URL(url);
    const to = origins[u.origin];
    return to ? to.replace(/\/$/, '') + u.pathname + u.search : url;
  }

  private describe(err: unknown, timeoutMs: number): string {
    if (err instanceof Error) {
      if (err.name === 'TimeoutError' || err.name === 'AbortError') return `timed out after ${timeoutMs} ms`;
      const cause = (err as { cause?: unknown }).cause;
      if (cause instanceof Error) {
        const code = (cause as NodeJS.ErrnoException).code;
        return this.redactor.text(code ? `${code}: ${cause.message}` : cause.message);
      }
      return this.redactor.text(err.message);
    }
    return this.redactor.text(String(err));
  }
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((k) => k.toLowerCase() === name);
}

function withoutCredentials(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (!['authorization', 'private-token', 'job-token'].includes(k.toLowerCase())) out[k] = v;
  }
  return out;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

const statusTexts: Record<number, string> = {
  200: 'OK',
  304: 'Not Modified',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  410: 'Gone',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export function statusText(status: number): string {
  return statusTexts[status] ?? '';
}

export { redactUrl };
