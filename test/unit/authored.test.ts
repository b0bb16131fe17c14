// The authored expectations of check-layout pages: each attribute's value derived from a dump (a
// candidate's: offsets against CSSOM View's offset parent), judged at WPT's rule, node agreement
// on a page whose prose splits the browsers, and a candidate judged on what they agree on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { STYLE_PROPERTIES, type Dump, type EngineName } from '../../src/protocol/schema.js';
import type { AuthoredReading } from '../../src/protocol/authored-schema.js';
import type { VoteResult } from '../../src/protocol/vote-schema.js';
import { columnarFromDump, type ColumnarDump } from '../../src/comparator/columnar.js';
import { derivedNumber, offsetParentOf } from '../../src/comparator/authored-derive.js';
import { agreedAgainst, holds, judgeReading } from '../../src/comparator/authored.js';
import { agreedOn, disagreements } from '../../src/comparator/node-agreement.js';
import { judgeAuthoredCandidate } from '../../src/comparator/authored-candidate.js';
import { voteColumnar } from '../../src/comparator/vote.js';
import { aloneNodes, proseReading } from '../support/prose-page.js';

type Style = Partial<Record<(typeof STYLE_PROPERTIES)[number], string>>;
/** A node: tag, parent, border box [x, y, w, h] (none: no box), style beyond display:block, position:static, 0px everywhere. */
type N = [tag: string, parent: number, box: [number, number, number, number] | null, style?: Style];

const BASE: Style = Object.fromEntries(
  STYLE_PROPERTIES.map((p) => [p, p.endsWith('width') || p.startsWith('margin') || p.startsWith('padding') ? '0px' : '']),
);
Object.assign(BASE, { display: 'block', position: 'static', 'overflow-x': 'visible', 'overflow-y': 'visible' });

function dump(nodes: readonly N[], engine: EngineName | 'cand' = 'chromium'): ColumnarDump {
  const depth: number[] = [];
  const d = {
    engine,
    engine_version: '1',
    viewport: { width: 800, height: 600 },
    overflowed: false,
    nodes: nodes.map(([tag, parent, box, style], index) => {
      depth[index] = parent < 0 ? 0 : depth[parent]! + 1;
      const rect = box ? { x: box[0], y: box[1], w: box[2], h: box[3] } : { x: 0, y: 0, w: 0, h: 0 };
      return { index, parent, tag, depth: depth[index]!, bounding: rect, rects: box ? [rect] : [], style: { ...BASE, ...style } };
    }),
  };
  return columnarFromDump(d as Dump);
}

const PAGE: N[] = [
  ['HTML', -1, [0, 0, 800, 300]],
  ['BODY', 0, [8, 8, 784, 284]],
  [
    'DIV',
    1,
    [8, 8, 300, 100],
    { position: 'relative', 'border-left-width': '5px', 'border-top-width': '3px', 'border-right-width': '5px' },
  ],
  ['DIV', 2, [23, 21, 50, 20], { 'padding-right': '4px' }],
  ['DIV', 3, [23, 21, 90, 10]],
  ['TABLE', 1, [8, 120, 200, 50]],
  ['TD', 5, [10, 122, 100, 40]],
  ['SPAN', 6, [12, 124, 30, 18], { display: 'inline' }],
  ['DIV', 2, [400, 0, 10, 10], { position: 'fixed' }],
  ['DIV', 2, null, { display: 'none' }],
  ['SPAN', 6, [40, 130, 10, 10], { display: 'inline', position: 'absolute' }],
];

test('offset parents from a dump: positioned ancestor, BODY, TD for a static box, null for fixed, no box, HTML and BODY', () => {
  const d = dump(PAGE);
  assert.equal(offsetParentOf(d, 3), 2, 'the nearest positioned ancestor');
  assert.equal(offsetParentOf(d, 4), 2);
  assert.equal(offsetParentOf(d, 2), 1, 'BODY');
  assert.equal(offsetParentOf(d, 7), 6, 'a static box in a cell: the TD');
  assert.equal(offsetParentOf(d, 10), 1, 'a positioned one skips the cell for BODY');
  assert.equal(offsetParentOf(d, 8), -1, 'fixed');
  assert.equal(offsetParentOf(d, 9), -1, 'no box');
  assert.equal(offsetParentOf(d, 0), -1);
  assert.equal(offsetParentOf(d, 1), -1);
});

