/**
 * A real HTTP server on 127.0.0.1 that behaves like the upstreams capiform reads, so tests never need the internet:
 *   /api/…            the GitHub REST API: releases (paginated, Link headers, ETags/304, drafts, pre-releases), release
 *                     by tag, assets (Accept: application/octet-stream → 302 to /objects), contents, rate-limit headers
 *   /web/…            github.com release downloads (302 → /objects)
 *   /objects/…        the signed object host the redirects point to
 *   /goproxy/…        a Go module proxy (`<module>/@v/list`)
 *   /gitlab/api/v4/…  GitLab generic packages
 *   /files/…          a plain HTTPS mirror
 * It counts every request by area, records headers, and injects faults (500, reset, truncation, rate limit) per path.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { closeServer, listenOnLoopback } from './loopback-server.js';

export interface FakeAsset {
  body: string | Uint8Array;
  /** `undefined`: the real sha256; `null`: no digest reported; a string: reported as is (to fake a mismatch). */
  digest?: string | null;
}

export interface FakeRelease {
  /** The tag the release is found by (`/releases/tags/<tag>`, download URLs). */
  tag: string;
  /** `tag_name` in the JSON, when it should differ from `tag` (clusterctl's getReleaseByTag test). */
  tagName?: string;
  draft?: boolean;
  prerelease?: boolean;
  assets: Record<string, string | Uint8Array | FakeAsset>;
}

export type Fault =
  | { kind: 'status'; status: number }
  | { kind: 'reset' }
  | { kind: 'truncate' }
  | { kind: 'rateLimit'; status?: 403 | 429; resetEpoch?: number; retryAfter?: number };

export type Area = 'api' | 'web' | 'objects' | 'goproxy' | 'gitlab' | 'files' | 'other';

export interface RecordedRequest {
  area: Area;
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  status: number;
}

export class FakeRemotes {
  readonly repos = new Map<string, FakeRelease[]>();
  /** `github.com/o/r` or `github.com/o/r/v2` → list body. */
  readonly goproxyLists = new Map<string, string>();
  /** GitLab: escaped path after `/gitlab` (e.g. `/api/v4/projects/group%2Fproject/packages/generic/p/v1/f.yaml`). */
  readonly gitlabFiles = new Map<string, string | Uint8Array>();
  /** GitLab token required (Bearer); `undefined`: anonymous allowed. */
  gitlabToken: string | undefined;
  /** Plain mirror: path after `/files` → body. */
  readonly files = new Map<string, string | Uint8Array>();
  /** GitHub contents API: `o/r/ref/path` → body (or `{ encoding, content }` verbatim). */
  readonly contents = new Map<string, string | { encoding: string; content: string }>();
  /** Faults consumed in order, keyed by request path (without the query). */
  readonly faults = new Map<string, Fault[]>();
  /** Server-side page size for release listings (GitHub: per_page, max 100). */
  pageSize: number | undefined;
  /** Require this token on API requests (401 without it). */
  apiToken: string | undefined;
  readonly requests: RecordedRequest[] = [];
  /** Where downloads redirect to (GitHub's signed object host): another server's origin, or this one. */
  objectsOrigin: string | undefined;
  private server: Server | undefined;
  private assetIds = new Map<number, { repo: string; tag: string; name: string }>();
  private scheme: 'http' | 'https' = 'http';
  port = 0;

  get origin(): string {
    return `${this.scheme}://127.0.0.1:${this.port}`;
  }
  get apiUrl(): string {
    return `${this.origin}/api`;
  }
  get webUrl(): string {
    return `${this.origin}/web`;
  }
  get goproxy(): string {
    return `${this.origin}/goproxy`;
  }

  addRelease(repo: string, release: FakeRelease): this {
    const list = this.repos.get(repo) ?? [];
    list.push(release);
    this.repos.set(repo, list);
    return this;
  }

  fault(path: string, ...faults: Fault[]): this {
    this.faults.set(path, [...(this.faults.get(path) ?? []), ...faults]);
    return this;
  }

  count(area?: Area): number {
    return area ? this.requests.filter((r) => r.area === area).length : this.requests.length;
  }

  reset(): void {
    this.requests.length = 0;
  }

  /** Listens on 127.0.0.1, over https with `tls` (tls-loopback.ts). */
  async start(tls?: { key: Buffer; cert: Buffer }): Promise<this> {
    const handler = (req: IncomingMessage, res: ServerResponse): void => {
      this.handle(req, res).catch((err: unknown) => {
        res.statusCode = 599;
        res.end(String(err));
      });
    };
    this.scheme = tls ? 'https' : 'http';
    // An https.Server is a tls.Server wrapping the same request handling; listen and close work alike.
    this.server = tls ? (createTlsServer({ key: tls.key, cert: tls.cert }, handler) as unknown as Server) : createServer(handler);
    this.port = await listenOnLoopback(this.server);
    return this;
  }

