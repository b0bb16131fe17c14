// The oracle's one server, on loopback: it serves each case's documents, and it is the proxy every
// engine sends every request to, loopback included, so it alone decides what a page reaches.
//
// - Each engine gets its own copy of a case document, at an unguessable path (/case/<128 random
//   bits>, /trace/… for trace pages), served once, only under the expected host, and only while the
//   case is in flight. It carries a secret nonce (a Server-Timing entry; the guard's own copy for
//   WebKitGTK) that the trusted in-page code checks before it walks: a page that is anywhere else —
//   another case's document, a reload, a page the case navigated to — is told apart and retried.
// - Case documents get a CSP sandbox (an opaque origin: no storage, cookies, popups or downloads);
//   trace pages are served on http://localhost, a real and secure origin.
// - A trace's `files` are served under its own page's path (the page is then /trace/<…>/, so a
//   relative `resources/x.html` is /trace/<…>/resources/x.html), to GET only, as often as asked,
//   until the trace is released: the same unguessable prefix, nothing outside it.
// - A case's `site` is served on a host of its own per copy (case-site.ts), the page at its path
//   there and its files beside it, until the case is released.
// - Anything else, whether sent straight or through the proxy — another loopback port, another
//   host, a CONNECT — is refused, counted, and logged with the case whose page asked (its Referer,
//   when the engine sends one with a path).
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { EngineName } from '../protocol/schema.js';
import type { DocumentCopy, ServedDocument } from '../worker-contract/tasks.js';
import type { DocumentKind } from '../protocol/ops.js';
import { caseDocument } from './case-documents.js';
import type { EgressLog } from './egress-log.js';
import { closeServer, listenOnLoopback } from './loopback.js';
import { fileType } from '../protocol/site-paths.js';
import { SITE_FILE_HEADERS, SiteHosts, type ServedFile } from './case-site.js';
import type { Site } from '../protocol/site-schema.js';

const CASE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': 'sandbox allow-scripts',
  // Every request a case's page makes names the page, so a refusal names the case.
  'referrer-policy': 'unsafe-url',
};

// The page script-free cases are written into: its frame, which fills its viewport (see
// src/workers/host/fast-path.ts and batchProgram in src/page/programs.ts). Its CSP, which the
// frame's documents inherit, lets no page script run — no inline script, handler or javascript:
// URL — while the drivers' own evaluation still works ('unsafe-eval' is only reachable from
// script, and none runs). The page keeps the server's origin (allow-same-origin): in a sandbox
// without it the frame would get an opaque origin of its own, out of the page's reach. The frame
// stays on its initial about:blank: a srcdoc frame's documents never go into quirks mode, not
// even after document.open (a case without a doctype, written into one, was laid out in
// standards mode in Chromium and WebKitGTK: test/e2e/swap.test.ts).
const BLANK_PATH = '/blank';
const BLANK_HEADERS = { ...CASE_HEADERS, 'content-security-policy': "sandbox allow-scripts allow-same-origin; script-src 'unsafe-eval'" };
const BLANK_BODY = Buffer.from(
  '<!doctype html><title>browser-oracle</title>' +
    '<style>html,body{margin:0;overflow:hidden}iframe{display:block;position:fixed;left:0;top:0;width:100vw;height:100vh;border:0}</style>' +
    '<iframe></iframe>',
);

// A trace page keeps its real origin (allow-same-origin) and what a page may do, but shows no
// modal dialog and starts no download: alert() returns at once, confirm() is false and prompt()
// null in every engine, as a dismissed dialog would be, and nothing waits on a driver for it.
const TRACE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'unsafe-url',
  'content-security-policy':
    'sandbox allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox allow-pointer-lock allow-presentation allow-orientation-lock',
};

interface Served {
  /** The document, made when it is asked for: most never are, since the fast path writes script-free cases into its blank page. */
  render: () => string;
  nonce: string;
  trace: boolean;
  /** Which case, for the refusal log. */
  caseId: string;
}

/**
 * What the case server reads of a case's request: its html, and for a trace page (a `recorder`
 * document) its completion timeout and the files served beside it.
 */
interface CaseSource {
  html?: string;
  timeout_ms?: number;
  files?: Readonly<Record<string, string>>;
  site?: Site;
}

/** A case's documents, one per engine, until released. */
export interface Publication {
  documents: Partial<Record<EngineName, ServedDocument>>;
  release(): void;
}

