// The Taffy reference candidate: how computed CSS maps onto taffy-layout's Style, what it refuses,
// and whole dumps of small cases whose boxes are worked out by hand below each one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AlignItems, AlignSelf, Display, FlexDirection, Position, type Style } from 'taffy-layout';
import { layOutCase } from '../../src/candidate-reference/engine.js';
import { taffy } from '../../src/candidate-reference/taffy/engine.js';
import { taffyStyle } from '../../src/candidate-reference/taffy/style.js';
import { buildBoxes, type Box } from '../../src/candidate-reference/web/boxes.js';
import { placedByContent } from '../../src/candidate-reference/web/page.js';
import { cascade } from '../../src/candidate-reference/web/cascade.js';
import { parseDocument } from '../../src/candidate-reference/web/document.js';
import { computeStyles } from '../../src/candidate-reference/web/style.js';
import { USER_AGENT_SHEET } from '../../src/candidate-reference/web/user-agent.js';
import { STYLE_PROPERTIES } from '../../src/protocol/common.js';
import type { CandidateAnswer } from '../../src/protocol/candidate-schema.js';

/** The Taffy Style of the element with id `id` in a document of `body`. */
function styleOf(body: string, id: string): Style {
  const document = parseDocument(`<!doctype html><body>${body}</body>`);
  const styled = computeStyles(document, cascade(document, USER_AGENT_SHEET));
  const find = (b: Box): Box | undefined => (b.element?.attributes.get('id') === id ? b : b.children.map(find).find(Boolean));
  const box = find(buildBoxes(document.root, styled, { keepContents: false }))!;
  return taffyStyle(box, { inBlock: false, root: false, parent: box.element!.parent, styles: styled.styles });
}

const run = (html: string, fonts: 'liberation' | 'square' = 'square'): CandidateAnswer => layOutCase(taffy, { id: 'c', html }, fonts);
/** Each node's one fragment (null without a box). */
function rects(answer: CandidateAnswer) {
  assert.ok('dump' in answer, JSON.stringify(answer));
  return answer.dump.nodes.map((n) => n.rects[0] ?? null);
}
const near = (actual: unknown, expected: unknown) => {
  const round = (v: unknown): unknown => JSON.parse(JSON.stringify(v, (_, x) => (typeof x === 'number' ? Math.round(x * 1000) / 1000 : x)));
  assert.deepEqual(round(actual), round(expected));
};

test('web defaults, not Taffy’s: a div is a block, static, unstretched by default alignment', () => {
  const s = styleOf('<div id="d"></div>', 'd');
  assert.equal(s.display, Display.Block, 'Taffy’s own default is flex');
  assert.equal(s.position, Position.Relative);
  assert.deepEqual(s.inset, { top: 'auto', right: 'auto', bottom: 'auto', left: 'auto' }, 'static: insets do nothing');
  assert.equal(s.flexDirection, FlexDirection.Row);
  assert.equal(s.flexShrink, 1);
  assert.equal(s.alignItems, undefined, 'normal');
});

test('lengths, percentages, keywords and alignment map onto the Style', () => {
  const s = styleOf(
    `<div id="d" style="display: flex; position: relative; top: 5px; width: 50%; max-height: none; margin: 0 auto; padding: 1em 0; align-items: safe center; align-self: stretch; gap: 2px 10%"></div>`,
    'd',
  );
  assert.equal(s.display, Display.Flex);
  assert.equal(s.top, 5);
  assert.equal(s.width, '50%');
  assert.equal(s.maxHeight, 'auto');
  assert.deepEqual(s.margin, { top: 0, right: 'auto', bottom: 0, left: 'auto' });
  assert.deepEqual(s.padding, { top: 16, right: 0, bottom: 16, left: 0 });
  assert.equal(s.alignItems, AlignItems.SafeCenter);
  assert.equal(s.alignSelf, AlignSelf.Stretch);
  assert.deepEqual(s.gap, { width: '10%', height: 2 });
  const grid = styleOf(
    `<div id="g" style="display: grid; grid-template-columns: 10px repeat(2, minmax(20px, 1fr)) auto; grid-row: 2 / span 3"></div>`,
    'g',
  );
  assert.deepEqual(grid.gridTemplateColumns, [
    { min: 10, max: 10 },
    { count: 2, tracks: [{ min: 20, max: '1fr' }], lineNames: [] },
    { min: 'auto', max: 'auto' },
  ]);
  assert.deepEqual(grid.gridRow, { start: 2, end: { span: 3 } });
});

