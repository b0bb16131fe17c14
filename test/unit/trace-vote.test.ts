// Trace compare and vote on recorded trace responses (scripts/record-traces.mjs); variants
// (a perturbed buffer, a dropped record) are derived in code from the recordings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Trace } from '../../src/protocol/trace-schema.js';
import { BUFFER_TOLERANCE, compareTraces } from '../../src/comparator/trace-compare.js';
import { voteTraces } from '../../src/comparator/trace-vote.js';
import { traceResponse as fixture } from '../fixtures/traces/load.js';

/** A copy of the canvas trace of `engine` whose first pixel channel is moved by `delta` steps. */
function shiftedPixel(engine: 'chromium' | 'firefox' | 'webkit', delta: number): Trace {
  const trace = fixture('canvas').traces[engine]!;
  const value = trace.records[0]!.kind === 'value' ? (trace.records[0]!.value as { base64: string }) : undefined;
  const bytes = Buffer.from(value!.base64, 'base64');
  bytes[0] = bytes[0]! + delta;
  value!.base64 = bytes.toString('base64');
  return trace;
}

test('engines that record the same events, settlements and values are unanimous', () => {
  const vote = voteTraces(fixture('agree'));
  assert.equal(vote.verdict, 'unanimous');
  assert.deepEqual(vote.majority, ['chromium', 'firefox', 'webkit']);
  assert.deepEqual(Object.keys(vote.pairs), ['chromium~firefox', 'chromium~webkit', 'firefox~webkit']);
  assert.deepEqual(vote.records, []);
});

test('unequal record counts are a count mismatch, and no record is compared', () => {
  const { chromium, firefox } = fixture('count').traces;
  const result = compareTraces(chromium!, firefox!);
  assert.equal(result.verdict, 'count_mismatch');
  assert.deepEqual(result.failures, [{ kind: 'count_mismatch', a: chromium!.records.length, b: firefox!.records.length }]);
  const vote = voteTraces(fixture('count'));
  assert.equal(vote.verdict, 'split');
  assert.deepEqual(vote.records, []);
});

test('a pixel buffer passes within the buffer tolerance and fails outside it', () => {
  const base = fixture('canvas').traces.chromium!;
  assert.equal(compareTraces(base, fixture('canvas').traces.webkit!).verdict, 'pass');
  // The channel is 200 of 255: the tolerance there is absolute + relative · 200/255 of full scale.
  const steps = (BUFFER_TOLERANCE.absolute + BUFFER_TOLERANCE.relative * (200 / 255)) * 255;
  assert.equal(compareTraces(base, shiftedPixel('chromium', -Math.floor(steps))).verdict, 'pass');
  const outside = compareTraces(base, shiftedPixel('chromium', -Math.ceil(steps)));
  assert.equal(outside.verdict, 'fail');
  assert.deepEqual(
    outside.failures.map((f) => ({ ...f, max_abs_delta: undefined })),
    [{ seq: 0, kind: 'buffer', path: '/value/base64', failed: 1, max_abs_delta: undefined }],
  );
});

test('a perturbed buffer in one engine makes it the outlier at that record', () => {
  const response = fixture('canvas');
  response.traces.firefox = shiftedPixel('firefox', -40);
  const vote = voteTraces(response);
  assert.equal(vote.verdict, 'outlier');
  assert.equal(vote.outlier, 'firefox');
  assert.deepEqual(vote.records, [{ seq: 0, labels: ['pixels'], outlier: 'firefox', kinds: ['buffer'] }]);
});

test("Firefox's own-key order of a function makes it the outlier", () => {
  const vote = voteTraces(fixture('outlier'));
  assert.equal(vote.verdict, 'outlier');
  assert.equal(vote.outlier, 'firefox');
  assert.deepEqual(vote.majority, ['chromium', 'webkit']);
  assert.deepEqual(new Set(vote.pairs['chromium~firefox']!.failures.map((f) => f.kind)), new Set(['value']));
  assert.deepEqual(vote.pairs['chromium~webkit']!.failures, []);
  assert.deepEqual(vote.records, [{ seq: 0, labels: ['fn'], outlier: 'firefox', kinds: ['value'] }]);
});

test('three different values are a split', () => {
  const vote = voteTraces(fixture('split'));
  assert.equal(vote.verdict, 'split');
  assert.equal(vote.outlier, null);
  assert.deepEqual(vote.records, [{ seq: 0, labels: ['ua'], outlier: null, kinds: ['value'] }]);
});

test('two engines are insufficient, and an engine error is reported as its status', () => {
  const vote = voteTraces(fixture('insufficient'));
  assert.equal(vote.verdict, 'insufficient');
  assert.deepEqual(vote.engines.webkit, { status: 'absent' });
  const response = fixture('agree');
  delete response.traces.webkit;
  response.errors = { webkit: 'case_timeout: no answer from webkit within 30000 ms' };
  const errored = voteTraces(response);
  assert.equal(errored.verdict, 'insufficient');
  assert.deepEqual(errored.engines.webkit, { status: 'error', error: 'case_timeout: no answer from webkit within 30000 ms' });
});

test('kind, label, event type and timed_out compare exactly', () => {
  const a = fixture('agree').traces.chromium!;
  const b = fixture('agree').traces.chromium!;
  const event = b.records[0]!;
  if (event.kind !== 'event') throw new Error('the agree fixture starts with an event');
  event.type = 'dblclick';
  b.records[1]!.label = 'elsewhere';
  b.timed_out = true;
  assert.deepEqual(compareTraces(a, b).failures, [
    { kind: 'timed_out', a: false, b: true },
    { seq: 0, kind: 'record', field: 'type', a: 'click', b: 'dblclick' },
    { seq: 1, kind: 'record', field: 'label', a: a.records[1]!.label, b: 'elsewhere' },
  ]);
});

test('a record whose label differs lists every label recorded there (derived: firefox relabels record 1)', () => {
  const response = fixture('agree');
  const label = response.traces.chromium!.records[1]!.label;
  response.traces.firefox!.records[1]!.label = 'elsewhere';
  assert.deepEqual(voteTraces(response).records, [{ seq: 1, labels: [label, 'elsewhere'].sort(), outlier: 'firefox', kinds: ['record'] }]);
});
