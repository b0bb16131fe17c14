// The contract's comparison rules, on dumps recorded from the real engines. Where a test needs
// a variant no engine produced (one width off by 0.01 px, a whole document shifted), it
// derives it from a recording in code and says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINE_NAMES, type Dump } from '../../src/protocol/schema.js';
import { columnarFromDump } from '../../src/comparator/columnar.js';
import { compare, TOLERANCE } from '../../src/comparator/compare.js';
import { columnar, dump, translated } from '../fixtures/dumps/load.js';

const cmp = (a: Dump, b: Dump) => compare(columnarFromDump(a), columnarFromDump(b));

test('engines that agree pass with zero deltas, every check counted', () => {
  for (const [x, y] of [
    ['chromium', 'firefox'],
    ['chromium', 'webkit'],
    ['firefox', 'webkit'],
  ] as const) {
    const result = compare(columnar('agree', x), columnar('agree', y));
    assert.equal(result.verdict, 'pass', `${x} vs ${y}`);
    assert.deepEqual(result.failures, []);
    // 7 nodes × (w, h, fragment count) + 5 boxed nodes × 1 fragment × (w, h) + 5 boxed × (dx, dy).
    assert.deepEqual(result.summary, { nodes: 7, compared: 41, failed: 0, sum_abs_delta: 0, max_abs_delta: 0 });
  }
});

test('a width 0.01 px off passes, 0.02 px off fails (derived: one recorded width perturbed)', () => {
  const a = dump('agree', 'chromium');
  const near = dump('agree', 'chromium');
  near.nodes[5]!.bounding.w += 0.01;
  const nearResult = cmp(a, near);
  assert.equal(nearResult.verdict, 'pass');
  assert.ok(Math.abs(nearResult.summary.max_abs_delta - 0.01) < 1e-9, 'the passing delta still shows in the summary');

  const far = dump('agree', 'chromium');
  far.nodes[5]!.bounding.w -= 0.02;
  const farResult = cmp(a, far);
  assert.equal(farResult.verdict, 'fail');
  assert.equal(farResult.failures.length, 1);
  const [failure] = farResult.failures;
  assert.equal(failure!.kind, 'size');
  assert.equal(failure!.index, 5);
  assert.ok(failure!.kind === 'size' && Math.abs(failure.dw + 0.02) < 1e-9 && failure.dh === 0, 'dw is signed b − a');
  assert.equal(farResult.summary.failed, 1);
});

test('a delta of exactly the tolerance passes; the next step up fails (derived: HEAD width 0 → 1/60)', () => {
  const a = dump('agree', 'chromium');
  assert.equal(a.nodes[1]!.bounding.w, 0, 'HEAD has no box, so width 0 plus the tolerance is exact');
  const at = dump('agree', 'chromium');
  at.nodes[1]!.bounding.w = TOLERANCE;
  assert.equal(cmp(a, at).verdict, 'pass');
  const above = dump('agree', 'chromium');
  above.nodes[1]!.bounding.w = 0.0167;
  assert.deepEqual(cmp(a, above).failures, [{ index: 1, kind: 'size', dw: 0.0167, dh: 0 }]);
});

test("Gecko's 19px line against Blink's 18px: signed deltas per box and fragment, with sum and max", () => {
  const result = compare(columnar('text-line', 'chromium'), columnar('text-line', 'firefox'));
  assert.equal(result.verdict, 'fail');
  assert.deepEqual(result.failures, [
    { index: 0, kind: 'size', dw: 0, dh: 1 },
    { index: 0, kind: 'fragment', fragment: 0, dw: 0, dh: 1 },
    { index: 3, kind: 'size', dw: 0, dh: 1 },
    { index: 3, kind: 'fragment', fragment: 0, dw: 0, dh: 1 },
    { index: 4, kind: 'size', dw: 0, dh: 1 },
    { index: 4, kind: 'fragment', fragment: 0, dw: 0, dh: 1 },
  ]);
  assert.equal(result.summary.sum_abs_delta, 6);
  assert.equal(result.summary.max_abs_delta, 1);
  const reversed = compare(columnar('text-line', 'firefox'), columnar('text-line', 'chromium'));
  assert.deepEqual(
    reversed.failures.map((f) => f.kind === 'size' && f.dh),
    [-1, false, -1, false, -1, false],
  );
  assert.deepEqual(reversed.summary, result.summary);
});