  async stop(): Promise<void> {
    await closeServer(this.server);
  }

  private asset(repo: string, tag: string, name: string): FakeAsset | undefined {
    const rel = this.repos.get(repo)?.find((r) => r.tag === tag);
    const a = rel?.assets[name];
    if (a === undefined) return undefined;
    return typeof a === 'string' || a instanceof Uint8Array ? { body: a } : a;
  }

  private assetId(repo: string, tag: string, name: string): number {
    const id = Number.parseInt(createHash('sha256').update(`${repo}\n${tag}\n${name}`).digest('hex').slice(0, 8), 16);
    this.assetIds.set(id, { repo, tag, name });
    return id;
  }

  releaseJson(repo: string, r: FakeRelease): Record<string, unknown> {
    return {
      id: Number.parseInt(createHash('sha256').update(`${repo}\n${r.tag}`).digest('hex').slice(0, 8), 16),
      tag_name: r.tagName ?? r.tag,
      draft: r.draft ?? false,
      prerelease: r.prerelease ?? false,
      assets: Object.keys(r.assets).map((name) => {
        const a = this.asset(repo, r.tag, name)!;
        const bytes = typeof a.body === 'string' ? Buffer.from(a.body) : Buffer.from(a.body);
        const digest = a.digest === undefined ? `sha256:${createHash('sha256').update(bytes).digest('hex')}` : a.digest;
        const id = this.assetId(repo, r.tag, name);
        return {
          id,
          name,
          size: bytes.length,
          digest,
          url: `${this.apiUrl}/repos/${repo}/releases/assets/${id}`,
          browser_download_url: `${this.webUrl}/${repo}/releases/download/${r.tag}/${name}`,
        };
      }),
    };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.origin);
    const path = url.pathname;
    const area: Area = (['api', 'web', 'objects', 'goproxy', 'gitlab', 'files'] as const).find((a) =>
      path.startsWith(`/${a}/`),
    ) ?? 'other';
    const rec: RecordedRequest = { area, method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, status: 0 };
    this.requests.push(rec);
    const send = (status: number, body: string | Uint8Array = '', headers: Record<string, string> = {}): void => {
      rec.status = status;
      const bytes = typeof body === 'string' ? Buffer.from(body) : Buffer.from(body);
      res.writeHead(status, { 'content-length': String(bytes.length), ...headers });
      res.end(bytes);
    };
    const fault = this.faults.get(path)?.shift();
    if (fault) {
      if (fault.kind === 'status') return send(fault.status, `{"message":"fault ${fault.status}"}`);
      if (fault.kind === 'reset') {
        rec.status = -1;
        res.writeHead(200, { 'content-length': '100000' });
        res.write('partial');
        setTimeout(() => req.socket.destroy(), 5);
        return;
      }
      if (fault.kind === 'truncate') {
        rec.status = -2;
        res.writeHead(200, { 'content-length': '1000' });
        res.end('short');
        req.socket.destroy();
        return;
      }
      const h: Record<string, string> = { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0' };
      if (fault.resetEpoch !== undefined) h['x-ratelimit-reset'] = String(fault.resetEpoch);
      if (fault.retryAfter !== undefined) h['retry-after'] = String(fault.retryAfter);
      return send(fault.status ?? 403, '{"message":"API rate limit exceeded"}', h);
    }

    if (area === 'api') {
      if (this.apiToken !== undefined && req.headers.authorization !== `token ${this.apiToken}`) {
        return send(401, '{"message":"Bad credentials"}');
      }
      const rest = path.slice('/api'.length);
      let m = /^\/repos\/([^/]+\/[^/]+)\/releases$/.exec(rest);
      if (m) {
        const repo = m[1]!;
        const releases = this.repos.get(repo);
        if (!releases) return send(404, '{"message":"Not Found"}');
        const perPage = Math.min(this.pageSize ?? Number(url.searchParams.get('per_page') ?? 30), 100);
        const page = Number(url.searchParams.get('page') ?? 1);
        const lastPage = Math.max(1, Math.ceil(releases.length / perPage));
        const slice = releases.slice((page - 1) * perPage, page * perPage);
        const body = JSON.stringify(slice.map((r) => this.releaseJson(repo, r)));
        const links: string[] = [];
        const link = (p: number, rel: string): string => {
          const u = new URL(`${this.apiUrl}/repos/${repo}/releases`);
          u.searchParams.set('per_page', String(perPage));
          u.searchParams.set('page', String(p));
          return `<${u.href}>; rel="${rel}"`;
        };
        if (page < lastPage) links.push(link(page + 1, 'next'), link(lastPage, 'last'));
        if (page > 1) links.push(link(1, 'first'), link(page - 1, 'prev'));
        const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
        if (links.length) headers.link = links.join(', ');
        return this.withEtag(req, send, body, headers);
      }
      m = /^\/repos\/([^/]+\/[^/]+)\/releases\/tags\/(.+)$/.exec(rest);
      if (m) {
        const repo = m[1]!;
        const tag = decodeURIComponent(m[2]!);
        const r = this.repos.get(repo)?.find((x) => x.tag === tag && !x.draft);
        if (!r) return send(404, '{"message":"Not Found"}');
        return this.withEtag(req, send, JSON.stringify(this.releaseJson(repo, r)), {
          'content-type': 'application/json; charset=utf-8',
        });
      }
      m = /^\/repos\/([^/]+\/[^/]+)\/releases\/assets\/(\d+)$/.exec(rest);
      if (m) {
        const info = this.assetIds.get(Number(m[2]));
        if (!info) return send(404, '{"message":"Not Found"}');
        if (!(req.headers.accept ?? '').includes('application/octet-stream')) {
          return send(200, JSON.stringify({ id: Number(m[2]), name: info.name }), { 'content-type': 'application/json' });
        }
        return send(302, '', { location: `${this.objectsOrigin ?? this.origin}/objects/${info.repo}/${info.tag}/${info.name}?sig=secret-signature` });
      }
      m = /^\/repos\/([^/]+)\/([^/]+)\/contents\/(.+)$/.exec(rest);
      if (m) {
        const ref = url.searchParams.get('ref') ?? 'main';
        const c = this.contents.get(`${m[1]}/${m[2]}/${ref}/${decodeURIComponent(m[3]!)}`);
        if (c === undefined) return send(404, '{"message":"Not Found"}');
        const json =
          typeof c === 'string'
            ? { type: 'file', encoding: 'base64', content: Buffer.from(c).toString('base64').replace(/(.{60})/g, '$1\n') }
            : { type: 'file', ...c };
        return this.withEtag(req, send, JSON.stringify(json), { 'content-type': 'application/json' });
      }
      return send(404, '{"message":"Not Found"}');
    }
    if (area === 'web') {
      const m = /^\/web\/([^/]+\/[^/]+)\/releases\/download\/([^/]+)\/(.+)$/.exec(path);
      if (m && this.asset(m[1]!, decodeURIComponent(m[2]!), decodeURIComponent(m[3]!))) {
        return send(302, '', { location: `${this.objectsOrigin ?? this.origin}/objects/${m[1]}/${m[2]}/${m[3]}?sig=secret-signature` });
      }
      return send(404, 'Not Found');
    }
    if (area === 'objects') {
      const m = /^\/objects\/([^/]+\/[^/]+)\/([^/]+)\/(.+)$/.exec(path);
      const a = m ? this.asset(m[1]!, decodeURIComponent(m[2]!), decodeURIComponent(m[3]!)) : undefined;
      if (!a) return send(404, 'Not Found');
      return send(200, a.body, { 'content-type': 'application/octet-stream' });
    }
    if (area === 'goproxy') {
      const m = /^\/goproxy\/(.+)\/@v\/list$/.exec(path);
      const list = m ? this.goproxyLists.get(m[1]!) : undefined;
      if (list === undefined) return send(404, 'not found');
      return send(200, list, { 'content-type': 'text/plain' });
    }
    if (area === 'gitlab') {
      const escaped = (req.url ?? '').slice('/gitlab'.length).split('?')[0]!;
      if (this.gitlabToken !== undefined && req.headers.authorization !== `Bearer ${this.gitlabToken}`) {
        return send(401, '{"message":"401 Unauthorized"}');
      }
      const body = this.gitlabFiles.get(escaped);
      if (body === undefined) return send(404, '{"message":"404 Not Found"}');
      return send(200, body);
    }
    if (area === 'files') {
      const body = this.files.get(path.slice('/files'.length));
      if (body === undefined) return send(404, 'Not Found');
      return this.withEtag(req, send, body, {});
    }
    return send(404, 'Not Found');
  }

  private withEtag(
    req: IncomingMessage,
    send: (status: number, body?: string | Uint8Array, headers?: Record<string, string>) => void,
    body: string | Uint8Array,
    headers: Record<string, string>,
  ): void {
    const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 20)}"`;
    if (req.headers['if-none-match'] === etag) return send(304, '', { etag });
    send(200, body, { ...headers, etag });
  }
}