test('each attribute derived from a dump', () => {
  const d = dump(PAGE);
  const v = (i: number, name: Parameters<typeof derivedNumber>[2]) => derivedNumber(d, i, name).value;
  assert.equal(v(3, 'offsetWidth'), 50);
  assert.equal(v(3, 'offsetHeight'), 20);
  assert.equal(v(3, 'offsetLeft'), 10, "inside the offset parent's left border: 23 − 8 − 5");
  assert.equal(v(3, 'offsetTop'), 10, '21 − 8 − 3');
  assert.equal(v(2, 'offsetLeft'), 8, 'against BODY: the viewport');
  assert.equal(v(7, 'offsetLeft'), 2, 'against the TD');
  assert.equal(v(9, 'offsetLeft'), 0, 'no box');
  assert.equal(v(2, 'clientWidth'), 290, 'less both borders');
  assert.equal(v(2, 'clientLeft'), 5);
  assert.equal(v(2, 'clientTop'), 3);
  assert.equal(v(7, 'clientWidth'), 0, 'a non-replaced inline');
  assert.equal(v(0, 'clientWidth'), 800, 'the root: the viewport');
  assert.equal(v(0, 'clientHeight'), 600);
  assert.equal(v(3, 'bcrWidth'), 50);
  const scroll = derivedNumber(d, 3, 'scrollWidth');
  assert.deepEqual(scroll, { value: 94, approximate: true }, 'the child reaches 90 px past the padding edge, plus 4 px end padding');
});

test("WPT's rule: under 1 px, NaN fails, strings equal, padding without its unit", () => {
  assert.equal(holds('data-expected-width', '100', 100.9), true);
  assert.equal(holds('data-expected-width', '100', 101), false);
  assert.equal(holds('data-expected-width', '100', null), false, 'undefined (an SVG element) fails');
  assert.equal(holds('data-expected-width', 'abc', 0), false);
  assert.equal(holds('data-expected-display', 'flex', 'flex'), true);
  assert.equal(holds('data-expected-padding-top', '10', '10px'), true);
  assert.equal(holds('data-expected-padding-top', '10', '10.5px'), false);
});

const reading = (offsetWidth: number): AuthoredReading => ({
  elements: [
    { index: 3, attrs: { 'data-expected-width': '50', 'data-offset-x': '10' }, values: { offsetWidth, offsetLeft: 10 }, offset_parent: 2 },
    { index: 4, attrs: { 'data-total-x': '15' }, values: { clientLeft: 5, offsetLeft: 10 }, offset_parent: 2 },
  ],
  unknown_keys: [{ index: 4, name: 'data-expect-width' }],
});

test('a reading judged: failures name the element, the attribute, the expectation and the value; an unknown key fails', () => {
  const t = judgeReading(reading(52), () => 'DIV');
  assert.equal(t.pass, 2);
  assert.equal(t.fail, 2);
  assert.deepEqual(t.failures[0], { index: 3, tag: 'DIV', attr: 'data-expected-width', expected: '50', actual: 52 });
  assert.equal(t.failures[1]!.attr, 'data-expect-width');
  const agreed = agreedAgainst([t, judgeReading(reading(52.5), () => 'DIV'), judgeReading(reading(52), () => 'DIV')]);
  assert.deepEqual(
    agreed.map((f) => f.attr),
    ['data-expected-width', 'data-expect-width'],
    'all three fail alike: a finding of its own',
  );
  assert.deepEqual(agreedAgainst([t, judgeReading(reading(50), () => 'DIV'), t]), [t.failures[1]], 'one engine holds: not agreed against');
});

/** The page with prose above the elements under test: each engine's prose is its own height. */
const withProse = (proseHeight: number, engine: EngineName | 'cand'): ColumnarDump => {
  const shift = proseHeight - 18;
  return dump(
    [
      ['HTML', -1, [0, 0, 800, 200 + shift]],
      ['BODY', 0, [8, 8, 784, 184 + shift]],
      ['P', 1, [8, 8, 784, proseHeight]],
      ['DIV', 1, [8, 40 + shift, 300, 100], { position: 'relative', display: 'flex' }],
      ['DIV', 3, [8, 40 + shift, 100, 50]],
      ['DIV', 3, [108, 40 + shift, 200, 100]],
    ],
    engine,
  );
};

