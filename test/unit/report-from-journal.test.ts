// The report's input from a journal's records (the recorded fixtures, voted and bucketed by the
// campaign's own code): each bucket's first case, shown reduced when a reduction is stored, with
// the recorded dumps and errors and a picture per engine from the screenshot op.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { invalidRecord, votedRecord } from '../../src/campaign/loop/case-record.js';
import { answered } from '../support/answers.js';
import type { CorpusItem } from '../../src/campaign/corpus/corpus.js';
import type { CaseKey, CaseRecord, Reduction, RunRecord } from '../../src/campaign/journal/journal.js';
import { summarize, type CandidateSummary } from '../../src/campaign/journal/summary.js';
import type { CandidateRecord } from '../../src/campaign/loop/candidate-record.js';
import { reportInput, type ReportJournal, type Shots } from '../../src/report/from-journal.js';
import type { ScreenshotRequest } from '../../src/protocol/screenshot-schema.js';
import { response } from '../fixtures/dumps/load.js';
import { DUMP_REQUESTS } from '../fixtures/dumps/requests.js';
import { traceResponse } from '../fixtures/traces/load.js';

const timing = { startedAt: 0, elapsedMs: 1, attempts: 1 };
const item = (id: string, request: object): Extract<CorpusItem, { ok: true }> => ({
  ok: true,
  id,
  hash: `hash-${id}`,
  given: JSON.stringify(request),
  request: { id, ...request } as Extract<CorpusItem, { ok: true }>['request'],
});

const TEXT_LINE = votedRecord(item('text-line', DUMP_REQUESTS['text-line']), answered(response('text-line')), timing);
const ERRORED = votedRecord(item('engine-error', { ...DUMP_REQUESTS['engine-error'] }), answered(response('engine-error')), timing);
const TRACE = votedRecord(item('trace', { op: 'trace', script: 'trace.done()' }), answered(traceResponse('outlier')), timing);
const INVALID = invalidRecord({ ok: false, id: 'line:4', hash: 'h', given: 'not json', error: 'invalid_json: line 4' }, 0);
const RECORDS = [TEXT_LINE, ERRORED, TRACE, INVALID];

const SPLIT = votedRecord(item('text-line', { html: '<p>Hello</p>' }), answered(response('split')), timing);

/** text-line, reduced to its paragraph alone, with the split recording standing in for what the engines made of it. */
const REDUCTION: Reduction = {
  request: JSON.stringify({ id: 'text-line', html: '<p>Hello</p>', script: 'document.body.dataset.x = 1' }),
  signature: TEXT_LINE.signature,
  vote: SPLIT.vote,
  outcomes: SPLIT.outcomes,
};

const RUN: RunRecord = {
  command: ['browser-oracle'],
  engines: ['chromium'],
  versions: {},
  fonts: 'liberation',
  startedAt: 'a',
  endedAt: null,
};

function journalOf(records: CaseRecord[], reductions: Map<string, Reduction>): ReportJournal {
  const buckets = records.filter((r) => r.signature).map((r) => ({ signature: r.signature!, count: 1, example: r.id }));
  return {
    summary: () => summarize([], 0, buckets),
    runs: () => [RUN],
    firstInBucket: (signature) => records.find((r) => r.signature === signature),
    reduction: (key: CaseKey) => reductions.get(key.id),
    // No candidate was judged in these journals (summarize gives no candidate part).
    candidate: () => undefined,
    firstInCandidateBucket: () => undefined,
    // Never triaged.
    findings: () => ({ list: () => [], untriaged: () => [], disagreements: () => [] }),
    // Nor any check-layout page.
    authored: () => [],
  };
}

const PNG = new Uint8Array([0x89, 0x50]);

