// The campaign loop on a real journal with a fake oracle whose answers are recorded votes and
// whose cases finish when the test says: resume, repeated lines, invalid items, the bound on
// cases in flight, --stop-after, --stop-after-findings, expectations, stopping (in-flight cases
// finished and recorded) and abandoning (none recorded), and a failing case.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { Journal } from '../../src/campaign/journal/journal.js';
import { openCorpus, type CorpusItem } from '../../src/campaign/corpus/corpus.js';
import { generatedCorpus } from '../../src/campaign/corpus/generated-corpus.js';
import { emitNdjson } from '../../src/campaign/generator/emit.js';
import { generateCases } from '../../src/campaign/generator/generator.js';
import { Expectations } from '../../src/campaign/loop/expectations.js';
import { CampaignRunError, runCampaign, type CampaignOptions } from '../../src/campaign/loop/run-campaign.js';
import type { Answered } from '../../src/coordinator/oracle-service.js';
import type { CaseService } from '../../src/coordinator/stdio.js';
import { voteGeometry } from '../../src/comparator/vote.js';
import { encodeJson } from '../../src/protocol/wire.js';
import type { Answer, CaseOp, Request, RequestOf } from '../../src/protocol/ops.js';
import { dump, response } from '../fixtures/dumps/load.js';
import type { DumpSource, SourceOutcome } from '../../src/candidate-client/source.js';
import type { CandidateCase, CandidateDump } from '../../src/protocol/candidate-schema.js';

const root = mkdtempSync(join(tmpdir(), 'run-campaign-test-'));
after(() => rmSync(root, { recursive: true, force: true }));
let journals = 0;

function openJournal(path = join(root, `j${journals++}.sqlite`)): Journal {
  const journal = Journal.open(path);
  journal.startRun({ command: ['test'], engines: ['chromium', 'firefox', 'webkit'], versions: {}, fonts: 'liberation' });
  return journal;
}

/** Cases whose html says `outlier` get Firefox as the outlier (a finding); the others are unanimous. */
const VOTES = { outlier: encodeJson(voteGeometry(response('text-line'))), unanimous: encodeJson(voteGeometry(response('agree'))) };

/** A fake oracle: every case waits until released (all at once with `auto`), and it counts what it ran. */
class FakeOracle implements Pick<CaseService, 'run'> {
  readonly ran: { op: CaseOp; request: Request }[] = [];
  inFlight = 0;
  maxInFlight = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly auto = true,
    private readonly fail?: string,
    /** Answer with the engines' dumps too, as a vote request with dumps does. */
    private readonly dumps = false,
  ) {}

  async run<K extends CaseOp>(op: K, request: RequestOf<K>): Promise<Answered<K>> {
    this.ran.push({ op, request });
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    await (this.auto ? new Promise((resolve) => setImmediate(resolve)) : new Promise<void>((resolve) => this.waiting.push(resolve)));
    this.inFlight--;
    if (request.id === this.fail) throw new Error('the farm fell over');
    const html = 'html' in request ? request.html : '';
    const outlier = html?.includes('outlier');
    const vote = { id: request.id, vote: outlier ? VOTES.outlier : VOTES.unanimous };
    if (!this.dumps) return { answer: vote as Answer<K>, versions: {} };
    const given = Object.entries(response(outlier ? 'text-line' : 'agree').dumps);
    const dumps = Object.fromEntries(given.map(([engine, d]) => [engine, encodeJson(d)]));
    const versions = Object.fromEntries(given.map(([engine, d]) => [engine, d.engine_version]));
    return { answer: { ...vote, dumps } as Answer<K>, versions };
  }

  /** Lets every waiting case finish. */
  release(): void {
    for (const resolve of this.waiting.splice(0)) resolve();
  }

  /** Resolves once `n` cases are waiting. */
  async waitingFor(n: number): Promise<void> {
    while (this.waiting.length < n) await new Promise((resolve) => setImmediate(resolve));
  }
}

