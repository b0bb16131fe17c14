// `browser-oracle triage` on the three real engines, through the real command line: a generated
// campaign (in the square font, the default for generated cases), then triage. Its findings are
// small (at most 12 elements, html, head and body included) and show their signature again when a
// separate oracle runs their reduced case; every disagreeing case is in exactly one finding or listed
// untriaged, after a triage that ran out of budget as after one that finished; a second triage
// has nothing left to do; and a finding's bug report, opened in each engine, says the difference
// shows in the engine that differs and not in the others.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CaseRequest } from '../../src/campaign/corpus/corpus.js';
import type { Summary } from '../../src/campaign/journal/summary.js';
import { caseSignature } from '../../src/campaign/loop/case-record.js';
import { ENGINE_NAMES } from '../../src/protocol/schema.js';
import { answered } from '../support/answers.js';
import { readJournal, runCli } from '../support/campaign-process.js';
import { OracleProcess, ONE_PAGE, UNHURRIED } from '../support/oracle-process.js';

const root = mkdtempSync(join(tmpdir(), 'triage-e2e-'));
after(() => rmSync(root, { recursive: true, force: true }));
const FARM = [...ONE_PAGE, UNHURRIED];
const db = join(root, 'run.sqlite');
const spent = join(root, 'spent.sqlite');

before(async () => {
  const run = await runCli(['campaign', '--db', db, '--generate', '12', '--seed', '7', '--quiet', ...FARM]);
  assert.equal(run.code, 0, run.stderr);
  // Kept as the campaign left it, for the triage that runs out of budget.
  copyFileSync(db, spent);
});

/** `summary --json` of a journal. */
async function summaryOf(path: string): Promise<Summary> {
  const run = await runCli(['summary', '--db', path, '--json']);
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout) as Summary;
}

/** The ids of the cases the summary's buckets hold but the invalid: neither unanimous nor expected, or failing a self check. */
function disagreeing(path: string): string[] {
  return readJournal(path, (sql) =>
    sql
      .prepare<[], string>(
        `SELECT id FROM cases c WHERE (signature IS NOT NULL AND expected IS NULL AND invalid IS NULL)
           OR EXISTS (SELECT 1 FROM self_checks s WHERE s.case_seq = c.seq) ORDER BY seq`,
      )
      .pluck()
      .all(),
  );
}

/** Every disagreeing case is a member of exactly one finding or listed untriaged, and nothing else is listed. */
function assertPartition(path: string, s: Summary): void {
  const members = (s.findings ?? []).flatMap((f) => f.members);
  const listed = [...members, ...(s.untriaged ?? [])];
  assert.equal(new Set(listed).size, listed.length, `a case listed twice: ${listed.join(' ')}`);
  assert.deepEqual([...listed].sort(), disagreeing(path).sort());
}

test('triage groups every disagreement into findings of small reduced cases that show their signature again', async () => {
  assert.deepEqual(
    readJournal(db, (sql) => sql.prepare('SELECT fonts FROM runs').pluck().all()),
    ['square'],
    'a generated campaign runs in the square font unless told otherwise',
  );
  const cases = disagreeing(db);
  assert.ok(cases.length >= 2, `the campaign recorded disagreements: ${cases.join(' ')}`);
  const before = await summaryOf(db);
  assert.deepEqual(before.findings, []);
  assert.deepEqual(before.untriaged, cases, 'before a triage, every disagreeing case is untriaged');

  const run = await runCli(['triage', '--db', db, '--budget', '60', ...FARM]);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /triage: done: \d+ case\(s\) placed, \d+ new finding\(s\)/);
  assert.match(run.stdout, /^findings: \d+ new \(\d+ cases\)/m, 'the summary lists the findings above the buckets');

  const s = await summaryOf(db);
  assertPartition(db, s);
  const findings = s.findings ?? [];
  assert.ok(findings.length >= 1, run.stdout);
  const oracle = new OracleProcess([...FARM, '--fonts=square']);
  try {
    for (const f of findings) {
      assert.ok(f.elements <= 12, `${f.id} has ${f.elements} elements`);
      assert.equal(f.fonts, 'square');
      assert.ok(f.members.length >= 1);
      // Run again by an oracle of its own: the same signature, every time.
      const request = f.reduced as CaseRequest;
      for (let run = 0; run < 2; run++) {
        const answer = await oracle.request({ ...request, op: 'vote', id: `${f.id}-again-${run}` });
        assert.equal(caseSignature(request, answered(answer)), f.signature, `${f.id}: ${JSON.stringify(request)}`);
      }
    }
  } finally {
    await oracle.shutdown();
  }

  // Nothing is left to do: a second triage asks no engine to reduce and changes nothing.
  const again = await runCli(['triage', '--db', db, ...FARM]);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stderr, /triage: done: 0 case\(s\) placed, 0 new finding\(s\), 0 given up/);
  assert.deepEqual(await summaryOf(db), s);
});

test('a triage out of budget leaves every disagreement it did not place listed untriaged', async () => {
  // Three seconds: spent before the engines are up on this machine, or soon after.
  const run = await runCli(['triage', '--db', spent, '--budget', '0.05', ...FARM]);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /triage: (stopped by the budget \(0\.05 min\): .*; run the same command again to go on|done: )/);
  assertPartition(spent, await summaryOf(spent));
});