test('what taffy-layout would turn into something else is refused first', () => {
  const refuses = (body: string, message: RegExp) =>
    assert.throws(
      () => styleOf(body, 'd'),
      (e: Error) => message.test(e.message),
    );
  refuses('<div id="d" style="width: min-content"></div>', /^width: min-content \(taffy-layout has no intrinsic sizes\)$/);
  refuses('<div id="d" style="display: grid; grid-template-columns: fit-content(50px)"></div>', /^grid-template-columns: fit-content\(\)/);
  refuses('<div id="d" style="order: 1"></div>', /^order: 1/);
  refuses(
    '<div style="width: 100px"><div id="d" style="width: stretch; float: left"></div></div>',
    /^width: stretch \(taffy-layout has no/,
  );
  refuses('<div style="display: flex"><div id="d" style="width: 10px; flex-basis: content"></div></div>', /^flex-basis: content$/);
  refuses(
    '<div style="position: relative"><div id="d" style="position: absolute; top: 0; bottom: 0; height: max-content"></div></div>',
    /^height: max-content/,
  );
  refuses('<div id="d" style="justify-content: left"></div>', /^justify-content: left$/);
  refuses('<div id="d" style="overflow: scroll"></div>', /^overflow-x: scroll$/);
  refuses(
    '<div style="position: relative"><div><div id="d" style="position: fixed"></div></div></div>',
    /^position: fixed \(inside another box\)$/,
  );
  refuses(
    '<div style="position: relative"><div><div id="d" style="position: absolute"></div></div></div>',
    /its containing block is not its parent box/,
  );
});

test('a flex row: grow from a zero basis, margins and padding', () => {
  // The root is 300 + 2 × 10 padding wide, 50 + 20 high, at the body's origin (margin 0). Its items
  // share 300 − 20 (the fixed item) − 20 (margins) = 260 in 1 : 2, at x 10, 10 + 86.667 + 10, 290.
  const answer = run(
    '<!doctype html><style>body { margin: 0 }</style><div style="display: flex; width: 300px; height: 50px; padding: 10px">' +
      '<div style="flex: 1 1 0px"></div><div style="flex: 2 1 0px; margin: 0 10px"></div><div style="width: 20px"></div></div>',
  );
  assert.ok('roots' in answer);
  assert.deepEqual(answer.roots, [4]);
  near(rects(answer), [
    { x: 0, y: 0, w: 800, h: 70 },
    null,
    null,
    { x: 0, y: 0, w: 800, h: 70 },
    { x: 0, y: 0, w: 320, h: 70 },
    { x: 10, y: 10, w: 86.667, h: 50 },
    { x: 106.667, y: 10, w: 173.333, h: 50 },
    { x: 290, y: 10, w: 20, h: 50 },
  ]);
  assert.ok('dump' in answer);
  const [root, item] = [answer.dump.nodes[4]!, answer.dump.nodes[5]!];
  assert.deepEqual(Object.keys(root.style), [...STYLE_PROPERTIES], 'the style subset, in the contract’s order, on every node');
  assert.deepEqual(
    [root.style.display, root.style.width, root.style['padding-top'], root.style['min-width']],
    ['flex', '300px', '10px', '0px'],
  );
  assert.deepEqual([item.style.display, item.style.width, item.style['min-width']], ['block', '86.6667px', 'auto']);
  assert.deepEqual(answer.dump.nodes[1]!.style.display, 'none');
});

test('block boxes: margins collapse, and an absolutely positioned child of the body is placed in the viewport', () => {
  // (html, head, body, then the case.) The body's 8px margin and the root's none collapse: the root
  // is at 8, 8, 200 wide; its children at 8 and 8 + 10 + max(10, 15).
  near(
    rects(
      run(
        '<!doctype html><div style="width: 200px"><div style="height: 10px; margin-bottom: 10px"></div><div style="height: 10px; margin-top: 15px"></div></div>',
      ),
    ).slice(2),
    [
      { x: 8, y: 8, w: 784, h: 35 },
      { x: 8, y: 8, w: 200, h: 35 },
      { x: 8, y: 8, w: 200, h: 10 },
      { x: 8, y: 33, w: 200, h: 10 },
    ],
  );
  // Against the 800 × 600 viewport: 800 − 10 − 400 = 390, 600 − 20 − 100 = 480; with no insets, at the body's content edge.
  near(rects(run('<!doctype html><div style="position: absolute; right: 10px; bottom: 20px; width: 50%; height: 100px"></div>')).slice(3), [
    { x: 390, y: 480, w: 400, h: 100 },
  ]);
  near(rects(run('<!doctype html><div style="position: absolute; width: 10px; height: 10px"></div>')).slice(3), [
    { x: 8, y: 8, w: 10, h: 10 },
  ]);
  assert.match(
    (run('<!doctype html><div></div><div style="position: absolute"></div>') as { unsupported: string }).unsupported,
    /static position/,
  );
});

test('text: a run wraps at its breaks and sizes its box', () => {
  // HH | HHH | HH at 45px: three 10px lines. Without a width the root is a block-level box 784 wide (body margin 8), one line.
  const narrow = run('<!doctype html><div style="display: flex; font-size: 10px; line-height: 1; width: 45px">HH&#8203;HHH HH</div>');
  near(rects(narrow)[3], { x: 8, y: 8, w: 45, h: 30 });
  const wide = run('<!doctype html><div style="display: flex; font-size: 10px; line-height: 1">HH&#8203;HHH HH</div>');
  near(rects(wide)[3], { x: 8, y: 8, w: 784, h: 10 });
  assert.match((run('<!doctype html><div>HH</div>', 'liberation') as { unsupported: string }).unsupported, /^font-family: serif/);
});

test('a root of the body sized by its content is laid out alone, as Taffy’s own fixtures are', () => {
  // A flex row whose item is 200px wide at most 100px: the root's max-content width is 100. Laid out
  // in the definite 800px viewport, taffy-layout 3.0.0 made it 200 (its item's unclamped width).
  const clamped = run(
    '<!doctype html><body style="margin: 0"><div style="position: absolute; display: flex"><div style="width: 200px; max-width: 100px; height: 5px"></div></div>',
  );
  near(rects(clamped).slice(3), [
    { x: 0, y: 0, w: 100, h: 5 },
    { x: 0, y: 0, w: 100, h: 5 },
  ]);
  // Placed by its insets and margins: left 10 + margin 5; from the bottom, 600 − 20 − 3 − 5.
  near(
    rects(
      run('<!doctype html><div style="position: absolute; left: 10px; bottom: 20px; margin: 0 0 3px 5px; width: 7px; height: 5px"></div>'),
    ).slice(3),
    [{ x: 15, y: 572, w: 7, h: 5 }],
  );
});

test('text: an element whose one child is text is measured as one leaf, at its fit-content width', () => {
  // In a 40px grid area, aligned to start: HHH|HHH is wider than 40 unbroken (60) and narrower
  // broken (30), so the element takes the area's 40, in two lines (CSS's fit-content, and Taffy's fixtures').
  const grid = run(
    '<!doctype html><body style="margin: 0"><div style="position: absolute; display: grid; grid-template-columns: 40px; font-size: 10px; line-height: 1"><div style="justify-self: start; align-self: start">HHH&#8203;HHH</div></div>',
  );
  near(rects(grid)[4], { x: 0, y: 0, w: 40, h: 20 });
});

test('which roots are sized by their content alone, and where they go', () => {
  const boxOf = (style: string): Box => {
    const document = parseDocument(`<!doctype html><body><div id="r" style="position: absolute; ${style}"></div></body>`);
    const styled = computeStyles(document, cascade(document, USER_AGENT_SHEET));
    const body = buildBoxes(document.root, styled, { keepContents: false }).children.find((b) => b.element?.name === 'body')!;
    return body.children.find((b) => b.element)!;
  };
  const insetsOf = (box: Box) => ({ top: box.style.top, right: box.style.right, bottom: box.style.bottom, left: box.style.left });
  const place = (style: string) => {
    const box = boxOf(style);
    return placedByContent(box, insetsOf(box));
  };
  assert.equal(place('width: 50%'), null, 'a percentage of the viewport');
  assert.equal(place('left: 0; right: 0'), null, 'an auto width between two insets stretches');
  assert.equal(place('top: 0; bottom: 0'), null, 'an auto height between two insets stretches');
  assert.equal(place('padding-left: 5%'), null);
  const room = place('left: 700px; top: 0; margin-left: 20px')!;
  assert.deepEqual(room(80, 10), { x: 720, y: 0 });
  assert.equal(room(81, 10), null, 'wider than the 80px the viewport leaves it: shrink-to-fit is the room');
  assert.deepEqual(place('right: 10px; bottom: 20px; margin: 0 3px 4px 0')!(50, 40), { x: 800 - 10 - 3 - 50, y: 600 - 20 - 4 - 40 });
});

test('size keywords where CSS makes them auto are laid out as auto: a block box’s stretch width, an absolutely positioned box’s content-based sizes, a content basis', () => {
  // The child fills its 100px line less its 10px margin, as auto would; the root is sized by its content (HHH at 10px: 30 × 10).
  const answer = run(
    '<!doctype html><body style="margin: 0"><div style="width: 100px"><div style="width: stretch; margin-left: 10px; height: 5px"></div></div>' +
      '<div style="position: absolute; top: 20px; width: fit-content; height: max-content; font-size: 10px; line-height: 1">HHH</div>' +
      '<div style="position: absolute; top: 40px; display: flex; width: 50px"><div style="flex-basis: content; flex-grow: 0; height: 3px">HH</div></div>',
  );
  near(rects(answer).slice(3), [
    { x: 0, y: 0, w: 100, h: 5 },
    { x: 10, y: 0, w: 90, h: 5 },
    { x: 0, y: 20, w: 30, h: 10 },
    { x: 0, y: 40, w: 50, h: 3 },
    { x: 0, y: 40, w: 32, h: 3 },
  ]);
});

test('float: inline-start and inline-end float to the start and end of the containing block’s direction', () => {
  const x = (direction: string, value: string) =>
    rects(
      run(
        `<!doctype html><body style="margin: 0"><div style="width: 100px; direction: ${direction}"><div style="float: ${value}; direction: ltr; width: 10px; height: 10px"></div></div>`,
      ),
    )[4]!.x;
  assert.deepEqual([x('ltr', 'inline-start'), x('rtl', 'inline-start'), x('ltr', 'inline-end'), x('rtl', 'inline-end')], [0, 90, 90, 0]);
});

test('a document that would run script in a browser is unsupported: the browsers run it, a reference candidate cannot', () => {
  const refused = (html: string) => (run(`<!doctype html>${html}<div></div>`) as { unsupported?: string }).unsupported;
  assert.equal(
    refused('<script>document.body.style.margin = "20px"</script>'),
    'element: SCRIPT (a reference candidate runs no JavaScript)',
  );
  assert.equal(refused('<script src="x.js"></script>'), 'element: SCRIPT (a reference candidate runs no JavaScript)');
  assert.match(refused('<body onload="f()">')!, /^attribute: onload on BODY/);
  // Markup that runs nothing: an empty script, a data block, a template.
  for (const inert of ['<script></script>', '<script type="application/json">{"a": 1}</script>', '<script type="text/template">x</script>'])
    assert.equal(refused(inert), undefined, inert);
});

test('a degenerate aspect ratio behaves as auto', () => {
  near(rects(run('<!doctype html><body style="margin: 0"><div style="width: 40px; aspect-ratio: 0"></div>')).slice(3), [
    { x: 0, y: 0, w: 40, h: 0 },
  ]);
});
