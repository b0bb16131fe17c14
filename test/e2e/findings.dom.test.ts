// Findings out of the oracle, on the real engines and the real Taffy candidate: the CI workflow of
// docs/ci.md, taken from the page itself, its `npx browser-oracle` commands run in order for the
// main branch (the Taffy reference candidate) and for a pull request (a small candidate written
// here that breaks a few cases of Taffy's answers); the diff lists exactly the broken cases, a
// journal against itself lists nothing, --fail-on exits 1, the JUnit file parses with the summary's
// counts. Then the main journal's outlier exported as a WPT check-layout test, imported with
// wpt-import and run through the trace op: it passes in the majority's engines and fails in the
// outlier; and a case exported as Taffy's XML test has Taffy's shape (test/support/taffy-format.ts).
// The tests run in order, on the journals the first one writes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { JSDOM } from 'jsdom';
import { parse as parseYaml } from 'yaml';
import { ENGINE_NAMES } from '../../src/protocol/schema.js';
import { runCli } from '../support/campaign-process.js';
import { ORACLE_BIN, ORACLE_ENV, OracleProcess, type Line } from '../support/oracle-process.js';
import { taffyFormatProblems } from '../support/taffy-format.js';
import { fixtureCheckout } from '../support/wpt-checkout.js';

const ROOT = new URL('../../../', import.meta.url);
const FIXTURES = fileURLToPath(new URL('test/fixtures/candidates/', ROOT));
const MAIN_JS = fileURLToPath(new URL('dist/src/cli/main.js', ROOT));
const work = mkdtempSync(join(tmpdir(), 'findings-e2e-'));
after(() => rmSync(work, { recursive: true, force: true }));

// A few of the Taffy-style fixtures, two of them outliers under the default fonts (flex-min-max: WebKit; limit-inline: Firefox).
const CORPUS = [
  'absolute-insets.html',
  'block-margins.html',
  'flex-min-max.html',
  'flex-row-grow.html',
  'grid-placement.html',
  'limit-inline.html',
];
/** The cases the pull request's candidate breaks: two given a box 7 px too wide, one answered unsupported. */
const BROKEN = { 'flex-row-grow.html': 'fail', 'grid-placement.html': 'fail', 'absolute-insets.html': 'unsupported' } as const;

/**
 * The pull request's candidate: Taffy's reference candidate behind a filter that recognises a case
 * by a marker comment in its html (never by its id) and breaks it, and reports another version.
 */
const BROKEN_CANDIDATE = `
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
const taffy = spawn(process.execPath, [${JSON.stringify(MAIN_JS)}, 'candidate', 'taffy'], { stdio: ['pipe', 'pipe', 'inherit'] });
const breaks = new Map();
createInterface({ input: process.stdin }).on('line', (line) => {
  const request = JSON.parse(line);
  const mark = /<!-- break: (fail|unsupported) -->/.exec(request.html ?? '');
  if (mark) breaks.set(request.id, mark[1]);
  taffy.stdin.write(line + '\\n');
}).on('close', () => taffy.stdin.end());
createInterface({ input: taffy.stdout }).on('line', (line) => {
  const answer = JSON.parse(line);
  if (answer.ok) answer.version += ' + broken';
  const how = breaks.get(answer.id);
  if (how === 'unsupported') process.stdout.write(JSON.stringify({ id: answer.id, unsupported: 'broken: on purpose' }) + '\\n');
  else {
    if (how === 'fail' && answer.dump) {
      const node = answer.dump.nodes.at(-1);
      node.bounding.w += 7;
      for (const rect of node.rects) rect.w += 7;
    }
    process.stdout.write(JSON.stringify(answer) + '\\n');
  }
});
taffy.on('exit', (code) => process.exit(code ?? 1));
`;

interface Step {
  name?: string;
  if?: string;
  run?: string;
  uses?: string;
  with?: Record<string, string>;
}

/** The workflow's steps, from the YAML block of docs/ci.md. */
function workflowSteps(): Step[] {
  const page = readFileSync(new URL('docs/ci.md', ROOT), 'utf8');
  const block = /```yaml\n([\s\S]*?)```/.exec(page);
  assert.ok(block, 'docs/ci.md has a yaml block');
  const workflow = parseYaml(block[1]!) as { jobs: Record<string, { steps: Step[] }> };
  const jobs = Object.values(workflow.jobs);
  assert.equal(jobs.length, 1);
  return jobs[0]!.steps;
}

/** Whether a step runs for `event`: the workflow's conditions are all on the event's name. */
function runsOn(step: Step, event: 'push' | 'pull_request'): boolean {
  if (step.if === undefined) return true;
  const condition = /^github\.event_name == '(push|pull_request)'$/.exec(step.if.trim());
  assert.ok(condition, `a condition this test reads: ${step.if}`);
  return condition[1] === event;
}

