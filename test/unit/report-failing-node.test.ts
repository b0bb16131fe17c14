// The node a report highlights is the one the bucket's signature names, with the comparator's
// signed deltas there; checked on the recorded responses and on variants derived from them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bucketOf } from '../../src/comparator/signature.js';
import { voteGeometry, type EngineDumps } from '../../src/comparator/vote.js';
import type { Dump } from '../../src/protocol/schema.js';
import { failingNode } from '../../src/report/failing-node.js';
import { response, type FixtureName } from '../fixtures/dumps/load.js';
import { DUMP_REQUESTS } from '../fixtures/dumps/requests.js';

const nodeOf = (r: EngineDumps<Dump>) => failingNode(voteGeometry(r), r.dumps);

test('on every recording, the highlighted node is the one the signature names (none when no usable pair fails)', () => {
  let named = 0;
  for (const name of Object.keys(DUMP_REQUESTS) as FixtureName[]) {
    const r = response(name);
    const vote = voteGeometry(r);
    const first = bucketOf({ op: 'geometry', vote })?.first ?? null;
    const node = failingNode(vote, r.dumps);
    assert.equal(node?.index ?? null, first?.index ?? null, name);
    assert.equal(node?.kind ?? null, first?.kind ?? null, name);
    if (node) named++;
  }
  assert.ok(named >= 4, 'the recordings have findings to name');
});

test("text-line: Firefox's taller P, with each failing pair's signed deltas and each engine's height", () => {
  const r = response('text-line');
  const node = nodeOf(r)!;
  const { chromium, firefox, webkit } = r.dumps;
  const p = (d: Dump | undefined) => d!.nodes[node.index]!;
  assert.equal(p(chromium).tag, 'P');
  assert.deepEqual([node.kind, node.tags, node.outlier], ['size', ['P'], 'firefox']);
  assert.deepEqual(
    node.pairs.map(({ a, b }) => `${a}~${b}`),
    ['chromium~firefox', 'firefox~webkit'],
    'the pair that agrees is not listed',
  );
  const size = node.pairs[0]!.failures.find((f) => f.kind === 'size');
  assert.deepEqual(size, { index: node.index, kind: 'size', dw: 0, dh: p(firefox).bounding.h - p(chromium).bounding.h });
  assert.notEqual(size.dh, 0);
  assert.deepEqual(node.styles, [
    {
      property: 'height',
      values: { chromium: p(chromium).style.height, firefox: p(firefox).style.height, webkit: p(webkit).style.height },
    },
  ]);
  assert.deepEqual(node.divergences, []);
});

test('documents that part ways: the node where they do, each diverging pair with its tags, no deltas (derived: shape-a against shape-b)', () => {
  const a = response('shape-a');
  const b = response('shape-b');
  const node = nodeOf({ dumps: { chromium: a.dumps.chromium!, firefox: b.dumps.firefox!, webkit: b.dumps.webkit! } })!;
  assert.equal(node.kind, 'shape');
  const tag = (d: Dump | undefined) => d!.nodes[node.index]?.tag ?? null;
  assert.deepEqual(node.divergences, [
    { a: 'chromium', b: 'firefox', tags: [tag(a.dumps.chromium), tag(b.dumps.firefox)] },
    { a: 'chromium', b: 'webkit', tags: [tag(a.dumps.chromium), tag(b.dumps.webkit)] },
  ]);
  assert.deepEqual(node.pairs, []);
});

test('an insufficient vote still shows where its usable pair fails (derived: text-line, WebKit failing)', () => {
  const r = response('text-line');
  const vote = voteGeometry({ dumps: { chromium: r.dumps.chromium!, firefox: r.dumps.firefox! }, errors: { webkit: 'case_timeout: x' } });
  assert.equal(vote.verdict, 'insufficient');
  const node = failingNode(vote, r.dumps)!;
  assert.equal(node.index, nodeOf(r)!.index);
  assert.deepEqual(
    node.pairs.map(({ a, b }) => `${a}~${b}`),
    ['chromium~firefox'],
  );
});
