// The Yoga reference candidate: Yoga's defaults are not the web's, so the adapter sets every
// property to what the page means; what Yoga cannot express is refused; and whole dumps of small
// cases whose boxes are worked out by hand beside each one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Yoga, { Align, Display, FlexDirection, Justify, PositionType, Unit } from 'yoga-layout';
import { layOutCase } from '../../src/candidate-reference/engine.js';
import { yoga } from '../../src/candidate-reference/yoga/engine.js';
import { setYogaStyle } from '../../src/candidate-reference/yoga/style.js';
import { buildBoxes, type Box } from '../../src/candidate-reference/web/boxes.js';
import { cascade } from '../../src/candidate-reference/web/cascade.js';
import { parseDocument } from '../../src/candidate-reference/web/document.js';
import { computeStyles } from '../../src/candidate-reference/web/style.js';
import { USER_AGENT_SHEET } from '../../src/candidate-reference/web/user-agent.js';
import type { CandidateAnswer } from '../../src/protocol/candidate-schema.js';

/** A Yoga node set up from the element with id `id` in a document of `body`. */
function nodeOf(body: string, id: string) {
  const document = parseDocument(`<!doctype html><body>${body}</body>`);
  const styled = computeStyles(document, cascade(document, USER_AGENT_SHEET));
  const find = (b: Box): Box | undefined => (b.element?.attributes.get('id') === id ? b : b.children.map(find).find(Boolean));
  const box = find(buildBoxes(document.root, styled, { keepContents: true }))!;
  const node = Yoga.Node.create();
  setYogaStyle(node, box, { parentWrap: 'nowrap', inBlock: false, root: false });
  return node;
}

const run = (html: string): CandidateAnswer => layOutCase(yoga, { id: 'c', html }, 'square');
function rects(answer: CandidateAnswer) {
  assert.ok('dump' in answer, JSON.stringify(answer));
  return answer.dump.nodes.map((n) => n.rects[0] ?? null);
}
const near = (actual: unknown, expected: unknown) => {
  const round = (v: unknown): unknown => JSON.parse(JSON.stringify(v, (_, x) => (typeof x === 'number' ? Math.round(x * 1000) / 1000 : x)));
  assert.deepEqual(round(actual), round(expected));
};

test('what a page means, not what Yoga assumes: a row, shrinking, static, align-content normal', () => {
  const node = nodeOf('<div id="d" style="display: flex"></div>', 'd');
  assert.equal(node.getFlexDirection(), FlexDirection.Row, 'Yoga’s default is a column');
  assert.equal(node.getFlexShrink(), 1, 'Yoga’s default is 0');
  assert.equal(node.getPositionType(), PositionType.Static, 'Yoga’s default is relative');
  assert.equal(node.getAlignContent(), Align.Stretch, 'normal is stretch in flexbox; Yoga’s default is flex-start');
  assert.equal(node.getAlignItems(), Align.Stretch);
  assert.equal(node.getJustifyContent(), Justify.FlexStart);
  node.free();
});

test('start and end follow the writing mode, flex-start and flex-end the flex lines', () => {
  const row = nodeOf(
    '<div id="d" style="display: flex; flex-direction: row-reverse; justify-content: start; align-items: end; flex-wrap: wrap-reverse"></div>',
    'd',
  );
  assert.equal(row.getJustifyContent(), Justify.FlexEnd, 'start of a reversed row is its flex-end');
  assert.equal(row.getAlignItems(), Align.FlexStart, 'end of wrap-reverse lines is their flex-start');
  row.free();
  const sized = nodeOf('<div id="d" style="display: flex; width: 40%; margin: auto 3px; flex: 2 1 10px"></div>', 'd');
  assert.deepEqual(sized.getWidth(), { unit: Unit.Percent, value: 40 });
  assert.deepEqual(sized.getFlexBasis(), { unit: Unit.Point, value: 10 });
  assert.equal(sized.getFlexGrow(), 2);
  sized.free();
  const contents = nodeOf('<div style="display: flex"><div id="d" style="display: contents"></div></div>', 'd');
  assert.equal(contents.getDisplay(), Display.Contents, 'Yoga lays out display: contents itself');
  contents.free();
});

