// Keys that every object inherits (constructor, __proto__, toString, hasOwnProperty, valueOf),
// sent wherever a key comes from outside: each lookup answers as for any unknown key, never with
// what Object.prototype holds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkLaunchOptions, checkRequest, parseRequestLine } from '../../src/protocol/validate.js';
import { Expectations } from '../../src/campaign/loop/expectations.js';
import { isOp } from '../../src/protocol/ops.js';
import { compareTraces } from '../../src/comparator/trace-compare.js';
import { fromRemoteValue } from '../../src/workers/engines/firefox/remote-value.js';
import { checkCaseResult } from '../../src/queue/jobs.js';
import { answerOf, pingFields } from '../../src/queue/answers.js';
import type { Trace } from '../../src/protocol/trace-schema.js';
import { OracleError } from '../../src/protocol/errors.js';

const INHERITED = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', '__defineGetter__'];

for (const op of INHERITED) {
  test(`op ${op} is an unknown op, for a line and for a value`, () => {
    for (const parsed of [parseRequestLine(JSON.stringify({ id: 'a', op })), checkRequest({ id: 'a', op })]) {
      assert.equal(parsed.ok, false);
      if (parsed.ok) return;
      assert.equal(parsed.id, 'a');
      assert.match(parsed.error.wireText, new RegExp(`^invalid_request: field "op": unknown op "${op}" \\(known: `));
    }
    assert.equal(isOp(op), false);
  });
}

/** A trace of one $buffer value with this element type and payload. */
const bufferTrace = (elementType: string, base64: string): Trace => ({
  engine: 'chromium',
  engine_version: '1',
  profile: 'default',
  origin: 'http://localhost:1',
  is_secure_context: true,
  timed_out: false,
  records: [{ seq: 0, kind: 'value', label: 'b', value: { $buffer: true, elementType, length: 1, base64 } }],
});

test('a buffer of an element type named like an inherited key is compared byte for byte, as any unknown type', () => {
  for (const type of INHERITED) {
    assert.equal(compareTraces(bufferTrace(type, 'AA=='), bufferTrace(type, 'AA==')).verdict, 'pass', type);
    assert.deepEqual(
      compareTraces(bufferTrace(type, 'AA=='), bufferTrace(type, 'AQ==')).failures,
      [{ seq: 0, kind: 'value', path: '/value/base64', a: 'AA==', b: 'AQ==' }],
      type,
    );
  }
});

test('a BiDi number spelled as an inherited key is no number, never a function', () => {
  for (const value of INHERITED) assert.equal(fromRemoteValue({ type: 'number', value }), undefined, value);
  assert.ok(Number.isNaN(fromRemoteValue({ type: 'number', value: 'NaN' })));
  assert.equal(fromRemoteValue({ type: 'number', value: '-Infinity' }), Number.NEGATIVE_INFINITY);
});

const WORKER = { host: 'm', pid: 1, engines: ['chromium'], versions: { chromium: '1' }, profile: 'default', fonts: 'liberation' };

test("a queue result's __proto__ member stays data: the answer's prototype is never the sender's", () => {
  const result = JSON.parse('{"id":"q1","ok":true,"__proto__":{"vote":{"verdict":"forged"},"dumps":{}}}') as Record<string, unknown>;
  const answer = answerOf('mine', result);
  assert.equal(Object.getPrototypeOf(answer), Object.prototype);
  assert.equal(answer.vote, undefined);
  assert.equal(answer.dumps, undefined);
  assert.equal(answer.id, 'mine');
  assert.deepEqual(Object.keys(answer), ['id', 'ok', '__proto__']);
});

test("a queue result's vote is checked: a verdict or outlier that names an inherited key is refused", () => {
  const vote = {
    verdict: 'unanimous',
    outlier: null,
    majority: ['chromium', 'firefox', 'webkit'],
    engines: { chromium: { status: 'usable' }, firefox: { status: 'usable' }, webkit: { status: 'usable' } },
    pairs: {},
    nodes: [],
  };
  assert.equal(typeof checkCaseResult({ worker: WORKER, answer: { id: 'q1', vote } }), 'object');
  for (const key of INHERITED) {
    assert.match(String(checkCaseResult({ worker: WORKER, answer: { id: 'q1', vote: { ...vote, verdict: key } } })), /\/answer\/vote/);
    assert.match(
      String(checkCaseResult({ worker: WORKER, answer: { id: 'q1', vote: { ...vote, verdict: 'outlier', outlier: key } } })),
      /\/answer\/vote/,
    );
  }
});

const internal = (wire: RegExp) => (error: unknown) => error instanceof OracleError && wire.test(error.wireText);

test("a ping answered through the queue is checked: engines and versions are the protocol's", () => {
  const pong = { id: 'q1', ok: true, engines: ['chromium'], versions: { chromium: '1' }, profile: 'default', fonts: 'liberation' };
  assert.deepEqual(pingFields(pong), {
    ok: true,
    engines: ['chromium'],
    versions: { chromium: '1' },
    profile: 'default',
    fonts: 'liberation',
  });
  for (const key of INHERITED) {
    assert.throws(
      () => pingFields({ ...pong, engines: [key] }),
      internal(/^internal_error: a worker's ping answer is not one: \/engines\/0 /),
    );
    const versions = JSON.parse(`{"${key}":"x"}`) as Record<string, string>;
    assert.throws(() => pingFields({ ...pong, versions }), internal(/^internal_error: a worker's ping answer is not one: \/versions/));
  }
  assert.throws(
    () => pingFields({ id: 'q1', error: 'internal_error: the oracle is closing' }),
    internal(/^internal_error: a worker answered the ping with internal_error: the oracle is closing$/),
  );
});

test('a config file or an --expect file naming an inherited key is refused as an unknown field, never merged', () => {
  for (const key of INHERITED) {
    const json = `{"${key}":{"workers":3}}`;
    assert.throws(
      () => checkLaunchOptions(JSON.parse(json), 'config.json'),
      new RegExp(`^ConfigError: config.json: field "${key}": unknown field$`),
    );
    assert.throws(
      () => checkLaunchOptions(JSON.parse(`{"paths":{"${key}":"/bin/true"}}`), 'config.json'),
      new RegExp(`field "paths.${key}": unknown field$`),
    );
    assert.throws(
      () => Expectations.parse(`{"known":[{"id":"a","signature":"s","${key}":{"engine":"firefox"}}]}`, '--expect x'),
      new RegExp(`field "known\\[0\\]\\.${key}": unknown field$`),
    );
  }
});
