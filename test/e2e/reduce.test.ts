// `browser-oracle reduce` on the three real engines, through the real command line: a disagreement
// a generated campaign recorded is reduced, stored beside the original, smaller, and still shows
// its bucket signature when a separate oracle runs it again; a request file is reduced too; and
// mistakes in how it is called are one line, exit 2, before any engine starts.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { caseSignature } from '../../src/campaign/loop/case-record.js';
import { answered } from '../support/answers.js';
import type { CaseRequest } from '../../src/campaign/corpus/corpus.js';
import { readJournal, runCli } from '../support/campaign-process.js';
import { OracleProcess, ONE_PAGE, UNHURRIED } from '../support/oracle-process.js';

const root = mkdtempSync(join(tmpdir(), 'reduce-e2e-'));
after(() => rmSync(root, { recursive: true, force: true }));
const FARM = [...ONE_PAGE, UNHURRIED];
const db = join(root, 'run.sqlite');

interface Recorded {
  id: string;
  signature: string;
  request: string;
}

let recorded: Recorded;

before(async () => {
  const run = await runCli(['campaign', '--db', db, '--generate', '8', '--seed', '7', '--quiet', ...FARM]);
  assert.equal(run.code, 0, run.stderr);
  // A geometry disagreement in the middle of the bucket table: neither the biggest case nor a trivial one.
  recorded = readJournal(db, (sql) =>
    sql
      .prepare<[], Recorded>(
        "SELECT id, signature, request FROM cases WHERE signature NOT LIKE 'insufficient%' AND signature IS NOT NULL ORDER BY seq",
      )
      .get(),
  )!;
  assert.ok(recorded, 'the campaign recorded a disagreement');
});

/** The signature a fresh oracle with `fonts` gives `request` now. */
async function signatureNow(request: CaseRequest, fonts: 'square' | 'liberation'): Promise<string | null> {
  const oracle = new OracleProcess([...FARM, `--fonts=${fonts}`]);
  try {
    return caseSignature(request, answered(await oracle.request({ ...request, op: 'vote', id: 'again' })));
  } finally {
    await oracle.shutdown();
  }
}

test('a recorded disagreement is reduced: smaller, stored beside the original, and its signature holds', async () => {
  const out = join(root, 'reduced.json');
  const run = await runCli(['reduce', '--db', db, '--case', recorded.id, '-o', out, ...FARM]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout, '', 'with -o, nothing on stdout');
  const sizes = /reduce: (\d+) → (\d+) elements, (\d+) → (\d+) bytes; (\d+) trials in [\d.]+ s; no single element can go/.exec(run.stderr);
  assert.ok(sizes, run.stderr);
  const [beforeNodes, afterNodes, beforeBytes, afterBytes] = sizes.slice(1, 5).map(Number) as [number, number, number, number];
  assert.ok(afterNodes < beforeNodes && afterBytes < beforeBytes, sizes[0]);

  const reduced = JSON.parse(readFileSync(out, 'utf8')) as CaseRequest & { html: string };
  const original = JSON.parse(recorded.request) as { html: string };
  assert.equal(reduced.id, recorded.id);
  assert.ok(reduced.html.length < original.html.length);
  const stored = readJournal(db, (sql) =>
    sql
      .prepare<
        [string],
        { request: string; signature: string; before_nodes: number; after_nodes: number; one_minimal: number; outcomes: number }
      >(
        `SELECT r.request, r.signature, r.before_nodes, r.after_nodes, r.one_minimal,
           (SELECT COUNT(*) FROM reduction_outcomes o WHERE o.case_seq = r.case_seq AND o.result IS NOT NULL) AS outcomes
         FROM reductions r JOIN cases c ON c.seq = r.case_seq WHERE c.id = ?`,
      )
      .get(recorded.id),
  );
  assert.deepEqual(stored, {
    request: JSON.stringify(reduced),
    signature: recorded.signature,
    before_nodes: beforeNodes,
    after_nodes: afterNodes,
    one_minimal: 1,
    outcomes: 3,
  });
  // Beside the original, which stays as it was.
  assert.equal(
    readJournal(db, (sql) => sql.prepare('SELECT request FROM cases WHERE id = ?').pluck().get(recorded.id)),
    recorded.request,
  );
  // Generated cases are judged in the square font (the journal's run says so), and reduced in it.
  assert.equal(await signatureNow(reduced, 'square'), recorded.signature, 'a separate oracle sees the same disagreement');
});

test('a request file is reduced to stdout, keeping the signature its first run shows', async () => {
  const file = join(root, 'case.json');
  // Firefox makes a `line-height: normal` line 19 px where the others make 18 (test/fixtures/dumps/text-line.json).
  const html =
    '<!doctype html><body style="margin:0"><div style="padding:2px"><p>Hello world</p><span>and more</span></div><div style="height:3px"></div>';
  writeFileSync(file, JSON.stringify({ id: 'file-case', html }));
  const run = await runCli(['reduce', file, ...FARM]);
  assert.equal(run.code, 0, run.stderr);
  const signature = /reduce: keeping the signature (.+)$/m.exec(run.stderr)?.[1];
  assert.ok(signature, run.stderr);
  const reduced = JSON.parse(run.stdout) as CaseRequest & { html: string };
  assert.ok(reduced.html.length < html.length, reduced.html);
  assert.equal(await signatureNow(reduced, 'liberation'), signature);
});

test('a case whose signature does not hold every time is refused as not reproducible, with the counts', async () => {
  // Each engine draws its own width: the engines agree in a quarter of the runs, and each is the
  // outlier in another quarter. Twelve runs that all show one signature: 4 × (1/4)^12, 1 in 4 million.
  const file = join(root, 'random.json');
  const script = "document.getElementById('d').style.width = Math.random() < 0.5 ? '100px' : '200px'";
  writeFileSync(file, JSON.stringify({ id: 'random-width', html: '<!doctype html><div id=d style="height:10px"></div>', script }));
  const run = await runCli(['reduce', file, '--runs', '12', ...FARM]);
  assert.equal(run.code, 1, run.stderr);
  assert.equal(run.stdout, '', 'nothing reduced, nothing written');
  const counts = /reduce: not reproducible: (?:the signature .+ held|the engines agreed) in (\d+) of 12 runs/.exec(run.stderr);
  assert.ok(counts, run.stderr);
  const held = Number(counts[1]);
  assert.ok(held >= 1 && held < 12, counts[0]);
  assert.doesNotMatch(run.stderr, /elements, \d+ → \d+ bytes/, 'no reduction ran');
});

test('mistakes are one line and exit 2, before any engine starts', async () => {
  const cases: [string[], RegExp][] = [
    [['reduce'], /give either --db FILE --case ID or a request file/],
    [['reduce', '--db', db], /--db needs --case ID/],
    [['reduce', '--db', db, '--case', 'no-such-case'], /--case no-such-case: no such case in/],
    [['reduce', join(root, 'missing.json')], /missing\.json: cannot read it \(ENOENT\)/],
    [['reduce', '--db', join(root, 'missing.sqlite'), '--case', 'x'], /no such journal/],
    [['reduce', '--db', db, '--case', 'x', '--runs', '0'], /--runs/],
  ];
  writeFileSync(join(root, 'ping.json'), '{"id":"p","op":"ping"}');
  cases.push([['reduce', join(root, 'ping.json')], /a ping request is not a case/]);
  for (const [args, message] of cases) {
    const run = await runCli(args);
    assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
    assert.match(run.stderr, message);
    assert.equal(run.stderr.trimEnd().split('\n').length, 1, run.stderr);
  }
});
