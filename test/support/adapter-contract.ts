// What every engine adapter promises the engine host, as tests to run against one adapter driven
// directly (test/e2e/<engine>-adapter.test.ts): the programs on a served case, a page elsewhere
// than its case, the case's script failing, built-ins the case replaces, a load that fails or
// never finishes, the main world, a screenshot, and a page whose process dies under a call; for
// an adapter whose browser is one process, a hung page, a killed browser, a closed one and one
// that cannot start. Where an adapter keeps a promise another way (WebKit's: the guard instead of
// an isolated world, a driver that bounds a load by its own time), the test says how, and checks
// that way instead.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { dumpJson } from '../../src/protocol/dump.js';
import type { Executables } from '../../src/protocol/launch-options.js';
import { pngSize } from '../../src/protocol/png.js';
import type { WalkOptions } from '../../src/page/walk.js';
import { OracleError } from '../../src/protocol/errors.js';
import { decodeReflectionText, decodeWalkText, type RawWalk } from '../../src/protocol/page-output.js';
import { EngineGoneError, type EngineBrowser, type EnginePage, type ProgramCall } from '../../src/workers/engine.js';
import type { EngineLaunch } from '../../src/worker-contract/launch.js';
import type { CaseProxy } from './case-proxy.js';
import { WALK } from './direct-engines.js';
import { HOSTILE, LAYOUT } from './hostile-case.js';
import { engineProcesses, survivors } from './processes.js';
import { descendantsOf } from '../../src/system/processes.js';

/** A walk program's answer, decoded as the oracle decodes it; anything but a walk fails the test. */
export function walkOf(text: string): RawWalk {
  const answer = decodeWalkText(text);
  assert.ok('walk' in answer, JSON.stringify(answer));
  return answer.walk;
}

/** A page with a case loaded, and the walk arguments that check that document (and lay it out fresh first, as the oracle's do). */
export interface CaseOnPage {
  page: EnginePage;
  args: { check: { url: string; nonce: string }; fresh: boolean; walk: WalkOptions };
}

export interface AdapterUnderTest {
  /** Where the trusted programs run, in the engine's words ("the isolated world", "the sandbox", "the guard"). */
  world: string;
  browser: () => EngineBrowser;
  /** The proxy every request of the browser goes to. */
  proxy: () => CaseProxy;
  /** `html` served as a case document (as the case server serves it to this engine) and loaded in a new page. */
  caseOn: (html: string) => Promise<CaseOnPage>;
  /** `html` served as a case document, not loaded. */
  serveCase: (html: string) => { url: string; nonce: string };
  /** What the processes a page's document runs in are called ("renderer", "content process"). */
  pageProcess: string;
  /** Kills every one of them, as a crash would. */
  killPageProcesses: () => void;
  /**
   * Set, with the reason, when the adapter does not bound a load by the time it is given, nor
   * answers a refused one navigation_failed: the engine host's case timer is then what ends such a
   * load, by closing its page.
   */
  loadBoundElsewhere?: string;
  /** An adapter whose browser is one process (its own process group and folder): how to tell. */
  oneProcess?: OneProcess;
}

/** What the contract needs of a browser that is one process, to launch, kill and close one of its own. */
export interface OneProcess {
  /** Launches a browser of the test's own, with `overrides` over the test's launch options. */
  launch: (overrides?: Partial<EngineLaunch>) => Promise<EngineBrowser>;
  /** The folder a browser's process keeps its profile in (read from its command line). */
  folderOf: (pid: number) => string;
  /** What is left in the shared browser of a page once it is closed (its targets, its windows): nothing, once the adapter closed it. */
  leftOf: (page: EnginePage) => Promise<unknown[]>;
  /** That `pid`, launched with the `media` profile, shows it (a switch, a pref), and `page` on a trace page may use the camera where the engine says so. */
  mediaShown: (pid: number, page: EnginePage) => Promise<void>;
  /** The executable of a browser that cannot start, and the one line its launch rejects with. */
  missing: { paths: Executables; message: RegExp };
}

