// Bucket signatures on the recorded responses (geometry, trace, reflect), and on variants derived
// from them where no recording has the situation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { voteGeometry } from '../../src/comparator/vote.js';
import { voteTraces } from '../../src/comparator/trace-vote.js';
import { voteReflect } from '../../src/comparator/reflect-vote.js';
import { bucketOf, errorCode, invalidSignature, signatureOf, type VotedCase } from '../../src/comparator/signature.js';
import type { Dump } from '../../src/protocol/schema.js';
import type { EngineDumps } from '../../src/comparator/vote.js';
import { dump, response, type FixtureName } from '../fixtures/dumps/load.js';
import { traceResponse, type TraceFixtureName } from '../fixtures/traces/load.js';
import { reflectResponse, type ReflectFixtureName } from '../fixtures/reflect/load.js';

const signature = (c: VotedCase) => {
  const bucket = bucketOf(c);
  return bucket && signatureOf(bucket);
};
const geometry = (r: EngineDumps<Dump>) => signature({ op: 'geometry', vote: voteGeometry(r) });

test('recorded geometry responses', () => {
  const expected: Record<FixtureName, string | null> = {
    agree: null,
    'rigid-base': null,
    'rigid-moved': null,
    'shape-a': null,
    'shape-b': null,
    'style-only': null,
    'text-line': 'outlier firefox | size | P | height',
    split: 'split | size | DIV | width,height',
    'inline-wrap': 'split | size | SPAN | -',
    'fragment-count': 'split | fragment_count | SPAN | -',
    'engine-error': 'insufficient | firefox script_error',
    overflow: 'insufficient | chromium discarded, firefox discarded, webkit discarded',
  };
  for (const [name, want] of Object.entries(expected)) assert.equal(geometry(response(name as FixtureName)), want, name);
});

test('recorded trace responses', () => {
  const expected: Record<TraceFixtureName, string | null> = {
    agree: null,
    canvas: null,
    count: 'trace split | count_mismatch | -',
    insufficient: 'trace insufficient | webkit absent',
    outlier: 'trace outlier firefox | value | fn',
    split: 'trace split | value | ua',
  };
  for (const [name, want] of Object.entries(expected)) {
    assert.equal(signature({ op: 'trace', vote: voteTraces(traceResponse(name as TraceFixtureName)) }), want, name);
  }
});

test('recorded reflect responses', () => {
  const expected: Record<ReflectFixtureName, string | null> = {
    unanimous: null,
    outlier: 'reflect outlier chromium | preload | preload',
    split: 'reflect split | closedby | closedBy',
    'engine-error': 'reflect insufficient | webkit script_error',
  };
  for (const [name, want] of Object.entries(expected)) {
    assert.equal(signature({ op: 'reflect', vote: voteReflect(reflectResponse(name as ReflectFixtureName)) }), want, name);
  }
});

test('the first node is the innermost failing one, not the root every height difference reaches', () => {
  const vote = voteGeometry(response('text-line'));
  assert.deepEqual(
    vote.nodes.map((n) => n.tag),
    ['HTML', 'BODY', 'P'],
  );
  const bucket = bucketOf({ op: 'geometry', vote })!;
  assert.deepEqual(bucket.first, { index: 4, kind: 'size', subjects: ['P'], details: ['height'] });
  assert.equal(bucket.maxDelta, 1, "Gecko's line is 1 px taller");
});

test('a failing node with a failing child is passed over, and is first once the child agrees (derived: text-line, firefox BODY wider)', () => {
  // The rule reads the tree, not the deltas: BODY is passed over while P fails, though its width difference is its own.
  const r = response('text-line');
  const body = r.dumps.firefox!.nodes[3]!;
  body.bounding.w += 3;
  body.rects[0]!.w += 3;
  const vote = voteGeometry(r);
  assert.deepEqual(bucketOf({ op: 'geometry', vote })!.first?.subjects, ['P'], 'BODY still has a failing child');
  // Without P's failure, BODY is innermost.
  const p = r.dumps.firefox!.nodes[4]!;
  p.bounding.h = p.rects[0]!.h = r.dumps.chromium!.nodes[4]!.bounding.h;
  p.style.height = r.dumps.chromium!.nodes[4]!.style.height;
  assert.equal(geometry(r), 'outlier firefox | size | BODY | height');
});

