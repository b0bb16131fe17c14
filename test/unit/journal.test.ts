// The journal on real better-sqlite3 files in a temp folder: recording, resuming without
// duplicates, invalid items, summaries, reductions, and the files it must refuse.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Journal, type CaseRecord, type ReductionRecord, type RunInfo } from '../../src/campaign/journal/journal.js';
import { APPLICATION_ID, MIGRATIONS } from '../../src/campaign/journal/journal-schema.js';
import { openCorpus, type CorpusItem } from '../../src/campaign/corpus/corpus.js';
import { invalidRecord, votedRecord } from '../../src/campaign/loop/case-record.js';
import type { CandidateRecord } from '../../src/campaign/loop/candidate-record.js';
import { answered } from '../support/answers.js';
import { Expectations } from '../../src/campaign/loop/expectations.js';
import { CampaignError } from '../../src/campaign/campaign-error.js';
import { response } from '../fixtures/dumps/load.js';
import { traceResponse } from '../fixtures/traces/load.js';
import { reflectResponse } from '../fixtures/reflect/load.js';

/** A parsed response as an answer: plain JSON values are WireValues too. */

const root = mkdtempSync(join(tmpdir(), 'journal-test-'));
after(() => rmSync(root, { recursive: true, force: true }));
const temp = () => mkdtempSync(join(root, 'case-'));
const run: RunInfo = {
  command: ['browser-oracle', 'campaign'],
  engines: ['chromium', 'firefox', 'webkit'],
  versions: { firefox: '153.8.0' },
  fonts: 'liberation',
};

/** A corpus whose cases are answered by recordings: the id names the recording. */
const CORPUS = [
  '{"id":"text-line","html":"<p>Hello world</p>"}',
  '{"id":"agree","html":"<div></div>"}',
  '{"id":"split","html":"<div>x</div>"}',
  'this line is not JSON',
  '{"id":"engine-error","html":"<p></p>"}',
  '{"id":"trace-outlier","op":"trace","script":"trace.done()"}',
  '{"id":"reflect-outlier","op":"reflect","probes":[{"selector":"#a","attr":"preload"}]}',
  '{"id":"overflow","html":"<div></div>"}',
  '{"id":"rigid-base","html":"<div></div>"}',
];

const RESPONSES: Record<string, () => ReturnType<typeof answered>> = {
  'text-line': () => answered(response('text-line')),
  agree: () => answered(response('agree')),
  split: () => answered(response('split')),
  'engine-error': () => answered(response('engine-error')),
  'trace-outlier': () => answered(traceResponse('outlier')),
  'reflect-outlier': () => answered(reflectResponse('outlier')),
  overflow: () => answered(response('overflow')),
  'rigid-base': () => answered(response('rigid-base')),
};

function recordOf(item: CorpusItem, expectations?: Expectations): CaseRecord {
  const timing = { startedAt: Date.UTC(2026, 0, 1), elapsedMs: 12.5, attempts: 1 };
  return item.ok ? votedRecord(item, RESPONSES[item.id]!(), timing, expectations) : invalidRecord(item, timing.startedAt);
}

