// The reference candidates' layout of a case after its mutations, in the engine tree they laid the
// original out in (docs/candidate.md, "Mutations"): it agrees with the mutated document laid out
// from scratch, and Yoga's kept nodes are changed through Yoga's own incremental API, only where
// something changed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node } from 'yoga-layout';
import { layOutCase, type LayoutEngine } from '../../src/candidate-reference/engine.js';
import { taffy } from '../../src/candidate-reference/taffy/engine.js';
import { yoga } from '../../src/candidate-reference/yoga/engine.js';
import { KeptNodes, YogaTree } from '../../src/candidate-reference/yoga/nodes.js';
import type { CandidateAnswer } from '../../src/protocol/candidate-schema.js';
import type { Mutation } from '../../src/protocol/mutations-schema.js';

const rects = (answer: CandidateAnswer | { nodes: { rects: unknown[] }[] }) => {
  const dump = 'nodes' in answer ? answer : 'dump' in answer ? answer.dump : assert.fail(JSON.stringify(answer));
  return dump.nodes.map((n) => n.rects);
};

// html 0, head 1, body 2, #a 3, #b 4, #c 5, #d 6.
const ORIGINAL =
  '<!doctype html><div id="a" style="display: flex; width: 300px; font-size: 10px; line-height: 1">' +
  '<div id="b" style="width: 100px; flex-shrink: 0">HH</div><div id="c" style="flex-grow: 1">HH HH</div><div id="d" style="width: 40px"></div></div>';
const MUTATIONS: Mutation[] = [
  // A property back to its default: a kept node must lose it, not just keep what it was given.
  { op: 'style', node: 4, property: 'width', value: null },
  { op: 'text', node: 5, value: 'HHHH HH HHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHH' },
  { op: 'remove', node: 6 },
  { op: 'insert', parent: 3, position: 0, html: '<div style="width: 20px; height: 5px"></div>' },
  { op: 'style', node: 3, property: 'flex-direction', value: 'row-reverse' },
];
const MUTATED =
  '<!doctype html><div id="a" style="display: flex; width: 300px; font-size: 10px; line-height: 1; flex-direction: row-reverse">' +
  '<div style="width: 20px; height: 5px"></div><div id="b" style="flex-shrink: 0">HH</div>' +
  '<div id="c" style="flex-grow: 1">HHHH HH HHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHH</div></div>';

for (const engine of [taffy, yoga] as LayoutEngine[]) {
  test(`${engine.name}: declares mutations, and its layout in its kept tree after them is the mutated document's from scratch`, () => {
    assert.equal(engine.supports('square').mutations, true);
    const answer = layOutCase(engine, { id: 'm', html: ORIGINAL, mutations: MUTATIONS }, 'square');
    assert.ok('fresh' in answer && answer.fresh, JSON.stringify(answer));
    const alone = layOutCase(engine, { id: 'f', html: MUTATED }, 'square');
    assert.deepEqual(rects(answer.fresh), rects(alone));
    assert.deepEqual(rects(answer), rects(alone));
    // The mutations changed something, or the test would hold of a candidate that kept its old boxes.
    assert.notDeepEqual(rects(layOutCase(engine, { id: 'o', html: ORIGINAL }, 'square')).slice(3), rects(alone).slice(3));
  });
}

/** A kept tree: `a` over `b` (and `c` where `cIn` says), `b` over a text leaf; `styleB` writes b's style. */
function build(kept: KeptNodes, o: { styleB: (n: Node) => void; cIn: 'a' | 'b'; text: string }) {
  const leaf = kept.nodes.leaf('t', () => undefined, { words: [o.text.length * 10], breaks: [0], lineHeight: 10, wraps: true });
  const c = kept.nodes.container('c', (n) => n.setHeight(7), []);
  const b = kept.nodes.container('b', o.styleB, o.cIn === 'b' ? [leaf, c] : [leaf]);
  const a = kept.nodes.container('a', (n) => n.setWidth(200), o.cIn === 'a' ? [b, c] : [b]);
  return { a, b, c, leaf };
}

test('yoga: kept nodes are the same nodes, marked dirty where their style, text or children changed, and nowhere else', () => {
  const tree = new YogaTree();
  try {
    const kept = new KeptNodes(tree);
    const wide = (n: Node) => n.setWidth(50);
    const first = build(kept, { styleB: wide, cIn: 'a', text: 'HH' });
    first.a.calculateLayout(undefined, undefined);
    const same = build(kept, { styleB: wide, cIn: 'a', text: 'HH' });
    assert.equal(same.a, first.a);
    assert.equal(same.leaf, first.leaf);
    assert.equal(same.a.isDirty(), false, 'nothing changed: nothing dirty');

    // b's width removed (Yoga's default): copied onto the kept node, which a setter left unset would miss.
    const unset = build(kept, { styleB: () => undefined, cIn: 'a', text: 'HH' });
    assert.equal(unset.b.isDirty(), true);
    assert.equal(unset.c.isDirty(), false, 'a sibling whose style did not change stays clean');
    unset.a.calculateLayout(undefined, undefined);
    assert.equal(unset.b.getComputedWidth(), 200, 'b stretches in a column, its width gone');

    const text = build(kept, { styleB: () => undefined, cIn: 'a', text: 'HHHH' });
    assert.equal(text.leaf.isDirty(), true, 'a text that changed marks its leaf dirty');
    text.a.calculateLayout(undefined, undefined);
    assert.equal(text.leaf.getComputedHeight(), 10);

    // c moves from a to b: out of one, into the other, each once.
    const moved = build(kept, { styleB: () => undefined, cIn: 'b', text: 'HHHH' });
    assert.equal(moved.a.getChildCount(), 1);
    assert.equal(moved.b.getChildCount(), 2);
    moved.a.calculateLayout(undefined, undefined);
    assert.equal(moved.a.getComputedHeight(), 17, 'b holds the text line and c');
  } finally {
    tree.free();
  }
});
