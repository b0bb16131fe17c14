// The case server's trace route on its own: served only while published, only by its exact
// path, only under the localhost name, and only on loopback.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { CaseServer } from '../../src/coordinator/case-server.js';

let server: CaseServer;
let port: number;

before(async () => {
  server = await CaseServer.start();
  port = Number(new URL(server.blankUrl).port);
});

after(() => server.close());

/** GET `path` at `address`, naming the server `host`; resolves with the status and body. */
function get(path: string, host = `localhost:${port}`, address = '127.0.0.1'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: address, port, path, headers: { host } }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('a published trace page is served at http://localhost:<port>/trace/<id> until released', async () => {
  const page = server.publishTrace('<!doctype html><p>trace');
  const url = new URL(page.url);
  assert.equal(url.origin, `http://localhost:${port}`);
  assert.match(url.pathname, /^\/trace\/[0-9a-f]{24}$/);
  const served = await get(url.pathname);
  assert.equal(served.status, 200);
  assert.equal(served.body, '<!doctype html><p>trace');
  page.release();
  assert.equal((await get(url.pathname)).status, 404);
});

test('only the exact path and the localhost name reach a page in flight', async () => {
  const page = server.publishTrace('x');
  const path = new URL(page.url).pathname;
  const id = path.slice('/trace/'.length);
  try {
    assert.equal((await get(path)).status, 200);
    assert.equal((await get(path, `127.0.0.1:${port}`)).status, 404, 'another Host name');
    for (const trick of [
      '/trace/',
      '/trace/nope',
      `/trace/../trace/${id}`,
      `/trace/./${id}`,
      `/trace/${id}/`,
      `/trace/${id}?x`,
      `/trace%2F${id}`,
      `/trace/${id}%2F..`,
      `//trace/${id}`,
      `/TRACE/${id}`,
      '/trace/..%2Fblank',
      '/trace/%2e%2e/blank',
    ]) {
      assert.equal((await get(trick)).status, 404, trick);
    }
  } finally {
    page.release();
  }
});

test('the server listens on 127.0.0.1 only', async () => {
  // 127.0.0.2 reaches this host too; a server bound to every address (0.0.0.0) would answer there.
  await assert.rejects(get('/blank', `localhost:${port}`, '127.0.0.2'), /ECONNREFUSED/);
});
