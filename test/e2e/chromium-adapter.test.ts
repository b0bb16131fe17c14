// The Chromium adapter against a real Chromium, directly (no engine host, no coordinator): pages,
// the contract every adapter keeps (test/support/adapter-contract.ts), the isolated world against
// hostile cases, error classes, crashes, hangs, screenshots, what a page can send to Node, and
// what is left once the browser closes. What the whole oracle does with a hostile case (every
// engine: popups, storage, the network) is hostile-*.test.ts's.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { OracleError } from '../../src/protocol/errors.js';
import type { WalkOptions } from '../../src/page/walk.js';
import type { EngineBrowser, EnginePage } from '../../src/workers/engine.js';
import { launchChromium } from '../../src/workers/engines/chromium/index.js';
import { SYSTEM_CHROMIUM } from '../../src/workers/engines/chromium/executable.js';
import type { CdpConnection } from '../../src/workers/engines/chromium/connection.js';
import type { ChromiumPage } from '../../src/workers/engines/chromium/page.js';
import { descendantsOf } from '../../src/system/processes.js';
import { WALK, launchOptions } from '../support/direct-engines.js';
import { adapterContract, isCode, walkOf } from '../support/adapter-contract.js';
import { CaseProxy } from '../support/case-proxy.js';
import { engineProcesses } from '../support/processes.js';

const LOAD_MS = 30_000;

/** What the case server sends with a case's document. */
const CASE = { 'content-security-policy': 'sandbox allow-scripts' };

let proxy: CaseProxy;
let browser: EngineBrowser;
let paths = 0;

before(async () => {
  proxy = await CaseProxy.start();
  browser = await launchChromium(launchOptions(proxy.url, { browsers: 'system' }));
});

after(async () => {
  await browser?.close();
  await proxy.close();
});

/** A page with `html` loaded as a case document; its walk arguments check that document. */
async function caseOn(
  html: string,
): Promise<{ page: EnginePage; args: { check: { url: string; nonce: string }; fresh: boolean; walk: WalkOptions } }> {
  const check = proxy.serve(`/case/${++paths}`, html, CASE);
  const page = await browser.newPage({ freshStorage: true });
  await page.load(check.url, LOAD_MS);
  return { page, args: { check, fresh: true, walk: WALK } };
}

const chromiumPid = () => engineProcesses(descendantsOf(process.pid), 'chromium')[0]!;
const commandLine = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
/** Renderers rewrite their command line as one string (setproctitle). */
const renderers = (root: number) =>
  descendantsOf(root).filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer'));
/** The white-box view of a browser: its CDP connection, to ask Chromium what exists. */
const connectionOf = (b: EngineBrowser) => (b as unknown as { connection: CdpConnection }).connection;
const targetsOf = async (page: EnginePage) => {
  const { targetInfos } = await connectionOf(browser).send<{ targetInfos: { browserContextId: string; type: string; url: string }[] }>(
    'Target.getTargets',
  );
  return targetInfos.filter((t) => t.browserContextId === (page as ChromiumPage).browserContextId);
};

