/**
 * A loopback GitHub for the Action's tests: a real HTTP server on 127.0.0.1 with the issue-comment endpoints
 * (`GET`/`POST /repos/{o}/{r}/issues/{n}/comments`, `PATCH /repos/{o}/{r}/issues/comments/{id}`), paginated with
 * `Link` headers as GitHub paginates them, `GET /repos/{o}/{r}/pulls/{n}` for a pull request's head, and a switch that answers writes with 403 as a fork's read-only token gets.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeComment {
  id: number;
  body: string;
  user: { login: string; type: string };
}

export interface LoopbackGitHub {
  url: string;
  comments: Map<number, FakeComment[]>;
  /** Pull requests by number: their head commit (`GET /repos/{o}/{r}/pulls/{n}`). */
  pulls: Map<number, { headSha: string }>;
  requests: { method: string; path: string; authorization: string | undefined }[];
  /** Writes answer 403 "Resource not accessible by integration", as for a fork's token. */
  readOnly: boolean;
  close: () => Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

export async function loopbackGitHub(): Promise<LoopbackGitHub> {
  let nextId = 1000;
  const state: LoopbackGitHub = { url: '', comments: new Map(), pulls: new Map(), requests: [], readOnly: false, close: async () => {} };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const u = new URL(req.url ?? '/', state.url);
      state.requests.push({ method: req.method ?? '', path: `${u.pathname}${u.search}`, authorization: req.headers.authorization });
      const body = await readBody(req);
      const send = (status: number, data: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
        res.end(JSON.stringify(data));
      };
      const forbidden = () => send(403, { message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest' });
      const html = (n: number, id: number) => `https://github.example/o/r/pull/${n}#issuecomment-${id}`;
      const list = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/.exec(u.pathname);
      const edit = /^\/repos\/([^/]+)\/([^/]+)\/issues\/comments\/(\d+)$/.exec(u.pathname);
      const pull = /^\/repos\/([^/]+)\/([^/]+)\/pulls\/(\d+)$/.exec(u.pathname);
      if (pull && req.method === 'GET') {
        const p = state.pulls.get(Number(pull[3]));
        return p ? send(200, { number: Number(pull[3]), head: { sha: p.headSha } }) : send(404, { message: 'Not Found' });
      }
      if (list && req.method === 'GET') {
        const n = Number(list[3]);
        const all = state.comments.get(n) ?? [];
        const perPage = Number(u.searchParams.get('per_page') ?? 30);
        const page = Number(u.searchParams.get('page') ?? 1);
        const last = Math.max(1, Math.ceil(all.length / perPage));
        const links: string[] = [];
        const link = (p: number, rel: string) => `<${state.url}${u.pathname}?per_page=${perPage}&page=${p}>; rel="${rel}"`;
        if (page < last) links.push(link(page + 1, 'next'), link(last, 'last'));
        if (page > 1) links.push(link(1, 'first'), link(page - 1, 'prev'));
        const data = all.slice((page - 1) * perPage, page * perPage).map((c) => ({ ...c, html_url: html(n, c.id) }));
        return send(200, data, links.length > 0 ? { link: links.join(', ') } : {});
      }
      if (list && req.method === 'POST') {
        if (state.readOnly) return forbidden();
        const n = Number(list[3]);
        const c: FakeComment = { id: nextId++, body: (JSON.parse(body) as { body: string }).body, user: { login: 'github-actions[bot]', type: 'Bot' } };
        state.comments.set(n, [...(state.comments.get(n) ?? []), c]);
        return send(201, { ...c, html_url: html(n, c.id) });
      }
      if (edit && req.method === 'PATCH') {
        if (state.readOnly) return forbidden();
        const id = Number(edit[3]);
        for (const [n, cs] of state.comments) {
          const c = cs.find((x) => x.id === id);
          if (c) {
            c.body = (JSON.parse(body) as { body: string }).body;
            return send(200, { ...c, html_url: html(n, c.id) });
          }
        }
        return send(404, { message: 'Not Found' });
      }
      return send(404, { message: 'Not Found' });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () => new Promise((resolve) => server.close(() => resolve()));
  return state;
}
