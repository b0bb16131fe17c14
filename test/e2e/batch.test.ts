// The fast path's batches: script-free cases written one after another into one page and walked in
// one driver call. Every batch size gives the dump the case's own document gives; a hang or a
// crash inside a batch costs only the guilty case, and no case is lost or answered twice.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { dumpJson } from '../../src/protocol/dump.js';
import { defaultOptions } from '../../src/api/oracle.js';
import { ENGINE_NAMES } from '../../src/protocol/schema.js';
import { DirectEngines } from '../support/direct-engines.js';
import { layoutCorpus } from '../support/layout-corpus.js';
import { OracleProcess, type Line } from '../support/oracle-process.js';
import { engineProcesses, killAll } from '../support/processes.js';

/** The default --max-batch: every size up to it is held to the navigation route. */
const K_MAX = defaultOptions().maxBatch;

/**
 * The three engines launched straight, one written page each, for the two suites below that drive
 * pages directly: the second runs on the pages the first has written thousands of cases into,
 * which is the fast path's everyday state, and the engines are launched once (about 5 CPU-seconds).
 */
let shared: Promise<DirectEngines> | undefined;
const sharedEngines = (): Promise<DirectEngines> => (shared ??= DirectEngines.open(ENGINE_NAMES, true));
async function closeSharedEngines(): Promise<void> {
  const opened = shared;
  shared = undefined;
  await (await opened)?.close();
}
after(closeSharedEngines);

// The engines at once: each has its own browser and page, and the case server they share serves
// every publication at a path of its own, as it does for the oracle's engines side by side.
describe('every batch size gives the dumps of the navigation route, byte for byte', { concurrency: true }, () => {
  // K_MAX + 1 cases, so that the largest batch is full and followed by one more; the families
  // interleaved, so that every batch mixes them.
  const perFamily = Math.ceil((K_MAX + 1) / 9);
  const all = layoutCorpus(perFamily);
  const corpus = Array.from({ length: perFamily }, (_, j) => all.filter((c) => c.id.endsWith(`-${j}`)))
    .flat()
    .slice(0, K_MAX + 1);
  let engines: DirectEngines;
  before(async () => {
    engines = await sharedEngines();
  });

  for (const engine of ENGINE_NAMES) {
    test(`${engine}: batches of 1 to ${K_MAX}`, async () => {
      const reference: string[] = [];
      for (const c of corpus) reference.push(dumpJson(engine, 'v', await engines.loadAndWalk(engine, c.id, c.html)).text);
      // The navigation route leaves its page on a case document: the batches start from the blank page.
      await engines.pages.get(engine)!.page.load(engines.blankUrl, 30_000);
      // One batch of each size, each starting at another case, so every case is written at many
      // places in a batch, after many others.
      for (let k = 1; k <= K_MAX; k++) {
        const start = (k * 7) % (corpus.length - k + 1);
        const chunk = corpus.slice(start, start + k);
        const walks = await engines.writeAndWalk(
          engine,
          chunk.map((c) => c.html),
        );
        assert.equal(walks.length, k);
        walks.forEach((walk, i) => {
          assert.equal(dumpJson(engine, 'v', walk).text, reference[start + i], `${chunk[i]!.id} in a batch of ${k}`);
        });
      }
    });
  }
});

