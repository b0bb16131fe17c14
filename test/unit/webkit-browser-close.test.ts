// A WebKit browser's close stops its private X display whatever its sessions' closes did: a display
// left running restarts its Xvfb each time it dies, and that Xvfb would outlive the oracle.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WebKitBrowser } from '../../src/workers/engines/webkit/browser.js';
import type { WebKitSession } from '../../src/workers/engines/webkit/session.js';
import type { EngineLaunch } from '../../src/worker-contract/launch.js';

test('a WebKit browser stops its display even when closing a session fails', async () => {
  const session = {
    version: 'test',
    alive: true,
    group: 0,
    closed: new Promise<void>(() => {}),
    close: () => Promise.reject(new Error('EBUSY: a session folder still in use')),
  } as unknown as WebKitSession;
  let stopped = 0;
  const display = { name: ':99', stop: async () => void stopped++ };
  const browser = new WebKitBrowser({ paths: {} } as EngineLaunch, session, display);
  await browser.close();
  assert.equal(stopped, 1);
});
