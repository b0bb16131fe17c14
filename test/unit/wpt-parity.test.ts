// `wpt-parity` without engines, on small journals written here through the Journal's own API: a
// layout journal (check-layout votes with each engine's authored tally) and a harness journal
// (traces with the harness's records), as the two routes of wpt-import leave them. Checked: the
// verdicts of either side, agreement, each reason to skip a pair, the ratios per directory and
// engine, the latest case standing for a repeated id, each cause tag, and the command line: two
// configurations refused with exit 2 naming the difference, --min's exit 1, --json.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Journal, type EngineOutcome } from '../../src/campaign/journal/journal.js';
import type { AuthoredFailure } from '../../src/comparator/authored.js';
import { ENGINE_NAMES, type EngineName } from '../../src/protocol/schema.js';
import { compareJournals, configDifference, type ParityResult } from '../../src/tools/parity/parity.js';
import { readParityJournal } from '../../src/tools/parity/read.js';
import { renderParity } from '../../src/tools/parity/render.js';
import { runCli } from '../support/campaign-process.js';

const root = mkdtempSync(join(tmpdir(), 'wpt-parity-test-'));
after(() => rmSync(root, { recursive: true, force: true }));

const BUILDS = { chromium: '156', firefox: '153', webkit: '2.50' };

/** An engine's side of a case: an error (code first), an authored tally, or the harness's records. */
type Side =
  | { error: string }
  | { pass: number; fail?: AuthoredFailure[] }
  | { harness: string | null; subtests?: Record<string, string> }
  | undefined;

interface Written {
  id: string;
  /** The request's fields beside id and op (the layout route's html, authored…). */
  request?: Record<string, unknown>;
  invalid?: boolean;
  engines: Partial<Record<EngineName, Side>>;
  hash?: string;
}

let files = 0;
/** A journal of one route's cases, in one run of `config`; returns its path. */
function journal(route: 'layout' | 'harness', cases: Written[], config: { versions?: object; fonts?: string } = {}): string {
  const path = join(root, `${route}-${++files}.sqlite`);
  const j = Journal.open(path);
  j.startRun({
    command: ['browser-oracle', 'campaign'],
    engines: [...ENGINE_NAMES],
    versions: { ...BUILDS, ...config.versions },
    fonts: config.fonts ?? 'liberation',
  });
  for (const c of cases) {
    const outcomes: EngineOutcome[] = [];
    const authored = [];
    for (const engine of ENGINE_NAMES) {
      const side = c.engines[engine];
      if (side === undefined) continue;
      const base = { engine, version: BUILDS[engine], ms: null };
      if ('error' in side) outcomes.push({ ...base, result: null, error: side.error });
      else if ('harness' in side) {
        const records = Object.entries(side.subtests ?? {}).map(([label, value], seq) => ({ seq, kind: 'value', label, value }));
        if (side.harness !== null) records.push({ seq: records.length, kind: 'value', label: 'harness', value: side.harness });
        outcomes.push({ ...base, result: JSON.stringify({ engine, records }), error: null });
      } else {
        outcomes.push({ ...base, result: '{"nodes":[]}', error: null });
        const failures = side.fail ?? [];
        authored.push({ subject: engine, name: null, version: null, judged: null, pass: side.pass, fail: failures.length, failures });
      }
    }
    const op = route === 'layout' ? 'vote' : 'trace';
    const request = { id: c.id, op, ...(route === 'layout' ? { html: '<p>', authored: {} } : { html: '<p>' }), ...c.request };
    j.record({
      id: c.id,
      hash: c.hash ?? 'h',
      op: c.invalid ? null : op,
      request: JSON.stringify(request),
      invalid: c.invalid ? 'invalid_request: refused' : null,
      outcomes,
      verdict: c.invalid ? null : 'unanimous',
      outlier: null,
      signature: null,
      expected: null,
      vote: c.invalid ? null : '{}',
      startedAt: 0,
      elapsedMs: 1,
      attempts: 1,
      ...(authored.length ? { authored: { records: authored, finding: null } } : {}),
    });
  }
  j.endRun();
  j.close();
  return path;
}

const all = <T>(side: T): Record<EngineName, T> => ({ chromium: side, firefox: side, webkit: side });
const ok = (subtests: Record<string, string> = { '.flex 1': 'PASS' }) => ({ harness: 'OK', subtests });
const failure = (attr = 'data-expected-width', actual: number | null = 98): AuthoredFailure => ({
  index: 4,
  tag: 'DIV',
  attr,
  expected: '100',
  actual,
});
const compare = (layout: string, harness: string): ParityResult =>
  compareJournals(readParityJournal(layout, 'layout'), readParityJournal(harness, 'harness'));

