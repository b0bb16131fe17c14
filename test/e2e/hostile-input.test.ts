// Hostile input (issue 23): an op named after what every object inherits, and an id that UTF-8
// cannot carry, on every way a request enters that runs engines here — the stdio oracle, a
// campaign's corpus, the library — each answered invalid_request while the next request is
// served (through a queue: test/e2e/queue.test.ts); and a folder corpus whose entries are not
// all cases.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Oracle, OracleError } from '../../src/index.js';
import { readJournal, runCli } from '../support/campaign-process.js';
import { OracleProcess } from '../support/oracle-process.js';

const root = mkdtempSync(join(tmpdir(), 'hostile-input-e2e-'));
after(() => rmSync(root, { recursive: true, force: true }));

const FARM = ['--engines=chromium', '--workers=1', '--pages=1', '--timeout-ms=60000'];
const INHERITED = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];
/** A request line whose id holds a lone surrogate, as JSON spells one. */
const LONE_LINE = '{"id":"x\\ud800","html":"<p>x</p>"}';
const LONE_ERROR =
  'invalid_request: field "id": holds a lone surrogate (\\ud800 at index 1), which UTF-8 cannot carry; send well-formed Unicode';
const unknownOp = (op: string) => new RegExp(`^invalid_request: field "op": unknown op "${op}" \\(known: `);

test('the stdio oracle answers each such line invalid_request and goes on serving', async () => {
  const oracle = new OracleProcess(FARM);
  for (const op of INHERITED) oracle.sendRaw(`${JSON.stringify({ id: `op-${op}`, op })}\n`);
  oracle.sendRaw(`${LONE_LINE}\n`);
  const served = await oracle.request({ id: 'after', html: '<p>served</p>' });
  assert.equal(served.errors, undefined, JSON.stringify(served));
  assert.ok(served.dumps.chromium);
  for (const op of INHERITED) {
    const answer = await oracle.response(`op-${op}`);
    assert.match(answer.error, unknownOp(op), op);
  }
  assert.deepEqual(
    oracle.lines.filter((l) => l.id === null),
    [{ id: null, error: LONE_ERROR }],
  );
  assert.equal(await oracle.shutdown(), 0, oracle.stderr);
});

test('in a corpus, each such line is an invalid case, the run goes on, and a resume skips them all', async () => {
  const corpus = join(root, 'hostile.ndjson');
  const lines = [...INHERITED.map((op) => JSON.stringify({ id: `op-${op}`, op })), LONE_LINE, '{"id":"good","html":"<p>good</p>"}'];
  writeFileSync(corpus, lines.join('\n') + '\n');
  const db = join(root, 'hostile.sqlite');
  const args = ['campaign', '--db', db, '--corpus', corpus, ...FARM];
  const first = await runCli(args);
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stderr, /campaign: done: 7 case\(s\) recorded in this run, 0 skipped as already recorded/);
  const cases = readJournal(db, (sql) =>
    sql
      .prepare<[], { id: string; invalid: string | null; verdict: string | null }>('SELECT id, invalid, verdict FROM cases ORDER BY seq')
      .all(),
  );
  assert.deepEqual(
    cases.map((c) => c.id),
    [...INHERITED.map((op) => `op-${op}`), 'line:6', 'good'],
  );
  for (const [i, op] of INHERITED.entries()) assert.match(cases[i]!.invalid!, unknownOp(op));
  assert.equal(cases[5]!.invalid, LONE_ERROR);
  assert.equal(cases[6]!.invalid, null);
  assert.equal(cases[6]!.verdict, 'insufficient', 'one engine: run and voted');

  const again = await runCli(args);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stderr, /campaign: done: 0 case\(s\) recorded in this run, 7 skipped as already recorded/);
});

test('the library refuses an id with a lone surrogate, and answers the next request', async () => {
  const oracle = await Oracle.launch({ engines: ['chromium'], workers: 1, pages: 1, timeoutMs: 60_000 });
  try {
    await assert.rejects(
      oracle.geometry({ id: 'x\ud800', html: '<p>x</p>' }),
      (error: unknown) => error instanceof OracleError && error.wireText === LONE_ERROR,
    );
    const answer = await oracle.geometry({ id: 'y\ud83d\ude00', html: '<p>x</p>' });
    assert.equal(answer.id, 'y\ud83d\ude00');
    assert.ok(answer.dumps.chromium);
  } finally {
    await oracle.close();
  }
});

test('a folder corpus with a name that is not UTF-8, a FIFO and links in and out: every case runs, each refusal is said once', async () => {
  const outside = mkdtempSync(join(root, 'outside-'));
  writeFileSync(join(outside, 'secret.html'), '<p>outside</p>');
  const dir = mkdtempSync(join(root, 'pages-'));
  writeFileSync(join(dir, 'a.html'), '<p>a</p>');
  writeFileSync(Buffer.concat([Buffer.from(`${dir}/b`), Buffer.from([0xff]), Buffer.from('.html')]), '<p>b</p>');
  execFileSync('mkfifo', [join(dir, 'c.html')]);
  symlinkSync('a.html', join(dir, 'd.html'));
  symlinkSync(join(outside, 'secret.html'), join(dir, 'e.html'));
  writeFileSync(join(dir, 'z.html'), '<p>z</p>');
  const db = join(root, 'pages.sqlite');
  const args = ['campaign', '--db', db, '--corpus', dir, ...FARM];
  const first = await runCli(args);
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stderr, /campaign: done: 4 case\(s\) recorded in this run, 0 skipped as already recorded/);
  const refusals = first.stderr.split('\n').filter((line) => line.includes('that are not cases'));
  assert.deepEqual(refusals, [
    `browser-oracle: warn: --corpus ${dir}: skipped 2 entries that are not cases: "c.html": not a regular file (a FIFO); ` +
      `"e.html": a link that leaves the corpus folder (to ${join(outside, 'secret.html')})`,
  ]);
  const cases = readJournal(db, (sql) => sql.prepare<[], [string, string | null]>('SELECT id, invalid FROM cases ORDER BY id').raw().all());
  assert.deepEqual(cases, [
    ['a.html', null],
    [
      'b\\xff.html',
      'invalid_request: the file name is not valid UTF-8 (its id shows each byte of it past ASCII, and each backslash, as \\xHH); rename it',
    ],
    ['d.html', null],
    ['z.html', null],
  ]);
  const again = await runCli(args);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stderr, /campaign: done: 0 case\(s\) recorded in this run, 4 skipped as already recorded/);
});
