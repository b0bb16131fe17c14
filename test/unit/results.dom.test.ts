// summary's result files without engines, on journals written here: the JUnit report parses as
// XML (jsdom's XML parser), its counts are the summary's, and any string survives it; the
// wptreport has WPT's shape, each engine's statuses by the vote or, for an imported test, by its
// own records, and the candidate's by its verdicts.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import { Journal } from '../../src/campaign/journal/journal.js';
import type { CaseRow } from '../../src/campaign/journal/journal-rows.js';
import { corpusName, junitReport, wptReport } from '../../src/campaign/results/from-journal.js';
import { junitOutcome } from '../../src/campaign/results/junit.js';
import { wptTestName } from '../../src/campaign/results/wptreport.js';
import { runCli } from '../support/campaign-process.js';
import { journalOf, type Recorded } from './support/journals.js';

const root = mkdtempSync(join(tmpdir(), 'results-test-'));
after(() => rmSync(root, { recursive: true, force: true }));

const parseXml = (text: string): Document => {
  const doc = new new JSDOM('').window.DOMParser().parseFromString(text, 'application/xml');
  assert.equal(doc.getElementsByTagName('parsererror').length, 0, text);
  return doc;
};

const row = (more: Partial<CaseRow>): CaseRow => ({
  seq: 1,
  id: 'x',
  hash: 'h',
  op: 'geometry',
  invalid: null,
  verdict: 'unanimous',
  outlier: null,
  signature: null,
  expected: null,
  elapsedMs: 1,
  candidate: null,
  ...more,
});
const candidate = (verdict: NonNullable<CaseRow['candidate']>['verdict']) => ({
  candidate: {
    verdict,
    signature: `candidate c | ${verdict}`,
    unsupported: verdict === 'unsupported' ? 'order: 2' : null,
    error: null,
    self: null,
  },
});

test('junitOutcome: the candidate decides where it answered, the vote elsewhere', () => {
  assert.deepEqual(junitOutcome(row(candidate('pass'))), { status: 'passed' });
  for (const v of ['fail', 'parse_divergence'] as const)
    assert.deepEqual(junitOutcome(row(candidate(v))), { status: 'failure', type: v, message: `candidate c | ${v}` });
  assert.deepEqual(junitOutcome(row(candidate('unsupported'))), { status: 'skipped', message: 'unsupported: order: 2' });
  for (const v of ['no_majority', 'discarded'] as const)
    assert.deepEqual(junitOutcome(row(candidate(v))), { status: 'skipped', message: v });
  assert.equal(junitOutcome(row(candidate('error'))).status, 'error');
  // A candidate's pass wins over a vote that is not unanimous; its failure over a unanimous one.
  assert.equal(junitOutcome(row({ verdict: 'split', ...candidate('pass') })).status, 'passed');
  assert.equal(junitOutcome(row({ verdict: 'outlier', outlier: 'webkit', signature: 's' })).status, 'failure');
  assert.equal(junitOutcome(row({ verdict: 'outlier', outlier: 'webkit', expected: 'known' })).status, 'passed');
  assert.deepEqual(junitOutcome(row({ verdict: null, op: null, invalid: 'invalid_json: no' })), {
    status: 'error',
    type: 'invalid',
    message: 'invalid_json: no',
  });
});

const CASES: Recorded[] = [
  { id: 'flex/a.html', candidate: 'pass' },
  { id: 'flex/b.html', candidate: 'fail' },
  { id: 'grid/c.html', candidate: 'parse_divergence' },
  { id: 'd', candidate: 'unsupported' },
  { id: 'e', verdict: 'split', candidate: 'no_majority' },
  { id: 'f', candidate: 'discarded' },
  { id: 'g', candidate: 'error' },
  { id: 'evil "<&>\u0001\u001b\n', candidate: 'fail' },
];