test('verdicts: the harness passes on OK with subtests all PASS, the authored side on no failure and one held; agreement is both pass or neither', () => {
  const layout = journal('layout', [
    { id: 'css/a/both-pass.html', engines: all({ pass: 3 }) },
    { id: 'css/a/both-fail.html', engines: all({ pass: 2, fail: [failure()] }) },
    { id: 'css/a/harness-error-authored-none.html', engines: all({ pass: 0 }) },
    // One engine each way: chromium's harness fails a subtest the authored side holds; firefox's ends in ERROR.
    {
      id: 'css/b/mixed.html',
      request: { authored: { scope: ['.flex'] } },
      engines: { chromium: { pass: 3 }, firefox: { pass: 3 }, webkit: { pass: 1, fail: [failure('data-offset-x', null)] } },
    },
  ]);
  const harness = journal('harness', [
    { id: 'css/a/both-pass.html', engines: all(ok({ '.flex 1': 'PASS', '.flex 2': 'PASS' })) },
    { id: 'css/a/both-fail.html', engines: all(ok({ '.flex 1': 'PASS', '.flex 2': 'FAIL' })) },
    { id: 'css/a/harness-error-authored-none.html', engines: all({ harness: 'ERROR' }) },
    {
      id: 'css/b/mixed.html',
      engines: { chromium: ok({ '.flex 1': 'FAIL' }), firefox: { harness: 'ERROR', subtests: { '.flex 1': 'PASS' } }, webkit: ok() },
    },
  ]);
  const r = compare(layout, harness);
  assert.deepEqual([r.pairs, r.agreeing, r.harness_pass, r.authored_pass], [12, 9, 4, 5]);
  assert.equal(r.ratio, 9 / 12);
  assert.deepEqual(r.by_directory, {
    'css/a': { pairs: 9, agreeing: 9, ratio: 1 },
    'css/b': { pairs: 3, agreeing: 0, ratio: 0 },
  });
  assert.deepEqual(r.by_engine.chromium, { pairs: 4, agreeing: 3, ratio: 0.75 });
  assert.deepEqual(
    r.disagreements.map((d) => [d.engine, d.harness.verdict, d.authored.verdict]),
    [
      ['chromium', 'fail', 'pass'],
      ['firefox', 'error', 'pass'],
      ['webkit', 'pass', 'fail'],
    ],
  );
  const [chromium, firefox, webkit] = r.disagreements;
  assert.deepEqual(chromium!.harness, { verdict: 'fail', status: 'OK', subtests: 1, failing: [{ name: '.flex 1', status: 'FAIL' }] });
  assert.equal(firefox!.cause, 'harness-error');
  assert.deepEqual(webkit!.authored, { verdict: 'fail', pass: 1, fail: 1, failures: [failure('data-offset-x', null)] });
  assert.deepEqual(r.skipped, {});
  const text = renderParity(r);
  assert.match(text, /pairs: 12, agreeing 9: 75\.0 %/);
  assert.match(
    text,
    /css\/b\/mixed\.html {2}chromium {2}other\n {2}harness fail: status OK, 1 subtest\(s\), 1 not PASS\n {4}"\.flex 1" FAIL/,
  );
  assert.match(text, /DIV #4 data-offset-x: expected "100", got null/);
});

test('a harness with no subtest, a trace with no harness record, and an OK harness whose subtests all pass but one PRECONDITION_FAILED', () => {
  const layout = journal('layout', [{ id: 'css/a/x.html', engines: all({ pass: 1 }) }]);
  const harness = journal('harness', [
    {
      id: 'css/a/x.html',
      engines: {
        chromium: ok({}),
        firefox: { harness: null, subtests: { '.a 1': 'PASS' } },
        webkit: ok({ '.a 1': 'PRECONDITION_FAILED' }),
      },
    },
  ]);
  const r = compare(layout, harness);
  assert.deepEqual(
    r.disagreements.map((d) => [d.engine, d.harness.verdict, d.harness.status]),
    [
      ['chromium', 'error', 'OK'],
      ['firefox', 'error', 'none'],
      ['webkit', 'fail', 'OK'],
    ],
  );
});

test('skipped pairs, counted by reason; the case recorded last stands for a repeated id', () => {
  const layout = journal('layout', [
    { id: 'css/a/refused-here.html', invalid: true, engines: {} },
    { id: 'css/a/refused-there.html', engines: all({ pass: 1 }) },
    { id: 'css/a/no-trace.html', engines: all({ pass: 1 }) },
    {
      id: 'css/a/errors.html',
      engines: { chromium: { error: 'case_timeout: 30 s' }, firefox: { pass: 1 }, webkit: undefined },
    },
    { id: 'css/a/again.html', hash: 'old', engines: all({ pass: 1, fail: [failure()] }) },
    { id: 'css/a/again.html', hash: 'new', engines: all({ pass: 1 }) },
    // Not a check-layout case (a reftest page asks for no authored reading): not read at all.
    { id: 'css/a/reftest.html', request: { authored: undefined }, engines: all({ pass: 1 }) },
  ]);
  const harness = journal('harness', [
    { id: 'css/a/refused-here.html', engines: all(ok()) },
    { id: 'css/a/refused-there.html', invalid: true, engines: {} },
    { id: 'css/a/errors.html', engines: { chromium: ok(), firefox: { error: 'engine_crashed: gone' }, webkit: ok() } },
    { id: 'css/a/again.html', engines: all(ok()) },
    { id: 'css/a/reftest.html', engines: all(ok()) },
    { id: 'css/a/only-traced.html', engines: all(ok()) },
  ]);
  const r = compare(layout, harness);
  assert.deepEqual(r.files, { layout: 5, paired: 4 });
  assert.deepEqual(r.skipped, { refused: 6, not_in_harness: 3, layout_engine_error: 1, harness_engine_error: 1, layout_no_result: 1 });
  assert.deepEqual([r.pairs, r.agreeing], [3, 3], 'again.html, as recorded last, agrees in all three');

  const noHarnessResult = compare(
    journal('layout', [{ id: 'css/a/x.html', engines: all({ pass: 1 }) }]),
    journal('harness', [{ id: 'css/a/x.html', engines: { chromium: ok(), firefox: ok() } }]),
  );
  assert.deepEqual(noHarnessResult.skipped, { harness_no_result: 1 });
});

test('cause tags: harness-error, out-of-scope, multi-call (subtests, scope, calls), before-load, other', () => {
  const page = (script: string, more = '') => `<!DOCTYPE html><div class=a data-expected-width=10></div>${more}<script>${script}</script>`;
  const cases: [string, Record<string, unknown>, Side, Side][] = [
    ['harness-error', { authored: { scope: ['.a'] } }, { pass: 1 }, { harness: 'TIMEOUT', subtests: { '.a 1': 'NOTRUN' } }],
    ['out-of-scope', { authored: {}, html: page('run(".a")') }, { pass: 1, fail: [failure()] }, ok()],
    ['multi-call-subtests', { authored: {} }, { pass: 1 }, ok({ '.before 1': 'FAIL', '.after 2: wide': 'PASS' })],
    ['multi-call-scope', { authored: { scope: ['.a', '.b'] } }, { pass: 1 }, ok({ '.a 1': 'FAIL' })],
    [
      'multi-call-page',
      { authored: { scope: ['.a'] }, html: page("checkLayout('.a', false); checkLayout('.a')") },
      { pass: 1 },
      ok({ '.a 1': 'FAIL' }),
    ],
    [
      'multi-call-support',
      {
        authored: {},
        html: page('go()'),
        site: { path: 'x.html', files: { 'css/support/change.js': "function go() { checkLayout('.a', false); checkLayout('.b'); }" } },
      },
      { pass: 1 },
      ok({ '.a 1': 'FAIL' }),
    ],
    ['before-load', { authored: { scope: ['.a'] }, html: page("checkLayout('.a')") }, { pass: 1 }, ok({ '.a 1': 'FAIL' })],
    [
      'before-load-test',
      { authored: { scope: ['.a'] }, html: page("test(() => { a.style.height = '9px'; checkLayout('.a'); })") },
      { pass: 1 },
      ok({ '.a 1': 'FAIL' }),
    ],
    [
      'other-test-then',
      { authored: { scope: ['.a'] }, html: page("test(() => { p.then(() => { checkLayout('.a'); }); })") },
      { pass: 1 },
      ok({ '.a 1': 'FAIL' }),
    ],
    [
      'other-then',
      { authored: { scope: ['.a'] }, html: page("document.fonts.ready.then(() => { checkLayout('.a'); })") },
      { pass: 1 },
      ok({ '.a 1': 'FAIL' }),
    ],
    ['other-arrow', { authored: { scope: ['.a'] }, html: page("onload = () => checkLayout('.a')") }, { pass: 1 }, ok({ '.a 1': 'FAIL' })],
    [
      'other-handler',
      { authored: { scope: ['.a'] }, html: page('', '<body onload="checkLayout(\'.a\')">') },
      { pass: 1 },
      ok({ '.a 1': 'FAIL' }),
    ],
    [
      'other-module',
      { authored: { scope: ['.a'] }, html: "<script type=module>checkLayout('.a')</script>" },
      { pass: 1 },
      ok({ '.a 1': 'FAIL' }),
    ],
  ];
  const layout = journal(
    'layout',
    cases.map(([id, request, a]) => ({ id: `css/c/${id}.html`, request, engines: { chromium: a } })),
  );
  const harness = journal(
    'harness',
    cases.map(([id, , , h]) => ({ id: `css/c/${id}.html`, engines: { chromium: h } })),
  );
  const r = compare(layout, harness);
  assert.deepEqual(Object.fromEntries(r.disagreements.map((d) => [d.id.slice('css/c/'.length, -'.html'.length), d.cause])), {
    'harness-error': 'harness-error',
    'out-of-scope': 'out-of-scope',
    'multi-call-subtests': 'multi-call',
    'multi-call-scope': 'multi-call',
    'multi-call-page': 'multi-call',
    'multi-call-support': 'multi-call',
    'before-load': 'before-load',
    'before-load-test': 'before-load',
    'other-test-then': 'other',
    'other-then': 'other',
    'other-arrow': 'other',
    'other-handler': 'other',
    'other-module': 'other',
  });
  assert.deepEqual(r.by_cause, { 'harness-error': 1, 'out-of-scope': 1, 'multi-call': 4, 'before-load': 2, other: 5 });
});

test('configDifference names each difference: builds, fonts, engines', () => {
  const read = (route: 'layout' | 'harness', config: Parameters<typeof journal>[2]) => readParityJournal(journal(route, [], config), route);
  assert.equal(configDifference(read('layout', {}), read('harness', {})), null);
  const a = read('layout', {});
  const b = read('harness', { versions: { firefox: '140' }, fonts: 'square' });
  assert.equal(
    configDifference(a, b),
    `fonts: liberation in ${a.path}, square in ${b.path}; firefox build: 153 in ${a.path}, 140 in ${b.path}`,
  );
});

test('the command line: --json, --min, two configurations refused with exit 2, a file that is not a journal', async () => {
  const layout = journal('layout', [
    { id: 'css/a/x.html', engines: all({ pass: 1 }) },
    { id: 'css/a/y.html', engines: all({ pass: 1 }) },
  ]);
  const harness = journal('harness', [
    { id: 'css/a/x.html', engines: all(ok()) },
    { id: 'css/a/y.html', engines: { chromium: ok(), firefox: ok(), webkit: ok({ '.flex 1': 'FAIL' }) } },
  ]);
  const json = await runCli(['wpt-parity', '--layout', layout, '--harness', harness, '--json', '--min', '0.8']);
  assert.equal(json.code, 0, json.stderr);
  const result = JSON.parse(json.stdout) as ParityResult;
  assert.deepEqual([result.pairs, result.agreeing], [6, 5]);
  const below = await runCli(['wpt-parity', '--layout', layout, '--harness', harness, '--min', '0.9']);
  assert.equal(below.code, 1);
  assert.match(below.stdout, /pairs: 6, agreeing 5: 83\.3 %/);
  assert.match(below.stderr, /5\/6 = 0\.8333 agree, below --min 0\.9/);

  const swapped = await runCli(['wpt-parity', '--layout', harness, '--harness', layout, '--min', '0.5']);
  assert.equal(swapped.code, 1, 'nothing paired, so --min is not met');
  assert.match(swapped.stderr, /holds no check-layout case \(wpt-import --layout makes them\)/);

  const other = journal('harness', [{ id: 'css/a/x.html', engines: all(ok()) }], { versions: { webkit: '2.48' } });
  const refused = await runCli(['wpt-parity', '--layout', layout, '--harness', other]);
  assert.equal(refused.code, 2);
  assert.equal(refused.stdout, '');
  assert.match(refused.stderr, new RegExp(`different oracle configurations \\(webkit build: 2\\.50 in ${layout}, 2\\.48 in ${other}\\)`));

  const notJournal = await runCli(['wpt-parity', '--layout', layout, '--harness', join(root, 'missing.sqlite')]);
  assert.equal(notJournal.code, 2);
  assert.match(notJournal.stderr, /missing\.sqlite: no such journal/);
  const badMin = await runCli(['wpt-parity', '--layout', layout, '--harness', harness, '--min', '95']);
  assert.equal(badMin.code, 2);
  assert.match(badMin.stderr, /--min must be a number from 0 to 1/);
});
