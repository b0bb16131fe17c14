// The case server on its own (no browser): each engine's copy of a case is served once, only by its
// exact path, only under the name it was published for, with its nonce; the guard goes first where
// asked; and as a proxy it serves its own documents and refuses everything else, naming the case;
// a case's site is served on its own host until released.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { CaseServer } from '../../src/coordinator/case-server.js';
import { EgressLog } from '../../src/coordinator/egress-log.js';
import { GUARD_HOOK } from '../../src/page/sources.js';
import { fileType, resolveSiteHref } from '../../src/protocol/site-paths.js';

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
  body: string;
}

/** GET `path` (a path, or a whole URL as a proxy is asked) at `address`, naming the server `host`. */
function get(path: string, host = `127.0.0.1:${port}`, address = '127.0.0.1', headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: address, port, path, headers: { host, ...headers } }, (res) => {
      let body = '';
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test("each engine gets its own copy, at an unguessable path, served once, with its nonce and the case's CSP", async () => {
  const { documents, release } = server.publish('c1', 'document', { html: '<!doctype html><p>x' }, ['chromium', 'firefox'], new Set());
  try {
    const chromium = new URL(documents.chromium!.url);
    const firefox = new URL(documents.firefox!.url);
    assert.notEqual(chromium.pathname, firefox.pathname);
    assert.notEqual(documents.chromium!.nonce, documents.firefox!.nonce);
    assert.match(chromium.pathname, /^\/case\/[0-9a-f]{32}$/);
    const first = await get(chromium.pathname);
    assert.equal(first.status, 200);
    assert.equal(first.body, '<!doctype html><p>x');
    assert.equal(first.headers['server-timing'], `browser-oracle-nonce;desc="${documents.chromium!.nonce}"`);
    assert.equal(first.headers['content-security-policy'], 'sandbox allow-scripts');
    assert.equal((await get(chromium.pathname)).status, 404, 'served once: a reload gets nothing');
    assert.equal((await get(firefox.pathname)).status, 200);
  } finally {
    release();
  }
});

test('a released document is gone; a trace page only as localhost, a case only as 127.0.0.1', async () => {
  const trace = server.publish('t', 'recorder', { html: '<p>t' }, ['webkit'], new Set());
  const page = server.publish('g', 'document', { html: '<p>g' }, ['webkit'], new Set());
  const tracePath = new URL(trace.documents.webkit!.url).pathname;
  const casePath = new URL(page.documents.webkit!.url).pathname;
  assert.equal(new URL(trace.documents.webkit!.url).hostname, 'localhost');
  assert.equal((await get(tracePath, `127.0.0.1:${port}`)).status, 404, 'trace page under 127.0.0.1');
  assert.equal((await get(casePath, `localhost:${port}`)).status, 404, 'case page under localhost');
  const served = await get(tracePath, `localhost:${port}`);
  assert.equal(served.status, 200);
  const sandbox = String(served.headers['content-security-policy']).split(' ');
  assert.ok(sandbox.includes('allow-same-origin'), 'a trace page keeps its real origin');
  assert.ok(!sandbox.includes('allow-modals') && !sandbox.includes('allow-downloads'), 'a trace page shows no dialog, starts no download');
  assert.match(served.body, /^<!doctype html><script>/);
  page.release();
  assert.equal((await get(casePath)).status, 404, 'released before it was served');
  trace.release();
});

test('only the exact path reaches a document in flight', async () => {
  const { documents, release } = server.publish('c', 'document', { html: 'x' }, ['chromium'], new Set());
  const path = new URL(documents.chromium!.url).pathname;
  const id = path.slice('/case/'.length);
  try {
    for (const trick of [
      '/case/',
      '/case/nope',
      `/case/../case/${id}`,
      `/case/./${id}`,
      `/case/${id}/`,
      `/case%2F${id}`,
      `/case/${id}%2F..`,
      `//case/${id}`,
      `/CASE/${id}`,
      '/case/..%2Fblank',
    ]) {
      assert.equal((await get(trick)).status, 404, trick);
    }
    assert.equal((await get(path)).status, 200, 'the exact path, once the tricks are done');
  } finally {
    release();
  }
});

test("a guarded engine's copy has the guard as its first script, after the doctype and the html and head start tags", async () => {
  const html = '<!doctype html><html lang=en><head data-x="a>b"><title>t</title></head><p>x';
  const { documents, release } = server.publish('c', 'document', { html }, ['webkit', 'chromium'], new Set(['webkit'] as const));
  try {
    const guarded = (await get(new URL(documents.webkit!.url).pathname)).body;
    assert.ok(guarded.startsWith('<!doctype html><html lang=en><head data-x="a>b"><script>'), guarded.slice(0, 80));
    assert.ok(guarded.includes(GUARD_HOOK) && guarded.includes(JSON.stringify(documents.webkit!.nonce)));
    assert.ok(guarded.endsWith('</script><title>t</title></head><p>x'));
    assert.equal((await get(new URL(documents.chromium!.url).pathname)).body, html, 'an isolated-world engine gets the case as it is');
  } finally {
    release();
  }
});

test("a trace's files: under its own page's path only, read-only, as often as asked, until the trace is released", async () => {
  const files = { 'resources/x.html': '<p>x</p>', 'data.json': '{"a":1}' };
  const trace = server.publish('t', 'recorder', { html: '<p>t', timeout_ms: 9000, files }, ['chromium', 'firefox'], new Set());
  const other = server.publish('o', 'recorder', { html: '<p>o' }, ['chromium'], new Set());
  const page = new URL(trace.documents.chromium!.url).pathname;
  const localhost = `localhost:${port}`;
  try {
    assert.match(page, /^\/trace\/[0-9a-f]{32}\/$/, 'with files, the page is a folder, so relative URLs resolve under it');
    assert.match(new URL(other.documents.chromium!.url).pathname, /^\/trace\/[0-9a-f]{32}$/, 'without, the path is as it was');
    const body = (await get(page, localhost)).body;
    assert.match(
      body,
      /^<!doctype html><script>\(function installRecorder\(completionMs[^)]*\) \{[\s\S]*\}\)\(9000, /,
      'the page ends undone at its own timeout',
    );
    for (let i = 0; i < 2; i++) {
      const x = await get(`${page}resources/x.html`, localhost);
      assert.equal(x.status, 200);
      assert.equal(x.body, '<p>x</p>');
      assert.equal(x.headers['content-type'], 'text/html; charset=utf-8');
      assert.equal(x.headers['x-content-type-options'], 'nosniff');
      assert.ok(String(x.headers['content-security-policy']).includes('allow-same-origin'), "a file has the trace page's origin");
    }
    assert.equal((await get(`${page}data.json?cache=1`, localhost)).headers['content-type'], 'application/json; charset=utf-8');
    const firefoxPage = new URL(trace.documents.firefox!.url).pathname;
    assert.equal((await get(`${firefoxPage}resources/x.html`, localhost)).status, 200, "every engine's copy has them beside it");
    for (const trick of [
      `${page}resources/../data.json`,
      `${page}./data.json`,
      `${page}resources%2Fx.html`,
      `${page}RESOURCES/x.html`,
      `${page}resources/`,
      `${page}nope`,
      `${new URL(other.documents.chromium!.url).pathname}/data.json`,
      '/trace/resources/x.html',
    ]) {
      assert.equal((await get(trick, localhost)).status, 404, trick);
    }
    assert.equal((await get(`${page}data.json`, `127.0.0.1:${port}`)).status, 404, 'only as localhost');
    assert.equal(await status('POST', `${page}data.json`), 403, 'read-only');
  } finally {
    trace.release();
    other.release();
  }
  assert.equal((await get(`${page}resources/x.html`, localhost)).status, 404, 'gone with the trace');
});

/** The status a `method` request for `path` gets. */
function status(method: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers: { host: `localhost:${port}` } }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on('error', reject);
    req.end();
  });
}