const ndjson = (lines: string[]) => async () => (await openCorpus('-', Readable.from(lines.map((l) => `${l}\n`)))).items();
const cases = (n: number, html = (i: number) => `<p>${i}</p>`) =>
  Array.from({ length: n }, (_, i) => JSON.stringify({ id: `c${i}`, html: html(i) }));

function options(
  journal: Journal,
  oracle: CampaignOptions['oracle'],
  items: AsyncIterable<CorpusItem>,
  extra: Partial<CampaignOptions> = {},
): CampaignOptions {
  return { oracle, journal, items, concurrency: 4, ...extra };
}

test('every case is run once, at most `concurrency` at a time, and recorded; a second run skips them all', async () => {
  const path = join(root, 'resume.sqlite');
  const numbered = cases(10, (i) => (i % 3 ? `<p>${i}</p>` : `<p>outlier ${i}</p>`));
  const lines = [...numbered, 'not json', numbered[4]!];
  const oracle = new FakeOracle();
  let journal = openJournal(path);
  const recorded: string[] = [];
  let skipped = 0;
  const first = await runCampaign(
    options(journal, oracle, await ndjson(lines)(), { concurrency: 3, onRecorded: (r) => recorded.push(r.id), onSkipped: () => skipped++ }),
  );
  assert.deepEqual(first, { reason: 'done', recorded: 11, skipped: 1, judged: 0, findings: 4, ran: 10, runSeconds: first.runSeconds });
  assert.equal(skipped, 1, 'the repeated line is skipped');
  assert.equal(oracle.ran.length, 10, 'the invalid line is never run');
  assert.equal(oracle.maxInFlight, 3);
  assert.deepEqual(new Set(recorded), new Set([...Array.from({ length: 10 }, (_, i) => `c${i}`), 'line:11']));
  assert.deepEqual(
    oracle.ran.map((r) => r.op),
    Array(10).fill('vote'),
  );
  const s = journal.summary();
  assert.equal(s.cases, 11);
  assert.deepEqual(
    s.buckets.map((b) => [b.signature, b.count]),
    [
      ['outlier firefox | size | P | height', 4],
      ['invalid | invalid_json', 1],
    ],
  );
  journal.close();

  journal = openJournal(path);
  const again = new FakeOracle();
  const second = await runCampaign(options(journal, again, await ndjson(lines)()));
  assert.deepEqual([second.reason, second.recorded, second.skipped, again.ran.length], ['done', 0, 12, 0]);
  assert.equal(journal.summary().cases, 11);
  journal.close();
});

test('--stop-after takes exactly N new cases; the next run goes on from there', async () => {
  const path = join(root, 'stop-after.sqlite');
  const lines = cases(7);
  let journal = openJournal(path);
  const first = await runCampaign(options(journal, new FakeOracle(), await ndjson(lines)(), { stopAfter: 3 }));
  assert.deepEqual([first.reason, first.recorded], ['stop-after', 3]);
  journal.close();
  journal = openJournal(path);
  const oracle = new FakeOracle();
  const second = await runCampaign(options(journal, oracle, await ndjson(lines)(), { stopAfter: 3 }));
  assert.deepEqual([second.reason, second.recorded, second.skipped], ['stop-after', 3, 3]);
  assert.deepEqual(
    oracle.ran.map((r) => r.request.id),
    ['c3', 'c4', 'c5'],
  );
  const third = await runCampaign(options(journal, new FakeOracle(), await ndjson(lines)(), { stopAfter: 3 }));
  assert.deepEqual([third.reason, third.recorded, third.skipped], ['done', 1, 6]);
  journal.close();
});

