// The WebKit adapter's W3C WebDriver client on its own (no browser), against a stand-in server that
// answers as WebKitWebDriver does (its answers recorded from WebKitGTK 2.50): the requests it sends,
// values passed through as plain JSON, and the error codes page.ts tells a case's fault from a crash by.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebDriverClient, errorCode } from '../../src/workers/engines/webkit/client.js';

interface Seen {
  method: string;
  path: string;
  body: unknown;
}

const ELEMENT = { 'element-6066-11e4-a52e-4f735466cecf': 'node-1' };
const seen: Seen[] = [];
let server: Server;
let url: string;

/** What WebKitWebDriver answers: the value, or a W3C error with HTTP 500 (404 for an unknown session). */
function answer(method: string, path: string, body: { script?: string; args?: unknown[] }): [number, unknown] {
  if (method === 'POST' && path === '/session') {
    return [200, { sessionId: 's1', capabilities: { browserName: 'MiniBrowser', browserVersion: '2.50.6' } }];
  }
  if (!path.startsWith('/session/s1')) return [404, { error: 'invalid session id', message: '', stacktrace: '' }];
  const command = `${method} ${path.slice('/session/s1'.length)}`;
  if (command === 'POST /execute/async' && body.script === 'null.x') {
    return [500, { error: 'javascript error', message: "null is not an object (evaluating 'null.x')", stacktrace: '' }];
  }
  if (command === 'POST /execute/async' && body.script === 'throw 5') return [500, { error: 'unknown error', message: '', stacktrace: '' }];
  if (command === 'POST /execute/async') return [200, body.args];
  if (command === 'POST /execute/sync') return [200, [ELEMENT, 800]];
  if (command === 'POST /window/new') return [200, { handle: 'page-2', type: 'window' }];
  if (command === 'GET /window/handles') return [200, ['page-1', 'page-2']];
  if (command === 'DELETE /window') return [500, { error: 'no such window', message: '', stacktrace: '' }];
  return [200, null];
}

async function bodyOf(request: IncomingMessage): Promise<unknown> {
  let text = '';
  for await (const chunk of request) text += chunk;
  return text ? JSON.parse(text) : undefined;
}

before(async () => {
  server = createServer(async (request, response) => {
    const body = await bodyOf(request);
    seen.push({ method: request.method!, path: request.url!, body });
    const [status, value] = answer(request.method!, request.url!, (body ?? {}) as { script?: string });
    response.writeHead(status, { 'content-type': 'application/json;charset=utf-8' });
    response.end(JSON.stringify({ value }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

after(() => server.close());

/** The error a call rejects with. */
async function failure(call: Promise<unknown>): Promise<Error> {
  return call.then(
    () => assert.fail('the call succeeded'),
    (error: Error) => error,
  );
}

test('a session is asked for with the capabilities as W3C alwaysMatch, and says its browser version', async () => {
  const capabilities = {
    'webkitgtk:browserOptions': { binary: '/mb', args: ['--automation'] },
    pageLoadStrategy: 'normal',
    unhandledPromptBehavior: 'dismiss',
  };
  const client = await WebDriverClient.start(url, capabilities);
  assert.equal(client.capabilities.get('browserVersion'), '2.50.6');
  assert.deepEqual(seen.at(-1), {
    method: 'POST',
    path: '/session',
    body: { capabilities: { firstMatch: [{}], alwaysMatch: capabilities } },
  });
  await client.deleteSession();
});

test('commands go to their W3C endpoints, and values come back as the server sent them', async () => {
  const client = await WebDriverClient.start(url, {});
  seen.length = 0;
  const args = [{ x: [1, 'é', null], nested: ELEMENT }];
  assert.deepEqual(await client.executeAsyncScript('done', args), args);
  assert.deepEqual(await client.executeScript('return', []), [ELEMENT, 800]);
  assert.equal(await client.createWindow('window'), 'page-2');
  assert.deepEqual(await client.getWindowHandles(), ['page-1', 'page-2']);
  await client.setWindowSize(800, 600);
  await client.switchToWindow('page-2');
  await client.navigateTo('http://localhost:1/case');
  await client.deleteSession();
  assert.deepEqual(
    seen.map((s) => [s.method, s.path, s.body]),
    [
      ['POST', '/session/s1/execute/async', { script: 'done', args }],
      ['POST', '/session/s1/execute/sync', { script: 'return', args: [] }],
      ['POST', '/session/s1/window/new', { type: 'window' }],
      ['GET', '/session/s1/window/handles', undefined],
      ['POST', '/session/s1/window/rect', { width: 800, height: 600 }],
      ['POST', '/session/s1/window', { handle: 'page-2' }],
      ['POST', '/session/s1/url', { url: 'http://localhost:1/case' }],
      ['DELETE', '/session/s1', undefined],
    ],
  );
});

test("a server's error answer has its W3C code; no answer at all is a plain Error", async () => {
  const client = await WebDriverClient.start(url, {});
  const thrown = await failure(client.executeAsyncScript('null.x', []));
  assert.equal(errorCode(thrown), 'javascript error');
  assert.match(thrown.message, /null is not an object/);
  assert.equal(errorCode(await failure(client.executeAsyncScript('throw 5', []))), 'unknown error');
  assert.equal(errorCode(await failure(client.closeWindow())), 'no such window');
  const gone = await new Promise<number>((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  const refused = await failure(WebDriverClient.start(`http://127.0.0.1:${gone}/`, {}));
  assert.equal(errorCode(refused), 'Error');
  assert.match(refused.message, /ECONNREFUSED/);
  await client.deleteSession();
});
