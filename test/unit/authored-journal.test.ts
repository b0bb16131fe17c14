// A candidate on a check-layout page, judged live and judged again from the journal: the journal
// keeps what the live judge had (each engine's reading of the page's attributes, each engine's
// scrollbar room, whether the candidate placed its roots), so the report's and triage's judging
// again (`rejudged`), and a campaign resumed with a candidate (the candidate alone, judged on the
// recorded engines), give the verdict, the comparisons and the assertions the live judge gave.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Journal } from '../../src/campaign/journal/journal.js';
import { engineAuthored, readingsOf } from '../../src/campaign/loop/authored-record.js';
import { candidateRecord, rejudged } from '../../src/campaign/loop/candidate-record.js';
import { votedRecord } from '../../src/campaign/loop/case-record.js';
import { contentHash } from '../../src/campaign/corpus/case-hash.js';
import type { SourceOutcome } from '../../src/candidate-client/source.js';
import { voteGeometry } from '../../src/comparator/vote.js';
import { ENGINE_NAMES, STYLE_PROPERTIES, type Dump, type EngineName } from '../../src/protocol/schema.js';
import { answered } from '../support/answers.js';
import { aloneNodes, proseReading, type PageNode } from '../support/prose-page.js';

const root = mkdtempSync(join(tmpdir(), 'authored-journal-'));
after(() => rmSync(root, { recursive: true, force: true }));

const BASE = Object.fromEntries(
  STYLE_PROPERTIES.map((p) => [p, p.endsWith('width') || p.startsWith('margin') || p.startsWith('padding') ? '0px' : '']),
);
Object.assign(BASE, { display: 'block', position: 'static', 'overflow-x': 'visible', 'overflow-y': 'visible' });

function dump(engine: string, nodes: readonly PageNode[], overflowed: boolean): Dump {
  const depth: number[] = [];
  return {
    engine,
    engine_version: '1',
    viewport: { width: 800, height: 600 },
    overflowed,
    nodes: nodes.map(([tag, parent, box, style], index) => {
      depth[index] = parent < 0 ? 0 : depth[parent]! + 1;
      const rect = box ? { x: box[0], y: box[1], w: box[2], h: box[3] } : { x: 0, y: 0, w: 0, h: 0 };
      return { index, parent, tag, depth: depth[index]!, bounding: rect, rects: box ? [rect] : [], style: { ...BASE, ...style } };
    }),
  } as Dump;
}

/** The page as an engine lays it out: prose of `prose` px above a flex container, the whole taller than the viewport. */
const page = (engine: EngineName, prose: number) => {
  const y = 40 + prose - 18;
  return dump(
    engine,
    [
      ['HTML', -1, [0, 0, 800, 900 + prose]],
      ['BODY', 0, [8, 8, 784, 884 + prose]],
      ['P', 1, [8, 8, 784, prose]],
      ['DIV', 1, [8, y, 300, 100], { position: 'relative', display: 'flex' }],
      ['DIV', 3, [8, y, 100, 50]],
      ['DIV', 3, [108, y, 200, 100]],
    ],
    true,
  );
};

const reading = proseReading();

/** The candidate's answer: the container laid out alone, its first item `first` px wide. */
const candidateAnswer = (first: number): SourceOutcome => ({
  kind: 'dump',
  dump: dump('taffy', aloneNodes(first), false),
  roots: [3],
  placed: false,
});

const who = { name: 'taffy', version: '3' };

