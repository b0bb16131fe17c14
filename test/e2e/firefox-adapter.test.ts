// The Firefox adapter against a real firefox-esr, directly (no engine host, no coordinator): pages,
// the trusted programs in the sandbox against hostile cases, error classes, crashes, hangs,
// popups, downloads, the network, and what is left once the browser closes.
import { WALK, launchOptions } from '../support/direct-engines.js';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WalkOptions } from '../../src/page/walk.js';
import type { EngineBrowser, EnginePage } from '../../src/workers/engine.js';
import { launchFirefox } from '../../src/workers/engines/firefox/index.js';
import type { BidiConnection } from '../../src/workers/engines/firefox/connection.js';
import type { FirefoxPage } from '../../src/workers/engines/firefox/page.js';
import { descendantsOf } from '../../src/system/processes.js';
import { adapterContract } from '../support/adapter-contract.js';
import { CaseProxy } from '../support/case-proxy.js';
import { engineProcesses } from '../support/processes.js';

const LOAD_MS = 30_000;

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

const firefoxPid = () => engineProcesses(descendantsOf(process.pid), 'firefox')[0];
const contentProcesses = (root: number) =>
  descendantsOf(root).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('Isolated Web');
    } catch {
      return false;
    }
  });
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
    oneProcess: {
      launch: (overrides) => launchFirefox(launchOptions(proxy.url, { browsers: 'system', ...overrides })),
      folderOf: profileOf,
      leftOf: windowsOf,
      mediaShown: async (pid) => {
        assert.ok(readFileSync(join(profileOf(pid), 'user.js'), 'utf8').includes('user_pref("media.navigator.streams.fake", true);'));
      },
      missing: {
        paths: { firefox: '/nonexistent/firefox' },
        message: /^Error: firefox-esr did not start: \/nonexistent\/firefox not found/,
      },
    },
  });

  test("callMain answers what JSON cannot hold, as BiDi's remote values carry it", async () => {
    const { page } = await caseOn('<!doctype html><p>x</p>');
    assert.deepEqual(await page.callMain('() => ({ nan: NaN, list: [Infinity, -0] })', []), { nan: Number.NaN, list: [Infinity, -0] });
    await page.close();
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

  test('a page on http://localhost through the proxy reaches no other loopback port', async (t) => {
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
    const hosts = ['127.0.0.1', '127.0.0.2', 'localhost', 'foo.localhost', '2130706433', '[::1]', '[::ffff:127.0.0.1]'];
    const results = await page.callMain(
      `(hosts, port) => Promise.all(hosts.map((h) => fetch('http://' + h + ':' + port + '/x', { mode: 'no-cors' }).then((r) => r.type, (e) => e.name)))`,
      [hosts, port],
    );
    assert.equal((results as string[]).length, hosts.length);
    assert.deepEqual(reached, []);
    await page.close();
  });
});

/** The profile folder a Firefox was started with. */
function profileOf(pid: number): string {
  const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  return cmdline[cmdline.indexOf('--profile') + 1]!;
}
