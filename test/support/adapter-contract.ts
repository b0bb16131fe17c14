// What every engine adapter promises the engine host, as tests to run against one adapter driven
// directly (test/e2e/<engine>-adapter.test.ts): the programs on a served case, a page elsewhere
// than its case, the case's script failing, and a load that never finishes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { WalkOptions } from '../../src/page/walk.js';
import { OracleError } from '../../src/protocol/errors.js';
import { decodeWalkText, type RawWalk } from '../../src/protocol/page-output.js';
import type { EngineBrowser, EnginePage } from '../../src/workers/engine.js';

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
  /** Where the trusted programs run, in the engine's words ("the isolated world", "the sandbox"). */
  world: string;
  browser: () => EngineBrowser;
  /** `html` served as a case document and loaded in a new page. */
  caseOn: (html: string) => Promise<CaseOnPage>;
  /** `html` served as a case document, not loaded. */
  serveCase: (html: string) => { url: string; nonce: string };
  /** A URL whose load never finishes. */
  neverAnswered: () => string;
}

export const isCode = (code: string) => (error: unknown) => {
  assert.ok(error instanceof OracleError && error.code === code, String(error));
  return true;
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

  test("a script that throws is the case's script_error (first line), and the page lives on", async () => {
    const { page, args } = await adapter.caseOn('<!doctype html><p>x</p>');
    await assert.rejects(page.run({ program: 'walk', args, script: 'throw new TypeError("bad thing\\nmore")' }), (error: unknown) => {
      assert.ok(error instanceof OracleError);
      assert.equal(error.code, 'script_error');
      assert.equal(error.message, 'TypeError: bad thing');
      return true;
    });
    await assert.rejects(
      page.run({ program: 'reflect', args: { check: args.check, probes: [] }, script: 'let x = ;' }),
      (error: unknown) => {
        assert.ok(
          error instanceof OracleError && error.code === 'script_error' && error.message.startsWith('SyntaxError: '),
          String(error),
        );
        return true;
      },
    );
    assert.deepEqual(walkOf(await page.run({ program: 'walk', args })).tags, ['HTML', 'HEAD', 'BODY', 'P']);
    await page.close();
  });

  test('a load that does not finish within its time is navigation_failed', async () => {
    const page = await adapter.browser().newPage({ freshStorage: true });
    await assert.rejects(page.load(adapter.neverAnswered(), 1_000), isCode('navigation_failed'));
    await page.close();
  });
}

/**
 * Two ways to be in flight when the page's process dies, for the crash tests: the case's script
 * busy in the main world, and a main-world call waiting on a promise that will never settle.
 * Each first makes a synchronous request to `started`, which says the script runs.
 */
export const IN_FLIGHT = {
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