export class CaseServer {
  private readonly waiting = new Map<string, Served>();
  /** Files beside the trace pages in flight, by their whole path. */
  private readonly files = new Map<string, ServedFile>();
  /** Paths served or waiting, to the case they belong to: for the refusal log. */
  private readonly owners = new Map<string, string>();
  /** The sites of the cases in flight, each copy on a host of its own. */
  private readonly sites = new SiteHosts<Served>();

  private constructor(
    private readonly server: Server,
    private readonly port: number,
    private readonly egress: EgressLog,
    private readonly traceBytes: number,
  ) {}

  /** `traceBytes`: how much each engine's trace may record (its share of --max-answer-bytes). */
  static async start(egress: EgressLog, traceBytes: number): Promise<CaseServer> {
    const server = createServer();
    const port = await listenOnLoopback(server);
    const cases = new CaseServer(server, port, egress, traceBytes);
    server.on('request', (req, res) => cases.answer(req, res));
    // HTTPS and WebSocket go through CONNECT: never to anywhere.
    server.on('connect', (req, socket) => {
      // A browser that dies resets its tunnels: not an error of the oracle's.
      socket.on('error', () => {});
      cases.refuse('CONNECT', req.url ?? '', req.headers.referer);
      socket.end('HTTP/1.1 403 Forbidden\r\nconnection: close\r\n\r\n');
    });
    return cases;
  }

  /** The address every engine is told to send every request to. */
  get proxyUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get blankUrl(): string {
    return `http://127.0.0.1:${this.port}${BLANK_PATH}`;
  }

  /**
   * Publishes the case's html as a `kind` document for each engine; `guarded` engines get the
   * guard first. A trace page takes its completion timeout and files from `source` (default: the
   * trace's default timeout, no files).
   */
  publish(
    caseId: string,
    kind: DocumentKind,
    source: CaseSource,
    engines: readonly EngineName[],
    guarded: ReadonlySet<EngineName>,
  ): Publication {
    const documents: Partial<Record<EngineName, ServedDocument>> = {};
    const paths: string[] = [];
    const trace = kind === 'recorder';
    const html = source.html ?? '';
    const files = Object.entries((trace && source.files) || {}).map(([name, text]) => ({
      name,
      file: { body: Buffer.from(text, 'utf8'), type: fileType(name) },
    }));
    // 128 random bits for each copy's path (or host) and each nonce, drawn at once: two copies per engine.
    const random = randomBytes(64 * engines.length).toString('hex');
    let drawn = 0;
    const draw = () => random.slice(32 * drawn, 32 * ++drawn);
    const site = source.site;
    const siteFiles = site ? SiteHosts.files(site) : null;
    const labels: string[] = [];
    const copy = (engine: EngineName): DocumentCopy => {
      if (site && siteFiles) {
        const label = draw();
        const nonce = draw();
        const withGuard = guarded.has(engine);
        const render = () => caseDocument(kind, html, nonce, withGuard, this.traceBytes, source.timeout_ms);
        labels.push(label);
        const host = this.sites.add(label, site, siteFiles, { render, nonce, trace, caseId }, caseId);
        return { url: `http://${host}:${this.port}/${site.path}`, nonce };
      }
      // With files beside it, the page is a folder's index, so that relative URLs resolve under its path.
      const path = `${trace ? '/trace/' : '/case/'}${draw()}${files.length ? '/' : ''}`;
      const nonce = draw();
      const withGuard = guarded.has(engine);
      const render = () => caseDocument(kind, html, nonce, withGuard, this.traceBytes, source.timeout_ms);
      this.waiting.set(path, { render, nonce, trace, caseId });
      paths.push(path);
      for (const { name, file } of files) {
        this.files.set(path + name, file);
        paths.push(path + name);
      }
      return { url: `http://${trace ? 'localhost' : '127.0.0.1'}:${this.port}${path}`, nonce };
    };
    for (const engine of engines) documents[engine] = { ...copy(engine), retry: copy(engine) };
    for (const path of paths) this.owners.set(path, caseId);
    return {
      documents,
      release: () => {
        for (const path of paths) {
          this.waiting.delete(path);
          this.files.delete(path);
          this.owners.delete(path);
        }
        for (const label of labels) this.sites.forget(label);
      },
    };
  }

  close(): Promise<void> {
    return closeServer(this.server);
  }

