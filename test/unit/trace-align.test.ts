// Trace compare and vote with `"align": "label"`: records pair by label (the n-th of a label with
// the n-th of the same label), a label one trace lacks is a difference of its own, and the order
// records were pushed in between labels does not matter; the default stays record by record.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Trace, TraceRecord } from '../../src/protocol/trace-schema.js';
import { alignByLabel, compareTraces } from '../../src/comparator/trace-compare.js';
import { voteTraces } from '../../src/comparator/trace-vote.js';
import { bucketOf, signatureOf } from '../../src/comparator/signature.js';
import { caseSignature } from '../../src/campaign/loop/case-record.js';
import { answered } from '../support/answers.js';
import { traceFixture } from '../support/trace-fixture.js';

type Engine = 'chromium' | 'firefox' | 'webkit';

/** A trace of `engine` recording `[label, value]` pairs, in that order. */
function trace(engine: Engine, values: [string, string][]): Trace {
  return traceFixture(
    engine,
    values.map(([label, value], seq): TraceRecord => ({ seq, kind: 'value', label, value })),
  );
}

const subtests: [string, string][] = [
  ['a', 'PASS'],
  ['b', 'FAIL'],
  ['c', 'PASS'],
  ['harness', 'OK'],
];

test('records pair by label, whatever the order they were pushed in', () => {
  const a = trace('chromium', subtests);
  const b = trace('firefox', [subtests[2]!, subtests[0]!, subtests[3]!, subtests[1]!]);
  assert.equal(compareTraces(a, b, 'label').verdict, 'pass');
  assert.equal(compareTraces(a, b).verdict, 'fail', 'record by record, the same records in another order differ');
});

test('one extra subtest is a difference of its own, and hides no other', () => {
  const a = trace('chromium', subtests);
  const b = trace('firefox', [
    ['a', 'PASS'],
    ['aa', 'PASS'],
    ['b', 'PASS'],
    ['c', 'PASS'],
    ['harness', 'OK'],
  ]);
  assert.equal(compareTraces(a, b).verdict, 'count_mismatch', 'record by record, the counts hide everything');
  assert.deepEqual(compareTraces(a, b, 'label'), {
    verdict: 'fail',
    failures: [
      { seq: 1, label: 'aa', kind: 'missing', a: false, b: true },
      { seq: 2, label: 'b', kind: 'value', path: '/value', a: 'FAIL', b: 'PASS' },
    ],
  });
});

test('a repeated label pairs its n-th record with the n-th of the other trace', () => {
  const a = trace('chromium', [
    ['x', '1'],
    ['y', '0'],
    ['x', '2'],
  ]);
  const b = trace('firefox', [
    ['x', '1'],
    ['x', '3'],
    ['y', '0'],
    ['x', '4'],
  ]);
  assert.deepEqual(alignByLabel([a, b]), {
    labels: ['x', 'x', 'x', 'y'],
    rows: [
      [a.records[0], a.records[2], undefined, a.records[1]],
      [b.records[0], b.records[1], b.records[3], b.records[2]],
    ],
  });
  assert.deepEqual(
    compareTraces(a, b, 'label').failures.map((f) => [f.kind, 'seq' in f ? f.seq : null]),
    [
      ['value', 1],
      ['missing', 2],
    ],
  );
});

test('the vote aligns all three engines on one list: the outlier and the label of the record it differs at', () => {
  const response = {
    traces: {
      chromium: trace('chromium', subtests),
      firefox: trace('firefox', [
        ['c', 'PASS'],
        ['b', 'PASS'],
        ['a', 'PASS'],
        ['harness', 'OK'],
      ]),
      webkit: trace('webkit', [
        ['b', 'FAIL'],
        ['a', 'PASS'],
        ['c', 'PASS'],
        ['harness', 'OK'],
      ]),
    },
  };
  const vote = voteTraces(response, 'label');
  assert.equal(vote.verdict, 'outlier');
  assert.equal(vote.outlier, 'firefox');
  assert.deepEqual(vote.records, [{ seq: 1, labels: ['b'], outlier: 'firefox', kinds: ['value'] }]);
  assert.equal(signatureOf(bucketOf({ op: 'trace', vote })!), 'trace outlier firefox | value | b');
  assert.equal(voteTraces(response).verdict, 'split', 'record by record, each engine pushed in its own order');
  // A campaign (and a reduction) records the vote its answer carries, which the worker took as the
  // request said (src/workers/tasks/trace.ts; test/e2e/wpt.test.ts runs it on the engines).
  const request = { id: 't', op: 'trace', script: '', align: 'label' } as const;
  assert.equal(caseSignature(request, answered({ ...response, vote })), 'trace outlier firefox | value | b');
  assert.equal(caseSignature(request, answered({ ...response, vote: voteTraces(response) })), 'trace split | record | a/b/c');
});

test('a label one engine lacks makes it the outlier there, and the rest is still compared', () => {
  const response = {
    traces: {
      chromium: trace('chromium', subtests),
      firefox: trace('firefox', subtests),
      webkit: trace('webkit', [
        ['a', 'PASS'],
        ['b', 'FAIL'],
        ['harness', 'OK'],
      ]),
    },
  };
  const vote = voteTraces(response, 'label');
  assert.equal(vote.outlier, 'webkit');
  assert.deepEqual(vote.records, [{ seq: 2, labels: ['c'], outlier: 'webkit', kinds: ['missing'] }]);
  assert.equal(signatureOf(bucketOf({ op: 'trace', vote })!), 'trace outlier webkit | missing | c');
});

test('an engine with an error is left out of the alignment, as of the vote', () => {
  const response = {
    traces: { chromium: trace('chromium', subtests), firefox: trace('firefox', subtests), webkit: trace('webkit', [['only', 'x']]) },
    errors: { webkit: 'page_tampered: x' },
  };
  const vote = voteTraces(response, 'label');
  assert.equal(vote.verdict, 'insufficient');
  assert.deepEqual(vote.pairs['chromium~firefox'], { verdict: 'pass', failures: [] });
});
