// The published JSON Schema compiles in Ajv 8's 2020-12 dialect in strict mode, accepts every
// recorded answer and request kind, and rejects what the oracle rejects. Real answers of every
// kind, straight from an oracle process, are checked in test/e2e/published-schema.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compilePublishedSchema, schemaErrors } from '../support/published-schema.js';
import { vote } from '../../src/api/judge.js';
import { reflectResponse } from '../fixtures/reflect/load.js';
import { traceResponse } from '../fixtures/traces/load.js';

const { request, response } = compilePublishedSchema();

const FIXTURES = new URL('../../../test/fixtures/', import.meta.url);

test('every recorded answer (geometry, reflect, trace) is a Response', () => {
  let checked = 0;
  for (const kind of ['dumps', 'reflect', 'traces']) {
    const dir = new URL(`${kind}/`, FIXTURES);
    for (const name of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
      const answer: unknown = JSON.parse(readFileSync(fileURLToPath(new URL(name, dir)), 'utf8'));
      assert.equal(schemaErrors(response, answer), '', `${kind}/${name}`);
      checked++;
    }
  }
  assert.ok(checked >= 20, `only ${checked} recordings found`);
});

test('every request kind is a Request; the oneOf picks exactly one definition', () => {
  for (const line of [
    { id: 'g', html: '<p>', engines: ['webkit'], script: '1', timing: true },
    { id: 'v', op: 'vote', html: '<p>', dumps: true },
    { id: 'r', op: 'reflect', probes: [{ selector: '#a', attr: 'maxlength', idl: 'maxLength' }] },
    { id: 't', op: 'trace', script: 'trace.done()' },
    { id: 'i', op: 'screenshot', html: '<p>', script: '1', engines: ['firefox'] },
    { id: 'p', op: 'ping' },
    { id: 's', op: 'shutdown' },
  ]) {
    assert.equal(schemaErrors(request, line), '', JSON.stringify(line));
  }
});

test('trace and reflect answers that asked for their vote are Responses, and so is a request that asks', () => {
  for (const [name, answer] of [
    ['trace', traceResponse('outlier')],
    ['reflect', reflectResponse('outlier')],
  ] as const) {
    const voted = { ...answer, vote: JSON.parse(JSON.stringify(vote(answer))) as unknown };
    assert.equal(schemaErrors(response, voted), '', name);
  }
  assert.equal(schemaErrors(request, { id: 't', op: 'trace', script: 'trace.done()', vote: true }), '');
  assert.equal(schemaErrors(request, { id: 'r', op: 'reflect', probes: [{ selector: '#a', attr: 'href' }], vote: true }), '');
});

test('the shutdown, screenshot and error replies are Responses', () => {
  assert.equal(schemaErrors(response, { id: 's', ok: true }), '');
  assert.equal(schemaErrors(response, { id: 'i', images: { webkit: 'iVBORw0KGgo=' }, errors: { firefox: 'script_error: x' } }), '');
  assert.equal(schemaErrors(response, { id: null, error: 'invalid_json: the line is not JSON' }), '');
});

test('what the oracle rejects, the schema rejects', () => {
  for (const line of [
    { id: 'g', html: '<p>', extra: 1 },
    { id: 'g', html: '<p>', engines: [] },
    { id: 'g', html: '<p>', engines: ['presto'] },
    { id: 7, op: 'ping' },
    { id: 'x', op: 'launch' },
    { id: 'r', op: 'reflect', probes: [] },
  ]) {
    assert.notEqual(schemaErrors(request, line), '', JSON.stringify(line));
  }
  assert.notEqual(schemaErrors(response, { id: 'p', ok: true, engines: ['chromium'] }), '');
});