/** What the case server sends with a trace page: its own origin, popups that escape the sandbox. */
const TRACE = { 'content-security-policy': 'sandbox allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox' };

/**
 * Stands in for the engine host's per-case timeout, for tests of a page that will never answer by
 * itself: the adapter must settle the call, so the test fails rather than hangs when it does not.
 */
export const UNANSWERED = { timeout: 120_000 };

/** Paths of the contract's own, apart from the test files'. */
let paths = 0;

/**
 * The message of the script error a call ends in. An adapter with an isolated world throws
 * script_error itself; a guarded one (browser.traits.guarded) answers the guard's `{"scriptError"}` as the
 * program's text, which the engine host turns into script_error: both are checked as the host reads them.
 */
async function scriptErrorOf(browser: EngineBrowser, page: EnginePage, call: ProgramCall): Promise<string> {
  if (!browser.traits.guarded) {
    let message = '';
    await assert.rejects(page.run(call), (error: unknown) => {
      assert.ok(error instanceof OracleError && error.code === 'script_error', String(error));
      message = error.message;
      return true;
    });
    return message;
  }
  const text = await page.run(call);
  const answer = call.program === 'reflect' ? decodeReflectionText(text, 0) : decodeWalkText(text);
  assert.ok('scriptError' in answer, text);
  return answer.scriptError;
}

export const isCode = (code: string) => (error: unknown) => {
  assert.ok(error instanceof OracleError && error.code === code, String(error));
  return true;
};

/**
 * Two ways to be in flight when the page's process dies, for the crash tests: the case's script
 * busy in the main world, and a main-world call waiting on a promise that will never settle.
 * Each first makes a synchronous request to `started`, which says the script runs.
 */
const IN_FLIGHT = {
  'a busy script': (page: EnginePage, args: object, started: string) =>
    page.run({
      program: 'walk',
      args,
      script: `const x = new XMLHttpRequest(); x.open('GET', '${started}', false); try { x.send() } catch {} for (;;) {}`,
    }),
  'a pending call': (page: EnginePage, _args: object, started: string) =>
    page.callMain(
      "(url) => { const x = new XMLHttpRequest(); x.open('GET', url, false); try { x.send() } catch {} return new Promise(() => {}) }",
      [started],
    ),
};