/** Runs a step's command as GitHub's bash does (-e, pipefail), `npx browser-oracle` being this checkout's. */
function shell(command: string, cwd: string, env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const npx = `npx() { if [ "$1" = browser-oracle ]; then shift; ${JSON.stringify(ORACLE_BIN)} "$@"; else command npx "$@"; fi; }`;
  const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', `${npx}\n${command}`], {
    cwd,
    env: { ...ORACLE_ENV, ...env },
    stdio: ['ignore', 'inherit', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
}

const artifacts = join(work, 'artifacts');

/** The workflow for one event in a fresh checkout: its oracle commands run in order, its artifact steps done by copying. */
async function runWorkflow(
  event: 'push' | 'pull_request',
  engineCommand: string,
): Promise<{ dir: string; ran: string[]; codes: number[] }> {
  const dir = join(work, event);
  mkdirSync(join(dir, 'oracle', 'cases'), { recursive: true });
  for (const name of CORPUS) {
    const mark = name in BROKEN ? `<!-- break: ${BROKEN[name as keyof typeof BROKEN]} -->\n` : '';
    writeFileSync(join(dir, 'oracle', 'cases', name), mark + readFileSync(join(FIXTURES, name), 'utf8'));
  }
  const ran: string[] = [];
  const codes: number[] = [];
  for (const step of workflowSteps()) {
    if (!runsOn(step, event)) continue;
    if (step.run?.includes('npx browser-oracle')) {
      const { code, stderr } = await shell(step.run, dir, { ENGINE_COMMAND: engineCommand });
      ran.push(
        step.run
          .replace(/^npx browser-oracle /, '')
          .split(' ')
          .slice(0, 1)
          .join(' '),
      );
      codes.push(code ?? -1);
      if (code !== 0 && code !== 1) assert.fail(`${step.run}: exit ${code}\n${stderr}`);
    } else if (step.uses?.startsWith('actions/upload-artifact') && step.with?.name === 'oracle-journal') {
      mkdirSync(join(artifacts, step.with.name), { recursive: true });
      copyFileSync(join(dir, step.with.path!), join(artifacts, step.with.name, step.with.path!));
    } else if (step.uses?.startsWith('dawidd6/action-download-artifact')) {
      cpSync(join(artifacts, step.with!.name!), join(dir, step.with!.path!), { recursive: true });
    }
  }
  return { dir, ran, codes };
}

let main: string;
let pr: string;
const xml = (text: string) => new new JSDOM('').window.DOMParser().parseFromString(text, 'application/xml');

before(() => writeFileSync(join(work, 'broken-candidate.mjs'), BROKEN_CANDIDATE));

test("docs/ci.md's workflow on main, then on a pull request whose engine breaks three cases: the diff lists exactly those, the gate fails", async () => {
  const onMain = await runWorkflow('push', 'taffy');
  assert.deepEqual(onMain.ran, ['campaign']);
  assert.deepEqual(onMain.codes, [0]);
  main = join(onMain.dir, 'journal.sqlite');

  const onPr = await runWorkflow('pull_request', `node ${join(work, 'broken-candidate.mjs')}`);
  pr = onPr.dir;
  assert.deepEqual(onPr.ran, ['campaign', 'diff', 'diff', 'summary', 'report', 'diff'], 'the oracle commands of the workflow, in order');
  assert.deepEqual(onPr.codes, [0, 0, 0, 0, 0, 1], 'every step succeeds but the gate, which finds new failures');

  const diff = JSON.parse(readFileSync(join(pr, 'diff.json'), 'utf8')) as Line;
  assert.deepEqual(
    diff.cases.map((c: Line) => [c.id, c.change]),
    [
      ['absolute-insets.html', 'changed'],
      ['flex-row-grow.html', 'newly_failing'],
      ['grid-placement.html', 'newly_failing'],
    ],
  );
  assert.deepEqual(diff.counts, { newly_failing: 2, newly_passing: 0, added: 0, removed: 0, changed: 1, unchanged: CORPUS.length - 3 });
  assert.deepEqual([diff.base.candidate.version, diff.head.candidate.version], ['taffy-layout 3.0.0', 'taffy-layout 3.0.0 + broken']);
  for (const engine of ENGINE_NAMES) assert.deepEqual(diff.base.engines[engine], diff.head.engines[engine], `${engine}: one build in both`);
  const table = readFileSync(join(pr, 'diff.txt'), 'utf8');
  assert.match(table, /^newly_failing +flex-row-grow\.html +unanimous, pass +unanimous, fail \[candidate taffy \| fail \| size \| /m);
  assert.match(
    table,
    /^changed +absolute-insets\.html +unanimous, pass +unanimous, unsupported \[candidate taffy \| unsupported \| broken\]$/m,
  );
  assert.ok(existsSync(join(pr, 'report.html')), 'the report was written');
});

test('a journal against itself lists nothing and exits 0 even with --fail-on changes; --fail-on new-failures exits 1 on the pull request', async () => {
  const self = await runCli(['diff', main, main, '--fail-on', 'changes']);
  assert.deepEqual([self.code, self.stderr], [0, '']);
  assert.match(self.stdout, new RegExp(`\\nno changes: ${CORPUS.length} case\\(s\\) alike\\n$`));
  const gate = await runCli(['diff', main, join(pr, 'journal.sqlite'), '--fail-on', 'new-failures']);
  assert.equal(gate.code, 1);
  assert.match(gate.stderr, /diff: 2 newly failing case\(s\) \(--fail-on new-failures\)/);
});

test('the JUnit file parses, one testcase per case, and its counts are the summary’s', async () => {
  const doc = xml(readFileSync(join(pr, 'results.xml'), 'utf8'));
  assert.equal(doc.getElementsByTagName('parsererror').length, 0);
  const summary = await runCli(['summary', '--db', join(pr, 'journal.sqlite'), '--json']);
  const s = JSON.parse(summary.stdout) as Line;
  const v = s.candidate.verdicts;
  const suite = doc.getElementsByTagName('testsuite')[0]!;
  assert.deepEqual(
    ['tests', 'failures', 'errors', 'skipped'].map((a) => Number(suite.getAttribute(a))),
    [s.cases, v.fail + v.parse_divergence, v.error, v.unsupported + v.no_majority + v.discarded],
  );
  assert.equal(doc.getElementsByTagName('testcase').length, CORPUS.length);
  assert.equal(Number(suite.getAttribute('failures')), 2);
});

test("the main journal's outlier as a WPT check-layout test, through wpt-import and the trace op: it passes in the majority's engines and fails in the outlier", async () => {
  const lines = (await runCli(['summary', '--db', main, '--cases'])).stdout.trim().split('\n');
  const outliers = lines.map((l) => JSON.parse(l) as Line).filter((c) => c.vote === 'outlier');
  assert.ok(outliers.length > 0, 'the corpus has an outlier on these engines');
  const tree = fixtureCheckout();
  after(() => tree.remove());
  copyFileSync(
    fileURLToPath(new URL('test/fixtures/check-layout/check-layout-th.js', ROOT)),
    join(tree.dir, 'resources', 'check-layout-th.js'),
  );
  const oracle = new OracleProcess(['--workers=1', '--pages=1']);
  after(() => oracle.shutdown());
  await oracle.ready();
  for (const c of outliers) {
    const exported = await runCli(['export', '--db', main, '--format', 'wpt', '--case', c.id, '--out', join(tree.dir, 'oracle')]);
    assert.equal(exported.code, 0, exported.stderr);
    const path = exported.stdout.trim();
    assert.equal(path, join(tree.dir, 'oracle', c.id));
    const imported = await runCli(['wpt-import', tree.dir, `oracle/${c.id}`]);
    assert.equal(imported.code, 0, imported.stderr);
    const request = JSON.parse(imported.stdout) as Line;
    const answer = await oracle.request({ ...request, vote: true });
    assert.equal(answer.errors, undefined, JSON.stringify(answer.errors));
    for (const engine of ENGINE_NAMES) {
      const records = answer.traces[engine].records as Line[];
      const harness = records.find((r) => r.label === 'harness');
      const subtests = records.filter((r) => r.label !== 'harness');
      assert.equal(harness?.value, 'OK', `${c.id}, ${engine}: the harness completed`);
      assert.ok(subtests.length > 0, `${c.id}, ${engine}: checkLayout made its tests`);
      const statuses = new Set(subtests.map((r) => r.value));
      if (engine === c.outlier) assert.ok(statuses.has('FAIL'), `${c.id}: the outlier ${engine} fails it (${[...statuses]})`);
      else assert.deepEqual([...statuses], ['PASS'], `${c.id}: ${engine}, of the majority, passes it`);
    }
    assert.equal(answer.vote.verdict, 'outlier');
    assert.equal(answer.vote.outlier, c.outlier);
  }
});

test("a case exported as Taffy's XML test has Taffy's shape", async () => {
  const out = join(work, 'taffy');
  const exported = await runCli(['export', '--db', main, '--format', 'taffy', '--case', 'flex-row-grow.html', '--out', out]);
  assert.equal(exported.code, 0, exported.stderr);
  assert.deepEqual(readdirSync(out), ['flex_row_grow.xml']);
  const text = readFileSync(join(out, 'flex_row_grow.xml'), 'utf8');
  const doc = xml(text);
  assert.equal(doc.getElementsByTagName('parsererror').length, 0, text);
  assert.deepEqual(taffyFormatProblems(doc.documentElement), [], text);
  assert.equal(doc.querySelectorAll('expectations node').length, 4, 'the root and its three items');
  assert.match(
    text,
    /^<!-- browser-oracle: flex-row-grow\.html: unanimous; builds: chromium \S+, firefox \S+, webkit \S+; expectations from the majority: chromium, firefox, webkit -->/,
  );
});