describe("the blank page's frame: cases change the frame's document, never the page's, and run no script there", () => {
  // Markup that would move the paragraph if any of its script ran: an inline script, a handler
  // attribute, a javascript: URL the image's error sends nowhere. The fast path's routing sends
  // such a case to navigation; written here straight into the frame, the page's CSP (the frame's
  // too) is what stops it.
  const scripted =
    '<!doctype html><title>scripted</title><body style="margin:0"><p id="p" style="margin:0;height:10px;width:10px"></p>' +
    "<script>document.getElementById('p').style.height = '99px'</script>" +
    `<img src="data:," onerror="document.getElementById('p').style.width = '77px'"></body>`;
  let engines: DirectEngines;
  before(async () => {
    engines = await sharedEngines();
  });
  after(closeSharedEngines);

  for (const engine of ENGINE_NAMES) {
    test(engine, async () => {
      const titled = layoutCorpus(1).map((c) => c.html);
      const { page } = engines.pages.get(engine)!;
      const swap = titled.map(() => true);
      const { walks } = await engines.batch(engine, [...titled, scripted], [...swap, false]);
      const walk = walks.at(-1)!;
      const p = walk.tags.indexOf('P');
      assert.deepEqual(walk.bounding.slice(4 * p, 4 * p + 4), [0, 0, 10, 10], 'no script of the case ran in the frame');
      // The page's own document is the one it loaded: its title and address, and its frame.
      const state = await page.callMain('() => [document.title, location.href, document.querySelectorAll("iframe").length]', []);
      assert.deepEqual(state, ['browser-oracle', engines.blankUrl, 1]);
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

test('chromium: a case whose layout depended on its history gets one dump, written or in its own document', async () => {
  // Found by the generator (seed 11): laid out as it was parsed, a vertical-rl float's percentage
  // height came out 192 px in a written document and 61.4375 px in its own. The walk now lays the
  // document out afresh first.
  const html =
    '<!doctype html><html><head><meta charset="utf-8"></head><body style="margin:0"><div id="root" style="position:' +
    'relative;overflow:hidden;width:463px;height:422px"><em id="e4" style="display:inline-block"></em><span id="e0"' +
    ' style="display:grid;clear:both;gap:10px;grid-template-rows:fit-content(60.75px) auto;grid-auto-rows:37px"><sp' +
    'an id="e6" style="display:inline;border-left:7px solid;order:-2"><div id="e12" style="display:flex;margin:12px' +
    ' 22.25px 15px 3px;min-height:96px;position:absolute;left:-33px;align-items:stretch;justify-content:end;gap:12p' +
    'x 15px"></div><em id="e8" style="display:flex;vertical-align:baseline;clear:both;position:fixed;left:auto;dire' +
    'ction:ltr;padding:19px 7px 0px;flex-direction:column-reverse;flex-wrap:wrap-reverse;justify-content:space-betw' +
    'een"><span id="e9" style="display:inline-flex;vertical-align:top;margin:8px 10px auto;flex-wrap:wrap-reverse;f' +
    'lex-shrink:2"><em id="e13" style="display:flex;min-height:71.25px;writing-mode:vertical-lr;width:42%;direction' +
    ':ltr;gap:0px 2px;justify-content:space-around;align-content:normal"><b id="e14" style="display:inline-flex;max' +
    '-height:13%;flex-wrap:wrap-reverse;order:0;flex-shrink:0"><div id="e15"></div></b></em><section id="e10" style' +
    '="flex-grow:1;align-self:stretch"><span id="e11" style="display:inline;direction:rtl;float:right;height:32%;wr' +
    'iting-mode:vertical-rl"></span></section></span><b id="e28" style="display:grid;min-width:auto;justify-content' +
    ':stretch;grid-template-rows:42px;order:-2"><div id="e29" style="display:flex;margin:2% 13.25px -15px 4%;clear:' +
    'none;min-width:max-content;gap:14px;align-content:flex-end;flex-wrap:nowrap"></div></b></em><span id="e7" styl' +
    'e="display:block;clear:right;max-height:3%;position:relative;left:auto;right:30%"></span></span><div id="e1" s' +
    'tyle="display:inline;margin:-20px"><span id="e3" style="display:flex;box-sizing:border-box;flex-wrap:wrap-reve' +
    'rse;justify-content:flex-start"><div id="e24" style="max-width:2px;margin:-1px 5px 4px;float:none;box-sizing:b' +
    'order-box;direction:rtl"></div></span><div id="e16" style="vertical-align:text-bottom;width:106px"><div id="e1' +
    '7" style="display:block;direction:rtl"><div id="e18" style="display:inline-grid;min-width:auto;position:fixed;' +
    'right:auto;margin:-12px 0% 25px 15px;grid-auto-flow:row;grid-auto-rows:2.5px"><div id="e19" style="overflow:cl' +
    'ip"><div id="e20" style="display:inline-block;vertical-align:top;box-sizing:content-box;float:left;padding:8px' +
    ' 16px 5px 20px"><b id="e21" style="display:grid;writing-mode:vertical-rl;height:68.5px;overflow:clip;margin:-0' +
    '.25px 15px 9% 5px;float:none;align-content:stretch;grid-auto-flow:row;align-items:stretch"><div id="e22" style' +
    '="display:block;margin:auto 5%;box-sizing:border-box;width:146px;min-height:47px;grid-row:auto;align-self:stre' +
    'tch"><div id="e23" style="display:block;vertical-align:middle;position:relative;min-width:14px;height:96px"></' +
    'div></div></b></div></div></div><span id="e25" style="display:block"><div id="e26" style="width:48px;direction' +
    ':rtl"><span id="e27"></span></div></span></div></div><em id="e2" style="display:block;writing-mode:horizontal-' +
    'tb;min-height:min-content;max-height:106px"><em id="e5" style="writing-mode:horizontal-tb;border-top:10px soli' +
    'd;clear:left;width:70px;position:relative"></em></em></div></span></div></body></html>';
  const oracle = new OracleProcess(['--engines=chromium', '--workers=1', '--pages=1']);
  try {
    await oracle.ready();
    const answers = await pipeline(oracle, [
      { id: 'written', html },
      { id: 'own', html, script: '' },
    ]);
    assert.ok(answers.get('own')!.dumps?.chromium, 'a dump');
    assert.equal(JSON.stringify(answers.get('written')!.dumps?.chromium), JSON.stringify(answers.get('own')!.dumps?.chromium));
  } finally {
    await oracle.shutdown();
  }
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

// Side by side: each test has an oracle of its own (its own case server, port and browsers), and
// a test's kills reach only its own oracle's descendants.
test('after a batch, a case document is visible to its script in every engine (a page is hidden only for its batches)', async () => {
  // Chromium and WebKit minimize a page's window for the fast path's batches and show it again for
  // a case document; the script reads what the document says, into its box's width.
  const probe = (id: string): Line => ({
    id,
    html: '<!doctype html><div id="d" style="height:3px"></div>',
    script: "document.getElementById('d').style.width = (document.visibilityState === 'visible' && !document.hidden ? 111 : 222) + 'px'",
  });
  const requests: Line[] = [];
  for (let round = 0; round < 3; round++) {
    for (let i = 0; i < 20; i++) requests.push({ id: `plain-${round}-${i}`, html: `<div style="width:${10 + i}px;height:5px"></div>` });
    requests.push(probe(`probe-${round}`));
  }
  const oracle = new OracleProcess(['--workers=1', '--pages=1']);
  try {
    await oracle.ready();
    const answers = await pipeline(oracle, requests);
    for (let round = 0; round < 3; round++) {
      const answer = answers.get(`probe-${round}`)!;
      for (const engine of ENGINE_NAMES) {
        const nodes = answer.dumps?.[engine]?.nodes as { bounding: { w: number } }[] | undefined;
        assert.ok(nodes, `${engine}: ${JSON.stringify(answer.errors)}`);
        assert.equal(nodes.at(-1)!.bounding.w, 111, `${engine}, round ${round}: the script saw a hidden page`);
      }
    }
  } finally {
    await oracle.shutdown();
  }
});

describe('faults inside a batch', { concurrency: true }, () => {
  // One page per engine, so the queued cases go out as batches of up to K_MAX.
  const cases = layoutCorpus(8).slice(0, 2 * K_MAX);

  test('a case that hangs WebKit in the middle of a batch: it alone gets an error of its own, the rest of its batch is answered', async () => {
    // A grid with line numbers at the limits of the grid's range (the idea of Taffy's
    // grid_overlarge_extreme_line_numbers fixture): WebKitGTK 2.50 does not finish its layout, and
    // grows while it tries, so the case ends at whichever bound it meets first: its time limit
    // (case_timeout) or the engine's memory budget (memory_exceeded), depending on the machine's speed.
    const hang =
      '<!doctype html><div style="display:grid"><div style="width:20px;height:20px;grid-column-start:32767;grid-row-start:-32768"></div>' +
      '<div style="width:20px;height:20px;grid-column:span 10000 / -32768;grid-row:32767 / span 10000"></div></div>';
    const requests: Line[] = cases.map((c) => ({ id: c.id, html: c.html }));
    requests.splice(K_MAX / 2, 0, { id: 'hang', html: hang });
    // Generous: only the hanging case may reach the limit, however loaded the machine.
    const oracle = new OracleProcess(['--engines=chromium,webkit', '--workers=1', '--pages=1', '--timeout-ms=30000']);
    try {
      await oracle.ready();
      const answers = await pipeline(oracle, requests);
      assert.match(answers.get('hang')!.errors?.webkit ?? '', /^(case_timeout|memory_exceeded): /);
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
