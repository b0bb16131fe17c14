// `browser-oracle campaign` and `summary` on the three real engines, through the real command
// line: resume after SIGKILL (every case recorded exactly once), a clean stop on SIGINT, a mixed
// corpus on stdin with a bad line and the starter known differences, and a folder corpus taken
// in two runs with --stop-after.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isAlive, ONE_PAGE, UNHURRIED } from '../support/oracle-process.js';
import { CliProcess, readJournal, recordedAtLeast, runCli } from '../support/campaign-process.js';
import { processesOwnedBy } from '../support/processes.js';

const root = mkdtempSync(join(tmpdir(), 'campaign-e2e-'));
after(() => rmSync(root, { recursive: true, force: true }));
const KNOWN = fileURLToPath(new URL('../../../config/known-differences.json', import.meta.url));
// A few cases in flight at a time, so that a signal finds most of the corpus still to run.
const FARM = ['--workers=1', '--pages=2', UNHURRIED, '--concurrency=4'];
/** For the runs no signal stops: one page per engine (ONE_PAGE says why). */
const CALM_FARM = [...ONE_PAGE, UNHURRIED];

/**
 * 8 small geometry cases as NDJSON lines, each a box of its own size. A run stopped partway is
 * given the first 6 and signalled once 2 are recorded: those are cheap (no script: laid out in a
 * batch), the 4 after them have a script (an empty one), so each is loaded as a document of its
 * own and is most likely still in flight then. The last 2 are left for the next run.
 */
const BOXES = Array.from({ length: 8 }, (_, i) => ({
  id: `box-${i}`,
  line: `${JSON.stringify({ id: `box-${i}`, html: `<!doctype html><div style="width:${10 + i}px;height:7px"></div>`, ...(i >= 2 && i < 6 && { script: '' }) })}\n`,
}));
const GIVEN = 6;
const ALL_BOXES = BOXES.map((b) => b.line).join('');

/** A campaign on the boxes on stdin, given the first GIVEN with the input left open: it is in the middle of its corpus until it is stopped. */
function partway(args: string[]): CliProcess {
  const run = new CliProcess(args, { open: true });
  run.write(
    BOXES.slice(0, GIVEN)
      .map((b) => b.line)
      .join(''),
  );
  return run;
}

/** What must hold of any journal: one row per (id, hash), three outcomes per voted case, no orphans, an intact file. */
function consistent(db: string) {
  return readJournal(db, (sql) => ({
    integrity: sql.pragma('integrity_check', { simple: true }),
    repeated: sql.prepare('SELECT id FROM cases GROUP BY id HAVING COUNT(*) > 1').pluck().all(),
    partial: sql
      .prepare('SELECT id FROM cases WHERE op IS NOT NULL AND (SELECT COUNT(*) FROM outcomes WHERE case_seq = seq) <> 3')
      .pluck()
      .all(),
    orphans: sql.prepare('SELECT COUNT(*) FROM outcomes WHERE case_seq NOT IN (SELECT seq FROM cases)').pluck().get(),
  }));
}

const CONSISTENT = { integrity: 'ok', repeated: [], partial: [], orphans: 0 };

test('SIGKILL in the middle of a run, then the same command: every case of the corpus recorded exactly once', async () => {
  const db = join(root, 'kill.sqlite');
  const args = ['campaign', '--db', db, '--corpus', '-', ...FARM];
  const first = partway(args);
  await recordedAtLeast(first, db, 2);
  first.kill('SIGKILL');
  await first.exited;
  const before = readJournal(db, (sql) => sql.prepare<[], number>('SELECT COUNT(*) FROM cases').pluck().get()!);
  assert.ok(before >= 2 && before <= GIVEN, `killed mid-run (${before} cases recorded)`);
  assert.deepEqual(consistent(db), CONSISTENT, 'a kill -9 leaves only whole cases');

  const second = await runCli(args, ALL_BOXES);
  assert.equal(second.code, 0, second.stderr);
  assert.match(
    second.stderr,
    new RegExp(`campaign: done: ${BOXES.length - before} case\\(s\\) recorded in this run, ${before} skipped as already recorded`),
  );
  assert.deepEqual(consistent(db), CONSISTENT);
  const journal = readJournal(db, (sql) => ({
    ids: sql.prepare('SELECT id FROM cases ORDER BY id').pluck().all(),
    perRun: sql.prepare('SELECT run, COUNT(*) AS n FROM cases GROUP BY run ORDER BY run').raw().all(),
    ended: sql.prepare('SELECT ended_at IS NOT NULL FROM runs ORDER BY id').pluck().all(),
  }));
  assert.deepEqual(
    journal.ids,
    BOXES.map((b) => b.id),
  );
  assert.deepEqual(journal.perRun, [
    [1, before],
    [2, BOXES.length - before],
  ]);
  assert.deepEqual(journal.ended, [0, 1], 'the killed run never ended; the second did');
  assert.deepEqual(processesOwnedBy(first.pid), [], "the killed campaign's browsers are gone");
});

test('SIGINT: no new case, the cases in flight recorded whole, browsers closed, exit 1 with a line saying it is resumable', async () => {
  const db = join(root, 'interrupt.sqlite');
  const args = ['campaign', '--db', db, '--corpus', '-', ...FARM];
  const run = partway(args);
  await recordedAtLeast(run, db, 2);
  const children = run.descendants();
  run.kill('SIGINT');
  assert.equal(await run.exited, 1);
  assert.match(
    run.lastLine,
    /^browser-oracle: info: campaign: stopped by SIGINT: \d+ case\(s\) recorded in this run, 0 skipped as already recorded; run the same command again to resume$/,
  );
  assert.deepEqual(children.filter(isAlive), [], 'every browser closed');
  assert.deepEqual(consistent(db), CONSISTENT);
  const stopped = readJournal(db, (sql) => sql.prepare('SELECT ended_at IS NOT NULL FROM runs').pluck().get());
  assert.equal(stopped, 1, 'a run stopped by a signal has ended');

  const resumed = await runCli(args, ALL_BOXES);
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.deepEqual(
    readJournal(db, (sql) => sql.prepare('SELECT id FROM cases ORDER BY id').pluck().all()),
    BOXES.map((b) => b.id),
  );
});