test('as a proxy it serves its own documents and refuses anything else, naming the case whose page asked', async () => {
  const { documents, release } = server.publish('the-case', 'document', { html: 'x' }, ['chromium'], new Set());
  const before = egress.count;
  try {
    // An absolute URL is how a browser asks its proxy.
    assert.equal((await get(documents.chromium!.url)).status, 200);
    const referer = { referer: documents.chromium!.url };
    for (const target of [
      `http://127.0.0.1:${port + 1}/`,
      'http://127.0.0.2/',
      `http://foo.localhost:${port}/blank`,
      'http://2130706433/',
      'http://[::ffff:127.0.0.1]/',
      'http://192.0.2.1/x',
    ]) {
      assert.equal((await get(target, new URL(target).host, '127.0.0.1', referer)).status, 403, target);
    }
    assert.equal(egress.count - before, 6);
    assert.ok(
      egress.first.some((line) => line.includes('http://192.0.2.1/x') && line.includes('(case "the-case")')),
      egress.first.join('\n'),
    );
    // CONNECT (https, WebSocket) goes nowhere either.
    const reply = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => socket.write('CONNECT example.com:443 HTTP/1.1\r\nhost: example.com:443\r\n\r\n'));
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk;
      });
      socket.on('close', () => resolve(text));
    });
    assert.match(reply, /^HTTP\/1\.1 403/);
    assert.equal(egress.count - before, 7);
  } finally {
    release();
  }
});