test('--stop-after-findings stops taking cases once enough findings are recorded; expected cases are not findings', async () => {
  const lines = cases(20, (i) => `<p>outlier ${i}</p>`);
  const journal = openJournal();
  const result = await runCampaign(options(journal, new FakeOracle(), await ndjson(lines)(), { stopAfterFindings: 2, concurrency: 1 }));
  assert.deepEqual([result.reason, result.findings, result.recorded], ['stop-after-findings', 2, 2]);
  journal.close();

  const expectations = Expectations.parse(JSON.stringify({ known: [{ id: 'ff-height', engine: 'firefox', property: 'height' }] }), 't');
  const expecting = openJournal();
  const all = await runCampaign(options(expecting, new FakeOracle(), await ndjson(lines)(), { stopAfterFindings: 2, expectations }));
  assert.deepEqual([all.reason, all.findings, all.recorded], ['done', 0, 20]);
  const summary = expecting.summary();
  assert.deepEqual([summary.expected, summary.verdicts.outlier.firefox, summary.buckets], [20, 20, []]);
  expecting.close();
});

test('a generated corpus runs as geometry cases sent as votes, with the ids and hashes its --emit lines get', async () => {
  const journal = openJournal();
  const oracle = new FakeOracle();
  const corpus = generatedCorpus({ count: 5, seed: 3, script: true });
  assert.equal(await corpus.count(), 5);
  const result = await runCampaign(options(journal, oracle, corpus.items()));
  assert.equal(result.recorded, 5);
  assert.deepEqual(
    oracle.ran.map((r) => [r.op, r.request.id, 'dumps' in r.request && r.request.dumps, 'script' in r.request]),
    Array.from({ length: 5 }, (_, i) => ['vote', `gen-3-${i}`, true, true]),
  );
  // The same cases read back from their emitted lines are already recorded.
  const chunks: string[] = [];
  const sink = new Writable({
    write(chunk, _e, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  await emitNdjson(generateCases({ count: 5, seed: 3, script: true }), sink);
  const resumed = await runCampaign(options(journal, new FakeOracle(), await ndjson(chunks.join('').trimEnd().split('\n'))()));
  assert.deepEqual([resumed.recorded, resumed.skipped], [0, 5]);
  journal.close();
});

test('stop: no new case is taken, and the cases in flight are finished and recorded', async () => {
  const journal = openJournal();
  const oracle = new FakeOracle(false);
  const stop = new AbortController();
  const running = runCampaign(options(journal, oracle, await ndjson(cases(10))(), { concurrency: 3, stop: stop.signal }));
  await oracle.waitingFor(3);
  stop.abort();
  oracle.release();
  const result = await running;
  assert.deepEqual([result.reason, result.recorded, oracle.ran.length], ['stopped', 3, 3]);
  assert.equal(journal.summary().cases, 3);
  journal.close();
});

test('abandon: the cases in flight are not recorded, not even when they answer later', async () => {
  const journal = openJournal();
  const oracle = new FakeOracle(false);
  const stop = new AbortController();
  const abandon = new AbortController();
  const running = runCampaign(
    options(journal, oracle, await ndjson(cases(10))(), { concurrency: 3, stop: stop.signal, abandon: abandon.signal }),
  );
  await oracle.waitingFor(3);
  stop.abort();
  abandon.abort();
  const result = await running;
  assert.deepEqual([result.reason, result.recorded], ['abandoned', 0]);
  oracle.release();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(journal.summary().cases, 0);
  journal.close();
});

test('a case the oracle cannot run stops the campaign with an error; the cases answered are recorded', async () => {
  const journal = openJournal();
  const error = await runCampaign(options(journal, new FakeOracle(true, 'c2'), await ndjson(cases(10))(), { concurrency: 1 })).then(
    () => assert.fail('the campaign should fail'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof CampaignRunError);
  assert.equal(error.message, 'the farm fell over');
  assert.equal(error.result.recorded, 2);
  assert.equal(journal.summary().cases, 2);
  journal.close();
});

/** A stand-in engine under test: it answers with the unanimous fixture's Chromium dump as its own, and counts what it was asked. */
class StandInCandidate implements DumpSource {
  readonly name = 'stand-in';
  readonly version = '1';
  readonly supports = undefined;
  readonly asked: string[] = [];

  async run(request: CandidateCase): Promise<SourceOutcome> {
    this.asked.push(request.id);
    if (request.html.includes('unsupported')) return { kind: 'unsupported', what: 'float: left' };
    return { kind: 'dump', dump: { ...dump('agree', 'chromium'), engine: this.name } as CandidateDump };
  }

  async close(): Promise<void> {}
}

test('a candidate is asked a case once the engines have answered it, and the case is recorded with its answer', async () => {
  const oracle = new FakeOracle(false, undefined, true);
  const candidate = new StandInCandidate();
  const journal = openJournal();
  const running = runCampaign(options(journal, oracle, await ndjson(cases(3))(), { candidate }));
  await oracle.waitingFor(3);
  assert.deepEqual(candidate.asked, [], 'not while the engines run the cases');
  oracle.release();
  assert.deepEqual((await running).recorded, 3);
  assert.deepEqual([...candidate.asked].sort(), ['c0', 'c1', 'c2']);
  assert.deepEqual(
    [...journal.caseLines()].map((c) => c.candidate?.verdict),
    ['pass', 'pass', 'pass'],
  );
  journal.close();
});

test('abandoned while the engines run its cases, the candidate is not asked them when they answer', async () => {
  const oracle = new FakeOracle(false, undefined, true);
  const candidate = new StandInCandidate();
  const journal = openJournal();
  const stop = new AbortController();
  const abandon = new AbortController();
  const running = runCampaign(
    options(journal, oracle, await ndjson(cases(3))(), { candidate, stop: stop.signal, abandon: abandon.signal }),
  );
  await oracle.waitingFor(3);
  stop.abort();
  abandon.abort();
  assert.equal((await running).reason, 'abandoned');
  oracle.release();
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(candidate.asked, []);
  journal.close();
});

test('a candidate answers every layout case in its transaction; resumed with it, a case recorded without its answer is judged alone, and then skipped', async () => {
  const path = join(root, 'candidate.sqlite');
  const oracle = new FakeOracle(true, undefined, true);
  const candidate = new StandInCandidate();
  const lines = [...cases(3), JSON.stringify({ id: 'u', html: '<p>unsupported</p>' })];
  // The first run has no candidate: the browsers' side alone.
  let journal = openJournal(path);
  await runCampaign(options(journal, oracle, await ndjson(lines.slice(0, 2))()));
  journal.close();
  // The second has one: the two recorded cases go to it alone, the two new ones to both.
  journal = openJournal(path);
  const judged: string[] = [];
  const second = await runCampaign(options(journal, oracle, await ndjson(lines)(), { candidate, onJudged: (c) => judged.push(c.verdict) }));
  assert.deepEqual([second.recorded, second.judged, second.skipped], [2, 2, 0]);
  assert.deepEqual(judged, ['pass', 'pass']);
  assert.equal(oracle.ran.length, 4, 'the engines ran each case once over both runs');
  assert.deepEqual([...candidate.asked].sort(), ['c0', 'c1', 'c2', 'u']);
  // The third asks nobody anything.
  const third = await runCampaign(options(journal, oracle, await ndjson(lines)(), { candidate }));
  assert.deepEqual([third.recorded, third.judged, third.skipped], [0, 0, 4]);
  assert.equal(candidate.asked.length, 4);
  const summary = journal.summary().candidate!;
  assert.deepEqual([summary.name, summary.version], ['stand-in', '1']);
  assert.deepEqual(summary.verdicts, { pass: 3, fail: 0, parse_divergence: 0, discarded: 0, no_majority: 0, unsupported: 1, error: 0 });
  assert.deepEqual(summary.buckets, [{ signature: 'candidate stand-in | unsupported | float', count: 1, example: 'u' }]);
  assert.deepEqual(
    [...journal.caseLines()].map((c) => [c.id, c.candidate]),
    [
      ['c0', { verdict: 'pass', signature: null }],
      ['c1', { verdict: 'pass', signature: null }],
      ['c2', { verdict: 'pass', signature: null }],
      ['u', { verdict: 'unsupported', signature: 'candidate stand-in | unsupported | float', unsupported: 'float: left' }],
    ],
  );
  journal.close();
});