for (const [first, verdict] of [
  [100, 'pass'],
  [150, 'fail'],
] as const) {
  test(`judged live and from the journal alike: ${verdict}`, () => {
    const dumps = { chromium: page('chromium', 18), firefox: page('firefox', 19), webkit: page('webkit', 18) };
    const scrollbars = Object.fromEntries(ENGINE_NAMES.map((e) => [e, { x: 0, y: 0 }]));
    const vote = voteGeometry({ dumps, scrollbars });
    assert.equal(vote.verdict, 'outlier', "Firefox's prose moves everything below it");
    const authored = Object.fromEntries(ENGINE_NAMES.map((e) => [e, reading]));
    const html = '<!doctype html><p>prose</p><div><div></div><div></div></div>';
    const request = { id: 'css/css-flexbox/x.html', op: 'vote' as const, html, authored: { scope: ['div'] } };
    const item = { ok: true as const, id: request.id, hash: contentHash(request), request, given: JSON.stringify(request) };
    const answer = answered({ dumps, authored, scrollbars, vote });
    const record = votedRecord(item, answer, { startedAt: 0, elapsedMs: 1, attempts: 1 });
    const readings = readingsOf(record.outcomes)!;
    assert.deepEqual(Object.keys(readings).sort(), [...ENGINE_NAMES].sort(), "every engine's reading is kept with its outcome");
    record.authored = engineAuthored(readings, record.outcomes);
    // Live, as a campaign judges it: the worker's vote beside the answer.
    const live = candidateRecord(who, candidateAnswer(first), record.outcomes, { vote });
    assert.equal(live.verdict, verdict);
    record.candidate = live;

    const path = join(root, `${verdict}.sqlite`);
    const journal = Journal.open(path);
    journal.startRun({ command: [], engines: [...ENGINE_NAMES], versions: {}, fonts: null });
    assert.ok(journal.record(record));
    journal.close();

    const reopened = Journal.open(path, { readonly: true });
    const recorded = reopened.candidate(item, who)!;
    assert.equal(recorded.placed, false, 'its roots were laid out alone');
    const outcomes = reopened.outcomesOf(item);
    // The report and triage judge the recorded answer again.
    const again = rejudged(recorded, outcomes)!;
    assert.equal(again.result.verdict, live.verdict);
    assert.deepEqual(
      Object.fromEntries(Object.entries(again.result.compares).map(([e, c]) => [e, c.verdict])),
      live.against,
      'against each engine, as when recorded',
    );
    // A campaign resumed with the candidate: the candidate alone, judged on the recorded engines.
    const resumed = candidateRecord(who, candidateAnswer(first), outcomes);
    assert.equal(resumed.verdict, live.verdict);
    assert.equal(resumed.signature, live.signature);
    assert.deepEqual(resumed.authored, live.authored, 'the same assertions, judged on the same scope');
    const rows = reopened.authored(item);
    assert.deepEqual(
      rows.map((r) => [r.subject, r.pass + r.fail > 0]),
      [
        ['candidate', true],
        ['chromium', true],
        ['firefox', true],
        ['webkit', true],
      ],
    );
    reopened.close();
  });
}

test("a candidate's answer recorded after the engines' (a resumed campaign) records its assertions too", () => {
  const dumps = { chromium: page('chromium', 18), firefox: page('firefox', 19), webkit: page('webkit', 18) };
  const scrollbars = Object.fromEntries(ENGINE_NAMES.map((e) => [e, { x: 0, y: 0 }]));
  const authored = Object.fromEntries(ENGINE_NAMES.map((e) => [e, reading]));
  const request = { id: 'r', op: 'vote' as const, html: '<!doctype html>', authored: {} };
  const item = { ok: true as const, id: 'r', hash: contentHash(request), request, given: JSON.stringify(request) };
  const record = votedRecord(item, answered({ id: 'r', dumps, authored, scrollbars }), { startedAt: 0, elapsedMs: 1, attempts: 1 });
  const journal = Journal.open(join(root, 'resumed.sqlite'));
  journal.startRun({ command: [], engines: [...ENGINE_NAMES], versions: {}, fonts: null });
  journal.record(record);
  const candidate = candidateRecord(who, candidateAnswer(100), journal.outcomesOf(item));
  assert.equal(candidate.verdict, 'pass');
  assert.ok(journal.recordCandidate(item, candidate));
  assert.deepEqual(
    journal.authored(item).map((r) => [r.subject, r.name, r.pass, r.fail]),
    [['candidate', 'taffy', 6, 0]],
  );
  journal.close();
});
