// Generated mutation cases (`campaign --generate N --mutations --candidate …`) on the three real
// engines, judged three ways (docs/candidate.md, "Mutations"): a candidate the test writes that keeps
// its old boxes on some cases (test/support/stale-candidate.ts, which logs each case where the kept
// boxes differ from its layout from scratch) has exactly those cases as self-disagreements, each in
// a `candidate stale | self | …` bucket, and no other; the Taffy reference candidate, through its
// engine's incremental API, answers each case it lays out with both layouts, each judged; and so
// does Yoga, through its own.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readJournal, runCli } from '../support/campaign-process.js';
import { CANDIDATE_VERDICTS } from '../../src/comparator/candidate.js';
import { caseKey } from '../support/case-key.js';

const root = mkdtempSync(join(tmpdir(), 'candidate-mutations-e2e-'));
after(() => rmSync(root, { recursive: true, force: true }));
const STALE = fileURLToPath(new URL('../support/stale-candidate.js', import.meta.url));
const FARM = ['--workers=1', '--pages=1', '--timeout-ms=30000'];

interface Row {
  id: string;
  request: string;
  verdict: string;
  dump: string | null;
  self: string | null;
  fresh_verdict: string | null;
  self_signature: string | null;
}

const rowsOf = (db: string) =>
  readJournal(db, (sql) =>
    sql
      .prepare<[], Row>(
        `SELECT c.id, c.request, co.verdict, co.dump, cf.self, cf.verdict AS fresh_verdict, cf.signature AS self_signature
         FROM cases c JOIN candidate_outcomes co ON co.case_seq = c.seq
         LEFT JOIN candidate_fresh cf ON cf.case_seq = c.seq AND cf.name = co.name AND cf.version = co.version ORDER BY c.seq`,
      )
      .all(),
  );

interface CandidateSummary {
  self: { agrees: number; differs: number };
  buckets: { signature: string; count: number; example: string }[];
}

test('a candidate that keeps its old boxes on some cases: exactly those cases are self-disagreements, bucketed and counted', async () => {
  const db = join(root, 'stale.sqlite');
  const log = join(root, 'stale.log');
  writeFileSync(log, '');
  const run = await runCli([
    'campaign',
    '--db',
    db,
    '--generate',
    '24',
    '--seed',
    '7',
    '--mutations',
    '--candidate',
    `${process.execPath} ${STALE} --log ${log}`,
    ...FARM,
  ]);
  assert.equal(run.code, 0, run.stderr);
  const logged = new Set(readFileSync(log, 'utf8').split('\n').filter(Boolean));
  const rows = rowsOf(db);
  const stale = new Set(
    rows
      .filter((r) => {
        const { html, mutations } = JSON.parse(r.request) as { html: string; mutations: unknown };
        return logged.has(caseKey(html, mutations));
      })
      .map((r) => r.id),
  );
  assert.equal(stale.size, logged.size, 'each logged case is a case of the campaign');
  assert.ok(stale.size >= 2, `the stale candidate kept differing boxes on ${stale.size} case(s); the test needs some`);

  assert.equal(rows.length, 24, 'one candidate answer per case');
  for (const r of rows) {
    const request = JSON.parse(r.request) as { mutations?: unknown[]; relayout?: boolean; script?: string };
    assert.ok(request.mutations && request.mutations.length >= 1 && request.mutations.length <= 5, `${r.id}: 1 to 5 mutations`);
    assert.equal(request.relayout, true, `${r.id}: the browsers' relayout check comes with the mutations`);
    assert.equal(request.script, undefined);
    if (r.dump === null) continue;
    assert.notEqual(r.self, null, `${r.id}: a dump answer to a mutation case has its fresh layout judged`);
    assert.ok((CANDIDATE_VERDICTS as readonly string[]).includes(r.fresh_verdict!));
  }
  const differs = rows.filter((r) => r.self === 'differs').map((r) => r.id);
  assert.deepEqual(differs.sort(), [...stale].sort(), 'the self-disagreements are exactly the cases whose kept boxes differ');
  for (const r of rows) {
    if (r.self === 'differs') assert.match(r.self_signature!, /^candidate stale \| self \| (shape \| \S+|[A-Z]+ \| [a-z,]+)$/);
    else assert.equal(r.self_signature, null);
  }

  const summary = await runCli(['summary', '--db', db, '--json']);
  assert.equal(summary.code, 0, summary.stderr);
  const { candidate } = JSON.parse(summary.stdout) as { candidate: CandidateSummary };
  const judged = rows.filter((r) => r.self !== null).length;
  assert.deepEqual(candidate.self, { agrees: judged - stale.size, differs: stale.size });
  const selfBuckets = candidate.buckets.filter((b) => b.signature.startsWith('candidate stale | self | '));
  assert.equal(
    selfBuckets.reduce((n, b) => n + b.count, 0),
    stale.size,
    'every self-disagreement is in a self bucket',
  );
  for (const b of selfBuckets) assert.ok(stale.has(b.example), `${b.signature}: its example ${b.example} is a stale case`);

  const lines = await runCli(['summary', '--db', db, '--cases']);
  assert.equal(lines.code, 0, lines.stderr);
  for (const line of lines.stdout.trimEnd().split('\n')) {
    const c = JSON.parse(line) as { id: string; candidate: { self?: string } };
    const row = rows.find((r) => r.id === c.id)!;
    assert.equal(c.candidate.self, row.self ?? undefined, `${c.id}: summary --cases gives its self`);
  }
  const text = await runCli(['summary', '--db', db]);
  assert.match(text.stdout, new RegExp(`held to itself after mutations: ${judged - stale.size} agree, ${stale.size} differ`));
});