test('the refusal log is a counter and the first few entries', async () => {
  const log = new EgressLog();
  for (let i = 0; i < 1000; i++) log.refused('GET', `http://192.0.2.1/${'x'.repeat(16_000)}${i}`, 'case "flood"');
  assert.equal(log.count, 1000);
  assert.ok(log.first.length <= 20);
  assert.ok(
    log.first.every((line) => line.length < 400),
    'entries are cut short',
  );
});

test('the server listens on 127.0.0.1 only', async () => {
  // 127.0.0.2 reaches this host too; a server bound to every address (0.0.0.0) would answer there.
  await assert.rejects(get('/blank', `127.0.0.1:${port}`, '127.0.0.2'), /ECONNREFUSED/);
});

// A case's `site` (case-site.ts): each copy on a host of its own, the page once at its path, every
// file at its key as often as asked with its type, CORS and no-store, binary files byte for byte,
// nothing of another case's host, and nothing at all once the case is released.

/** GET a whole URL through the server as the engines' proxy. */
function getUrl(url: string): Promise<{ status: number; headers: Reply['headers']; body: Buffer }> {
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
    const page = await getUrl(urls[0]!);
    assert.equal(page.status, 200);
    assert.equal(page.body.toString(), '<!doctype html><p>x');
    assert.equal(page.headers['server-timing'], `browser-oracle-nonce;desc="${documents.chromium!.nonce}"`);
    assert.equal(page.headers['content-security-policy'], 'sandbox allow-scripts');
    assert.equal(page.headers['access-control-allow-origin'], '*');
    assert.equal((await getUrl(urls[0]!)).status, 404, 'served once');
  } finally {
    release();
  }
});

