/**
 * A forward HTTP proxy on 127.0.0.1, as corporate networks run them: absolute-URI requests for http:// targets are
 * forwarded, CONNECT opens a tunnel (for https://) unless `refuseConnect` is set (then nothing leaves the machine).
 * Every request is recorded as `GET http://…` or `CONNECT host:port`.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect } from 'node:net';
import { closeServer, listenOnLoopback } from './loopback-server.js';

export class ForwardProxy {
  readonly seen: string[] = [];
  refuseConnect = true;
  private server: Server | undefined;
  port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      this.seen.push(`${req.method} ${req.url}`);
      const upstream = httpRequest(req.url ?? '', { method: req.method, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      upstream.on('error', () => {
        res.writeHead(502);
        res.end();
      });
      req.pipe(upstream);
    });
    this.server.on('connect', (req, socket) => {
      this.seen.push(`CONNECT ${req.url}`);
      if (this.refuseConnect) {
        socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
        return;
      }
      const [host, port] = (req.url ?? '').split(':');
      const up = connect(Number(port), host!, () => {
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        up.pipe(socket);
        socket.pipe(up);
      });
      up.on('error', () => socket.destroy());
    });
    this.port = await listenOnLoopback(this.server);
    return this;
  }

  async stop(): Promise<void> {
    await closeServer(this.server);
  }
}
