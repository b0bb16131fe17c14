// The summary object's shape and order, and its rendering for people.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderSummary, summarize, tallyOf } from '../../src/campaign/journal/summary.js';

const COUNTS = [
  { verdict: 'unanimous' as const, outlier: null, count: 55 },
  { verdict: 'outlier' as const, outlier: 'chromium' as const, count: 2 },
  { verdict: 'outlier' as const, outlier: 'firefox' as const, count: 1 },
  { verdict: 'outlier' as const, outlier: 'webkit' as const, count: 1 },
  { verdict: 'split' as const, outlier: null, count: 1 },
  { verdict: null, outlier: null, count: 2 },
];

const BUCKETS = [
  { signature: 'split | size | DIV | width', count: 1, example: 's1' },
  { signature: 'outlier chromium | offset | SPAN | -', count: 2, example: 'c1' },
  { signature: 'invalid | invalid_json', count: 2, example: 'line:7' },
  { signature: 'outlier firefox | size | P | height', count: 1, example: 'my case.html' },
];

test("the summary object has the issue's shape, key order and bucket order", () => {
  const summary = summarize(COUNTS, 1, BUCKETS);
  assert.equal(
    JSON.stringify(summary),
    JSON.stringify({
      cases: 62,
      verdicts: { unanimous: 55, outlier: { chromium: 2, firefox: 1, webkit: 1 }, split: 1, insufficient: 0 },
      invalid: 2,
      expected: 1,
      buckets: [
        { signature: 'invalid | invalid_json', count: 2, example: 'line:7' },
        { signature: 'outlier chromium | offset | SPAN | -', count: 2, example: 'c1' },
        { signature: 'outlier firefox | size | P | height', count: 1, example: 'my case.html' },
        { signature: 'split | size | DIV | width', count: 1, example: 's1' },
      ],
    }),
  );
  assert.deepEqual(tallyOf(summary), { cases: 62, unanimous: 55, outlier: 4, split: 1, insufficient: 0, invalid: 2, expected: 1 });
});

test('an empty journal: every engine listed, no buckets', () => {
  assert.deepEqual(summarize([], 0, []), {
    cases: 0,
    verdicts: { unanimous: 0, outlier: { chromium: 0, firefox: 0, webkit: 0 }, split: 0, insufficient: 0 },
    invalid: 0,
    expected: 0,
    buckets: [],
  });
});

test('the text rendering: counts, a table of findings, the report path', () => {
  assert.equal(
    renderSummary(summarize(COUNTS, 1, BUCKETS), 'run.html'),
    [
      '62 cases: 55 unanimous, 4 outlier (chromium 2, firefox 1, webkit 1), 1 split, 0 insufficient, 2 invalid; 1 expected',
      'count  signature                             example',
      '    2  invalid | invalid_json                line:7',
      '    2  outlier chromium | offset | SPAN | -  c1',
      '    1  outlier firefox | size | P | height   "my case.html"',
      '    1  split | size | DIV | width            s1',
      'report: run.html',
      '',
    ].join('\n'),
  );
  assert.equal(
    renderSummary(summarize([{ verdict: 'unanimous', outlier: null, count: 3 }], 0, [])),
    '3 cases: 3 unanimous, 0 outlier, 0 split, 0 insufficient, 0 invalid; 0 expected\nno findings\n',
  );
});