test('--junit: XML a parser reads, one testcase per case, counts equal to the summary, strings kept', () => {
  const path = journalOf(join(root, 'junit.sqlite'), CASES);
  const journal = Journal.open(path, { mustExist: true });
  const xml = junitReport(journal);
  const summary = journal.summary();
  journal.close();
  const doc = parseXml(xml);
  const suites = doc.documentElement;
  assert.equal(suites.tagName, 'testsuites');
  const suite = doc.getElementsByTagName('testsuite')[0]!;
  const v = summary.candidate!.verdicts;
  const expected = {
    tests: String(summary.cases),
    failures: String(v.fail + v.parse_divergence),
    errors: String(v.error),
    skipped: String(v.unsupported + v.no_majority + v.discarded),
  };
  for (const element of [suites, suite])
    for (const [name, value] of Object.entries(expected)) assert.equal(element.getAttribute(name), value, `${element.tagName} ${name}`);
  const cases = [...doc.getElementsByTagName('testcase')];
  assert.equal(cases.length, summary.cases);
  assert.equal(doc.getElementsByTagName('failure').length, Number(expected.failures));
  assert.equal(doc.getElementsByTagName('skipped').length, Number(expected.skipped));
  assert.equal(doc.getElementsByTagName('error').length, Number(expected.errors));
  assert.deepEqual(
    cases.map((c) => [c.getAttribute('name'), c.getAttribute('classname')]),
    [
      ['flex/a.html', 'flex'],
      ['flex/b.html', 'flex'],
      ['grid/c.html', 'grid'],
      ['d', 'cases'],
      ['e', 'cases'],
      ['f', 'cases'],
      ['g', 'cases'],
      // XML 1.0 cannot carry U+0001 or ESC at all: they are written out, the rest is kept as it was.
      ['evil "<&>\\u0001\\u001b\n', 'cases'],
    ],
  );
  assert.equal(suite.getAttribute('name'), 'cases');
  assert.deepEqual(
    [...doc.getElementsByTagName('property')].map((p) => [p.getAttribute('name'), p.getAttribute('value')]),
    [
      ['chromium', '140'],
      ['firefox', '128'],
      ['webkit', '2.48'],
      ['candidate', 'mine 1'],
    ],
  );
  assert.equal(cases[1]!.getElementsByTagName('failure')[0]!.getAttribute('message'), 'candidate mine | fail');
});

test('--junit without a candidate: failures are the findings that are not invalid, errors the invalid items', () => {
  const path = journalOf(join(root, 'junit-votes.sqlite'), [
    { id: 'a' },
    { id: 'b', verdict: 'outlier', outlier: 'firefox' },
    { id: 'c', verdict: 'split' },
    { id: 'd', verdict: 'outlier', outlier: 'webkit', expected: 'known' },
    { id: 'e', verdict: 'insufficient' },
    { id: 'f', verdict: null },
  ]);
  const journal = Journal.open(path, { mustExist: true });
  const doc = parseXml(junitReport(journal));
  journal.close();
  const suite = doc.getElementsByTagName('testsuite')[0]!;
  assert.deepEqual(
    ['tests', 'failures', 'errors', 'skipped'].map((a) => suite.getAttribute(a)),
    ['6', '3', '1', '0'],
  );
});

test('the corpus name a suite gets, from the last run', () => {
  const run = (command: string[]) => [{ command, engines: [], versions: {}, fonts: null, startedAt: '', endedAt: null }];
  assert.equal(corpusName(run(['browser-oracle', 'campaign', '--corpus', 'fixtures/flex/'])), 'flex');
  assert.equal(corpusName(run(['browser-oracle', 'campaign', '--corpus=dom.ndjson'])), 'dom');
  assert.equal(corpusName(run(['browser-oracle', 'campaign', '--corpus', '-'])), 'stdin');
  assert.equal(corpusName(run(['browser-oracle', 'campaign', '--generate', '9', '--seed', '7'])), 'generated-7');
  assert.equal(corpusName([]), 'corpus');
});

const harnessTrace = (statuses: [string, string][]) =>
  JSON.stringify({ records: statuses.map(([label, value], seq) => ({ seq, kind: 'value', label, value })) });

