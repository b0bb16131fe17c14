// Serves each case's HTML as a fresh top-level document on loopback, for as long as the
// case is in flight. A navigation per case (not document.open/write, which keeps the old
// global object, its timers and its listeners) is what stops one case leaking into the next;
// the CSP sandbox gives every case an opaque origin, so no storage or cookie outlives it.
import { createServer, type Server } from 'node:http';
import { randomBytes } from 'node:crypto';

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

export class CaseServer {
  private readonly pages = new Map<string, Buffer>();
  private readonly prefix = `/case/${randomBytes(8).toString('hex')}-`;
  private counter = 0;

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<CaseServer> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
    const { port } = server.address() as { port: number };
    const cases = new CaseServer(server, `http://127.0.0.1:${port}`);
    server.on('request', (req, res) => {
      if (req.method === 'GET' && req.url === BLANK_PATH) return void res.writeHead(200, BLANK_HEADERS).end(BLANK_BODY);
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

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
