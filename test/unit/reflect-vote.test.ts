// The reflection vote on recorded reflect responses, and on variants derived from them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { voteReflect } from '../../src/comparator/reflect-vote.js';
import type { ReflectResponse, ReflectState } from '../../src/protocol/reflect-schema.js';
import type { EngineName } from '../../src/protocol/schema.js';
import { reflectResponse } from '../fixtures/reflect/load.js';

const verdicts = (r: ReflectResponse) => voteReflect(r).observations.map((o) => [o.verdict, o.outlier]);

/** The unanimous recording with `change` applied to one engine's state. */
function changed(engine: EngineName, change: (state: ReflectState) => void): ReflectResponse {
  const response = reflectResponse('unanimous');
  change(response.states[engine]!);
  return response;
}

test('a recording where every observation agrees is unanimous throughout', () => {
  const vote = voteReflect(reflectResponse('unanimous'));
  assert.equal(vote.verdict, 'unanimous');
  assert.equal(vote.outlier, null);
  assert.deepEqual(vote.majority, ['chromium', 'firefox', 'webkit']);
  assert.deepEqual(vote.engines, { chromium: { status: 'usable' }, firefox: { status: 'usable' }, webkit: { status: 'usable' } });
  assert.deepEqual(
    vote.observations.map((o) => [o.index, o.selector, o.attr, o.idl, o.verdict]),
    [
      [0, '#a', 'colspan', 'colSpan', 'unanimous'],
      [1, '#b', 'colspan', 'colSpan', 'unanimous'],
      [2, '#c', 'colspan', 'colSpan', 'unanimous'],
      [3, '#d', 'rowspan', 'rowSpan', 'unanimous'],
      [4, '#e', 'rowspan', 'rowSpan', 'unanimous'],
    ],
  );
  assert.deepEqual(vote.observations[1]!.values.webkit, { attr_value: '1001', idl_value: 1000 });
});

test('one engine off on some observations is the outlier overall and on exactly those', () => {
  const vote = voteReflect(reflectResponse('outlier'));
  assert.equal(vote.verdict, 'outlier');
  assert.equal(vote.outlier, 'chromium');
  assert.deepEqual(vote.majority, ['firefox', 'webkit']);
  assert.deepEqual(verdicts(reflectResponse('outlier')), [
    ['outlier', 'chromium'],
    ['unanimous', null],
    ['outlier', 'chromium'],
  ]);
  assert.deepEqual(vote.observations[0]!.values, {
    chromium: { attr_value: 'bogus', idl_value: 'metadata' },
    firefox: { attr_value: 'bogus', idl_value: 'auto' },
    webkit: { attr_value: 'bogus', idl_value: 'auto' },
  });
});

test('observations blaming different engines split the overall vote', () => {
  const response = reflectResponse('split');
  const vote = voteReflect(response);
  assert.equal(vote.verdict, 'split');
  assert.equal(vote.outlier, null);
  assert.deepEqual(vote.majority, []);
  assert.deepEqual(verdicts(response), [
    ['outlier', 'webkit'],
    ['outlier', 'webkit'],
    ['outlier', 'chromium'],
    ['unanimous', null],
  ]);
});

test('an engine that errored does not vote: two states are insufficient', () => {
  const vote = voteReflect(reflectResponse('engine-error'));
  assert.equal(vote.verdict, 'insufficient');
  assert.equal(vote.engines.webkit.status, 'error');
  assert.match((vote.engines.webkit as { error: string }).error, /^script_error: TypeError/);
  assert.deepEqual(verdicts(reflectResponse('engine-error')), [['insufficient', null]]);
  assert.deepEqual(Object.keys(vote.observations[0]!.values), ['chromium', 'firefox']);
});

test('an engine missing from the response is absent', () => {
  const response = reflectResponse('unanimous');
  delete response.states.firefox;
  const vote = voteReflect(response);
  assert.equal(vote.verdict, 'insufficient');
  assert.deepEqual(vote.engines.firefox, { status: 'absent' });
});

test('values match exactly: a differing attr_value alone, or a number against its string, disagrees', () => {
  const attr = changed('webkit', (s) => (s.observations[0]!.attr_value = '00'));
  assert.deepEqual([voteReflect(attr).verdict, voteReflect(attr).outlier], ['outlier', 'webkit']);
  const typed = changed('firefox', (s) => (s.observations[1]!.idl_value = '1000'));
  assert.deepEqual(verdicts(typed)[1], ['outlier', 'firefox']);
});

test('three different values on one observation split it', () => {
  const response = changed('chromium', (s) => (s.observations[2]!.idl_value = { $num: 'NaN' }));
  response.states.firefox!.observations[2]!.idl_value = { $undefined: true };
  assert.deepEqual(verdicts(response)[2], ['split', null]);
  assert.equal(voteReflect(response).verdict, 'split');
});

test('a canonical object compares by content, not by key order', () => {
  const response = reflectResponse('unanimous');
  for (const engine of ['chromium', 'firefox'] as const)
    response.states[engine]!.observations[0]!.idl_value = { $error: true, name: 'TypeError' };
  response.states.webkit!.observations[0]!.idl_value = JSON.parse('{"name":"TypeError","$error":true}');
  assert.equal(voteReflect(response).verdict, 'unanimous');
});

test('a state with fewer observations disagrees where it has none', () => {
  const response = changed('webkit', (s) => s.observations.pop());
  const vote = voteReflect(response);
  assert.deepEqual([vote.verdict, vote.outlier], ['outlier', 'webkit']);
  assert.deepEqual(verdicts(response)[4], ['outlier', 'webkit']);
  assert.deepEqual(Object.keys(vote.observations[4]!.values), ['chromium', 'firefox']);
});

test('the result does not depend on the order of engines in the response', () => {
  const recorded = reflectResponse('split');
  const reversed: ReflectResponse = {
    ...recorded,
    states: { webkit: recorded.states.webkit, firefox: recorded.states.firefox, chromium: recorded.states.chromium },
  };
  assert.equal(JSON.stringify(voteReflect(reversed)), JSON.stringify(voteReflect(recorded)));
});