test('--wptreport: WPT names, statuses by the vote or by an imported test’s own records, the candidate’s by its verdicts', () => {
  const path = journalOf(join(root, 'wpt.sqlite'), [
    { id: 'all.html', candidate: 'pass' },
    { id: 'ff-out.html', verdict: 'outlier', outlier: 'firefox', candidate: 'fail' },
    { id: 'split.html', verdict: 'split', candidate: 'no_majority' },
    { id: 'few.html', verdict: 'insufficient', results: { webkit: 'case_timeout: no answer from webkit within 30000 ms' } },
    { id: 'bad', verdict: null },
    {
      id: 'dom/t.any.js',
      op: 'trace',
      verdict: 'outlier',
      outlier: 'firefox',
      results: {
        chromium: harnessTrace([
          ['one', 'PASS'],
          ['two', 'FAIL'],
          ['harness', 'OK'],
        ]),
        firefox: harnessTrace([
          ['one', 'FAIL'],
          ['two', 'FAIL'],
          ['harness', 'OK'],
        ]),
        webkit: harnessTrace([['harness', 'TIMEOUT']]),
      },
    },
    { id: 'twice', hash: 'aaaaaaaaaaaaaaaa', candidate: 'pass' },
    { id: 'twice', hash: 'bbbbbbbbbbbbbbbb', candidate: 'unsupported' },
  ]);
  const journal = Journal.open(path, { mustExist: true });
  const statuses = (of: 'chromium' | 'firefox' | 'webkit' | 'candidate') => {
    const report = wptReport(journal, of);
    assert.deepEqual(Object.keys(report), ['results', 'run_info', 'time_start', 'time_end']);
    for (const r of report.results) assert.deepEqual(Object.keys(r), ['test', 'subsuite', 'status', 'message', 'subtests', 'duration']);
    return {
      report,
      byTest: Object.fromEntries(report.results.map((r) => [r.test, [r.status, r.subtests.map((s) => `${s.name}=${s.status}`)]])),
    };
  };
  const chromium = statuses('chromium');
  assert.deepEqual(chromium.report.run_info, { product: 'chromium', browser_version: '140', os: process.platform, font_set: 'liberation' });
  assert.deepEqual(chromium.byTest, {
    '/all.html': ['PASS', []],
    '/ff-out.html': ['PASS', []],
    '/split.html': ['FAIL', []],
    '/few.html': ['PRECONDITION_FAILED', []],
    '/bad': ['ERROR', []],
    '/dom/t.any.html': ['OK', ['one=PASS', 'two=FAIL']],
    '/twice?hash=aaaaaaaaaaaa': ['PASS', []],
    '/twice?hash=bbbbbbbbbbbb': ['PASS', []],
  });
  const firefox = statuses('firefox').byTest;
  assert.deepEqual(
    [firefox['/ff-out.html'], firefox['/dom/t.any.html']],
    [
      ['FAIL', []],
      ['OK', ['one=FAIL', 'two=FAIL']],
    ],
  );
  const webkit = statuses('webkit');
  assert.equal(webkit.report.run_info.product, 'webkitgtk');
  assert.deepEqual(
    [webkit.byTest['/few.html'], webkit.byTest['/dom/t.any.html']],
    [
      ['TIMEOUT', []],
      ['TIMEOUT', []],
    ],
  );
  const candidate = statuses('candidate');
  assert.deepEqual([candidate.report.run_info.product, candidate.report.run_info.browser_version], ['mine', '1']);
  assert.deepEqual(
    Object.values(candidate.byTest).map(([s]) => s),
    ['PASS', 'FAIL', 'PRECONDITION_FAILED', 'SKIP', 'SKIP', 'SKIP', 'PASS', 'SKIP'],
  );
  journal.close();
  assert.equal(wptTestName('/already/rooted.window.js'), '/already/rooted.window.html');
});

test('--wptreport and --junit through the command line: whole output, or one line and exit 2', async () => {
  const votes = journalOf(join(root, 'votes.sqlite'), [{ id: 'a' }], { name: 'x', version: '1' });
  const ok = await runCli(['summary', '--db', votes, '--wptreport', 'firefox']);
  assert.equal(ok.code, 0, ok.stderr);
  assert.equal(JSON.parse(ok.stdout).results.length, 1);
  const noCandidate = journalOf(join(root, 'no-candidate.sqlite'), [{ id: 'a', verdict: null }]);
  for (const [args, message] of [
    [['--wptreport', 'candidate'], /--wptreport candidate: no candidate was judged in this journal$/],
    [['--wptreport', 'webkit'], /--wptreport webkit: webkit answered no case of this journal$/],
    [['--wptreport', 'safari'], /--wptreport/],
    [['--junit', '--json'], /cannot be used with/],
  ] as [string[], RegExp][]) {
    const run = await runCli(['summary', '--db', noCandidate, ...args]);
    assert.deepEqual([run.code, run.stdout], [2, ''], args.join(' '));
    assert.match(run.stderr.trimEnd(), message);
    assert.equal(run.stderr.trimEnd().split('\n').length, 1);
  }
});