  private answer(req: IncomingMessage, res: ServerResponse): void {
    const target = this.ownTarget(req);
    if (req.method !== 'GET' || target === null) {
      this.refuse(req.method ?? 'GET', req.url ?? '', req.headers.referer);
      res
        .writeHead(403, { 'content-type': 'text/plain', connection: 'close' })
        .end('refused by browser-oracle: a case reaches only its own documents\n');
      return;
    }
    if (target.path === BLANK_PATH && target.host === '127.0.0.1') return void res.writeHead(200, BLANK_HEADERS).end(BLANK_BODY);
    if (SiteHosts.isSiteHost(target.host)) return void this.answerSite(target.host, target.path, res);
    // A file beside a trace page: its exact path, any query (a page may add one to a URL it loads).
    const file = target.host === 'localhost' ? this.files.get(target.path.replace(/\?.*$/s, '')) : undefined;
    if (file)
      return void res.writeHead(200, { ...TRACE_HEADERS, 'content-type': file.type, 'x-content-type-options': 'nosniff' }).end(file.body);
    const served = this.waiting.get(target.path);
    // Once, and under the name it was published for: a trace page only as localhost, a case only as 127.0.0.1.
    if (!served || (served.trace ? 'localhost' : '127.0.0.1') !== target.host) return void notInFlight(res);
    this.waiting.delete(target.path);
    serveDocument(res, served);
  }

  /** A request to a site's host: its page once, its files as often as asked, else 404 (a host released, a path not its own). */
  private answerSite(host: string, path: string, res: ServerResponse): void {
    const found = this.sites.lookup(host, path);
    if (found === null) notInFlight(res);
    else if ('document' in found) serveDocument(res, found.document, SITE_FILE_HEADERS);
    else res.writeHead(200, { ...SITE_FILE_HEADERS, 'content-type': found.file.type }).end(found.file.body);
  }

  /**
   * The host name and path of a request for this server, straight or through the proxy, exactly as
   * sent (never normalized: /case/../case/x is not /case/x); null for anywhere else.
   */
  private ownTarget(req: IncomingMessage): { host: string; path: string } | null {
    const raw = req.url ?? '';
    const proxied = /^http:\/\/([^/?#]*)(\/[^#]*)?$/i.exec(raw);
    const authority = raw.startsWith('/') ? (req.headers.host ?? '') : proxied?.[1];
    const path = raw.startsWith('/') ? raw : (proxied?.[2] ?? '/');
    const [, host, port] = /^([^:]*):(\d+)$/.exec(authority?.toLowerCase() ?? '') ?? [];
    if (port !== String(this.port) || host === undefined) return null;
    return host === '127.0.0.1' || host === 'localhost' || SiteHosts.isSiteHost(host) ? { host, path } : null;
  }

  private refuse(method: string, target: string, referer: string | undefined): void {
    let source: string | undefined;
    try {
      const url = referer ? new URL(referer) : undefined;
      const path = url?.pathname;
      const siteCase = url ? this.sites.caseOf(url.hostname) : undefined;
      // The fast path writes many cases into one page: the page is what can be named.
      if (path === BLANK_PATH) source = 'a script-free case on the fast path';
      else if (siteCase !== undefined) source = `case ${JSON.stringify(siteCase.slice(0, 100))}`;
      else if (path !== undefined) {
        const caseId = this.owners.get(path);
        // Some engines send only the origin from a sandboxed document: a page asked, which one is unknown.
        source = caseId === undefined ? "a case's page" : `case ${JSON.stringify(caseId.slice(0, 100))}`;
      }
    } catch {
      // not a URL: nothing to name
    }
    this.egress.refused(method, target, source);
  }
}

function notInFlight(res: ServerResponse): void {
  res.writeHead(404, { 'content-type': 'text/plain', 'cache-control': 'no-store' }).end('not a case in flight\n');
}

/** A case's document, with the nonce its checks look for; a site's page also allows any origin (its subresources are CORS loads). */
function serveDocument(res: ServerResponse, served: Served, extra: Readonly<Record<string, string>> = {}): void {
  const timing = { 'server-timing': `browser-oracle-nonce;desc="${served.nonce}"` };
  res.writeHead(200, { ...(served.trace ? TRACE_HEADERS : CASE_HEADERS), ...extra, ...timing }).end(served.render());
}