test('what Yoga cannot express is refused', () => {
  const refuses = (body: string, message: RegExp) =>
    assert.throws(
      () => nodeOf(body, 'd'),
      (e: Error) => message.test(e.message),
    );
  refuses('<div id="d" style="display: grid"></div>', /^display: grid/);
  refuses('<div id="d"><div></div></div>', /^display: block \(Yoga lays out flex containers/);
  refuses('<div id="d" style="display: flex; order: 2"></div>', /^order: 2/);
  refuses('<div id="d" style="display: flex; justify-content: safe center"></div>', /no safe alignment/);
  refuses('<div id="d" style="display: flex; overflow: clip"></div>', /^overflow: clip$/);
  refuses('<div id="d" style="display: flex; height: max-content"></div>', /^height: max-content/);
  assert.match((run('<!doctype html>text in the body') as { unsupported: string }).unsupported, /^text in the body/);
});

test('a flex column in the body: block-level, margins collapsed with the body’s', () => {
  // The body's 8px top margin collapses with the root's 20px: the root at y 20; it fills the body's
  // 784px line less its 10px side margins, at x 18. Its items: a 30px and a growing one sharing 100px.
  near(
    rects(
      run(
        '<!doctype html><div style="display: flex; flex-direction: column; height: 100px; margin: 20px 10px">' +
          '<div style="height: 30px"></div><div style="flex-grow: 1; margin: 0 auto; width: 50px"></div></div>',
      ),
    ).slice(2),
    [
      { x: 8, y: 20, w: 784, h: 100 },
      { x: 18, y: 20, w: 764, h: 100 },
      { x: 18, y: 20, w: 764, h: 30 },
      { x: 375, y: 50, w: 50, h: 70 },
    ],
  );
});

test('an absolutely positioned child of the body, against the viewport; text as a measured leaf', () => {
  // 800 − 40 − 25% of 800 = 560 from the left; 10% of 600 from the top; its text: HH | HH at 25px, 2 lines of 10px.
  const answer = run(
    '<!doctype html><div style="display: flex; position: absolute; right: 40px; top: 10%; width: 25%; font-size: 10px; line-height: 1">' +
      '<div style="display: flex; width: 25px">HH HH</div></div>',
  );
  near(rects(answer).slice(3), [
    { x: 560, y: 60, w: 200, h: 20 },
    { x: 560, y: 60, w: 25, h: 20 },
  ]);
  assert.ok('roots' in answer);
  assert.deepEqual(answer.roots, [3]);
});

test('the body is static: an absolutely positioned box in a static child of the body is sized and placed against the viewport', () => {
  // 50% of 800 by 50% of 600, at the static position: the root's content edge (its padding 1px, 6px). Yoga's own test of
  // this fixture (static_position_static_root) lays the root out alone, as the containing block; the browsers do not.
  const answer = run(
    '<!doctype html><body style="margin: 0"><div style="display: flex; width: 100px; height: 200px; padding: 1px 0 0 6px">' +
      '<div style="position: absolute; width: 50%; height: 50%"></div></div>',
  );
  near(rects(answer).slice(3), [
    { x: 0, y: 0, w: 106, h: 201 },
    { x: 6, y: 1, w: 400, h: 300 },
  ]);
});

test('size keywords where CSS makes them auto are laid out as auto; a degenerate aspect ratio is auto', () => {
  const answer = run(
    '<!doctype html><body style="margin: 0"><div style="position: absolute; display: flex; width: 50px; height: max-content">' +
      '<div style="flex-basis: content; width: auto; height: 10px; aspect-ratio: 0; font-size: 10px; line-height: 1">HH</div></div>',
  );
  near(rects(answer).slice(3), [
    { x: 0, y: 0, w: 50, h: 10 },
    { x: 0, y: 0, w: 20, h: 10 },
  ]);
});