test('each bucket gets its first case; geometry cases are pictured from the request they show', async () => {
  const asked: ScreenshotRequest[] = [];
  const shoot = async (request: ScreenshotRequest): Promise<Shots> => {
    asked.push(request);
    return { images: { chromium: PNG, webkit: PNG }, errors: { firefox: 'case_timeout: no answer' } };
  };
  const input = await reportInput(journalOf(RECORDS, new Map([['text-line', REDUCTION]])), shoot, 'now', 2);
  assert.deepEqual(input.runs, [RUN]);
  assert.equal(input.generatedAt, 'now');
  assert.deepEqual([...input.examples.keys()].sort(), RECORDS.map((r) => r.signature!).sort());
  assert.deepEqual(asked.map((r) => r.id).sort(), ['report:engine-error', 'report:text-line'], 'geometry cases only, once each');

  const reduced = input.examples.get(TEXT_LINE.signature!)!;
  assert.deepEqual(reduced.reduced, { request: REDUCTION.request, signature: REDUCTION.signature });
  assert.equal(reduced.request, TEXT_LINE.request, 'the original stays beside it');
  assert.deepEqual(
    asked.find((r) => r.id === 'report:text-line'),
    { id: 'report:text-line', op: 'screenshot', html: '<p>Hello</p>', script: 'document.body.dataset.x = 1' },
    "the reduced case's html and script are pictured",
  );
  assert.equal(reduced.vote!.verdict, 'split', "the reduced case's vote, not the original's");
  assert.deepEqual(reduced.engines.chromium!.dump, response('split').dumps.chromium, "the reduced case's dumps");
  assert.equal(reduced.engines.chromium!.screenshot, PNG);
  assert.equal(reduced.engines.firefox!.screenshot, null);
  assert.equal(reduced.engines.firefox!.screenshotError, 'case_timeout: no answer');

  const errored = input.examples.get(ERRORED.signature!)!;
  assert.equal(errored.reduced, null);
  assert.equal(errored.engines.firefox!.error, response('engine-error').errors!.firefox);
  assert.equal(errored.engines.firefox!.dump, undefined);

  const trace = input.examples.get(TRACE.signature!)!;
  assert.equal(trace.vote, null, 'a trace vote is not a geometry vote');
  for (const engine of ['chromium', 'firefox', 'webkit'] as const) {
    assert.equal(trace.engines[engine]!.screenshot, null);
    assert.match(trace.engines[engine]!.screenshotError!, /a trace case is not pictured/);
    assert.equal(trace.engines[engine]!.dump, undefined);
  }
  assert.deepEqual(input.examples.get(INVALID.signature!)!.engines, {}, 'an invalid item never ran');
});

test("a candidate's self-disagreement bucket highlights where its incremental dump leaves its fresh one, not where the vote fails it", async () => {
  const fresh = response('text-line').dumps.firefox!;
  // The fresh dump is the outlier's (failing the vote at its own node); the incremental one is that, one node wider.
  const selfNode = 0;
  const stale = {
    ...fresh,
    nodes: fresh.nodes.map((n) => (n.index === selfNode ? { ...n, rects: n.rects.map((r) => ({ ...r, w: r.w + 9 })) } : n)),
  };
  const signature = `candidate mine | self | ${fresh.nodes[selfNode]!.tag} | width`;
  const record: CandidateRecord = {
    name: 'mine',
    version: '1',
    verdict: 'fail',
    signature: 'candidate mine | fail | vote',
    sidesWithOutlier: true,
    subpixel: false,
    unsupported: null,
    error: null,
    dump: JSON.stringify(stale),
    roots: null,
    against: {},
    ms: null,
    fresh: { verdict: 'fail', self: 'differs', signature, dump: JSON.stringify(fresh) },
  };
  const candidate: CandidateSummary = {
    name: 'mine',
    version: '1',
    verdicts: {} as CandidateSummary['verdicts'],
    sides_with_outlier: 1,
    subpixel: 0,
    self: { agrees: 0, differs: 1 },
    buckets: [
      { signature: record.signature!, count: 1, example: 'text-line' },
      { signature, count: 1, example: 'text-line' },
    ],
  };
  const journal: ReportJournal = {
    ...journalOf([TEXT_LINE], new Map()),
    summary: () => ({ ...summarize([], 0, []), candidate }),
    candidate: () => record,
    firstInCandidateBucket: () => TEXT_LINE,
  };
  const input = await reportInput(journal, async () => ({ images: {} }), 'now');
  const voteNode = input.examples.get(record.signature!)!.candidate!.node!.index;
  assert.notEqual(voteNode, selfNode, 'the vote fails it elsewhere first');
  assert.equal(input.examples.get(signature)!.candidate!.node!.index, selfNode);
});
