// The Firefox adapter against a real firefox-esr, directly (no engine host, no coordinator): pages,
// the trusted programs in the sandbox against hostile cases, error classes, crashes, hangs,
// popups, downloads, the network, and what is left once the browser closes.
import { WALK, launchOptions } from '../support/direct-engines.js';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dumpJson } from '../../src/protocol/dump.js';
import type { WalkOptions } from '../../src/page/walk.js';
import { EngineGoneError, type EngineBrowser, type EnginePage } from '../../src/workers/engine.js';
import { launchFirefox } from '../../src/workers/engines/firefox/index.js';
import type { BidiConnection } from '../../src/workers/engines/firefox/connection.js';
import type { FirefoxPage } from '../../src/workers/engines/firefox/page.js';
import { startFirefox } from '../../src/workers/engines/firefox/process.js';
import { descendantsOf } from '../../src/system/processes.js';
import { UNANSWERED, adapterContract, isCode, walkOf } from '../support/adapter-contract.js';
import { CaseProxy } from '../support/case-proxy.js';
import { HOSTILE, LAYOUT } from '../support/hostile-case.js';
import { engineProcesses, survivors } from '../support/processes.js';

const LOAD_MS = 30_000;
/** Stands in for the engine host's per-case timeout: the adapter must answer long before it. */
const HOST_TIMEOUT_MS = 120_000;

let proxy: CaseProxy;
let browser: EngineBrowser;
let paths = 0;
/** Firefox's home while it runs: where a download would land. */
const home = mkdtempSync(join(tmpdir(), 'firefox-adapter-home-'));

before(async () => {
  proxy = await CaseProxy.start();
  const realHome = process.env.HOME;
  process.env.HOME = home;
  try {
    browser = await launchFirefox(launchOptions(proxy.url, { browsers: 'system' }));
  } finally {
    process.env.HOME = realHome;
  }
});

after(async () => {
  await browser?.close();
  await proxy.close();
  rmSync(home, { recursive: true, force: true });
});

/** A page with `html` loaded as a case document; its walk arguments check that document. */
async function caseOn(
  html: string,
  page?: EnginePage,
): Promise<{ page: EnginePage; args: { check: { url: string; nonce: string }; fresh: boolean; walk: WalkOptions } }> {
  const check = proxy.serve(`/case/${++paths}`, html);
  const opened = page ?? (await browser.newPage({ freshStorage: true }));
  await opened.load(check.url, LOAD_MS);
  return { page: opened, args: { check, fresh: true, walk: WALK } };
}

const dumpOf = (text: string) => String(dumpJson('firefox', browser.version, walkOf(text)));
const firefoxPid = () => engineProcesses(descendantsOf(process.pid), 'firefox')[0];
const contentProcesses = (root: number) =>
  descendantsOf(root).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('Isolated Web');
    } catch {
      return false;
    }
  });
/** Fails instead of hanging when the adapter never settles `promise`. */
function beforeHostTimeout<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('the call was left to the host timeout')), HOST_TIMEOUT_MS);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
/** The white-box view of a browser: its BiDi connection, to ask Firefox what exists. */
const connectionOf = (b: EngineBrowser) => (b as unknown as { connection: BidiConnection }).connection;
const windowsOf = async (page: EnginePage) => {
  const tree = await connectionOf(browser).send<{ contexts: { context: string; userContext: string; originalOpener: string | null }[] }>(
    'browsingContext.getTree',
    { maxDepth: 0 },
  );
  return tree.contexts.filter((c) => c.userContext === (page as FirefoxPage).userContext);
};

