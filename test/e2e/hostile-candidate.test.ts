// A hostile candidate through the real command line, on the three real engines: a corpus whose
// ids repeat (and whose made-up `line:<n>` id equals a real one) answered out of order, a
// candidate whose name holds a newline and escape sequences and which starts processes of its
// own, some in a session of their own. Each case keeps its own answer; the summary's text shows
// the name without acting on it; nothing the candidate started outlives the campaign; the report
// of a campaign whose only findings are the candidate's is written; `reduce` runs the recorded
// candidate once it is named again.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { visible } from '../../src/system/visible-text.js';
import { readJournal, runCli } from '../support/campaign-process.js';
import { seenIn, STARTED_JS, stillRunning } from '../support/processes.js';
import { scriptedCandidate } from '../support/scripted-candidate.js';

const root = mkdtempSync(join(tmpdir(), 'hostile-candidate-e2e-'));
after(() => rmSync(root, { recursive: true, force: true }));
const FARM = ['--workers=1', '--pages=1', '--timeout-ms=30000'];
const NAME = 'evil\u001b[31m\n    5  forged row';

/** Case n's document: its title is n. */
const page = (n: number) => `<!doctype html><title>${n}</title><div style="width:${10 * n}px;height:10px"></div>`;
const CORPUS = [
  JSON.stringify({ id: 'dup', html: page(1) }),
  JSON.stringify({ id: 'dup', html: page(2) }),
  JSON.stringify({ html: page(3) }), // its id is made up: line:3
  JSON.stringify({ id: 'line:3', html: page(4) }),
  JSON.stringify({ id: 'x\u001b[2J\nforged', html: page(5) }),
];

/**
 * The candidate: for each case, `unsupported: "marker-<its title>: x"`, so that each answer names
 * its case; it holds the cases it gets until it has five, or a moment has passed, and answers them
 * last first. On its first case it starts two processes that would run for ever, one in a session
 * of its own, and names them on stderr.
 */
const CANDIDATE = scriptedCandidate(
  `
  if (n === 1) {
    const kids = [{}, { detached: true }].map((o) => spawn(process.execPath, ['-e', 'setInterval(() => {}, 1e9)'], { stdio: 'ignore', ...o }));
    for (const kid of kids) kid.unref();
    started(kids.map((k) => k.pid));
  }
  held.push(request);
  const flush = () => { clearTimeout(timer); timer = undefined; for (const r of held.splice(0).reverse()) say(JSON.stringify({ id: r.id, unsupported: 'marker-' + /<title>(\\d+)</.exec(r.html)[1] + ': x' }) + '\\n'); };
  if (held.length === 5) flush();
  else timer ??= setTimeout(flush, 300);
  `,
  `const held = []; let timer;\n${STARTED_JS}`,
  NAME,
);

const db = join(root, 'hostile.sqlite');

test('each case keeps its own answer, the summary shows what the candidate calls itself, and nothing it started outlives the campaign', async () => {
  const corpus = join(root, 'corpus.ndjson');
  writeFileSync(corpus, `${CORPUS.join('\n')}\n`);
  const run = await runCli(['campaign', '--db', db, '--corpus', corpus, '--candidate', CANDIDATE, '--concurrency', '8', ...FARM]);
  assert.equal(run.code, 0, run.stderr);
  const rows = readJournal(db, (sql) =>
    sql
      .prepare<[], { id: string; request: string; unsupported: string | null; verdict: string | null }>(
        'SELECT c.id, c.request, co.unsupported, c.verdict FROM cases c JOIN candidate_outcomes co ON co.case_seq = c.seq ORDER BY c.seq',
      )
      .all(),
  );
  assert.equal(rows.length, 5);
  for (const row of rows) {
    const title = /<title>(\d+)</.exec((JSON.parse(row.request) as { html: string }).html)![1];
    assert.equal(row.unsupported, `marker-${title}: x`, `${row.id} has its own answer`);
  }
  assert.deepEqual(rows.map((r) => r.id).sort(), ['dup', 'dup', 'line:3', 'line:3', 'x\u001b[2J\nforged'].sort());
  // Nothing the candidate started is left once the campaign has ended.
  const started = seenIn(run.stderr);
  assert.equal(started.length, 2, run.stderr);
  assert.deepEqual(started.filter(stillRunning), []);
  // The summary's text: every line visible, no row forged by the name or the id.
  const lines = run.stdout.trimEnd().split('\n');
  for (const line of lines) assert.equal(visible(line), line);
  assert.ok(!lines.some((l) => /^\s*5\s+forged/.test(l) || l.startsWith('forged')), run.stdout);
  assert.ok(
    lines.some((l) => l.startsWith('candidate evil\\x1b[31m\\n    5  forged row (1), 5 layout cases')),
    run.stdout,
  );
  for (const line of run.stderr.trimEnd().split('\n')) assert.equal(visible(line), line);
});

test("report: a campaign whose engines agree everywhere and whose only findings are the candidate's is written", async () => {
  const out = join(root, 'report.html');
  const report = await runCli(['report', '--db', db, '-o', out, ...FARM]);
  assert.equal(report.code, 0, report.stderr);
  assert.ok(existsSync(out));
  const html = readFileSync(out, 'utf8');
  assert.match(html, /marker-1/);
  assert.match(report.stderr, /report: wrote .* \(5 bucket\(s\), \d+ screenshot\(s\)\)/);
});

test('reduce runs the candidate a journal recorded once it is named again', async () => {
  const out = join(root, 'reduced.json');
  const budget = ['--runs', '1', '--max-tests', '4'];
  const reduce = await runCli(['reduce', '--db', db, '--case', 'line:3', '--candidate', CANDIDATE, ...budget, '-o', out, ...FARM]);
  assert.equal(reduce.code, 0, reduce.stderr);
  assert.match(reduce.stderr, /reduce: the candidate is started with the command given/);
  assert.match(
    reduce.stderr,
    /keeping the candidate's signature candidate evil\\x1b\[31m\\n {4}5 {2}forged row \| unsupported \| marker-[34]/,
  );
  assert.ok(existsSync(out));
});