test('files resolve as absolute paths from the host root, with their types, CORS, no-store and nosniff; binary byte for byte', async () => {
  const { documents, release } = server.publish('c2', 'document', { html: '', site }, ['webkit'], new Set());
  try {
    const base = documents.webkit!.url;
    const css = await getUrl(new URL('/css/support/grid.css?x=1', base).href);
    assert.equal(css.status, 200);
    assert.equal(css.headers['content-type'], 'text/css; charset=utf-8');
    assert.equal(css.body.toString('utf8'), '.grid{display:grid} /* é */');
    assert.equal(css.headers['access-control-allow-origin'], '*');
    assert.equal(css.headers['cache-control'], 'no-store');
    assert.equal(css.headers['x-content-type-options'], 'nosniff');
    const font = await getUrl(new URL('/fonts/Ahem.ttf', base).href);
    assert.equal(font.headers['content-type'], 'font/ttf');
    assert.deepEqual(font.body, BINARY);
    // Relative to the page's own path, as a browser resolves it before asking.
    const image = await getUrl(new URL('support/a.png', base).href);
    assert.equal(image.headers['content-type'], 'image/png');
    assert.deepEqual(image.body, BINARY);
    assert.equal((await getUrl(new URL('/fonts/Ahem.ttf', base).href)).status, 200, 'as often as asked');
    assert.equal((await getUrl(new URL('/fonts/missing.css', base).href)).status, 404);
    assert.equal((await getUrl(new URL('/fonts/', base).href)).status, 404);
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
    assert.equal((await getUrl(new URL('/only.css', oneUrl).href)).status, 404);
    assert.equal((await getUrl(new URL('/only.css', otherUrl).href)).status, 200);
    assert.equal((await getUrl(`http://${'0'.repeat(32)}.localhost:${port}/fonts/ahem.css`)).status, 404);
    assert.equal((await getUrl(new URL('/fonts/ahem.css', oneUrl).href)).status, 200);
  } finally {
    one.release();
    other.release();
  }
  assert.equal((await getUrl(new URL('/fonts/ahem.css', oneUrl).href)).status, 404, 'released: the file is gone');
  assert.equal((await getUrl(otherUrl)).status, 404, 'released: the page is gone');
  const refusedBefore = egress.count;
  assert.equal((await getUrl(`http://other.localhost:${port}/fonts/ahem.css`)).status, 403, 'any other host is refused');
  assert.equal(egress.count, refusedBefore + 1);
});

test('resolveSiteHref finds the file the case server serves for a URL of the page, and none where it serves none', async () => {
  const { documents, release } = server.publish('c5', 'document', { html: '', site }, ['firefox'], new Set());
  const page = documents.firefox!.url;
  const hrefs = [
    '/css/support/grid.css',
    '../support/grid.css',
    '../../css/support/grid.css?v=2#x',
    'support/a.png',
    './support/../support/a.png',
    '/fonts/ahem.css',
    '/fonts/../fonts/ahem.css',
    '/fonts/%61hem.css',
    '..\\support\\grid.css',
    '/../../../fonts/Ahem.ttf',
    'grid.css',
    '/css/support/missing.css',
    `http://other.localhost:${port}/fonts/ahem.css`,
    'data:text/css,div{}',
    '//fonts/ahem.css',
  ];
  try {
    for (const href of hrefs) {
      const key = resolveSiteHref(href, site.path);
      const served = key !== null && Object.hasOwn(site.files, key);
      const url = new URL(href, page);
      url.hash = ''; // a browser never sends it
      const status = url.protocol === 'http:' ? (await getUrl(url.href)).status : 404;
      assert.equal(served, status === 200, `${href}: ${key} (the server answers ${status})`);
    }
    assert.equal(resolveSiteHref('../support/grid.css', site.path), 'css/support/grid.css');
    assert.equal(resolveSiteHref('x.css', 'css/support/grid.css'), 'css/support/x.css', 'against the sheet it is in');
  } finally {
    release();
  }
});

test('types by extension: text as UTF-8, fonts, images and video as bytes, anything else plain text', () => {
  assert.equal(fileType('a/b.JS'), 'text/javascript; charset=utf-8');
  assert.equal(fileType('x.xht'), 'application/xhtml+xml; charset=utf-8');
  assert.equal(fileType('x.woff2'), 'font/woff2');
  assert.equal(fileType('x.svg'), 'image/svg+xml; charset=utf-8');
  assert.equal(fileType('x.webm'), 'video/webm');
  assert.equal(fileType('x.py'), 'text/plain; charset=utf-8');
});
