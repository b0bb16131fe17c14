// The WebKit adapter against a real WebKitGTK (WebKitWebDriver and MiniBrowser under a private
// Xvfb), directly (no engine host, no coordinator): the contract every adapter keeps
// (test/support/adapter-contract.ts), the guard against hostile cases, and what is left once the
// browser closes. WebDriver has no isolated world: the
// guard (src/page/guard.ts) stands in for one, so every case document here is served as the case
// server serves it to WebKit, with the guard as its first script (src/coordinator/case-documents.ts).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { caseDocument } from '../../src/coordinator/case-documents.js';
import type { WalkOptions } from '../../src/page/walk.js';
import type { EngineBrowser, EnginePage } from '../../src/workers/engine.js';
import { launchWebKit } from '../../src/workers/engines/webkit/index.js';
import { MINIBROWSER, WEBKIT_DRIVER } from '../../src/workers/engines/webkit/minibrowser.js';
import { descendantsOf } from '../../src/system/processes.js';
import { WALK, launchOptions } from '../support/direct-engines.js';
import { adapterContract } from '../support/adapter-contract.js';
import { CaseProxy } from '../support/case-proxy.js';
import { survivors } from '../support/processes.js';

const LOAD_MS = 30_000;

/** What the case server sends with a case's document. */
const CASE = { 'content-security-policy': 'sandbox allow-scripts' };

let proxy: CaseProxy;
let browser: EngineBrowser;
let paths = 0;

before(async () => {
  proxy = await CaseProxy.start();
  browser = await launchWebKit(launchOptions(proxy.url, { browsers: 'system' }));
});

after(async () => {
  await browser?.close();
  await proxy.close();
});

/** `html` served as a geometry case is served to WebKit: the guard first, knowing its document's nonce. */
const serveCase = (html: string) => proxy.serve(`/case/${++paths}`, (nonce) => caseDocument('document', html, nonce, true, 0), CASE);

/** A page with `html` loaded as a case document; its walk arguments check that document. */
async function caseOn(
  html: string,
): Promise<{ page: EnginePage; args: { check: { url: string; nonce: string }; fresh: boolean; walk: WalkOptions } }> {
  const check = serveCase(html);
  const page = await browser.newPage({ freshStorage: true });
  await page.load(check.url, LOAD_MS);
  return { page, args: { check, fresh: true, walk: WALK } };
}

/** A process's argv; nothing for one that is gone. */
function commandLine(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return [];
  }
}
/** The WebDriver servers below this process: each leads the process group of its session. */
const drivers = () => descendantsOf(process.pid).filter((pid) => commandLine(pid)[0] === WEBKIT_DRIVER);

describe('webkit adapter', () => {
  test("launch: the version is the driver's browserVersion; the executables are Debian's; programs go through the guard", () => {
    assert.match(browser.version, /^\d+\.\d+\.\d+$/);
    assert.equal(browser.engine, 'webkit');
    assert.equal(browser.traits.guarded, true);
    assert.deepEqual(browser.executables, { webkitDriver: WEBKIT_DRIVER, miniBrowser: MINIBROWSER });
  });

  adapterContract({
    world: 'the guard',
    browser: () => browser,
    proxy: () => proxy,
    caseOn,
    serveCase,
    pageProcess: 'web process',
    killPageProcesses: () => {
      for (const pid of descendantsOf(process.pid).filter((p) => commandLine(p)[0]?.endsWith('/WebKitWebProcess')))
        process.kill(pid, 'SIGKILL');
    },
    loadBoundElsewhere:
      "WebKitGTK's WebDriver bounds a navigation by its own page-load timeout, W3C's default of 300 s, and the engine host's case timer comes first",
  });

  test("close: no process of any session survives, and each session's HOME is removed", async () => {
    const running = new Set(drivers());
    const own = await launchWebKit(launchOptions(proxy.url, { browsers: 'system' }));
    const page = await own.newPage({ freshStorage: true });
    // A second page that must have fresh storage gets a session of its own.
    const second = await own.newPage({ freshStorage: true });
    const ownDrivers = drivers().filter((pid) => !running.has(pid));
    assert.equal(ownDrivers.length, 2, 'a WebDriver server per session');
    const homes = ownDrivers.map((pid) =>
      readFileSync(`/proc/${pid}/environ`, 'utf8')
        .split('\0')
        .find((v) => v.startsWith('HOME='))!
        .slice(5),
    );
    for (const home of homes) assert.ok(existsSync(home), home);
    await page.load(serveCase('<!doctype html><p>x</p>').url, LOAD_MS);
    await Promise.all([page.close(), second.close()]);
    await own.close();
    for (const pid of ownDrivers) assert.deepEqual(survivors(pid), [], `no process of session ${pid}'s group is alive`);
    for (const home of homes) assert.equal(existsSync(home), false, `${home} is gone`);
  });
});
