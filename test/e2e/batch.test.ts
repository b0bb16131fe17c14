// The fast path's batches: script-free cases written one after another into one page and walked in
// one driver call. Every batch size gives the dump the case's own document gives; a hang or a
// crash inside a batch costs only the guilty case, and no case is lost or answered twice.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { dumpJson } from '../../src/protocol/dump.js';
import { ENGINE_NAMES } from '../../src/protocol/schema.js';
import { DirectEngines } from '../support/direct-engines.js';
import { layoutCorpus } from '../support/layout-corpus.js';
import { OracleProcess, type Line } from '../support/oracle-process.js';
import { engineProcesses, killAll } from '../support/processes.js';

/** The default --max-batch: every size up to it is held to the navigation route. */
const K_MAX = 32;

describe('every batch size gives the dumps of the navigation route, byte for byte', () => {
  // K_MAX + 1 cases, so that the largest batch is full and followed by one more.
  const corpus = layoutCorpus(4).slice(0, K_MAX + 1);
  let engines: DirectEngines;
  before(async () => {
    engines = await DirectEngines.open(ENGINE_NAMES, true);
  });
  after(() => engines.close());

  for (const engine of ENGINE_NAMES) {
    test(`${engine}: batches of 1 to ${K_MAX}`, async () => {
      const reference: string[] = [];
      for (const c of corpus) reference.push(dumpJson(engine, 'v', await engines.loadAndWalk(engine, c.id, c.html)).text);
      // The navigation route leaves its page on a case document: the batches start from the blank page.
      await engines.pages.get(engine)!.page.load(engines.blankUrl, 30_000);
      for (let k = 1; k <= K_MAX; k++) {
        for (let start = 0; start < corpus.length; start += k) {
          const chunk = corpus.slice(start, start + k);
          const walks = await engines.writeAndWalk(
            engine,
            chunk.map((c) => c.html),
          );
          walks.forEach((walk, i) => {
            assert.equal(dumpJson(engine, 'v', walk).text, reference[start + i], `${chunk[i]!.id} in a batch of ${k}`);
          });
        }
      }
    });
  }
});

describe('a case written after a right-to-left one gets the dump of its own document', () => {
  // Found by the generator (seed 11): Gecko keeps a document's bidi processing on through
  // document.open, and written after an rtl case this left-to-right one had an inline box split
  // in two on its line; in its own document, one box.
  const ltr =
    "<!doctype html><html><head><meta charset='utf-8'></head><body style='margin:0'><div id='root' style='position:" +
    "relative;overflow:hidden;width:594px;height:333px'><div id='e4' style='display:inline-block;vertical-align:bas" +
    "eline;direction:ltr;max-width:45%;padding:10px;width:min-content'><div id='e14' style='height:68px;width:54.75" +
    "px;min-height:26%'></div><div id='e5' style='display:grid;max-height:74px;margin:21px;grid-template-columns:au" +
    "to fit-content(76px) 35px 36px'><div id='e8' style='min-width:max-content;vertical-align:1px;border:8px solid;" +
    "justify-self:start'><div id='e9' style='height:16.75px;direction:ltr;border:11px solid;box-sizing:border-box'>" +
    "</div></div><div id='e6' style='padding:7.5px 8.5px 24px 8%;vertical-align:baseline;margin:28.75px 1px;positio" +
    "n:fixed;grid-row:span 2'><div id='e7' style='display:block;overflow:visible;position:relative;max-width:94px;b" +
    "ox-sizing:border-box;padding:11px 0% 18.25px 22px'></div></div></div></div><div id='e10' style='display:inline" +
    ";width:77%;border:7px solid;padding:11px 1% 17px;min-width:63px;height:92%'><span id='e11' style='display:cont" +
    "ents;min-height:1px;padding:4px 5px 1%'><span id='e13'></span><div id='e12' style='display:inline;min-width:9." +
    "75px;border:7.75px solid;max-width:100%'></div></span></div><span id='e0' style='display:inline-grid;clear:lef" +
    "t;overflow:hidden;justify-content:start'><div id='e3' style='display:flex;height:72%;position:relative;flex-di" +
    "rection:row;align-content:center;justify-content:space-between;order:1'></div><div id='e1' style='display:grid" +
    ';float:none;margin:24.25px 4% -16px 4%;vertical-align:middle;grid-auto-columns:57px;grid-auto-rows:53px;justif' +
    "y-self:stretch'><div id='e2' style='display:block;overflow:hidden;padding:15px 19px 7.5px;border:11px solid;mi" +
    "n-width:11px;position:static;top:94px;bottom:43%'></div></div></span></div></body></html>";
  test('firefox, one page: rtl, then the case, then the case as its own document', async () => {
    const oracle = new OracleProcess(['--engines=firefox', '--workers=1', '--pages=1']);
    try {
      await oracle.ready();
      const answers = await pipeline(oracle, [
        { id: 'rtl', html: '<!doctype html><p style="direction:rtl">right to left</p>' },
        { id: 'written', html: ltr },
        { id: 'own', html: ltr, script: '' },
      ]);
      const dump = (id: string) => JSON.stringify(answers.get(id)!.dumps?.firefox);
      assert.ok(answers.get('own')!.dumps?.firefox, 'a dump');
      assert.equal(dump('written'), dump('own'));
    } finally {
      await oracle.shutdown();
    }
  });
});

