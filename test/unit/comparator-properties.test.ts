// Properties over generated inputs (fast-check): random well-formed dumps, and recorded
// responses with random perturbations, errors and engine relabellings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ENGINE_NAMES, STYLE_PROPERTIES, type Dump, type EngineName } from '../../src/protocol/schema.js';
import { columnarFromDump } from '../../src/comparator/columnar.js';
import { compare, TOLERANCE } from '../../src/comparator/compare.js';
import { voteGeometry, type EngineDumps } from '../../src/comparator/vote.js';
import type { VoteResult } from '../../src/protocol/vote-schema.js';
import { response, translated, type FixtureName } from '../fixtures/dumps/load.js';

const coordinate = fc.double({ min: -2000, max: 2000, noNaN: true });
const length = fc.double({ min: 0, max: 2000, noNaN: true });
const rect = fc.record({ x: coordinate, y: coordinate, w: length, h: length });

/**
 * A well-formed dump: parents precede children, a node without fragments has the zeroed
 * bounding box the page walk gives it, and the root always has a box, as <html> does.
 */
const arbitraryDump: fc.Arbitrary<Dump> = fc
  .array(
    fc.record({
      parentPick: fc.nat(),
      tag: fc.constantFrom('DIV', 'SPAN', 'P', 'svg'),
      bounding: rect,
      rects: fc.array(rect, { maxLength: 3 }),
      style: fc.array(fc.constantFrom('0px', 'auto', 'block', '12.5px'), {
        minLength: STYLE_PROPERTIES.length,
        maxLength: STYLE_PROPERTIES.length,
      }),
    }),
    { minLength: 1, maxLength: 40 },
  )
  .map((specs) => {
    const nodes: Dump['nodes'] = [];
    specs.forEach((spec, i) => {
      const parent = i === 0 ? -1 : spec.parentPick % i;
      const rects = i === 0 && !spec.rects.length ? [spec.bounding] : spec.rects;
      nodes.push({
        index: i,
        parent,
        tag: spec.tag,
        depth: parent < 0 ? 0 : nodes[parent]!.depth + 1,
        bounding: rects.length ? spec.bounding : { x: 0, y: 0, w: 0, h: 0 },
        rects,
        style: Object.fromEntries(STYLE_PROPERTIES.map((p, s) => [p, spec.style[s]!])),
      });
    });
    return { engine: 'chromium', engine_version: '1', viewport: { width: 800, height: 600 }, overflowed: false, nodes };
  });

test('any dump compared with itself passes with zero deltas', () => {
  fc.assert(
    fc.property(arbitraryDump, (d) => {
      const result = compare(columnarFromDump(d), columnarFromDump(d));
      assert.equal(result.verdict, 'pass');
      assert.deepEqual(result.style_mismatches, []);
      assert.equal(result.summary.sum_abs_delta, 0);
    }),
  );
});

test('translating a whole document changes only the root offset', () => {
  const shift = fc.tuple(fc.double({ min: 0.05, max: 500, noNaN: true }), fc.constantFrom(1, -1)).map(([m, sign]) => m * sign);
  fc.assert(
    fc.property(arbitraryDump, shift, shift, (d, dx, dy) => {
      // Boxless nodes keep their placeholder, so any boxed descendant of one must still measure
      // from a moved ancestor for this to hold.
      const { failures } = compare(columnarFromDump(d), columnarFromDump(translated(d, dx, dy)));
      assert.equal(failures.length, 1);
      const [root] = failures;
      assert.ok(root!.kind === 'offset' && root.index === 0, JSON.stringify(root));
      assert.ok(Math.abs(root.dx - dx) < 1e-9 && Math.abs(root.dy - dy) < 1e-9);
    }),
  );
});

const FIXTURES: FixtureName[] = ['agree', 'text-line', 'split', 'fragment-count', 'rigid-base', 'style-only', 'inline-wrap'];

/** A recorded response, with some engines replaced by errors and one node of one engine resized. */
const arbitraryResponse = fc
  .record({
    name: fc.constantFrom(...FIXTURES),
    errored: fc.subarray([...ENGINE_NAMES], { maxLength: 2 }),
    resized: fc.constantFrom(...ENGINE_NAMES),
    node: fc.nat(),
    dw: fc.constantFrom(0, 0.01, 0.02, -1, 3.5),
  })
  .map(({ name, errored, resized, node, dw }): EngineDumps<Dump> => {
    const r = response(name);
    const target = r.dumps[resized]!;
    target.nodes[node % target.nodes.length]!.bounding.w += dw;
    for (const e of errored) {
      delete r.dumps[e];
      r.errors = { ...r.errors, [e]: 'case_timeout: generated' };
    }
    return r;
  });

/** The vote as it must read once every engine e has been renamed to rename[e]. */
function relabelled(vote: VoteResult, rename: Record<EngineName, EngineName>): VoteResult {
  const pair = (key: string) =>
    key
      .split('~')
      .map((e) => rename[e as EngineName])
      .sort()
      .join('~');
  return {
    verdict: vote.verdict,
    outlier: vote.outlier && rename[vote.outlier],
    majority: vote.majority.map((e) => rename[e]).sort(),
    engines: Object.fromEntries(ENGINE_NAMES.map((e) => [rename[e], vote.engines[e]])) as VoteResult['engines'],
    pairs: Object.fromEntries(Object.entries(vote.pairs).map(([key, p]) => [pair(key), p])),
    nodes: vote.nodes.map((n) => ({ ...n, outlier: n.outlier && rename[n.outlier] })),
  };
}

test('the vote is invariant under permutation of the engines', () => {
  const permutation = fc.shuffledSubarray([...ENGINE_NAMES], { minLength: 3, maxLength: 3 });
  fc.assert(
    fc.property(arbitraryResponse, permutation, (r, order) => {
      const rename = Object.fromEntries(ENGINE_NAMES.map((e, i) => [e, order[i]!])) as Record<EngineName, EngineName>;
      const moved: EngineDumps<Dump> = { dumps: {}, errors: r.errors && {} };
      for (const e of ENGINE_NAMES) {
        if (r.dumps[e]) moved.dumps[rename[e]] = r.dumps[e];
        if (r.errors?.[e]) moved.errors![rename[e]] = r.errors[e];
      }
      assert.deepEqual(voteGeometry(moved), relabelled(voteGeometry(r), rename));
    }),
  );
});

test('a resize within tolerance never changes a vote, one beyond it can (sanity of the generator)', () => {
  const before = voteGeometry(response('agree')).verdict;
  const within = response('agree');
  within.dumps.webkit!.nodes[4]!.bounding.w += TOLERANCE / 2;
  const beyond = response('agree');
  beyond.dumps.webkit!.nodes[4]!.bounding.w += 3.5;
  assert.deepEqual([before, voteGeometry(within).verdict, voteGeometry(beyond).verdict], ['unanimous', 'unanimous', 'outlier']);
});
