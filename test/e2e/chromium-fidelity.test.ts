// Fidelity of the CDP adapter: its Chromium dumps are byte for byte those of the playwright-core
// adapter it replaced, on the bench's layout corpus. The other side is the same Chromium with the
// same command line, driven as the old adapter drove it: one context with one page at 800×600 and
// scale 1 and a CDP session on it, kept for case after case (the old adapter reused its pages
// too); goto until load, then the walk in a new isolated world. Each case goes to both browsers at
// once: they are separate processes, and each side still takes its cases one after another.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { CaseServer } from '../../src/coordinator/case-server.js';
import { EgressLog } from '../../src/coordinator/egress-log.js';
import { PROGRAMS } from '../../src/page/sources.js';
import { dumpJson } from '../../src/protocol/dump.js';
import { decodeWalkText, type RawWalk } from '../../src/protocol/page-output.js';
import { VIEWPORT } from '../../src/protocol/common.js';
import { DirectEngines, WALK, launchOptions } from '../support/direct-engines.js';
import { layoutCorpus } from '../support/layout-corpus.js';
import { launchPlaywrightChromium } from '../support/playwright-chromium.js';

let adapter: DirectEngines;
let server: CaseServer;
let browser: Browser;
let page: Page;
let cdp: CDPSession;

before(async () => {
  adapter = await DirectEngines.open(['chromium'], false);
  server = await CaseServer.start(new EgressLog(), WALK.maxBytes);
  browser = await launchPlaywrightChromium(launchOptions(server.proxyUrl));
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1, acceptDownloads: false });
  page = await context.newPage();
  cdp = await context.newCDPSession(page);
});

after(async () => {
  await browser?.close();
  await server?.close();
  await adapter?.close();
});

/** `html` walked as the playwright-core adapter walked a case. */
async function playwrightWalk(id: string, html: string): Promise<RawWalk> {
  const published = server.publish(id, 'document', { html }, ['chromium'], new Set());
  try {
    const { url, nonce } = published.documents.chromium!;
    await page.goto(url, { waitUntil: 'load' });
    const { frameTree } = await cdp.send('Page.getFrameTree');
    const { executionContextId } = await cdp.send('Page.createIsolatedWorld', {
      frameId: frameTree.frame.id,
      worldName: 'browser-oracle',
      grantUniveralAccess: false,
    });
    const { result, exceptionDetails } = await cdp.send('Runtime.callFunctionOn', {
      functionDeclaration: `(args) => new Promise((resolve) => (${PROGRAMS.walk})(args, resolve))`,
      executionContextId,
      arguments: [{ value: { check: { url, nonce }, fresh: true, walk: WALK } }],
      awaitPromise: true,
      returnByValue: true,
    });
    assert.equal(exceptionDetails, undefined, `${id}: ${exceptionDetails?.text}`);
    const answer = decodeWalkText(result.value as string);
    if (!('walk' in answer)) throw new Error(`${id}: ${JSON.stringify(answer).slice(0, 200)}`);
    return answer.walk;
  } finally {
    published.release();
  }
}

test('engine_version is what Playwright reported', () => {
  assert.equal(adapter.versionOf('chromium'), browser.version());
});

test("every layout corpus case: the CDP adapter's dump is the Playwright adapter's, byte for byte", async () => {
  const cases = layoutCorpus();
  const differing: string[] = [];
  for (const { id, html } of cases) {
    const [ours, theirs] = await Promise.all([adapter.loadAndWalk('chromium', id, html), playwrightWalk(id, html)]);
    if (String(dumpJson('chromium', browser.version(), ours)) !== String(dumpJson('chromium', browser.version(), theirs)))
      differing.push(id);
  }
  assert.deepEqual(differing, [], `${cases.length - differing.length}/${cases.length} identical`);
});