async function corpusFile(lines = CORPUS): Promise<string> {
  const file = join(temp(), 'cases.ndjson');
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

/** A campaign run without engines: skips what is recorded, records the rest; stops after `limit` new cases. */
async function campaign(db: string, corpus: string, limit = Infinity, expectations?: Expectations): Promise<number> {
  const journal = Journal.open(db);
  journal.startRun(run);
  let recorded = 0;
  for await (const item of (await openCorpus(corpus)).items()) {
    if (recorded === limit) break;
    if (journal.has(item)) continue;
    assert.equal(journal.record(recordOf(item, expectations)), true);
    recorded++;
  }
  if (recorded < limit) journal.endRun();
  journal.close();
  return recorded;
}

const EXPECTED_SUMMARY = {
  cases: 9,
  verdicts: { unanimous: 2, outlier: { chromium: 1, firefox: 2, webkit: 0 }, split: 1, insufficient: 2 },
  invalid: 1,
  expected: 0,
  buckets: [
    { signature: 'insufficient | chromium discarded, firefox discarded, webkit discarded', count: 1, example: 'overflow' },
    { signature: 'insufficient | firefox script_error', count: 1, example: 'engine-error' },
    { signature: 'invalid | invalid_json', count: 1, example: 'line:4' },
    { signature: 'outlier firefox | size | P | height', count: 1, example: 'text-line' },
    { signature: 'reflect outlier chromium | preload | preload', count: 1, example: 'reflect-outlier' },
    { signature: 'split | size | DIV | width,height', count: 1, example: 'split' },
    { signature: 'trace outlier firefox | value | fn', count: 1, example: 'trace-outlier' },
  ],
};

test('a run interrupted after 4 cases resumes: every case once, the invalid line too', async () => {
  const db = join(temp(), 'run.sqlite');
  const corpus = await corpusFile();
  assert.equal(await campaign(db, corpus, 4), 4);
  const partial = Journal.open(db);
  assert.equal(partial.counts().cases, 4);
  partial.close();

  assert.equal(await campaign(db, corpus), CORPUS.length - 4, 'the rerun records only what was missing');
  assert.equal(await campaign(db, corpus), 0, 'a third run finds everything recorded');

  const journal = Journal.open(db);
  assert.deepEqual(journal.summary(), EXPECTED_SUMMARY);
  assert.deepEqual(journal.counts(), { cases: 9, unanimous: 2, outlier: 3, split: 1, insufficient: 2, invalid: 1, expected: 0 });
  journal.close();

  const sql = new Database(db, { readonly: true });
  assert.deepEqual(sql.prepare('SELECT id, COUNT(*) AS n FROM cases GROUP BY id HAVING n > 1').all(), [], 'no case twice');
  const runs = sql.prepare('SELECT id, ended_at IS NOT NULL AS ended, engines, versions, fonts FROM runs ORDER BY id').all();
  assert.deepEqual(
    runs.map((r) => (r as { ended: number }).ended),
    [0, 1, 1],
    'the interrupted run never ended',
  );
  assert.deepEqual(runs[0], {
    id: 1,
    ended: 0,
    engines: '["chromium","firefox","webkit"]',
    versions: '{"firefox":"153.8.0"}',
    fonts: 'liberation',
  });
  const invalid = sql.prepare("SELECT op, request, invalid, verdict, signature FROM cases WHERE id = 'line:4'").get();
  assert.deepEqual(invalid, {
    op: null,
    request: 'this line is not JSON',
    invalid: `invalid_json: the line is not JSON (${jsonError('this line is not JSON')})`,
    verdict: null,
    signature: 'invalid | invalid_json',
  });
  sql.close();
});

test('each engine outcome is kept: the result as JSON text, or the error and its code', async () => {
  const db = join(temp(), 'run.sqlite');
  await campaign(db, await corpusFile());
  const sql = new Database(db, { readonly: true });
  const rows = sql
    .prepare(
      "SELECT engine, version, result IS NOT NULL AS has_result, error_code, error FROM outcomes JOIN cases ON seq = case_seq WHERE id = 'engine-error' ORDER BY engine",
    )
    .all();
  assert.deepEqual(rows, [
    { engine: 'chromium', version: '156.0.8078.108', has_result: 1, error_code: null, error: null },
    { engine: 'firefox', version: null, has_result: 0, error_code: 'script_error', error: 'script_error: Error: recorded failure' },
    { engine: 'webkit', version: response('engine-error').dumps.webkit!.engine_version, has_result: 1, error_code: null, error: null },
  ]);
  const dump = sql
    .prepare("SELECT result FROM outcomes JOIN cases ON seq = case_seq WHERE id = 'text-line' AND engine = 'firefox'")
    .pluck()
    .get() as string;
  assert.deepEqual(JSON.parse(dump), response('text-line').dumps.firefox);
  const stored = sql
    .prepare("SELECT request, verdict, outlier, vote, elapsed_ms, attempts, started_at FROM cases WHERE id = 'text-line'")
    .get() as Record<string, unknown>;
  assert.equal(stored.request, CORPUS[0]);
  assert.deepEqual(
    [stored.verdict, stored.outlier, stored.elapsed_ms, stored.attempts, stored.started_at],
    ['outlier', 'firefox', 12.5, 1, '2026-01-01T00:00:00.000Z'],
  );
  assert.equal(JSON.parse(stored.vote as string).verdict, 'outlier');
  sql.close();
});

test('the same id with new content is a new case; the same content is not recorded twice', async () => {
  const db = join(temp(), 'run.sqlite');
  const journal = Journal.open(db);
  journal.startRun(run);
  const items = await itemsOf(CORPUS[0]!, CORPUS[0]!.replace('Hello', 'Bye'));
  assert.equal(items[0]!.id, items[1]!.id);
  assert.equal(journal.record(recordOf(items[0]!)), true);
  assert.equal(journal.has(items[1]!), false);
  assert.equal(journal.record(recordOf(items[1]!)), true);
  assert.equal(journal.record(recordOf(items[0]!)), false, 'already there: nothing written');
  assert.equal(journal.counts().cases, 2);
  journal.close();
});

test('a case is recorded whole or not at all', async () => {
  const db = join(temp(), 'run.sqlite');
  const journal = Journal.open(db);
  journal.startRun(run);
  const [item] = await itemsOf(CORPUS[0]!);
  const record = recordOf(item!);
  // Two outcomes for one engine break the outcomes key after the case row went in.
  assert.throws(() => journal.record({ ...record, outcomes: [...record.outcomes, record.outcomes[0]!] }), /UNIQUE/);
  assert.equal(journal.has(item!), false);
  assert.equal(journal.counts().cases, 0);
  journal.close();
});

test('expected cases are counted under their verdict and kept out of the buckets', async () => {
  const db = join(temp(), 'run.sqlite');
  const expectations = Expectations.parse(JSON.stringify({ known: [{ id: 'ff', verdict: 'outlier', engine: 'firefox' }] }), 'test');
  await campaign(db, await corpusFile(), Infinity, expectations);
  const journal = Journal.open(db);
  const summary = journal.summary();
  assert.equal(summary.expected, 1);
  assert.deepEqual(summary.verdicts, EXPECTED_SUMMARY.verdicts);
  assert.deepEqual(
    summary.buckets,
    EXPECTED_SUMMARY.buckets.filter((b) => b.example !== 'text-line'),
  );
  journal.close();
});

test('buckets: count descending, then signature; the example is the first case recorded', async () => {
  const db = join(temp(), 'run.sqlite');
  const lines = ['{"id":"z-first","html":"a"}', '{"id":"a-second","html":"b"}', '{"id":"split","html":"c"}', '{"id":"m","html":"d"}'];
  const journal = Journal.open(db);
  journal.startRun(run);
  for (const item of await itemsOf(...lines)) {
    const answer = item.id === 'split' ? 'split' : 'text-line';
    journal.record(
      votedRecord(item as Extract<CorpusItem, { ok: true }>, answered(response(answer)), { startedAt: 0, elapsedMs: 1, attempts: 1 }),
    );
  }
  assert.deepEqual(journal.summary().buckets, [
    { signature: 'outlier firefox | size | P | height', count: 3, example: 'z-first' },
    { signature: 'split | size | DIV | width,height', count: 1, example: 'split' },
  ]);
  journal.close();
});

/** A reduction as `reduce` stores it, of `html`. */
const reductionOf = (html: string, signature: string | null): ReductionRecord => ({
  request: JSON.stringify({ id: 'r', html }),
  signature,
  vote: '{"verdict":"outlier"}',
  outcomes: [
    // A check-layout page's reading and a site case's scrollbar room are kept with the outcome (null: none).
    {
      engine: 'chromium',
      version: '1',
      result: '{"engine":"chromium"}',
      error: null,
      ms: 2,
      authored: '{"elements":[]}',
      scrollbars: '{"x":0,"y":0}',
    },
    { engine: 'webkit', version: null, result: null, error: 'case_timeout: no answer', ms: null, authored: null, scrollbars: null },
  ],
  before: { nodes: 9, bytes: 300 },
  after: { nodes: 4, bytes: 40 },
  tests: 25,
  elapsedMs: 1234.5,
  stopped: null,
  oneMinimal: true,
});

test('a reduced case is stored beside the original, with its outcomes', async () => {
  const db = join(temp(), 'run.sqlite');
  await campaign(db, await corpusFile());
  const journal = Journal.open(db);
  const [item] = await itemsOf(CORPUS[0]!);
  assert.equal(journal.reduction(item!), undefined);
  const first = reductionOf('<p>x</p>', 'outlier firefox | size | P | height');
  assert.equal(journal.addReduction(item!, first), true);
  assert.deepEqual(journal.reduction(item!), {
    request: first.request,
    signature: first.signature,
    vote: first.vote,
    outcomes: first.outcomes,
  });
  const later = { ...reductionOf('<p>y</p>', null), outcomes: first.outcomes.slice(0, 1) };
  assert.equal(journal.addReduction(item!, later), true, 'a later reduction replaces it');
  assert.deepEqual(journal.reduction(item!), { request: later.request, signature: null, vote: later.vote, outcomes: later.outcomes });
  assert.equal(journal.addReduction({ id: 'nope', hash: item!.hash }, first), false);
  journal.close();
  const sql = new Database(db, { readonly: true });
  assert.deepEqual(
    sql.prepare('SELECT before_nodes, after_nodes, before_bytes, after_bytes, tests, stopped, one_minimal FROM reductions').all(),
    [{ before_nodes: 9, after_nodes: 4, before_bytes: 300, after_bytes: 40, tests: 25, stopped: null, one_minimal: 1 }],
  );
  assert.equal(sql.prepare("SELECT error_code FROM reduction_outcomes WHERE engine = 'webkit'").pluck().get(), undefined, 'replaced');
  sql.close();
});

/** A candidate's passing answer with this dump. */
const passing = (dump: CandidateRecord['dump'], extra: Partial<CandidateRecord> = {}): CandidateRecord => ({
  name: 'mine',
  version: '1',
  verdict: 'pass',
  signature: null,
  sidesWithOutlier: false,
  subpixel: false,
  unsupported: null,
  error: null,
  dump,
  roots: null,
  against: {},
  ms: 3,
  ...extra,
});

test("a reduced mutation case's candidate answer is stored with its fresh layout, as the original's is; a later reduction replaces both", async () => {
  const db = join(temp(), 'run.sqlite');
  await campaign(db, await corpusFile());
  const journal = Journal.open(db);
  const [item] = await itemsOf(CORPUS[0]!);
  const candidate = passing('{"engine":"mine"}', {
    fresh: { verdict: 'pass', self: 'differs', signature: 'candidate mine | self | P | width', dump: '{"engine":"mine","fresh":1}' },
  });
  const reduced = { ...reductionOf('<p>x</p>', 'outlier firefox | size | P | height'), candidate };
  assert.equal(journal.addReduction(item!, reduced), true);
  assert.deepEqual(journal.reduction(item!)?.candidate?.fresh, candidate.fresh);
  const { fresh: _, ...withoutFresh } = candidate;
  assert.equal(journal.addReduction(item!, { ...reduced, candidate: withoutFresh }), true);
  assert.equal(journal.reduction(item!)?.candidate?.fresh, undefined, "the later reduction's answer has none");
  journal.close();
});

test("a candidate's dump given as its bytes is stored as text, and reads back as the text it was", async () => {
  const db = join(temp(), 'run.sqlite');
  await campaign(db, await corpusFile());
  const journal = Journal.open(db);
  journal.startRun(run);
  const [item] = await itemsOf(CORPUS[0]!);
  const json = '{"engine":"mine","tag":"é€😀"}';
  const candidate = passing(Buffer.from(json));
  assert.equal(journal.recordCandidate(item!, candidate), true);
  assert.equal(journal.candidate(item!, candidate)?.dump, json);
  assert.equal(journal.addReduction(item!, { ...reductionOf('<p>x</p>', null), candidate }), true);
  assert.equal(journal.reduction(item!)?.candidate?.dump, json);
  journal.close();
  const sql = new Database(db, { readonly: true });
  for (const table of ['candidate_outcomes', 'reduction_candidates'])
    assert.deepEqual(sql.prepare(`SELECT typeof(dump) AS type, dump FROM ${table}`).all(), [{ type: 'text', dump: json }], table);
  sql.close();
});

test("a finding keeps its candidate's dump as text when it was given as bytes", async () => {
  const db = join(temp(), 'run.sqlite');
  await campaign(db, await corpusFile());
  const sql = new Database(db, { readonly: true });
  const caseSeq = sql.prepare('SELECT seq FROM cases LIMIT 1').pluck().get() as number;
  sql.close();
  const journal = Journal.open(db);
  const json = '{"engine":"mine","tag":"é"}';
  journal.findings().add({
    subject: { name: 'mine', version: '1' },
    template: '<p></p>',
    signature: 'candidate mine | size | P | width',
    enginesSignature: null,
    outlier: null,
    caseSeq,
    reduced: '{}',
    vote: null,
    outcomes: [],
    candidate: passing(Buffer.from(json)),
    versions: {},
    fonts: null,
    elements: 1,
  });
  assert.equal(journal.findings().list()[0]!.candidate!.dump, json);
  journal.close();
});

test('a recorded case reads back as it was recorded; a bucket gives its first case; runs and reports are listed', async () => {
  const db = join(temp(), 'run.sqlite');
  await campaign(db, await corpusFile());
  const journal = Journal.open(db);
  const [bucket] = journal.summary().buckets;
  const example = journal.firstInBucket(bucket!.signature)!;
  assert.equal(example.id, bucket!.example);
  assert.equal(example.signature, bucket!.signature);
  assert.ok(example.outcomes.length > 0 && example.outcomes.every((o) => o.result !== null || o.error !== null));
  assert.deepEqual(journal.casesWithId(example.id), [example]);
  assert.deepEqual(journal.casesWithId('no such case'), []);
  assert.equal(journal.firstInBucket('no | such | bucket'), undefined);
  const [run] = journal.runs();
  assert.deepEqual(run!.engines, ['chromium', 'firefox', 'webkit']);
  assert.deepEqual(journal.runOf(example), run);
  assert.match(run!.startedAt, /^\d{4}-\d\d-\d\dT/);
  assert.equal(journal.lastReport(), undefined);
  const [a, b] = [join(temp(), 'a.html'), join(temp(), 'b.html')];
  writeFileSync(a, '<p>');
  writeFileSync(b, '<p>');
  journal.addReport(a, 3);
  journal.addReport(b, 3);
  assert.equal(journal.lastReport(), b);
  rmSync(b);
  assert.equal(journal.lastReport(), undefined, 'a report that is gone is not where to look');
  journal.close();
});

test('a journal from before reductions kept their outcomes opens, migrated, with what it held', () => {
  const path = join(temp(), 'old.sqlite');
  const old = new Database(path);
  old.exec(MIGRATIONS[0]!);
  old.pragma('user_version = 1');
  old.pragma(`application_id = ${APPLICATION_ID}`);
  old.prepare("INSERT INTO runs (command, engines, versions, started_at) VALUES ('[]', '[]', '{}', '2025-01-01T00:00:00.000Z')").run();
  old
    .prepare(
      "INSERT INTO cases (id, hash, run, op, request, verdict, signature, started_at, elapsed_ms, attempts) VALUES ('c', 'h', 1, 'geometry', '{}', 'split', 'split | size | P | -', '2025-01-01T00:00:00.000Z', 1, 1)",
    )
    .run();
  old
    .prepare("INSERT INTO reductions (case_seq, request, signature, reduced_at) VALUES (1, '{\"id\":\"c\"}', 'split | size | P | -', 'x')")
    .run();
  old.close();
  const journal = Journal.open(path);
  assert.deepEqual(journal.reduction({ id: 'c', hash: 'h' }), {
    request: '{"id":"c"}',
    signature: 'split | size | P | -',
    vote: null,
    outcomes: [],
  });
  assert.equal(journal.summary().cases, 1);
  journal.close();
  const sql = new Database(path, { readonly: true });
  assert.equal(sql.pragma('user_version', { simple: true }), MIGRATIONS.length);
  sql.close();
});

test('files that are not a journal are refused with one line', () => {
  const dir = temp();
  const refused = (path: string, options?: { mustExist: boolean }) => {
    try {
      Journal.open(path, options).close();
    } catch (e) {
      assert.ok(e instanceof CampaignError, String(e));
      return e.message;
    }
    assert.fail('opened');
  };
  writeFileSync(join(dir, 'text.sqlite'), 'just some text, long enough to look like a header of something else entirely\n'.repeat(20));
  assert.equal(
    refused(join(dir, 'text.sqlite')),
    `--db ${join(dir, 'text.sqlite')}: not a browser-oracle journal (not an SQLite database)`,
  );

  const other = new Database(join(dir, 'other.sqlite'));
  other.exec('CREATE TABLE t (x)');
  other.close();
  assert.equal(
    refused(join(dir, 'other.sqlite')),
    `--db ${join(dir, 'other.sqlite')}: not a browser-oracle journal (an SQLite database of something else); name a new file`,
  );

  Journal.open(join(dir, 'newer.sqlite')).close();
  const newer = new Database(join(dir, 'newer.sqlite'));
  newer.pragma('user_version = 99');
  newer.close();
  assert.match(
    refused(join(dir, 'newer.sqlite')),
    new RegExp(`: written by a newer browser-oracle \\(journal schema 99; this one knows up to ${MIGRATIONS.length}\\)$`),
  );

  assert.equal(refused(join(dir, 'missing.sqlite'), { mustExist: true }), `--db ${join(dir, 'missing.sqlite')}: no such journal`);
  writeFileSync(join(dir, 'empty.sqlite'), '');
  assert.equal(
    refused(join(dir, 'empty.sqlite'), { mustExist: true }),
    `--db ${join(dir, 'empty.sqlite')}: not a browser-oracle journal (an empty file)`,
  );
  assert.match(refused(join(dir, 'no', 'such', 'dir.sqlite')), /^--db .*dir\.sqlite: cannot open it \(.+\)$/);
});

test('an empty file becomes a journal, and reopening keeps its schema', () => {
  const path = join(temp(), 'empty.sqlite');
  writeFileSync(path, '');
  Journal.open(path).close();
  const sql = new Database(path, { readonly: true });
  assert.equal(sql.pragma('user_version', { simple: true }), MIGRATIONS.length);
  assert.equal(sql.pragma('journal_mode', { simple: true }), 'wal');
  assert.deepEqual(sql.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").pluck().all(), [
    'authored',
    'authored_findings',
    'candidate_fresh',
    'candidate_outcomes',
    'cases',
    'finding_members',
    'findings',
    'outcomes',
    'reduction_candidate_fresh',
    'reduction_candidates',
    'reduction_outcomes',
    'reductions',
    'reports',
    'runs',
    'self_checks',
    'triage_tries',
    'triage_untriaged',
  ]);
  sql.close();
  Journal.open(path).close();
});