test("reduce: a candidate's self-disagreement is shrunk in its document and its mutations while it holds", async () => {
  const db = join(root, 'reduce.sqlite');
  const command = `${process.execPath} ${STALE} --log ${join(root, 'reduce.log')} --every`;
  const campaign = await runCli(['campaign', '--db', db, '--generate', '6', '--seed', '7', '--mutations', '--candidate', command, ...FARM]);
  assert.equal(campaign.code, 0, campaign.stderr);
  const finding = rowsOf(db).find((r) => r.self === 'differs');
  assert.ok(finding, 'a stale case to reduce');
  const out = join(root, 'reduced.json');
  const run = await runCli(['reduce', '--db', db, '--case', finding.id, '-o', out, '--candidate', command, '--max-tests', '40', ...FARM]);
  assert.equal(run.code, 0, run.stderr);
  assert.ok(run.stderr.includes(`keeping the candidate's signature ${finding.self_signature!}`), run.stderr);
  const original = JSON.parse(finding.request) as { html: string; mutations: unknown[] };
  const reduced = JSON.parse(readFileSync(out, 'utf8')) as { html: string; mutations: unknown[] };
  assert.ok(reduced.mutations.length >= 1 && reduced.mutations.length <= original.mutations.length);
  assert.ok(
    reduced.html.length + JSON.stringify(reduced.mutations).length < original.html.length + JSON.stringify(original.mutations).length,
    'smaller',
  );
});

for (const name of ['taffy', 'yoga']) {
  test(`${name}: each generated mutation case it lays out is answered from its kept tree and from scratch, both judged; every self-disagreement bucketed`, async () => {
    const db = join(root, `${name}.sqlite`);
    const cases = 10;
    const run = await runCli([
      'campaign',
      '--db',
      db,
      '--generate',
      String(cases),
      '--seed',
      '11',
      '--mutations',
      '--candidate',
      name,
      ...FARM,
    ]);
    assert.equal(run.code, 0, run.stderr);
    const rows = rowsOf(db);
    assert.equal(rows.length, cases);
    const laidOut = rows.filter((r) => r.dump !== null);
    assert.ok(laidOut.length >= cases / 2, `${name} laid out ${laidOut.length} of ${cases} generated cases inside its supports`);
    for (const r of laidOut) {
      assert.ok(r.self === 'agrees' || r.self === 'differs', `${r.id}: self ${r.self}`);
      assert.ok((CANDIDATE_VERDICTS as readonly string[]).includes(r.fresh_verdict!), `${r.id}: fresh judged against the vote`);
      if (r.self === 'differs') assert.match(r.self_signature!, new RegExp(`^candidate ${name} \\| self \\| `));
    }
    const summary = await runCli(['summary', '--db', db, '--json']);
    const { candidate } = JSON.parse(summary.stdout) as { candidate: CandidateSummary };
    assert.deepEqual(candidate.self, {
      agrees: laidOut.filter((r) => r.self === 'agrees').length,
      differs: laidOut.filter((r) => r.self === 'differs').length,
    });
  });
}