test('an offset alone is kind offset (derived: agree with firefox moving the last inner div right)', () => {
  const r = response('agree');
  const div = r.dumps.firefox!.nodes[6]!;
  div.bounding.x += 1;
  div.rects[0]!.x += 1;
  assert.equal(geometry(r), 'outlier firefox | offset | DIV | -');
});

test('of the innermost failing nodes, one whose own size differs comes before an earlier one that only moved (derived: agree)', () => {
  // A size difference moves the siblings around it too, earlier ones included (centred,
  // end-aligned, reversed); the one that grew is where the difference starts.
  const r = response('agree');
  const [moved, grew] = [r.dumps.firefox!.nodes[5]!, r.dumps.firefox!.nodes[6]!];
  moved.bounding.x += 1;
  moved.rects[0]!.x += 1;
  grew.bounding.w += 2;
  grew.rects[0]!.w += 2;
  const bucket = bucketOf({ op: 'geometry', vote: voteGeometry(r) })!;
  assert.equal(signatureOf(bucket), 'outlier firefox | size | DIV | -');
  assert.equal(bucket.first?.index, 6);
});

test('a different DOM is kind shape, naming the tags either side of the divergence', () => {
  const r = response('shape-a');
  r.dumps.firefox = dump('shape-b', 'firefox');
  const bucket = bucketOf({ op: 'geometry', vote: voteGeometry(r) })!;
  assert.equal(signatureOf(bucket), 'outlier firefox | shape | DIV/P | -');
  assert.equal(bucket.first?.index, 6);
  assert.equal(bucket.maxDelta, null, 'no geometry was compared');

  const shorter = response('agree');
  shorter.dumps.webkit!.nodes.pop();
  assert.equal(geometry(shorter), 'outlier webkit | shape | (end)/DIV | -');
});

test('the signature does not depend on the order of engines in the response', () => {
  for (const name of ['text-line', 'split', 'fragment-count', 'engine-error'] as const) {
    const r = response(name);
    const reversed = { dumps: Object.fromEntries(Object.entries(r.dumps).reverse()), errors: r.errors };
    assert.equal(geometry(reversed), geometry(r), name);
  }
});

test('insufficient names each engine that did not vote, in engine order', () => {
  const r = response('agree');
  delete r.dumps.chromium;
  delete r.dumps.webkit;
  r.errors = { webkit: 'case_timeout: no answer from webkit within 30000 ms', chromium: 'something without a code' };
  assert.equal(geometry(r), 'insufficient | chromium error, webkit case_timeout');
});

test('a whole-trace failure comes before any record (derived: the outlier recording, firefox timed out)', () => {
  const r = traceResponse('outlier');
  r.traces.firefox!.timed_out = true;
  assert.equal(signature({ op: 'trace', vote: voteTraces(r) }), 'trace outlier firefox | timed_out | -');
});

test('client-chosen labels become one short line', () => {
  const r = traceResponse('outlier');
  for (const t of Object.values(r.traces)) t.records[0]!.label = `a label\nover two lines and ${'long '.repeat(20)}`;
  const line = signature({ op: 'trace', vote: voteTraces(r) })!;
  assert.equal(line, 'trace outlier firefox | value | a label over two lines and long long lo…');

  const differing = traceResponse('split');
  differing.traces.webkit!.records[0]!.label = '';
  assert.equal(signature({ op: 'trace', vote: voteTraces(differing) }), 'trace split | record | ""/ua');
});

test('error codes and invalid corpus items', () => {
  assert.equal(errorCode('engine_crashed: firefox died'), 'engine_crashed');
  assert.equal(errorCode('Error: no code here'), 'error');
  assert.equal(invalidSignature('invalid_json: the line is not JSON (Unexpected token)'), 'invalid | invalid_json');
});