/** Sends every case at once and waits for every answer; checks each id is answered exactly once. */
async function pipeline(oracle: OracleProcess, requests: Line[], whenFirstAnswered?: () => void): Promise<Map<string, Line>> {
  const answers = await Promise.all(
    requests.map((r, i) =>
      oracle.request(r).then((answer) => {
        if (i === 0) whenFirstAnswered?.();
        return answer;
      }),
    ),
  );
  for (const r of requests) assert.equal(oracle.lines.filter((l) => l.id === r.id).length, 1, `${r.id} answered once`);
  return new Map(answers.map((a) => [a.id as string, a]));
}

describe('faults inside a batch', () => {
  // One page per engine, so the queued cases go out as batches of up to K_MAX.
  const cases = layoutCorpus(8).slice(0, 2 * K_MAX);

  test('a case that hangs WebKit in the middle of a batch: it alone gets case_timeout, the rest of its batch is answered', async () => {
    // A grid with line numbers at the limits of the grid's range (the idea of Taffy's
    // grid_overlarge_extreme_line_numbers fixture): WebKitGTK 2.50 does not finish its layout.
    const hang =
      '<!doctype html><div style="display:grid"><div style="width:20px;height:20px;grid-column-start:32767;grid-row-start:-32768"></div>' +
      '<div style="width:20px;height:20px;grid-column:span 10000 / -32768;grid-row:32767 / span 10000"></div></div>';
    const requests: Line[] = cases.map((c) => ({ id: c.id, html: c.html }));
    requests.splice(K_MAX / 2, 0, { id: 'hang', html: hang });
    const oracle = new OracleProcess(['--engines=chromium,webkit', '--workers=1', '--pages=1', '--timeout-ms=8000']);
    try {
      await oracle.ready();
      const answers = await pipeline(oracle, requests);
      assert.match(answers.get('hang')!.errors?.webkit ?? '', /^case_timeout: /);
      assert.ok(answers.get('hang')!.dumps.chromium, 'chromium is not held up by webkit');
      for (const r of requests.filter((r) => r.id !== 'hang')) {
        const answer = answers.get(r.id as string)!;
        assert.deepEqual(Object.keys(answer.dumps), ['chromium', 'webkit'], `${r.id}: ${JSON.stringify(answer.errors)}`);
      }
    } finally {
      await oracle.shutdown();
    }
  });

  for (const engine of ENGINE_NAMES) {
    test(`${engine}'s browser killed in the middle of a batch: every case answered once, with a dump`, async () => {
      const oracle = new OracleProcess([`--engines=${engine}`, '--workers=1', '--pages=1']);
      try {
        await oracle.ready();
        const victims = engineProcesses(oracle.descendants(), engine);
        assert.ok(victims.length > 0, `found ${engine}'s browser process`);
        // The first answer ends the first batch: the next one, of the cases queued behind it, is in flight.
        const requests: Line[] = cases.map((c) => ({ id: `${engine}-${c.id}`, html: c.html }));
        const answers = await pipeline(oracle, requests, () => killAll(victims));
        for (const answer of answers.values()) assert.ok(answer.dumps?.[engine], `${answer.id}: ${JSON.stringify(answer.errors)}`);
        assert.ok(
          engineProcesses(oracle.descendants(), engine).every((pid) => !victims.includes(pid)),
          'a new browser serves',
        );
      } finally {
        await oracle.shutdown();
      }
    });
  }
});