describe('firefox adapter', () => {
  test('launch: the version is browserVersion; the profile holds the oracle prefs', () => {
    assert.match(browser.version, /^\d+\.\d+/);
    assert.equal(browser.engine, 'firefox');
    assert.equal(browser.traits.guarded, false);
    const userJs = readFileSync(join(profileOf(firefoxPid()!), 'user.js'), 'utf8');
    for (const line of [
      'user_pref("layout.css.devPixelsPerPx", "1.0");',
      'user_pref("network.proxy.allow_hijacking_localhost", true);',
      'user_pref("network.proxy.no_proxies_on", "");',
      `user_pref("network.proxy.http_port", ${proxy.port});`,
      'user_pref("media.peerconnection.ice.proxy_only", true);',
      'user_pref("browser.contentblocking.features.standard", "-tp,tpPrivate,cookieBehavior0,-cm,-fp");',
    ]) {
      assert.ok(userJs.includes(line), line);
    }
  });

  adapterContract({
    world: 'the sandbox',
    browser: () => browser,
    proxy: () => proxy,
    caseOn: (html) => caseOn(html),
    serveCase: (html) => proxy.serve(`/case/${++paths}`, html),
    pageProcess: 'content process',
    killPageProcesses: () => {
      for (const pid of contentProcesses(firefoxPid()!)) process.kill(pid, 'SIGKILL');
    },
  });

  test("a case's script that replaces built-ins gets the walk of the same case without them", async () => {
    const clean = await caseOn(LAYOUT);
    const hostile = await caseOn(LAYOUT);
    const expected = dumpOf(await clean.page.run({ program: 'walk', args: clean.args, script: 'void 0' }));
    assert.equal(dumpOf(await hostile.page.run({ program: 'walk', args: hostile.args, script: HOSTILE })), expected);
    // The main world really is hostile: what the page itself sees is forged.
    assert.equal(await hostile.page.callMain('() => JSON.stringify({ a: 1 }) + innerWidth', []), 'FORGED1');
    await Promise.all([clean.page.close(), hostile.page.close()]);
  });

  test('an inline script that replaces built-ins before load: the same walk as without it', async () => {
    const clean = await caseOn(`${LAYOUT}<script>void 0</script>`);
    const hostile = await caseOn(`${LAYOUT}<script>${HOSTILE}</script>`);
    assert.equal(
      dumpOf(await hostile.page.run({ program: 'walk', args: hostile.args })),
      dumpOf(await clean.page.run({ program: 'walk', args: clean.args })),
    );
    await Promise.all([clean.page.close(), hostile.page.close()]);
  });

  test('a document Firefox cannot load is navigation_failed', async () => {
    const page = await browser.newPage({ freshStorage: true });
    // Port 1 is on Firefox's list of banned ports: refused before any request.
    await assert.rejects(page.load('http://localhost:1/case', LOAD_MS), isCode('navigation_failed'));
    await page.close();
  });

  test("callMain answers what JSON cannot hold, as BiDi's remote values carry it", async () => {
    const { page } = await caseOn('<!doctype html><p>x</p>');
    assert.deepEqual(await page.callMain('() => ({ nan: NaN, list: [Infinity, -0] })', []), { nan: Number.NaN, list: [Infinity, -0] });
    await page.close();
  });

  test('a killed browser: the in-flight call is EngineGoneError, exited resolves, nothing is left', async () => {
    const running = new Set(engineProcesses(descendantsOf(process.pid), 'firefox'));
    const own = await launchFirefox(launchOptions(proxy.url, { browsers: 'system' }));
    const ownPid = engineProcesses(descendantsOf(process.pid), 'firefox').find((pid) => !running.has(pid))!;
    const profile = profileOf(ownPid);
    const page = await own.newPage({ freshStorage: true });
    await page.load(proxy.serve(`/case/${++paths}`, '<!doctype html><p>x</p>').url, LOAD_MS);
    const inFlight = page.callMain('() => new Promise(() => {})', []);
    inFlight.catch(() => {});
    process.kill(ownPid, 'SIGKILL');
    await assert.rejects(beforeHostTimeout(inFlight), EngineGoneError);
    await beforeHostTimeout(own.exited);
    assert.equal(existsSync(profile), false, 'the profile folder is gone');
    assert.deepEqual(survivors(ownPid), [], 'no process of its group, nor its crash helper, is alive');
    await own.close();
  });

  test('a hung page does not block another, closes at once, and fails its call as EngineGoneError', UNANSWERED, async () => {
    const other = await caseOn('<!doctype html><p>other</p>');
    const { page, args } = await caseOn('<!doctype html><p>hung</p>');
    const started = proxy.requested('/hung');
    const hung = page.run({
      program: 'reflect',
      args: { check: args.check, probes: [] },
      script: "const x = new XMLHttpRequest(); x.open('GET', '/hung', false); try { x.send() } catch {} for (;;) {}",
    });
    hung.catch(() => {});
    await started;
    assert.deepEqual(JSON.parse(await other.page.run({ program: 'pageState', args: {} })).viewport, [800, 600]);
    await page.close();
    await assert.rejects(beforeHostTimeout(hung), EngineGoneError);
    await other.page.close();
  });

  test('a popup the case opened is gone once its page closes', async () => {
    const popup = proxy.serve('/popup', '<!doctype html><p>popup</p>');
    const { page, args } = await caseOn('<!doctype html><p>opener</p>');
    await page.run({ program: 'reflect', args: { check: args.check, probes: [] }, script: `window.open(${JSON.stringify(popup.url)})` });
    let windows = await windowsOf(page);
    while (windows.length < 2) windows = await windowsOf(page);
    assert.equal(windows.filter((w) => w.originalOpener !== null).length, 1, 'the popup is open');
    await page.close();
    assert.deepEqual(await windowsOf(page), []);
  });

  test('a download is refused: nothing is written, the viewport is unchanged', async () => {
    const { page, args } = await caseOn('<!doctype html><p>download</p>');
    const began = new Promise<void>((resolve) => {
      const routed = browser as unknown as { route(method: string, params: object): void };
      const route = routed.route.bind(browser);
      routed.route = (method, params) => {
        if (method === 'browsingContext.downloadWillBegin') resolve();
        route(method, params);
      };
    });
    await page.run({
      program: 'reflect',
      args: { check: args.check, probes: [] },
      script: `const a = document.createElement('a'); a.href = URL.createObjectURL(new Blob(['written by a case'])); a.download = 'oracle-case-wrote-this.txt'; document.body.append(a); a.click();`,
    });
    await began;
    // A blob download finishes in milliseconds when allowed; give it ample time to show.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const written = readdirSync(home, { recursive: true })
      .map(String)
      .filter((name) => name.includes('oracle-case-wrote-this'));
    assert.deepEqual(written, []);
    assert.deepEqual(JSON.parse(await page.run({ program: 'pageState', args: {} })).viewport, [800, 600]);
    await page.close();
  });

  test('http://localhost through the proxy is a secure context, and no other loopback port is reached', async (t) => {
    const reached: string[] = [];
    const victim = createServer((req, res) => {
      reached.push(String(req.url));
      res.end('reached');
    });
    // Every address, IPv4 and IPv6: whatever loopback name a case picks would land here.
    await new Promise<void>((resolve) => victim.listen(0, '::', resolve));
    t.after(() => new Promise((resolve) => victim.close(resolve)));
    const port = (victim.address() as { port: number }).port;
    const trace = proxy.serve(`/trace/${++paths}`, '<!doctype html><p>trace</p>');
    const page = await browser.newPage({ freshStorage: true });
    await page.load(trace.url, LOAD_MS);
    assert.equal(await page.callMain('() => isSecureContext', []), true);
    assert.ok(proxy.seen.includes(`GET ${trace.url}`), 'the trace page came through the proxy');
    const hosts = ['127.0.0.1', '127.0.0.2', 'localhost', 'foo.localhost', '2130706433', '[::1]', '[::ffff:127.0.0.1]'];
    const results = await page.callMain(
      `(hosts, port) => Promise.all(hosts.map((h) => fetch('http://' + h + ':' + port + '/x', { mode: 'no-cors' }).then((r) => r.type, (e) => e.name)))`,
      [hosts, port],
    );
    assert.equal((results as string[]).length, hosts.length);
    assert.deepEqual(reached, []);
    await page.close();
  });

  test('close: the session ends, no Firefox process survives, the profile is removed', async () => {
    const running = new Set(engineProcesses(descendantsOf(process.pid), 'firefox'));
    const own = await launchFirefox(launchOptions(proxy.url, { browsers: 'system', profile: 'media' }));
    const ownPid = engineProcesses(descendantsOf(process.pid), 'firefox').find((pid) => !running.has(pid))!;
    const profile = profileOf(ownPid);
    assert.ok(readFileSync(join(profile, 'user.js'), 'utf8').includes('user_pref("media.navigator.streams.fake", true);'));
    const page = await own.newPage({ freshStorage: true });
    await page.load(proxy.serve(`/case/${++paths}`, '<!doctype html><p>x</p>').url, LOAD_MS);
    let exited = false;
    void own.exited.then(() => (exited = true));
    await own.close();
    assert.ok(exited, 'exited resolved');
    assert.equal(existsSync(profile), false, 'the profile folder is gone');
    assert.deepEqual(survivors(ownPid), [], 'no process of its group, nor its crash helper, is alive');
  });

  test('a Firefox that cannot start is a one-line error, and leaves no profile behind', async (t) => {
    // A temporary folder of its own: other oracles on the machine make profiles too.
    const tmp = mkdtempSync(join(tmpdir(), 'firefox-adapter-tmp-'));
    t.after(() => rmSync(tmp, { recursive: true, force: true }));
    const realTmp = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    const start = startFirefox(launchOptions(proxy.url, { browsers: 'system' }), '/nonexistent/firefox');
    // startFirefox names its profile before its first await.
    if (realTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = realTmp;
    await assert.rejects(start, /^Error: firefox-esr did not start: \/nonexistent\/firefox not found/);
    assert.deepEqual(readdirSync(tmp), []);
  });
});

/** The profile folder a Firefox was started with. */
function profileOf(pid: number): string {
  const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  return cmdline[cmdline.indexOf('--profile') + 1]!;
}
