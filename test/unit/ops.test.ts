// The registry of ops (src/protocol/ops.ts) and what is derived from it: every op's descriptor is
// consistent with its schemas, answers come out in their schema's order, a campaign's form of each
// corpus op is a valid request of the op it is sent as, and the library's methods and the workers'
// tasks are one per case op.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TSchema } from '@sinclair/typebox';
import { Oracle } from '../../src/api/oracle.js';
import { wireRequest } from '../../src/campaign/loop/case-record.js';
import {
  CASE_OPS,
  CORPUS_OPS,
  OP_NAMES,
  OPS,
  UNNAMED_OP,
  inAnswerOrder,
  namesItsOp,
  type CorpusOp,
  type RequestOf,
} from '../../src/protocol/ops.js';
import { ENGINE_NAMES } from '../../src/protocol/schema.js';
import { checkRequest } from '../../src/protocol/validate.js';
import { encodeJson } from '../../src/protocol/wire.js';
import { TASKS } from '../../src/workers/tasks/index.js';

const propertiesOf = (schema: TSchema) => Object.keys((schema.properties ?? {}) as Record<string, TSchema>);

test('each descriptor agrees with its schemas: id first, one op without an op field, results a per-engine field before errors', () => {
  assert.deepEqual(
    OP_NAMES.filter((op) => !namesItsOp(op)),
    [UNNAMED_OP],
  );
  for (const op of OP_NAMES) {
    const { request, response, results, document } = OPS[op];
    assert.equal(propertiesOf(response)[0], 'id', op);
    assert.equal(propertiesOf(request)[0], 'id', op);
    if (namesItsOp(op)) assert.equal((request.properties as Record<string, TSchema>).op!.const, op, `${op}: its request's op is its name`);
    if (results === null) {
      assert.equal(document, null, `${op}: an op that runs a case answers per engine`);
      continue;
    }
    const fields = propertiesOf(response);
    assert.deepEqual(propertiesOf(response.properties[results as keyof typeof response.properties] as TSchema), [...ENGINE_NAMES], op);
    assert.ok(fields.indexOf(results) < fields.indexOf('errors'), `${op}: errors after the results`);
  }
});

test("an answer's fields come out in its response schema's order, each engine's in engine order, undefined ones left out", () => {
  const vote = encodeJson({ verdict: 'unanimous' });
  const ordered = inAnswerOrder('vote', {
    timing: { webkit: 3, chromium: 1 },
    errors: { webkit: 'case_timeout: x', firefox: 'script_error: y' },
    dumps: undefined,
    vote: vote as never,
  });
  assert.deepEqual(Object.keys(ordered), ['vote', 'errors', 'timing']);
  assert.deepEqual(Object.keys(ordered.errors as object), ['firefox', 'webkit']);
  assert.deepEqual(Object.keys(ordered.timing as object), ['chromium', 'webkit']);
  assert.equal(ordered.vote, vote, 'JSON text stays as it is');
});

test('a campaign sends each corpus op as a valid request of the op it names, whose answer carries the vote', () => {
  const examples: { [K in CorpusOp]: RequestOf<K> } = {
    geometry: { id: 'g', html: '<p>' },
    vote: { id: 'v', op: 'vote', html: '<p>', dumps: false },
    reflect: { id: 'r', op: 'reflect', probes: [{ selector: '#a', attr: 'href' }] },
    trace: { id: 't', op: 'trace', script: 'trace.done()' },
  };
  assert.deepEqual(Object.keys(examples), [...CORPUS_OPS]);
  for (const op of CORPUS_OPS)
    for (const dumps of [true, false]) {
      const sent = wireRequest(examples[op], { dumps });
      const parsed = checkRequest(sent.request);
      assert.ok(parsed.ok, `${op}: ${parsed.ok ? '' : parsed.error.wireText}`);
      assert.equal(parsed.op, sent.op);
      assert.ok(propertiesOf(OPS[sent.op].response).includes('vote'), `${op} is sent as ${sent.op}, whose answer has a vote`);
    }
});

test('the library has one method per case op, and the workers one task per case op', () => {
  for (const op of CASE_OPS) assert.equal(typeof (Oracle.prototype as unknown as Record<string, unknown>)[op], 'function', op);
  assert.equal((Oracle.prototype as unknown as Record<string, unknown>).ping, undefined, 'a control op is no method');
  assert.deepEqual(Object.keys(TASKS).sort(), [...CASE_OPS].sort());
});
