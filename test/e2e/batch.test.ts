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
