// No generated tree puts an in-flow block inside an inline box, or has an empty inline box: the
// rules on hand-made trees, then on generated documents read back from the DOM, before and after
// their scripts run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { generateCases } from '../../src/campaign/generator/generator.js';
import { hasInlineTrouble, hostFor } from '../../src/campaign/generator/inline-boxes.js';
import type { ElementNode } from '../../src/campaign/generator/tree.js';

let next = 0;
/** An element from `tag`, an inline style and children. */
function el(tag: string, style = '', ...children: (ElementNode | string)[]): ElementNode {
  const declarations = style
    .split(';')
    .filter(Boolean)
    .map((d) => d.split(':') as [string, string]);
  return { id: `t${next++}`, tag, declarations, children };
}
const root = (...children: ElementNode[]) => el('div', 'position:relative', ...children);

test('a block, flex, grid or flow-root box in flow directly inside an inline box is block-in-inline', () => {
  for (const display of ['', 'display:block', 'display:flex', 'display:grid', 'display:flow-root']) {
    assert.ok(hasInlineTrouble(root(el('span', '', 'x', el('div', display)))), display || 'div');
  }
  assert.ok(hasInlineTrouble(root(el('span', '', el('em', '', 'x', el('section'))))), 'nested inlines');
  assert.ok(hasInlineTrouble(root(el('span', '', 'x', el('b', 'display:contents', el('div'))))), 'through display:contents');
  assert.ok(hasInlineTrouble(root(el('div', 'display:inline', 'x', el('div')))), 'a div made inline');
});

test('inline-level, out-of-flow, hidden and blockified boxes are not', () => {
  const fine: [string, ElementNode][] = [
    ['inline-level children', el('span', '', el('div', 'display:inline-block'), el('div', 'display:inline-flex'), el('b', '', 'x'))],
    ['a float', el('span', '', 'x', el('div', 'float:left'))],
    ['an absolutely positioned box', el('span', '', 'x', el('div', 'position:absolute'))],
    ['a fixed box', el('span', '', 'x', el('div', 'position:fixed'))],
    ['an inline that floats', el('span', 'float:right', el('div'))],
    ['an inline that is a flex item', el('div', 'display:flex', el('span', '', el('div')))],
    ['an inline that is a grid item', el('div', 'display:inline-grid', el('span', '', el('div')))],
    ['a hidden block', el('span', '', 'x', el('div', 'display:none'))],
    ['under a hidden inline', el('div', 'display:none', el('span', '', el('div')))],
    ['blocks in blocks', el('div', '', el('section', '', el('div', 'display:flex')))],
  ];
  for (const [what, tree] of fine) assert.equal(hasInlineTrouble(root(tree)), false, what);
  assert.equal(hasInlineTrouble(root(el('span', 'position:absolute;position:static', 'x', el('div')))), true, 'the last declaration wins');
});

test('an inline box with no text and no atomic inline in it is empty', () => {
  for (const [what, tree] of [
    ['a bare span', el('span')],
    ['a span holding an empty one', el('span', '', el('b', '', el('em')))],
    ['a span holding only a float', el('span', '', el('div', 'float:left;display:inline-block'))],
    ['a span holding only a hidden box', el('span', '', el('div', 'display:none', 'x'))],
    ['a span whose contents child is empty', el('span', '', el('b', 'display:contents'))],
    ['a div made inline', el('div', 'display:inline')],
  ] as const) {
    assert.ok(hasInlineTrouble(root(tree)), what);
  }
  for (const [what, tree] of [
    ['a span with text', el('span', '', 'x')],
    ['a span around an inline-block', el('span', '', el('b', 'display:inline-block'))],
    ['a span around a span with text', el('span', '', el('b', '', 'x'))],
    ['through display:contents', el('span', '', el('b', 'display:contents', 'x'))],
    ['an empty inline-block', el('span', 'display:inline-block')],
    ['an empty span that floats', el('span', 'float:left')],
    ['an empty span that is a flex item', el('div', 'display:flex', el('span'))],
    ['an empty span in a hidden box', el('div', 'display:none', el('span'))],
  ] as const) {
    assert.equal(hasInlineTrouble(root(tree)), false, what);
  }
});

test("hostFor answers the intended parent when it can take the element, else that parent's nearest ancestor that can", () => {
  const inner = el('em', '', 'x');
  const span = el('span', '', 'x', inner);
  const block = el('section', '', span);
  const tree = root(block);
  assert.equal(hostFor(tree, inner, el('b', '', 'x')), inner);
  assert.equal(hostFor(tree, inner, el('div', 'float:left')), inner);
  assert.equal(hostFor(tree, inner, el('div')), block);
  assert.equal(hostFor(tree, span, el('div', 'display:grid')), block);
  assert.equal(hasInlineTrouble(tree), false, 'asking changes nothing');
});

/** The model of the element the DOM holds: tag, inline declarations, children. */
function model(element: Element): ElementNode {
  const declarations = (element.getAttribute('style') ?? '')
    .split(';')
    .map((d) => d.trim())
    .filter(Boolean)
    .map((d): [string, string] => [d.slice(0, d.indexOf(':')).trim(), d.slice(d.indexOf(':') + 1).trim()]);
  const children = [...element.childNodes].flatMap((node): (ElementNode | string)[] =>
    node.nodeType === 1 ? [model(node as Element)] : node.nodeType === 3 ? [node.textContent ?? ''] : [],
  );
  return { id: element.id, tag: element.tagName.toLowerCase(), declarations, children };
}

test('generated documents keep blocks out of inline boxes and no inline box empty, before their scripts and after', () => {
  const cases = [true, false].flatMap((text) => [...generateCases({ count: 100, seed: 515, text, script: true })]);
  let moved = 0;
  for (const generated of cases) {
    const dom = new JSDOM(generated.html, { runScripts: 'outside-only' });
    const document = dom.window.document;
    assert.equal(hasInlineTrouble(model(document.getElementById('root')!)), false, `${generated.id} as generated`);
    dom.window.eval(generated.script!);
    assert.equal(hasInlineTrouble(model(document.getElementById('root')!)), false, `${generated.id} after:\n${generated.script}`);
    if (/\.(append|prepend)\(/.test(generated.script!)) moved++;
    dom.window.close();
  }
  assert.ok(moved > 30, `${moved} scripts move an element`);
});