/** The contract's tests, in the caller's describe(). */
export function adapterContract(adapter: AdapterUnderTest): void {
  test(`a served case: pageState, walk and reflect from ${adapter.world}`, async () => {
    const { page, args } = await adapter.caseOn(
      '<!doctype html><p style="width:120px">hello <b>world</b></p><input id=n type=number min=5>',
    );
    const state = JSON.parse(await page.run({ program: 'pageState', args: {} }));
    assert.deepEqual(state, { href: args.check.url, viewport: [800, 600], ratio: 1 });
    const walk = walkOf(await page.run({ program: 'walk', args }));
    assert.deepEqual(walk.tags, ['HTML', 'HEAD', 'BODY', 'P', 'B', 'INPUT']);
    assert.deepEqual(walk.parents, [-1, 0, 0, 2, 3, 2]);
    assert.deepEqual(walk.viewport, [800, 600]);
    assert.equal(walk.bounding[3 * 4 + 2], 120, "the p's width");
    const reflected = JSON.parse(
      await page.run({
        program: 'reflect',
        args: { check: args.check, probes: [{ selector: '#n', attr: 'min', idl: 'min' }] },
        script: "document.getElementById('n').setAttribute('min', '7')",
      }),
    );
    assert.deepEqual(reflected, { values: [['7', '7']] });
    await page.close();
  });

  test('a page elsewhere than its case is reported, not walked', async () => {
    const { page, args } = await adapter.caseOn('<!doctype html><p>x</p>');
    const other = adapter.serveCase('<!doctype html><p>other</p>');
    await page.load(other.url, 30_000);
    assert.deepEqual(JSON.parse(await page.run({ program: 'walk', args })), { elsewhere: other.url });
    // The script is not run on a document that is not the case's.
    assert.deepEqual(JSON.parse(await page.run({ program: 'walk', args, script: 'throw new Error("ran")' })), { elsewhere: other.url });
    await page.close();
  });

  test("a script that throws is the case's script_error, first line only (thrown by an isolated world's adapter, answered by the guard's), and the page lives on", async () => {
    const browser = adapter.browser();
    const { page, args } = await adapter.caseOn('<!doctype html><p>x</p>');
    assert.equal(
      await scriptErrorOf(browser, page, { program: 'walk', args, script: 'throw new TypeError("bad thing\\nmore")' }),
      'TypeError: bad thing',
    );
    assert.match(
      await scriptErrorOf(browser, page, { program: 'reflect', args: { check: args.check, probes: [] }, script: 'let x = ;' }),
      /^SyntaxError: /,
    );
    assert.deepEqual(walkOf(await page.run({ program: 'walk', args })).tags, ['HTML', 'HEAD', 'BODY', 'P']);
    await page.close();
  });

  const dumpOf = (text: string) => String(dumpJson(adapter.browser().engine, adapter.browser().version, walkOf(text)));

  test(`built-ins a case's script replaces: ${adapter.world} walks the case as without them`, async () => {
    const clean = await adapter.caseOn(LAYOUT);
    const hostile = await adapter.caseOn(LAYOUT);
    const expected = dumpOf(await clean.page.run({ program: 'walk', args: clean.args, script: 'void 0' }));
    assert.equal(dumpOf(await hostile.page.run({ program: 'walk', args: hostile.args, script: HOSTILE })), expected);
    // The main world really is hostile: what the page itself sees is forged.
    assert.equal(await hostile.page.callMain('() => innerWidth', []), 1);
    await Promise.all([clean.page.close(), hostile.page.close()]);
  });

  test(
    'built-ins replaced inline, before load: the same walk as without them from a world of its own; ' +
      "from the guard, where WebKit's WebDriver runs on them, page_tampered, never a forged walk",
    async () => {
      const hostile = await adapter.caseOn(`${LAYOUT}<script>${HOSTILE}</script>`);
      const text = await hostile.page.run({ program: 'walk', args: hostile.args });
      if (adapter.browser().traits.guarded) {
        assert.throws(() => decodeWalkText(text), isCode('page_tampered'));
        assert.match(text, /WebKitGTK's WebDriver runs on/);
      } else {
        const clean = await adapter.caseOn(`${LAYOUT}<script>void 0</script>`);
        assert.equal(dumpOf(text), dumpOf(await clean.page.run({ program: 'walk', args: clean.args })));
        await clean.page.close();
      }
      await hostile.page.close();
    },
  );

  test('http://localhost through the proxy is a secure context (what trace pages rely on)', async () => {
    const trace = adapter.proxy().serve(`/contract/trace/${++paths}`, '<!doctype html><p>trace</p>', TRACE).url;
    const page = await adapter.browser().newPage({ freshStorage: true });
    await page.load(trace, 30_000);
    assert.equal(await page.callMain('() => isSecureContext', []), true);
    assert.ok(adapter.proxy().seen.includes(`GET ${trace}`), 'the trace page came through the proxy');
    await page.close();
  });

  if (adapter.loadBoundElsewhere === undefined) {
    test('a load that does not finish within its time is navigation_failed', async () => {
      const page = await adapter.browser().newPage({ freshStorage: true });
      await assert.rejects(page.load(adapter.proxy().hold(`/contract/never/${++paths}`).url, 1_000), isCode('navigation_failed'));
      await page.close();
    });

    test('a document the engine refuses to load is navigation_failed', async () => {
      const page = await adapter.browser().newPage({ freshStorage: true });
      // Port 1 is on every engine's list of unsafe ports: refused before any request.
      await assert.rejects(page.load('http://localhost:1/case', 30_000), isCode('navigation_failed'));
      await page.close();
    });
  } else {
    test(`a load that does not finish is not bounded by its time (${adapter.loadBoundElsewhere}): its page closes all the same, and the next page loads a case`, async () => {
      const page = await adapter.browser().newPage({ freshStorage: true });
      const never = adapter.proxy().hold(`/contract/never/${++paths}`);
      // It ends when the driver gives up on it, after this test: only that is caught here.
      page.load(never.url, 1_000).catch(() => {});
      await never.requested;
      await page.close();
      // Not fresh: the next page may take what the closed one leaves (a WebKit session).
      const next = await adapter.browser().newPage({ freshStorage: false });
      const check = adapter.serveCase('<!doctype html><p>next</p>');
      await next.load(check.url, 30_000);
      assert.deepEqual(walkOf(await next.run({ program: 'walk', args: { check, walk: WALK } })).tags, ['HTML', 'HEAD', 'BODY', 'P']);
      await next.close();
    });
  }

  test('callMain runs in the main world and answers plain values', async () => {
    const { page } = await adapter.caseOn('<!doctype html><p>x</p><script>window.fromPage = 41</script>');
    assert.deepEqual(await page.callMain('(a, b) => ({ sum: fromPage + a, list: [b, null, true] })', [1, 'x']), {
      sum: 42,
      list: ['x', null, true],
    });
    await assert.rejects(page.callMain('() => { throw new RangeError("no") }', []), /RangeError: no/);
    await page.close();
  });

  test('a screenshot is an 800×600 PNG of the viewport as the page shows it', async () => {
    const { page } = await adapter.caseOn(
      '<!doctype html><style>body { margin: 0 } div { position: absolute; left: 100px; top: 50px; width: 200px; height: 100px; background: rgb(255, 0, 0) }</style><div></div>',
    );
    const shot = await page.screenshot();
    assert.deepEqual(pngSize(shot), { width: 800, height: 600 });
    const { data, width } = PNG.sync.read(Buffer.from(shot));
    const rgb = (x: number, y: number) => [...data.subarray((y * width + x) * 4, (y * width + x) * 4 + 3)];
    assert.deepEqual(rgb(200, 100), [255, 0, 0], 'inside the box');
    assert.deepEqual(rgb(50, 25), [255, 255, 255], 'outside it');
    assert.deepEqual(rgb(799, 599), [255, 255, 255], 'the far corner: no scrollbar, the whole viewport');
    await page.close();
  });

  for (const [form, start] of Object.entries(IN_FLIGHT)) {
    test(
      `a killed ${adapter.pageProcess} fails ${form} as EngineGoneError; the script is not re-run; the browser lives on`,
      UNANSWERED,
      async () => {
        const proxy = adapter.proxy();
        const { page, args } = await adapter.caseOn('<!doctype html><p>x</p>');
        // A synchronous request says the script runs. It names the proxy's port itself: a re-run in
        // any other document would show too.
        const path = `/contract/started/${++paths}`;
        const started = proxy.requested(path);
        const inFlight = start(page, args, `http://localhost:${proxy.port}${path}`);
        inFlight.catch(() => {});
        await started;
        adapter.killPageProcesses();
        await assert.rejects(inFlight, EngineGoneError);
        await assert.rejects(page.run({ program: 'pageState', args: {} }), EngineGoneError);
        await assert.rejects(page.screenshot(), EngineGoneError);
        await page.close();
        const fresh = await adapter.caseOn('<!doctype html><p>after</p>');
        const walk = await fresh.page.run({ program: 'walk', args: fresh.args });
        assert.deepEqual(walkOf(walk).tags, ['HTML', 'HEAD', 'BODY', 'P']);
        await fresh.page.close();
        assert.equal(proxy.seen.filter((line) => line.endsWith(path)).length, 1, 'the script ran once');
      },
    );
  }

  const { oneProcess } = adapter;
  if (oneProcess) oneProcessContract(adapter, oneProcess);
}

/** The contract of an adapter whose browser is one process, in a group and a folder of its own. */
function oneProcessContract(adapter: AdapterUnderTest, one: OneProcess): void {
  /** A browser of the test's own, and its main process. */
  const launchOwn = async (overrides?: Partial<EngineLaunch>) => {
    const engine = adapter.browser().engine;
    const running = new Set(engineProcesses(descendantsOf(process.pid), engine));
    const browser = await one.launch(overrides);
    const pid = engineProcesses(descendantsOf(process.pid), engine).find((p) => !running.has(p));
    assert.ok(pid, `the ${engine} process launched`);
    return { browser, pid };
  };

  test(
    'a hung page does not block another, closes with nothing of it left, and fails its call as EngineGoneError',
    UNANSWERED,
    async () => {
      const other = await adapter.caseOn('<!doctype html><p>other</p>');
      const { page, args } = await adapter.caseOn('<!doctype html><p>hung</p>');
      const path = `/contract/hung/${++paths}`;
      const started = adapter.proxy().requested(path);
      const hung = page.run({
        program: 'reflect',
        args: { check: args.check, probes: [] },
        script: `const x = new XMLHttpRequest(); x.open('GET', '${path}', false); try { x.send() } catch {} for (;;) {}`,
      });
      hung.catch(() => {});
      await started;
      assert.deepEqual(JSON.parse(await other.page.run({ program: 'pageState', args: {} })).viewport, [800, 600]);
      await page.close();
      await assert.rejects(hung, EngineGoneError);
      // Removed by the browser, not left behind once the adapter's grace ran out.
      assert.deepEqual(await one.leftOf(page), []);
      await other.page.close();
    },
  );

  test('a killed browser: the in-flight call is EngineGoneError, exited resolves, nothing is left', UNANSWERED, async () => {
    const { browser: own, pid } = await launchOwn();
    const folder = one.folderOf(pid);
    const page = await own.newPage({ freshStorage: true });
    await page.load(adapter.serveCase('<!doctype html><p>x</p>').url, 30_000);
    const inFlight = page.callMain('() => new Promise(() => {})', []);
    inFlight.catch(() => {});
    process.kill(pid, 'SIGKILL');
    await assert.rejects(inFlight, EngineGoneError);
    await own.exited;
    assert.equal(existsSync(folder), false, 'its folder is gone');
    assert.deepEqual(survivors(pid), [], 'no process of its group, nor any it started outside it, is alive');
    await own.close();
  });

  test(
    'close: the browser exits, no process of its group survives, its folder is removed; the media profile shows',
    UNANSWERED,
    async () => {
      const { browser: own, pid } = await launchOwn({ profile: 'media' });
      const folder = one.folderOf(pid);
      assert.ok(existsSync(folder), folder);
      const page = await own.newPage({ freshStorage: true });
      await page.load(adapter.proxy().serve(`/contract/trace/${++paths}`, '<!doctype html><p>x</p>', TRACE).url, 30_000);
      await one.mediaShown(pid, page);
      let exited = false;
      void own.exited.then(() => (exited = true));
      await own.close();
      assert.ok(exited, 'exited resolved');
      assert.equal(existsSync(folder), false, 'its folder is gone');
      assert.deepEqual(survivors(pid), [], 'no process of its group, nor any it started outside it, is alive');
    },
  );

  test('a browser that cannot start is a one-line error, and leaves no folder behind', async (t) => {
    // A temporary folder of its own: other oracles on the machine make folders too.
    const tmp = mkdtempSync(join(tmpdir(), 'adapter-contract-tmp-'));
    t.after(() => rmSync(tmp, { recursive: true, force: true }));
    const realTmp = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    try {
      await assert.rejects(one.launch({ paths: one.missing.paths }), one.missing.message);
    } finally {
      if (realTmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = realTmp;
    }
    assert.deepEqual(readdirSync(tmp), []);
  });
}
