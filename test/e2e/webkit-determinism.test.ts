// WebKitGTK's dumps do not depend on what ran before on the page. Its view keeps its scrollbars
// from one written document to the next, and a case styled with ::-webkit-scrollbar (a classic
// scrollbar, which takes its width) kept the overlay one of the case before it: its root measured
// 800 px after a case that scrolled and 785 px after one that did not, so two runs that batched the
// same cases differently gave two dumps.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { dumpJson } from '../../src/protocol/dump.js';
import { DirectEngines } from '../support/direct-engines.js';
import { layoutFixtures } from '../support/layout-corpus.js';
import { OracleProcess, type Line } from '../support/oracle-process.js';

const TALL = '<!doctype html><body><div style="height:2000px">tall</div>';
const SHORT = '<!doctype html><body>short';
const CLASSIC = '<!doctype html><style>::-webkit-scrollbar { width: 15px }</style><body><div style="height:2000px">classic scrollbar</div>';

describe('webkit: a written case measures as on a page of its own', () => {
  let engines: DirectEngines;
  before(async () => {
    engines = await DirectEngines.open(['webkit'], false);
  });
  after(() => engines.close());

  test('a classic-scrollbar case after one that scrolled, after one that did not, and first on the page', async () => {
    const own = dumpJson('webkit', 'v', await engines.loadAndWalk('webkit', 'classic', CLASSIC)).text;
    assert.equal((JSON.parse(own) as Line).nodes[0].bounding.w, 785, 'the classic scrollbar takes 15 px of the root');
    const { page } = engines.pages.get('webkit')!;
    await page.load(engines.blankUrl, 30_000);
    const walks = await engines.writeAndWalk('webkit', [CLASSIC, TALL, CLASSIC, SHORT, CLASSIC, CLASSIC]);
    for (const i of [0, 2, 4, 5]) assert.equal(dumpJson('webkit', 'v', walks[i]!).text, own, `case ${i} of the batch`);
  });
});

test('webkit: 300 layout fixtures, run twice in opposite orders, give the same dumps', async () => {
  // The shipped defaults (pages, batch sizes); the second pass writes every case after other cases than the first did.
  const oracle = new OracleProcess(['--engines=webkit']);
  try {
    await oracle.ready();
    const corpus = layoutFixtures(300, 24);
    const pass = (label: string, cases: typeof corpus) =>
      Promise.all(cases.map((c) => oracle.request({ id: `${label}/${c.id}`, html: c.html })));
    const first = await pass('first', corpus);
    const second = await pass('second', [...corpus].reverse());
    second.reverse();
    const differ = corpus.filter((_, i) => JSON.stringify(first[i]!.dumps) !== JSON.stringify(second[i]!.dumps)).map((c) => c.id);
    for (const answer of [...first, ...second]) assert.equal(answer.errors, undefined, JSON.stringify(answer.errors));
    assert.deepEqual(differ, [], 'every dump the same in both passes');
    // Not vacuous: the corpus holds cases that scroll, and classic scrollbars that take space.
    const widths = new Set(first.map((a) => a.dumps.webkit.nodes[0].bounding.w));
    assert.ok(widths.has(800) && [...widths].some((w) => w < 800), `root widths seen: ${[...widths].join(', ')}`);
  } finally {
    await oracle.shutdown();
  }
});
