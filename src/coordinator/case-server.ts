// Serves each case's HTML as a fresh top-level document on loopback, for as long as the case
// is in flight. A navigation per case (not document.open/write into a page that has run
// script, which keeps the old global object, its timers and its listeners) is what stops one
// case leaking into the next; the CSP sandbox gives every case an opaque origin, so no storage
// or cookie outlives it. Script-free cases skip the navigation: see src/workers/script-free.ts.
import { createServer, type Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { closeServer, listenOnLoopback } from './loopback.js';

const CASE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': 'sandbox allow-scripts',
};

// The page script-free cases are written into (see src/workers/script-free.ts). Its CSP lets
// no page script run — no inline script, handler or javascript: URL — while the drivers' own
// evaluation still works ('unsafe-eval' is only reachable from script, and none runs).
const BLANK_PATH = '/blank';
const BLANK_HEADERS = {
  ...CASE_HEADERS,
  'content-security-policy': "sandbox allow-scripts; script-src 'unsafe-eval'",
};
const BLANK_BODY = Buffer.from('<!doctype html><title>browser-oracle</title>');

// Trace pages need a real, secure origin (a trace records both): http://localhost is secure
// without TLS, so they are served without the sandbox, named by `localhost`. A page is reachable
// only by its exact path, under a random name the oracle chose — never a path from the request
// (a client id may be "..", empty, or repeated while in flight) — and only while in flight.
const TRACE_HEADERS = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' };

export class CaseServer {
  private readonly pages = new Map<string, Buffer>();
  private readonly traces = new Map<string, Buffer>();
  private readonly prefix = `/case/${randomBytes(8).toString('hex')}-`;
  private counter = 0;

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<CaseServer> {
    const server = createServer();
    const port = await listenOnLoopback(server);
    const cases = new CaseServer(server, `http://127.0.0.1:${port}`);
    server.on('request', (req, res) => {
      if (req.method === 'GET' && req.url === BLANK_PATH) return void res.writeHead(200, BLANK_HEADERS).end(BLANK_BODY);
      // Only under the localhost name: a page behind any other Host (a DNS-rebound name) is not served.
      const trace = req.method === 'GET' && req.headers.host === `localhost:${port}` ? cases.traces.get(req.url ?? '') : undefined;
      if (trace) return void res.writeHead(200, TRACE_HEADERS).end(trace);
      const body = req.method === 'GET' && req.url?.startsWith(cases.prefix) ? cases.pages.get(req.url) : undefined;
      if (body) res.writeHead(200, CASE_HEADERS).end(body);
      else res.writeHead(404, { 'content-type': 'text/plain' }).end('not a case in flight\n');
    });
    return cases;
  }

  get blankUrl(): string {
    return this.origin + BLANK_PATH;
  }

  /** Publish `html` until the returned release function is called. */
  publish(html: string): { url: string; release: () => void } {
    const path = `${this.prefix}${(this.counter++).toString(36)}`;
    this.pages.set(path, Buffer.from(html, 'utf8'));
    return { url: this.origin + path, release: () => this.pages.delete(path) };
  }

  /** Publish a trace page (a whole document) at http://localhost:<port>/trace/<random> until released. */
  publishTrace(document: string): { url: string; release: () => void } {
    const path = `/trace/${randomBytes(12).toString('hex')}`;
    this.traces.set(path, Buffer.from(document, 'utf8'));
    return { url: `${this.origin.replace('127.0.0.1', 'localhost')}${path}`, release: () => this.traces.delete(path) };
  }

  close(): Promise<void> {
    return closeServer(this.server);
  }
}
