// A case's `site` as the case server serves it (no browser): each copy on a host of its own, the
// page once at its path, every file at its key as often as asked with its type, CORS and no-store,
// binary files byte for byte, nothing of another copy's or case's host, and nothing at all once
// the case is released.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { CaseServer } from '../../src/coordinator/case-server.js';
import { EgressLog } from '../../src/coordinator/egress-log.js';
import { fileType } from '../../src/coordinator/case-site.js';

let server: CaseServer;
let egress: EgressLog;
let port: number;

before(async () => {
  egress = new EgressLog();
  server = await CaseServer.start(egress, 1024 * 1024);
  port = Number(new URL(server.proxyUrl).port);
});

after(() => server.close());

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** GET a whole URL through the server as the engines' proxy. */
function get(url: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: url, headers: { host: new URL(url).host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const BINARY = Buffer.from([0, 1, 2, 0xff, 0xfe, 0x80, 10, 13]);
const site = {
  path: 'css/css-grid/t.html',
  files: {
    'fonts/ahem.css': '@font-face{font-family:Ahem;src:url(/fonts/Ahem.ttf)}',
    'fonts/Ahem.ttf': { base64: BINARY.toString('base64') },
    'css/support/grid.css': '.grid{display:grid} /* é */',
    'css/css-grid/support/a.png': { base64: BINARY.toString('base64') },
  },
};

test('each copy is on a host of its own, the page at its path, once, with its nonce', async () => {
  const { documents, release } = server.publish(
    'c1',
    'document',
    { html: '<!doctype html><p>x', site },
    ['chromium', 'firefox'],
    new Set(),
  );
  try {
    const urls = [documents.chromium!.url, documents.chromium!.retry.url, documents.firefox!.url, documents.firefox!.retry.url];
    for (const url of urls) assert.match(url, new RegExp(`^http://[0-9a-f]{32}\\.localhost:${port}/css/css-grid/t\\.html$`));
    assert.equal(new Set(urls.map((u) => new URL(u).host)).size, 4);
    const page = await get(urls[0]!);
    assert.equal(page.status, 200);
    assert.equal(page.body.toString(), '<!doctype html><p>x');
    assert.equal(page.headers['server-timing'], `browser-oracle-nonce;desc="${documents.chromium!.nonce}"`);
    assert.equal(page.headers['content-security-policy'], 'sandbox allow-scripts');
    assert.equal(page.headers['access-control-allow-origin'], '*');
    assert.equal((await get(urls[0]!)).status, 404, 'served once');
  } finally {
    release();
  }
});

test('files resolve as absolute paths from the host root, with their types, CORS, no-store and nosniff; binary byte for byte', async () => {
  const { documents, release } = server.publish('c2', 'document', { html: '', site }, ['webkit'], new Set());
  try {
    const base = documents.webkit!.url;
    const css = await get(new URL('/css/support/grid.css?x=1', base).href);
    assert.equal(css.status, 200);
    assert.equal(css.headers['content-type'], 'text/css; charset=utf-8');
    assert.equal(css.body.toString('utf8'), '.grid{display:grid} /* é */');
    assert.equal(css.headers['access-control-allow-origin'], '*');
    assert.equal(css.headers['cache-control'], 'no-store');
    assert.equal(css.headers['x-content-type-options'], 'nosniff');
    const font = await get(new URL('/fonts/Ahem.ttf', base).href);
    assert.equal(font.headers['content-type'], 'font/ttf');
    assert.deepEqual(font.body, BINARY);
    // Relative to the page's own path, as a browser resolves it before asking.
    const image = await get(new URL('support/a.png', base).href);
    assert.equal(image.headers['content-type'], 'image/png');
    assert.deepEqual(image.body, BINARY);
    assert.equal((await get(new URL('/fonts/Ahem.ttf', base).href)).status, 200, 'as often as asked');
    assert.equal((await get(new URL('/fonts/missing.css', base).href)).status, 404);
    assert.equal((await get(new URL('/fonts/', base).href)).status, 404);
  } finally {
    release();
  }
});

test("a case reaches only its own files: another case's host, a made-up host and a released host answer 404", async () => {
  const one = server.publish('c3', 'document', { html: '', site }, ['chromium'], new Set());
  const other = server.publish(
    'c4',
    'document',
    { html: '', site: { path: 'p.html', files: { 'only.css': 'x' } } },
    ['chromium'],
    new Set(),
  );
  const oneUrl = one.documents.chromium!.url;
  const otherUrl = other.documents.chromium!.url;
  try {
    assert.equal((await get(new URL('/only.css', oneUrl).href)).status, 404);
    assert.equal((await get(new URL('/only.css', otherUrl).href)).status, 200);
    assert.equal((await get(`http://${'0'.repeat(32)}.localhost:${port}/fonts/ahem.css`)).status, 404);
    assert.equal((await get(new URL('/fonts/ahem.css', oneUrl).href)).status, 200);
  } finally {
    one.release();
    other.release();
  }
  assert.equal((await get(new URL('/fonts/ahem.css', oneUrl).href)).status, 404, 'released: the file is gone');
  assert.equal((await get(otherUrl)).status, 404, 'released: the page is gone');
  const refusedBefore = egress.count;
  assert.equal((await get(`http://other.localhost:${port}/fonts/ahem.css`)).status, 403, 'any other host is refused');
  assert.equal(egress.count, refusedBefore + 1);
});

test('types by extension: text as UTF-8, fonts, images and video as bytes, anything else plain text', () => {
  assert.equal(fileType('a/b.JS'), 'text/javascript; charset=utf-8');
  assert.equal(fileType('x.xht'), 'application/xhtml+xml; charset=utf-8');
  assert.equal(fileType('x.woff2'), 'font/woff2');
  assert.equal(fileType('x.svg'), 'image/svg+xml; charset=utf-8');
  assert.equal(fileType('x.webm'), 'video/webm');
  assert.equal(fileType('x.py'), 'text/plain; charset=utf-8');
});