describe('chromium adapter', () => {
  test('launch: the version is the product build; one process group on a pipe; one --disable-features with both lists', () => {
    assert.match(browser.version, /^\d+\.\d+\.\d+\.\d+$/);
    assert.equal(browser.engine, 'chromium');
    assert.equal(browser.traits.guarded, false);
    assert.deepEqual(browser.executables, { chromium: SYSTEM_CHROMIUM });
    const argv = commandLine(chromiumPid());
    assert.equal(argv[0], SYSTEM_CHROMIUM);
    for (const arg of ['--headless', '--remote-debugging-pipe', '--no-startup-window', '--no-sandbox', '--hide-scrollbars'])
      assert.ok(argv.includes(arg), arg);
    const features = argv.filter((arg) => arg.startsWith('--disable-features='));
    assert.equal(features.length, 1, features.join(' '));
    for (const feature of ['PaintHolding', 'RenderDocument', 'IsolateSandboxedIframes', 'site-per-process'])
      assert.ok(features[0]!.split(/[=,]/).includes(feature), feature);
    const userDataDir = argv.find((arg) => arg.startsWith('--user-data-dir='))!.split('=')[1]!;
    assert.ok(existsSync(userDataDir));
  });

  adapterContract({
    world: 'the isolated world',
    browser: () => browser,
    proxy: () => proxy,
    caseOn: (html) => caseOn(html),
    serveCase: (html) => proxy.serve(`/case/${++paths}`, html, CASE),
    pageProcess: 'renderer',
    killPageProcesses: () => {
      for (const pid of renderers(chromiumPid())) process.kill(pid, 'SIGKILL');
    },
    oneProcess: {
      launch: (overrides) => launchChromium(launchOptions(proxy.url, { browsers: 'system', ...overrides })),
      folderOf: userDataDirOf,
      leftOf: targetsOf,
      mediaShown: async (pid, page) => {
        assert.ok(commandLine(pid).includes('--use-fake-device-for-media-stream'));
        assert.equal(await page.callMain("() => navigator.permissions.query({ name: 'camera' }).then((p) => p.state)", []), 'granted');
      },
      missing: {
        paths: { chromium: '/nonexistent/chromium' },
        message: /^Error: chromium did not start: \/nonexistent\/chromium not found/,
      },
    },
  });

  test("a page is emulated as Playwright's newContext made it: screen, window, media, pointer, focus", async () => {
    const { page } = await caseOn('<!doctype html><p>x</p>');
    assert.deepEqual(
      await page.callMain(
        `() => [screen.width, screen.height, outerWidth, outerHeight, devicePixelRatio, document.hasFocus(),
          ...['(prefers-color-scheme: light)', '(prefers-reduced-motion: no-preference)', '(forced-colors: none)',
              '(pointer: fine)', '(hover: hover)', '(orientation: landscape)'].map((q) => matchMedia(q).matches)]`,
        [],
      ),
      [800, 600, 800, 600, 1, true, true, true, true, true, true, true],
    );
    await page.close();
  });

  test('a case that leaves its document as it loads: the load ends on the document it went to', async () => {
    const other = proxy.serve(`/case/${++paths}`, '<!doctype html><p>other</p>', CASE);
    const { page, args } = await caseOn(`<!doctype html><p>x</p><script>location.href = ${JSON.stringify(other.url)}</script>`);
    assert.deepEqual(JSON.parse(await page.run({ program: 'walk', args })), { elsewhere: other.url });
    await page.close();
  });

  test('a page that stops readystatechange before the isolated world hears it still loads', async () => {
    const { page, args } = await caseOn(
      "<!doctype html><p>x</p><script>document.addEventListener('readystatechange', (e) => e.stopImmediatePropagation())</script>",
    );
    assert.deepEqual(walkOf(await page.run({ program: 'walk', args })).tags, ['HTML', 'HEAD', 'BODY', 'P', 'SCRIPT']);
    await page.close();
  });

  test('a thrown value that is not an error is named; one too large to read is a script_error of a few words', async () => {
    const { page, args } = await caseOn('<!doctype html><p>x</p>');
    await assert.rejects(page.run({ program: 'walk', args, script: 'throw "plain"' }), (error: unknown) => {
      assert.ok(error instanceof OracleError && error.message === 'uncaught "plain"', String(error));
      return true;
    });
    for (const thrown of ["new Error('x'.repeat(2e7))", "'y'.repeat(2e7)"]) {
      await assert.rejects(page.run({ program: 'walk', args, script: `throw ${thrown}` }), (error: unknown) => {
        assert.ok(error instanceof OracleError && error.code === 'script_error', String(error));
        assert.match(error.message, /^the script threw an error too large to read \(\d+ bytes\)$/);
        return true;
      });
    }
    assert.deepEqual(walkOf(await page.run({ program: 'walk', args })).tags.length, 4);
    await page.close();
  });

  test('console calls, uncaught exceptions and rejections of any size send Node nothing', async () => {
    const { page, args } = await caseOn('<!doctype html><p>x</p>');
    const fromChromium = (connectionOf(browser) as unknown as { fromChromium: Readable }).fromChromium;
    let received = 0;
    const count = (data: Buffer) => {
      received += data.length;
    };
    fromChromium.on('data', count);
    try {
      // 20 × 5 MB through console.log, console.error, uncaught exceptions and unhandled rejections: 400 MB.
      const flood = `const s = 'x'.repeat(5e6);
        for (let i = 0; i < 20; i++) {
          console.log(s + i); console.error(s, i);
          setTimeout(() => { throw new Error(s + i) });
          Promise.reject(new Error(s + i));
        }`;
      const walk = await page.run({ program: 'walk', args, script: flood });
      // The timers that throw ran before this one: the flood is over when it answers.
      await page.callMain('() => new Promise((resolve) => setTimeout(resolve))', []);
      assert.deepEqual(walkOf(walk).tags, ['HTML', 'HEAD', 'BODY', 'P']);
    } finally {
      fromChromium.off('data', count);
    }
    // The answers to the adapter's own commands (a small walk among them), and nothing of the flood.
    assert.ok(received < 64 * 1024, `${received} bytes came from Chromium during a 400 MB flood`);
    await page.close();
  });

  test('a case that leaves its document during a call is page_tampered, and the page lives on', async () => {
    const { page } = await caseOn('<!doctype html><p>x</p>');
    const away = proxy.serve(`/case/${++paths}`, '<!doctype html><p>away</p>', CASE);
    await assert.rejects(
      page.callMain('(url) => { location.href = url; return new Promise(() => {}) }', [away.url]),
      isCode('page_tampered'),
    );
    assert.equal(JSON.parse(await page.run({ program: 'pageState', args: {} })).href, away.url);
    await page.close();
  });
});

/** The user data folder a Chromium was started with. */
function userDataDirOf(pid: number): string {
  return commandLine(pid)
    .find((arg) => arg.startsWith('--user-data-dir='))!
    .slice('--user-data-dir='.length);
}