test("a finding's bug report, opened in each engine, shows the difference in the one that differs and not in the others", async () => {
  const s = await summaryOf(db);
  const finding = (s.findings ?? []).find((f) => f.outlier !== null && f.candidate === undefined);
  assert.ok(finding, 'an outlier finding');
  const file = join(root, 'bug.html');
  const run = await runCli(['triage', '--db', db, '--bug-report', finding.id, '-o', file]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout, '', 'with -o, nothing on stdout');
  const page = readFileSync(file, 'utf8');
  assert.match(page, /^<!doctype html>/i);
  for (const section of ['Steps to reproduce', 'Expected results', 'Actual results']) assert.ok(page.includes(section), section);

  // The file opened in a frame of a trace page, in each engine, until its own check has run.
  const oracle = new OracleProcess([...FARM, '--fonts=square']);
  try {
    const answer = await oracle.request({
      id: 'bug-report',
      op: 'trace',
      files: { 'bug.html': page },
      timeout_ms: 60_000,
      script: `const frame = document.createElement('iframe');
        frame.style.cssText = 'width:1200px;height:1800px;border:0';
        frame.src = 'bug.html';
        document.body.append(frame);
        const poll = () => {
          const said = frame.contentDocument && frame.contentDocument.documentElement.dataset.reproduces;
          if (said) { trace.value('reproduces', said); trace.done(); } else setTimeout(poll, 50);
        };
        poll();`,
    });
    const said = Object.fromEntries(
      ENGINE_NAMES.map((e) => [e, (answer.traces?.[e]?.records as { label: string; value: unknown }[] | undefined)?.[0]?.value]),
    );
    assert.deepEqual(
      said,
      Object.fromEntries(ENGINE_NAMES.map((e) => [e, String(e === finding.outlier)])),
      `${finding.id} (${finding.signature}): ${JSON.stringify(answer.errors ?? {})}, timed out: ${ENGINE_NAMES.filter((e) => answer.traces?.[e]?.timed_out).join(' ') || 'none'}`,
    );
  } finally {
    await oracle.shutdown();
  }
});

test('a finding marked known is counted apart, and a later campaign records its cases as expected, out of the findings', async () => {
  const s = await summaryOf(db);
  const finding = (s.findings ?? []).find((f) => f.candidate === undefined && !/attribute|script|style sheet/.test(f.template));
  assert.ok(finding, 'a finding of the engines with a template cases can be matched by');
  const known = join(root, 'known.json');
  const mark = await runCli(['triage', '--db', db, '--mark-known', finding.id, '--expect', known]);
  assert.equal(mark.code, 0, mark.stderr);
  const entry = (JSON.parse(readFileSync(known, 'utf8')) as { known: { id: string; template: string }[] }).known;
  assert.deepEqual(
    entry.map((e) => e.template),
    [finding.template],
  );
  const marked = await summaryOf(db);
  assert.equal(marked.findings?.find((f) => f.id === finding.id)?.known, entry[0]!.id);
  assert.match(
    (await runCli(['summary', '--db', db])).stdout,
    new RegExp(`^findings: \\d+ new \\(\\d+ cases\\), 1 known \\(${finding.members.length} cases?\\)`, 'm'),
  );

  // The same cases again, into a new journal, with the known differences: the finding's own case is expected.
  const later = join(root, 'later.sqlite');
  const run = await runCli(['campaign', '--db', later, '--generate', '12', '--seed', '7', '--quiet', '--expect', known, ...FARM]);
  assert.equal(run.code, 0, run.stderr);
  const expected = readJournal(later, (sql) =>
    sql.prepare<[], string>('SELECT id FROM cases WHERE expected IS NOT NULL ORDER BY seq').pluck().all(),
  );
  const own = (await summaryOf(db)).findings!.find((f) => f.id === finding.id)!;
  for (const id of own.members) assert.ok(expected.includes(id), `${id} is expected in the later campaign: ${expected.join(' ')}`);
  const laterSummary = await summaryOf(later);
  assert.equal(laterSummary.expected, expected.length);
  for (const id of expected) assert.ok(!laterSummary.untriaged?.includes(id), `${id}, expected, is not left to triage`);
});

test('mistakes are one line and exit 2', async () => {
  const cases: [string[], RegExp][] = [
    [['triage', '--db', join(root, 'missing.sqlite')], /no such journal/],
    [['triage', '--db', db, '--bug-report', 'F999'], /no finding F999 in this journal/],
    [['triage', '--db', db, '--bug-report', 'seven'], /"seven" names no finding/],
    [['triage', '--db', db, '--mark-known', 'F1'], /--mark-known FINDING needs --expect FILE/],
    [['triage', '--db', db, '--budget', '0'], /--budget must be a number of minutes above 0/],
    [['triage', '--db', db, '-o', join(root, 'x.html')], /-o goes with --bug-report/],
  ];
  for (const [args, message] of cases) {
    const run = await runCli(args);
    assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
    assert.match(run.stderr, message);
    assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
  }
});