async function itemsOf(...lines: string[]): Promise<CorpusItem[]> {
  const items: CorpusItem[] = [];
  for await (const item of (await openCorpus(await corpusFile(lines))).items()) items.push(item);
  return items;
}

function jsonError(text: string): string {
  try {
    JSON.parse(text);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('parsed');
}

test('a writer killed with SIGKILL mid-run leaves a journal that opens, holds whole cases only, and resumes exactly once', async () => {
  const db = join(temp(), 'killed.sqlite');
  const total = 5000;
  const outcomes = (['chromium', 'firefox', 'webkit'] as const).map((engine) => ({
    engine,
    version: '1',
    result: '{}',
    error: null,
    ms: null,
  }));
  const template: CaseRecord = {
    id: '',
    hash: 'h',
    op: 'geometry',
    request: '{}',
    invalid: null,
    outcomes,
    verdict: 'unanimous',
    outlier: null,
    signature: null,
    expected: null,
    vote: null,
    startedAt: 0,
    elapsedMs: 0,
    attempts: 1,
  };
  const journalModule = new URL('../../src/campaign/journal/journal.js', import.meta.url).href;
  // Records cases as fast as it can, saying so every 200.
  const writer = `
    import { Journal } from ${JSON.stringify(journalModule)};
    const journal = Journal.open(${JSON.stringify(db)});
    journal.startRun({ command: ['writer'], engines: [], versions: {}, fonts: null });
    for (let i = 0; i < ${total}; i++) {
      journal.record({ ...${JSON.stringify(template)}, id: 'c' + i });
      if (i % 200 === 199) process.stdout.write(i + 1 + '\\n');
    }`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', writer], { stdio: ['ignore', 'pipe', 'inherit'] });
  const acknowledged = await new Promise<number>((resolve) =>
    child.stdout.once('data', (chunk: Buffer) => resolve(parseInt(chunk.toString(), 10))),
  );
  child.kill('SIGKILL');
  const [, signal] = await once(child, 'exit');
  assert.equal(signal, 'SIGKILL');

  const journal = Journal.open(db);
  const kept = journal.counts().cases;
  assert.ok(kept >= acknowledged && kept < total, `${kept} cases kept, ${acknowledged} acknowledged`);
  const sql = new Database(db, { readonly: true });
  assert.deepEqual(
    sql.prepare('SELECT seq FROM cases WHERE (SELECT COUNT(*) FROM outcomes WHERE case_seq = seq) != 3').all(),
    [],
    'no half-recorded case',
  );
  sql.close();

  journal.startRun(run);
  let resumed = 0;
  for (let i = 0; i < total; i++) {
    const key = { id: `c${i}`, hash: 'h' };
    if (!journal.has(key)) resumed += Number(journal.record({ ...template, ...key }));
  }
  assert.equal(resumed, total - kept);
  assert.equal(journal.counts().cases, total);
  journal.close();
});
