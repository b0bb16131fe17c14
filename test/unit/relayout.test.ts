// The relayout check, one engine held to itself: the comparator's own rules and tolerance between
// the walk the page had and the walk after a fresh layout, overflow included, and its bucket. The
// second walk is derived from a recording (a box perturbed, as a fresh layout would move it) where
// no recording has the situation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { columnarFromDump } from '../../src/comparator/columnar.js';
import { checkRelayout } from '../../src/comparator/relayout.js';
import { relayoutBucket, signatureOf } from '../../src/comparator/signature.js';
import type { Dump } from '../../src/protocol/schema.js';
import { dump } from '../fixtures/dumps/load.js';

const check = (walked: Dump, fresh: Dump) => checkRelayout(columnarFromDump(walked), columnarFromDump(fresh));

/** `d` with node `i` narrower by `dw` px, as its box and its computed width. */
function narrowed(d: Dump, i: number, dw: number): Dump {
  const copy = structuredClone(d);
  const node = copy.nodes[i]!;
  node.bounding.w -= dw;
  for (const r of node.rects) r.w -= dw;
  node.style.width = `${Number.parseFloat(node.style.width) - dw}px`;
  return copy;
}

test('the same walk twice passes, with nothing listed', () => {
  const d = dump('agree', 'webkit');
  const result = check(d, d);
  assert.equal(result.verdict, 'pass');
  assert.deepEqual(result.nodes, []);
  assert.equal(result.summary.failed, 0);
});

test('a box the fresh layout gives another width fails, the node listed with both walks of it (derived)', () => {
  const walked = dump('agree', 'webkit');
  const result = check(walked, narrowed(walked, 5, 2));
  assert.equal(result.verdict, 'fail');
  assert.deepEqual(result.nodes, [
    {
      index: 5,
      tag: 'DIV',
      parent: 4,
      kinds: ['size', 'fragment'],
      styles: [{ property: 'width', walked: '88px', fresh: '86px' }],
      walked: { bounding: { x: 25, y: 25, w: 88, h: 30 }, rects: [{ x: 25, y: 25, w: 88, h: 30 }] },
      fresh: { bounding: { x: 25, y: 25, w: 86, h: 30 }, rects: [{ x: 25, y: 25, w: 86, h: 30 }] },
    },
  ]);
  assert.equal(result.summary.max_abs_delta, 2);
});

test('within the comparator’s tolerance is a pass: 0.01 px is quantization (derived)', () => {
  const walked = dump('agree', 'webkit');
  assert.equal(check(walked, narrowed(walked, 5, 0.01)).verdict, 'pass');
});

test('an overflowed walk is compared, not discarded: both walks have the one engine’s scrollbars (derived)', () => {
  const walked = dump('overflow', 'webkit');
  assert.ok(walked.overflowed);
  assert.equal(check(walked, walked).verdict, 'pass');
  assert.equal(check(walked, narrowed(walked, 4, 3)).verdict, 'fail');
});

test('walks of two different trees are a parse divergence, nothing compared', () => {
  const result = check(dump('shape-a', 'webkit'), dump('shape-b', 'webkit'));
  assert.equal(result.verdict, 'parse_divergence');
  assert.ok(result.divergence);
  assert.deepEqual(result.nodes, []);
});

test('a failing check is a bucket of its own: self <engine> | relayout | <tag> | <styles>', () => {
  const walked = dump('agree', 'webkit');
  assert.equal(relayoutBucket('webkit', check(walked, walked)), null);
  const bucket = relayoutBucket('webkit', check(walked, narrowed(walked, 5, 2)))!;
  assert.equal(signatureOf(bucket), 'self webkit | relayout | DIV | width');
  assert.equal(bucket.maxDelta, 2);
  const moved = structuredClone(walked);
  moved.nodes[6]!.bounding.y += 5;
  moved.nodes[6]!.rects[0]!.y += 5;
  assert.equal(signatureOf(relayoutBucket('firefox', check(walked, moved))!), 'self firefox | relayout | DIV | -');
  const diverged = relayoutBucket('chromium', check(dump('shape-a', 'chromium'), dump('shape-b', 'chromium')))!;
  assert.match(signatureOf(diverged), /^self chromium \| shape \| /);
});
