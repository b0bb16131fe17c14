// Records built from corpus items and recorded responses: each kind of request with its own
// vote, a `vote` request's answer taken as is, outcomes with their in-page times.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { invalidRecord, outcomesOf, votedCase, votedRecord, wireRequest } from '../../src/campaign/loop/case-record.js';
import { contentHash } from '../../src/campaign/corpus/case-hash.js';
import { Expectations } from '../../src/campaign/loop/expectations.js';
import { voteGeometry } from '../../src/comparator/vote.js';
import { voteTraces } from '../../src/comparator/trace-vote.js';
import { encodeJson } from '../../src/protocol/wire.js';
import { answered } from '../support/answers.js';
import { response } from '../fixtures/dumps/load.js';
import { reflectResponse } from '../fixtures/reflect/load.js';
import { traceResponse } from '../fixtures/traces/load.js';

const timing = { startedAt: 1000, elapsedMs: 250, attempts: 2 };

test('a geometry case: vote, signature, expectation and outcomes with their times', () => {
  const request = { id: 'text-line', html: '<!doctype html><p>Hello world</p>' };
  const answer = answered({ ...response('text-line'), timing: { chromium: 3.5, firefox: 4, webkit: 5.25 } });
  const expectations = Expectations.parse(JSON.stringify({ known: [{ id: 'ff-p', engine: 'firefox', tag: 'P' }] }), 'test');
  const record = votedRecord(
    { ok: true, id: request.id, hash: contentHash(request), given: JSON.stringify(request), request },
    answer,
    timing,
    expectations,
  );
  assert.deepEqual(
    { ...record, outcomes: record.outcomes.map((o) => [o.engine, o.version, o.ms, o.error]), vote: typeof record.vote },
    {
      id: 'text-line',
      hash: contentHash(request),
      op: 'geometry',
      request: JSON.stringify(request),
      invalid: null,
      outcomes: (['chromium', 'firefox', 'webkit'] as const).map((e, i) => [
        e,
        response('text-line').dumps[e]!.engine_version,
        [3.5, 4, 5.25][i],
        null,
      ]),
      verdict: 'outlier',
      outlier: 'firefox',
      signature: 'outlier firefox | size | P | height',
      expected: 'ff-p',
      vote: 'string',
      startedAt: 1000,
      elapsedMs: 250,
      attempts: 2,
    },
  );
  assert.deepEqual(JSON.parse(record.outcomes[1]!.result!), response('text-line').dumps.firefox);
});

test("each op's case carries its own kind of vote, taken beside the engines, and parsed once", () => {
  const trace = traceResponse('outlier');
  assert.deepEqual(votedCase({ id: 't', op: 'trace', script: '' }, answered(trace)), { op: 'trace', vote: voteTraces(trace) });
  assert.equal(
    votedCase({ id: 'r', op: 'reflect', probes: [{ selector: '#a', attr: 'preload' }] }, answered(reflectResponse('outlier'))).vote.outlier,
    'chromium',
  );
  const vote = voteGeometry(response('split'));
  const voted = votedCase({ id: 'v', op: 'vote', html: '' }, answered({ id: 'v', vote }));
  assert.deepEqual(voted, { op: 'geometry', vote });
  const request = { id: 'v', op: 'vote' as const, html: '' };
  assert.deepEqual(outcomesOf(request, answered({ id: 'v', vote, errors: { webkit: 'case_timeout: no answer' } })), [
    { engine: 'webkit', version: null, result: null, error: 'case_timeout: no answer', ms: null },
  ]);
  assert.throws(() => votedCase(request, { answer: { id: 'v' } as never, versions: {} }), /carries no vote/);
});

test('an invalid item is recorded with its error and the invalid signature, never voted', () => {
  const record = invalidRecord(
    { ok: false, id: 'line:3', hash: contentHash('nope'), given: 'nope', error: 'invalid_json: the line is not JSON (x)' },
    5,
  );
  assert.deepEqual(
    [record.op, record.verdict, record.signature, record.invalid, record.outcomes, record.attempts],
    [null, null, 'invalid | invalid_json', 'invalid_json: the line is not JSON (x)', [], 0],
  );
});

test('a geometry case is asked as a vote with its dumps and times; a vote request gets them too; reflect and trace ask for their vote', () => {
  assert.deepEqual(wireRequest({ id: 'g', html: '<p>x</p>', script: 's()', engines: ['firefox'], timing: false }), {
    op: 'vote',
    request: { id: 'g', op: 'vote', html: '<p>x</p>', dumps: true, timing: true, script: 's()', engines: ['firefox'] },
  });
  assert.deepEqual(wireRequest({ id: 'v', op: 'vote', html: '', dumps: false }), {
    op: 'vote',
    request: { id: 'v', op: 'vote', html: '', dumps: true, timing: true },
  });
  assert.deepEqual(wireRequest({ id: 'v', op: 'vote', html: '', dumps: true, timing: true }, { dumps: false }), {
    op: 'vote',
    request: { id: 'v', op: 'vote', html: '' },
  });
  const trace = { id: 't', op: 'trace' as const, script: 'trace.value("a", 1)' };
  assert.deepEqual(wireRequest(trace), { op: 'trace', request: { ...trace, vote: true } });
  assert.deepEqual(wireRequest(trace, { dumps: false }), { op: 'trace', request: { ...trace, vote: true } });
  const reflect = { id: 'r', op: 'reflect' as const, probes: [{ selector: 'a', attr: 'href' }] };
  assert.deepEqual(wireRequest(reflect), { op: 'reflect', request: { ...reflect, vote: true } });
});

test("an answer's JSON text goes into the record as it came: the worker's vote and each dump, never re-encoded", () => {
  const request = { id: 'text-line', html: '<!doctype html><p>Hello world</p>' };
  const dumps = response('text-line').dumps;
  const vote = encodeJson(voteGeometry(response('text-line')));
  const texts = Object.fromEntries(Object.entries(dumps).map(([engine, dump]) => [engine, encodeJson(dump)]));
  const record = votedRecord(
    { ok: true, id: request.id, hash: contentHash(request), given: JSON.stringify(request), request },
    { answer: { id: 'text-line', vote, dumps: texts, timing: { firefox: 2.5 } }, versions: { chromium: '1', firefox: '2', webkit: '3' } },
    timing,
  );
  assert.equal(record.vote, vote.text);
  assert.deepEqual(
    record.outcomes.map((o) => [o.engine, o.version, o.result, o.ms]),
    (['chromium', 'firefox', 'webkit'] as const).map((e, i) => [e, String(i + 1), texts[e]!.text, e === 'firefox' ? 2.5 : null]),
  );
  assert.equal(record.signature, 'outlier firefox | size | P | height');
});
