// The geometry vote over a response's engines, on recorded responses; mixed responses (one
// engine's dump taken from another recording) are derived in code where no single recording
// has the situation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { voteColumnar, voteGeometry, columnarResponse } from '../../src/comparator/vote.js';
import { columnarFromRaw } from '../../src/comparator/columnar.js';
import { ENGINE_NAMES } from '../../src/protocol/schema.js';
import { dump, rawFromDump, response } from '../fixtures/dumps/load.js';

const usable = { status: 'usable' };

test('engines that agree are unanimous', () => {
  const vote = voteGeometry(response('agree'));
  assert.equal(vote.verdict, 'unanimous');
  assert.equal(vote.outlier, null);
  assert.deepEqual(vote.majority, ['chromium', 'firefox', 'webkit']);
  assert.deepEqual(vote.engines, { chromium: usable, firefox: usable, webkit: usable });
  assert.deepEqual(Object.keys(vote.pairs), ['chromium~firefox', 'chromium~webkit', 'firefox~webkit']);
  assert.deepEqual(vote.nodes, []);
});

test("Gecko's taller text line makes Firefox the outlier, node by node", () => {
  const vote = voteGeometry(response('text-line'));
  assert.equal(vote.verdict, 'outlier');
  assert.equal(vote.outlier, 'firefox');
  assert.deepEqual(vote.majority, ['chromium', 'webkit']);
  assert.deepEqual(Object.fromEntries(Object.entries(vote.pairs).map(([pair, p]) => [pair, p.verdict])), {
    'chromium~firefox': 'fail',
    'chromium~webkit': 'pass',
    'firefox~webkit': 'fail',
  });
  // HTML, BODY and P are taller in Gecko (so is their computed height); HEAD and STYLE have no box.
  assert.deepEqual(vote.nodes, [
    { index: 0, tag: 'HTML', parent: -1, outlier: 'firefox', kinds: ['size', 'fragment'], styles: ['height'] },
    { index: 3, tag: 'BODY', parent: 0, outlier: 'firefox', kinds: ['size', 'fragment'], styles: ['height'] },
    { index: 4, tag: 'P', parent: 3, outlier: 'firefox', kinds: ['size', 'fragment'], styles: ['height'] },
  ]);
});

test('three different widths are a split', () => {
  const vote = voteGeometry(response('split'));
  assert.equal(vote.verdict, 'split');
  assert.equal(vote.outlier, null);
  assert.deepEqual(vote.majority, []);
  // At the inline-block all three widths differ; no engine is the odd one out there.
  assert.deepEqual(
    vote.nodes.find((n) => n.index === 4),
    {
      index: 4,
      tag: 'DIV',
      parent: 3,
      outlier: null,
      kinds: ['size', 'fragment'],
      styles: ['width', 'height'],
    },
  );
});

test('a node-level outlier can differ from the document-level verdict', () => {
  // fragment-count: WebKit fits the text on one line (outlier at the ancestors' heights),
  // while at the span all three engines differ.
  const vote = voteGeometry(response('fragment-count'));
  assert.equal(vote.verdict, 'split');
  assert.equal(vote.nodes.find((n) => n.index === 4)?.outlier, 'webkit');
  assert.deepEqual(
    vote.nodes.find((n) => n.index === 5),
    {
      index: 5,
      tag: 'SPAN',
      parent: 4,
      outlier: null,
      kinds: ['size', 'fragment', 'fragment_count', 'offset'],
      styles: [],
    },
  );
});

test('an engine that errored does not vote: two usable engines are insufficient', () => {
  const vote = voteGeometry(response('engine-error'));
  assert.equal(vote.verdict, 'insufficient');
  assert.deepEqual(vote.engines, {
    chromium: usable,
    firefox: { status: 'error', error: 'script_error: Error: recorded failure' },
    webkit: usable,
  });
  assert.equal(vote.pairs['chromium~webkit']?.verdict, 'pass', 'the two that agree are still not a pass');
  assert.deepEqual(vote.majority, []);
});

test('overflowed documents are discarded: nothing votes', () => {
  const vote = voteGeometry(response('overflow'));
  assert.equal(vote.verdict, 'insufficient');
  assert.deepEqual(vote.engines, { chromium: { status: 'discarded' }, firefox: { status: 'discarded' }, webkit: { status: 'discarded' } });
  assert.deepEqual(vote.pairs, {});
});

test('an engine missing from the response is absent and does not vote (derived: webkit removed)', () => {
  const r = response('agree');
  delete r.dumps.webkit;
  const vote = voteGeometry(r);
  assert.equal(vote.verdict, 'insufficient');
  assert.deepEqual(vote.engines.webkit, { status: 'absent' });
});

test('one engine with a different DOM is the outlier (derived: firefox dump from another document)', () => {
  const r = response('shape-a');
  r.dumps.firefox = dump('shape-b', 'firefox');
  const vote = voteGeometry(r);
  assert.equal(vote.verdict, 'outlier');
  assert.equal(vote.outlier, 'firefox');
  assert.deepEqual(vote.pairs['chromium~firefox']?.divergence?.index, 6);
});

test('style mismatches alone do not break unanimity, and list no node', () => {
  const vote = voteGeometry(response('style-only'));
  assert.equal(vote.verdict, 'unanimous');
  assert.deepEqual(vote.nodes, []);
});

test("a failing node's styles skip px values within tolerance (derived: style-only with Gecko's div 1 px wider)", () => {
  // The recording's computed widths are 100.297px (Blink, WebKit) and 100.3px (Gecko): layout units, not a difference.
  const widened = (width?: string) => {
    const r = response('style-only');
    const div = r.dumps.firefox!.nodes[4]!;
    div.bounding.w += 1;
    div.rects[0]!.w += 1;
    if (width) div.style.width = width;
    return voteGeometry(r).nodes;
  };
  assert.deepEqual(
    widened().map((n) => [n.tag, n.outlier, n.kinds, n.styles]),
    [['DIV', 'firefox', ['size', 'fragment'], []]],
  );
  assert.deepEqual(widened('101.3px')[0]?.styles, ['width']);
});

test('the vote does not depend on the order of engines in the response', () => {
  for (const name of ['text-line', 'split', 'engine-error', 'fragment-count'] as const) {
    const r = response(name);
    const reversed = { dumps: Object.fromEntries(Object.entries(r.dumps).reverse()), errors: r.errors };
    assert.deepEqual(voteGeometry(reversed), voteGeometry(r), name);
  }
});

test('the columnar entry point on raw walks gives the same vote as the wire form', () => {
  const r = response('text-line');
  const dumps = Object.fromEntries(ENGINE_NAMES.map((e) => [e, columnarFromRaw(rawFromDump(r.dumps[e]!), e)]));
  assert.deepEqual(voteColumnar({ dumps }), voteColumnar(columnarResponse(r)));
});
