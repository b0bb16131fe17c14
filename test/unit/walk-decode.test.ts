// A walk's way in: the page writes each tag and style value once and indexes it; the decoder checks
// every index and length before it rebuilds the lists a dump is made of.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeWalkText } from '../../src/protocol/page-output.js';
import { OracleError } from '../../src/protocol/errors.js';
import { STYLE_PROPERTIES } from '../../src/protocol/common.js';

const tampered = (error: unknown) => error instanceof OracleError && error.code === 'page_tampered';
const S = STYLE_PROPERTIES.length;

/** A two-node walk as the page writes it: HTML > BODY, every style value "block" except BODY's last, "0px". */
function pageWalk(change: Record<string, unknown> = {}): string {
  return JSON.stringify({
    viewport: [800, 600],
    ratio: 1,
    overflowed: false,
    scrollbars: [0, 0],
    strings: ['HTML', 'block', 'BODY', '0px'],
    tags: [0, 2],
    parents: [-1, 0],
    bounding: [0, 0, 800, 600, 8, 8, 784, 0],
    rectCounts: [1, 0],
    rects: [0, 0, 800, 600],
    styles: [...Array(S).fill(1), ...Array(S - 1).fill(1), 3],
    scriptCapable: false,
    loadMs: 1,
    walkMs: 1,
    ...change,
  });
}

test('a walk is rebuilt with its tags and style values looked up', () => {
  const answer = decodeWalkText(pageWalk());
  assert.ok('walk' in answer);
  assert.deepEqual(answer.walk.tags, ['HTML', 'BODY']);
  assert.deepEqual(answer.walk.styles, [...Array(2 * S - 1).fill('block'), '0px']);
  assert.deepEqual(answer.walk.rects, [0, 0, 800, 600]);
  assert.ok(!('strings' in answer.walk));
});

test('a walk that indexes past its strings, or is inconsistent, is page_tampered', () => {
  const bad = {
    'a tag past the table': { tags: [0, 4] },
    'a style past the table': { styles: [...Array(2 * S - 1).fill(1), 9] },
    'a negative index': { tags: [0, -1] },
    'a fractional index': { tags: [0, 1.5] },
    'a tag index that names an empty string': { strings: ['HTML', 'block', '', '0px'] },
    'styles of another length': { styles: Array(S).fill(1) },
    'a parent after its child': { parents: [-1, 1] },
    'fragments that disagree with their counts': { rectCounts: [2, 0] },
    'strings that are not strings': { strings: ['HTML', 'block', 'BODY', 0] },
  };
  for (const [what, change] of Object.entries(bad)) assert.throws(() => decodeWalkText(pageWalk(change)), tampered, what);
});

test("the relayout check's second walk is decoded as a walk of its own, and nothing else is taken for one", () => {
  const second = JSON.parse(pageWalk({ bounding: [0, 0, 800, 600, 8, 8, 700, 0] }));
  const answer = decodeWalkText(pageWalk({ relayout: second }));
  assert.ok('walk' in answer);
  assert.deepEqual(answer.walk.relayout?.bounding, [0, 0, 800, 600, 8, 8, 700, 0]);
  assert.deepEqual(answer.walk.relayout?.tags, ['HTML', 'BODY']);
  assert.equal(answer.walk.relayout?.relayout, undefined);
  assert.ok(!('relayout' in (decodeWalkText(pageWalk()) as { walk: object }).walk));
  const bad = {
    'a relayout of its own': { ...second, relayout: second },
    'a too-large answer': { tooLarge: { nodes: 9 } },
    'a walk with an index past its strings': { ...second, tags: [0, 4] },
    'not a walk': 'walk',
  };
  for (const [what, relayout] of Object.entries(bad)) assert.throws(() => decodeWalkText(pageWalk({ relayout })), tampered, what);
});