const readingOf = proseReading;

function prosePage() {
  const dumps = { chromium: withProse(18, 'chromium'), firefox: withProse(19, 'firefox'), webkit: withProse(18, 'webkit') };
  const vote = voteColumnar({ dumps }) as VoteResult;
  const readings = { chromium: readingOf(), firefox: readingOf(), webkit: readingOf() };
  return { dumps, vote, readings };
}

test('node agreement: the prose splits the page, the elements under test are still agreed on', () => {
  const { vote } = prosePage();
  assert.equal(vote.verdict, 'outlier');
  const bits = disagreements(vote, 6)!;
  assert.equal(agreedOn(bits, 2), false, 'the prose');
  assert.equal(agreedOn(bits, 0), false, 'the root grows with it');
  assert.equal(agreedOn(bits, 3, ['size']), true, 'the container keeps its size');
  assert.equal(agreedOn(bits, 3), false, 'but moves');
  for (const i of [4, 5]) assert.equal(agreedOn(bits, i), true, `element ${i} under test`);
});

test('a candidate that cannot lay out the prose is judged on its roots, the agreed nodes inside them', () => {
  const { dumps, vote, readings } = prosePage();
  // Laid out alone: the container at the origin, its children inside it, the first `first` px wide.
  const alone = (first: number) => dump(aloneNodes(first), 'cand');
  const result = judgeAuthoredCandidate(alone(100), dumps, vote, readings, { roots: [3], placed: false });
  assert.equal(result.verdict, 'pass');
  assert.deepEqual(
    result.judged,
    { nodes: 2, skipped_split: 1, out_of_scope: 3, assertions: 6, approximate: 0 },
    'the moved container keeps its agreed size',
  );
  assert.equal(result.authored.pass, 6);

  const failed = judgeAuthoredCandidate(alone(150), dumps, vote, readings, { roots: [3], placed: false });
  assert.equal(failed.verdict, 'fail');
  assert.deepEqual(
    failed.authored.failures.map((f) => [f.index, f.attr, f.actual]),
    [
      [4, 'data-expected-width', 150],
      [5, 'data-expected-width', 150],
      [5, 'data-offset-x', 150],
    ],
  );
});

test('nothing agreed inside the roots: unsupported, never a pass', () => {
  const { dumps, vote, readings } = prosePage();
  const prose = dump(
    PAGE.slice(0, 0).concat([
      ['HTML', -1, null],
      ['BODY', 0, null],
      ['P', 1, [0, 0, 784, 18]],
      ['DIV', 1, null],
      ['DIV', 3, null],
      ['DIV', 3, null],
    ]),
    'cand',
  );
  const result = judgeAuthoredCandidate(prose, dumps, vote, readings, { roots: [2], placed: false });
  assert.equal(result.verdict, 'unsupported');
  assert.equal(result.judged.nodes, 0);
  assert.equal(result.authored.pass + result.authored.fail, 0);
});

test("the report's block names the WPT path and each subject's failing assertions", async () => {
  const { authoredBlock } = await import('../../src/report/authored-block.js');
  const failure = { index: 4, tag: 'DIV', attr: 'data-expected-width', expected: '301', actual: 300 };
  const text = authoredBlock('css/css-flexbox/<b>.html', [
    { subject: 'chromium', name: null, pass: 2, fail: 1, failures: JSON.stringify([failure]) },
    { subject: 'candidate', name: 'taffy', pass: 0, fail: 0, failures: '[]' },
  ]).text;
  assert.match(text, /WPT check-layout page <code>css\/css-flexbox\/&lt;b&gt;\.html<\/code>/);
  assert.match(text, /<th>chromium<\/th><td>2 hold<\/td><td>1 fail<\/td>/);
  assert.match(text, /<code>data-expected-width<\/code><\/td><td>expected 301, got 300/);
  assert.match(text, /<th>candidate taffy<\/th>/);
});
