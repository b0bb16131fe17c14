// Every engine is configured to send all non-loopback traffic through this proxy, which
// refuses it: a case reaches nothing but its own document and the oracle's loopback server,
// and no request leaves the machine. Refusals are counted and the first few logged, so an
// isolation test (or a curious user) can see what a case tried.
import { createServer, type Server } from 'node:http';
import { log } from '../system/log.js';
import { closeServer, listenOnLoopback } from './loopback.js';

const LOGGED_HOSTS = 20;

export class EgressGuard {
  /** Every refused request, as "METHOD target". */
  readonly refused: string[] = [];
  private readonly hostsLogged = new Set<string>();

  private constructor(
    private readonly server: Server,
    /** The proxy address the engines are launched with. */
    readonly proxyUrl: string,
  ) {}

  static async start(): Promise<EgressGuard> {
    const server = createServer();
    const port = await listenOnLoopback(server);
    const guard = new EgressGuard(server, `http://127.0.0.1:${port}`);
    server.on('request', (req, res) => {
      guard.refuse(req.method ?? 'GET', req.url ?? '');
      res
        .writeHead(403, { 'content-type': 'text/plain', connection: 'close' })
        .end('blocked by browser-oracle: cases reach only loopback\n');
    });
    // HTTPS and WebSocket go through CONNECT.
    server.on('connect', (req, socket) => {
      guard.refuse('CONNECT', req.url ?? '');
      socket.end('HTTP/1.1 403 Forbidden\r\nconnection: close\r\n\r\n');
    });
    return guard;
  }

  private refuse(method: string, target: string): void {
    this.refused.push(`${method} ${target}`);
    const host = /^(?:\w+:\/\/)?([^/:]+)/.exec(target)?.[1] ?? target;
    if (this.hostsLogged.size < LOGGED_HOSTS && !this.hostsLogged.has(host)) {
      this.hostsLogged.add(host);
      log.warn(`refused an engine's outside request: ${method} ${target}`);
    }
  }

  close(): Promise<void> {
    return closeServer(this.server);
  }
}