test('a corpus on stdin mixes geometry, vote, reflect and trace; a bad line is recorded invalid and the campaign goes on; --expect keeps known differences out of the findings', async () => {
  const lines = [
    { id: 'text', html: '<!doctype html><p>Hello world</p>' },
    { id: 'vote', op: 'vote', html: '<!doctype html><div style="width:50px;height:20px"></div>' },
    { id: 'reflect', op: 'reflect', html: '<a id=a href=x></a>', probes: [{ selector: '#a', attr: 'href' }] },
    { id: 'trace', op: 'trace', script: "trace.value('sum', 1 + 1)" },
  ].map((r) => JSON.stringify(r));
  const stdin = [lines[0], lines[1], 'not json at all', lines[2], '{"id":"bad-engine","html":"","engines":["mosaic"]}', lines[3]].join(
    '\n',
  );
  const db = join(root, 'stdin.sqlite');
  const run = await runCli(['campaign', '--db', db, '--corpus', '-', '--expect', KNOWN, ...CALM_FARM], stdin);
  assert.equal(run.code, 0, run.stderr);

  const cases = readJournal(db, (sql) =>
    sql.prepare('SELECT id, op, verdict, expected, signature, invalid FROM cases ORDER BY id').all(),
  ) as Record<string, string | null>[];
  const byId = Object.fromEntries(cases.map((c) => [c.id, c]));
  assert.deepEqual(Object.keys(byId).sort(), ['bad-engine', 'line:3', 'reflect', 'text', 'trace', 'vote']);
  assert.deepEqual(
    ['text', 'vote', 'reflect', 'trace'].map((id) => byId[id]!.op),
    ['geometry', 'vote', 'reflect', 'trace'],
  );
  assert.match(byId['line:3']!.invalid!, /^invalid_json: /);
  assert.equal(byId['line:3']!.signature, 'invalid | invalid_json');
  assert.match(byId['bad-engine']!.invalid!, /^invalid_request: field "engines\[0\]"/);
  // Firefox's line-height: normal under Liberation: the starter file's measured difference.
  assert.deepEqual(
    [byId.text!.verdict, byId.text!.signature, byId.text!.expected],
    ['outlier', 'outlier firefox | size | P | height', 'gecko-line-height-normal-liberation'],
  );
  for (const id of ['vote', 'reflect', 'trace']) assert.equal(byId[id]!.verdict, 'unanimous', id);

  const summary = await runCli(['summary', '--db', db, '--json']);
  assert.equal(summary.code, 0);
  assert.deepEqual(JSON.parse(summary.stdout), {
    cases: 6,
    verdicts: { unanimous: 3, outlier: { chromium: 0, firefox: 1, webkit: 0 }, split: 0, insufficient: 0 },
    invalid: 2,
    expected: 1,
    buckets: [
      { signature: 'invalid | invalid_json', count: 1, example: 'line:3' },
      { signature: 'invalid | invalid_request', count: 1, example: 'bad-engine' },
    ],
    // Never triaged: no finding, and the Firefox outlier is expected (invalid items never ran, so are none to triage).
    fonts: ['liberation'],
    findings: [],
    untriaged: [],
  });
  assert.equal(run.stdout, (await runCli(['summary', '--db', db])).stdout, 'the campaign ends with the summary');
});

test('a folder of .html files, taken two cases at a time with --stop-after, then the rest', async () => {
  const folder = join(root, 'pages');
  mkdirSync(join(folder, 'nested'), { recursive: true });
  const files = ['a.html', 'b.html', 'nested/c.html', 'nested/d.html', 'z.html'];
  for (const [i, file] of files.entries())
    writeFileSync(join(folder, file), `<!doctype html><div style="width:${i + 1}0px;height:5px"></div>`);
  writeFileSync(join(folder, 'notes.txt'), 'not a case');
  const db = join(root, 'folder.sqlite');
  const args = ['campaign', '--db', db, '--corpus', folder, ...CALM_FARM];
  const first = await runCli([...args, '--stop-after', '2']);
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stderr, /campaign: stopped after 2 case\(s\) \(--stop-after 2\); run the same command again to go on\n$/);
  assert.deepEqual(
    readJournal(db, (sql) => sql.prepare('SELECT id FROM cases ORDER BY id').pluck().all()),
    ['a.html', 'b.html'],
  );
  const rest = await runCli(args);
  assert.equal(rest.code, 0, rest.stderr);
  assert.deepEqual(
    readJournal(db, (sql) => sql.prepare('SELECT id, verdict FROM cases ORDER BY id').raw().all()),
    files.map((f) => [f, 'unanimous']),
  );
});

test('generated cases a candidate cannot take (--script for Taffy) are refused in one line, exit 2, without the advice to resume', async () => {
  const db = join(root, 'refused.sqlite');
  const run = await runCli(['campaign', '--db', db, '--generate', '3', '--seed', '1', '--script', '--candidate', 'taffy', ...FARM]);
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, /^browser-oracle: error: campaign: --script: candidate taffy runs no script$/m);
  assert.doesNotMatch(run.stderr, /resume|error: campaign: error:/);
});
