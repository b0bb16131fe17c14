// The oracle's proxy in miniature, for the adapter tests that drive one engine directly: every
// request the browser makes arrives here, and only the documents a test put at
// http://localhost:<port>/… are served; everything else is refused.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/** A refusing proxy that serves a test's documents, and says what was asked of it. */
export class CaseProxy {
  readonly seen: string[] = [];
  private readonly documents = new Map<string, { html: string; headers: Record<string, string> }>();
  private readonly waiters = new Map<string, () => void>();
  /** Paths answered never: their requests hang until the proxy closes. */
  private readonly held = new Set<string>();
  private nonces = 0;
  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {
    server.on('request', (req, res) => this.answer(req, res));
    server.on('connect', (req, socket) => {
      this.seen.push(`CONNECT ${req.url}`);
      // A browser killed mid-request resets its sockets.
      socket.on('error', () => {});
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    });
  }

  static async start(): Promise<CaseProxy> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new CaseProxy(server, (server.address() as { port: number }).port);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /**
   * Serves `html` at a path (made from the nonce, for a document that carries its own copy: the
   * guard's); returns its URL and the nonce its Server-Timing header carries.
   */
  serve(path: string, html: string | ((nonce: string) => string), headers: Record<string, string> = {}): { url: string; nonce: string } {
    const nonce = `nonce-${++this.nonces}`;
    this.documents.set(path, {
      html: typeof html === 'string' ? html : html(nonce),
      headers: { 'server-timing': `browser-oracle-nonce;desc="${nonce}"`, ...headers },
    });
    return { url: `http://localhost:${this.port}${path}`, nonce };
  }

  /** Serves `path` never: a load of it hangs. `requested` resolves when the load has asked for it. */
  hold(path: string): { url: string; requested: Promise<void> } {
    this.held.add(path);
    return { url: `http://localhost:${this.port}${path}`, requested: this.requested(path) };
  }

  /** Resolves when a request for `path` arrives. */
  requested(path: string): Promise<void> {
    return new Promise((resolve) => this.waiters.set(path, resolve));
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private answer(req: IncomingMessage, res: ServerResponse): void {
    this.seen.push(`${req.method} ${req.url}`);
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      return void res.writeHead(400).end();
    }
    this.waiters.get(url.pathname)?.();
    if (this.held.has(url.pathname)) return;
    const document = url.host === `localhost:${this.port}` ? this.documents.get(url.pathname) : undefined;
    if (!document) return void res.writeHead(403, { 'content-type': 'text/plain' }).end('refused');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...document.headers }).end(document.html);
  }
}