test("each fragment's size is compared on its own (derived: one fragment widened by 0.5 px)", () => {
  const a = dump('inline-wrap', 'chromium');
  assert.equal(a.nodes[5]!.rects.length, 3, 'the span wraps into three fragments');
  const b = dump('inline-wrap', 'chromium');
  b.nodes[5]!.rects[1]!.w += 0.5;
  assert.deepEqual(cmp(a, b).failures, [{ index: 5, kind: 'fragment', fragment: 1, dw: 0.5, dh: 0 }]);
});

test('a different fragment count is its own failure, and those fragments are not paired up', () => {
  const result = compare(columnar('fragment-count', 'chromium'), columnar('fragment-count', 'webkit'));
  const atSpan = result.failures.filter((f) => f.index === 5);
  assert.deepEqual(
    atSpan.find((f) => f.kind === 'fragment_count'),
    { index: 5, kind: 'fragment_count', a: 2, b: 1 },
  );
  assert.equal(atSpan.filter((f) => f.kind === 'fragment').length, 0);
});

test('a rigidly moved subtree is one offset failure, at its root, in every engine', () => {
  for (const engine of ENGINE_NAMES) {
    const base = dump('rigid-base', engine);
    const moved = dump('rigid-moved', engine);
    assert.deepEqual(cmp(base, moved).failures, [{ index: 5, kind: 'offset', dx: 13, dy: 7 }], engine);
    // Node 9 (display:contents) has no box, only a zeroed placeholder: measured from it, its
    // child <u> (node 10) would look moved too. The <u> measures from the nearest box instead.
    const fromParent = (d: Dump, i: number) => d.nodes[i]!.bounding.x - d.nodes[d.nodes[i]!.parent]!.bounding.x;
    assert.deepEqual(base.nodes[9]!.rects, []);
    assert.notEqual(fromParent(base, 10), fromParent(moved, 10), 'the recording has the case the anchor rule exists for');
  }
});

test('the root is measured from the viewport origin (derived: whole document shifted by (5, −3))', () => {
  const a = dump('agree', 'chromium');
  assert.deepEqual(cmp(a, translated(a, 5, -3)).failures, [{ index: 0, kind: 'offset', dx: 5, dy: -3 }]);
});

test('a DOM shape difference is a parse divergence at its first index, and nothing else is compared', () => {
  // shape-b's firefox dump also has 19px text lines elsewhere: still no geometry is reported.
  const result = compare(columnar('shape-a', 'chromium'), columnar('shape-b', 'firefox'));
  assert.deepEqual(result, {
    verdict: 'parse_divergence',
    failures: [],
    style_mismatches: [],
    summary: { nodes: 0, compared: 0, failed: 0, sum_abs_delta: 0, max_abs_delta: 0 },
    divergence: { index: 6, a: { tag: 'DIV', depth: 2, parent: 3 }, b: { tag: 'P', depth: 3, parent: 4 } },
  });
});

test('a dump that ends early, or one renamed tag, diverges too (derived from a recording)', () => {
  const a = dump('agree', 'chromium');
  const short = dump('agree', 'chromium');
  short.nodes.pop();
  assert.deepEqual(cmp(a, short).divergence, { index: 6, a: { tag: 'DIV', depth: 3, parent: 4 }, b: null });
  const renamed = dump('agree', 'chromium');
  renamed.nodes[5]!.tag = 'SECTION';
  assert.equal(cmp(a, renamed).divergence?.index, 5);
});

test('an overflowed dump is discarded, never passed — not even against itself', () => {
  const overflowed = columnar('overflow', 'chromium');
  assert.equal(compare(overflowed, overflowed).verdict, 'discarded');
  assert.equal(compare(columnar('agree', 'webkit'), columnar('overflow', 'webkit')).verdict, 'discarded');
  const flagged = dump('agree', 'chromium');
  flagged.overflowed = true;
  const result = cmp(dump('agree', 'chromium'), flagged);
  assert.equal(result.verdict, 'discarded');
  assert.equal(result.summary.compared, 0);
});

test('style mismatches are reported on their own and do not fail the geometry', () => {
  const result = compare(columnar('style-only', 'chromium'), columnar('style-only', 'firefox'));
  assert.equal(result.verdict, 'pass');
  assert.deepEqual(result.style_mismatches, [{ index: 4, property: 'width', a: '100.297px', b: '100.3px' }]);
  assert.ok(result.summary.max_abs_delta > 0, 'the sub-tolerance width difference is still in the deltas');
});

test('dumps interned by another tag table (e.g. cloned from another thread) are refused', () => {
  const a = columnar('agree', 'chromium');
  assert.throws(() => compare(a, structuredClone(a)), /different tag tables/);
});
