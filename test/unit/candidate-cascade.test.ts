// The reference candidates' cascade and computed values (src/candidate-reference/web): the selector forms
// test suites use, specificity and order, inline style and importance, shorthands, the browsers'
// default stylesheet, declarations a browser drops, and what makes a case unsupported.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import postcss from 'postcss';
import { cascade } from '../../src/candidate-reference/web/cascade.js';
import { plainDeclarations } from '../../src/candidate-reference/web/sheets.js';
import { parseDocument } from '../../src/candidate-reference/web/document.js';
import { computeStyles, type Style } from '../../src/candidate-reference/web/style.js';
import { Unsupported } from '../../src/candidate-reference/web/unsupported.js';
import { USER_AGENT_SHEET } from '../../src/candidate-reference/web/user-agent.js';

/** Each element's computed style, by its id (or tag name when it has none). */
function styles(css: string, body: string): Record<string, Style> {
  const document = parseDocument(`<!doctype html><html><head><style>${css}</style></head><body>${body}</body></html>`);
  const { styles } = computeStyles(document, cascade(document, USER_AGENT_SHEET));
  return Object.fromEntries(document.elements.map((e) => [e.attributes.get('id') ?? e.name, styles.get(e)!]));
}

const unsupported = (css: string, body: string, message: RegExp) =>
  assert.throws(
    () => styles(css, body),
    (e: Error) => e instanceof Unsupported && message.test(e.message),
  );

const px = (n: number) => ({ n, unit: 'px' });

test('type, universal, class, id, lists, child and descendant selectors match as in the browsers', () => {
  const s = styles(
    `div { width: 1px } * { height: 2px } .a { width: 3px } #b { width: 4px } .c, .d { min-width: 5px }
     #p > div { max-width: 6px } #p div { max-height: 7px } .rtl * { direction: rtl } body > * { position: absolute }`,
    `<div id="p"><div id="child" class="a c"><div id="grandchild" class="d"></div></div></div><div id="b" class="rtl"><span id="s"></span></div>`,
  );
  assert.deepEqual(s.p!.width, px(1));
  assert.deepEqual(s.child!.width, px(3), 'a class beats a type');
  assert.deepEqual(s.b!.width, px(4), 'an id beats a class');
  assert.deepEqual(s.grandchild!.height, px(2));
  assert.deepEqual([s.child!['min-width'], s.grandchild!['min-width']], [px(5), px(5)]);
  assert.deepEqual([s.child!['max-width'], s.grandchild!['max-width']], [px(6), 'none'], 'child combinator');
  assert.deepEqual([s.child!['max-height'], s.grandchild!['max-height']], [px(7), px(7)], 'descendant combinator');
  assert.equal(s.s!.direction, 'rtl');
  assert.equal(s.b!.direction, 'ltr');
  assert.equal(s.p!.position, 'absolute');
  assert.equal(s.child!.position, 'static');
});

test('specificity, then order; a style attribute over any selector; !important over both', () => {
  const s = styles(
    `#x { width: 10px } div { width: 20px } .k { height: 1px } .k { height: 2px } div { min-width: 3px !important } #y { min-width: 4px }`,
    `<div id="x" class="k" style="height: 5px; max-width: 6px"></div><div id="y" style="min-width: 7px"></div><div id="z" class="k"></div>`,
  );
  assert.deepEqual(s.x!.width, px(10));
  assert.deepEqual(s.z!.height, px(2), 'the later of two equal selectors');
  assert.deepEqual(s.x!.height, px(5), 'inline over the sheet');
  assert.deepEqual(s.y!['min-width'], px(3), 'an important declaration over an inline one');
  const important = styles(`div { width: 1px !important }`, `<div id="i" style="width: 2px !important"></div>`);
  assert.deepEqual(important.i!.width, px(2), 'inline important over sheet important');
});

test('shorthands set their longhands', () => {
  const s = styles(
    '',
    `<div id="m" style="margin: 1px 2px 3px; padding: 4px 5px; border: 2px solid red; border-left: 0 none"></div>
     <div id="f" style="flex: 2; gap: 3px 4px; overflow: hidden; grid-area: 2 / 3 / span 2; place-items: center start"></div>
     <div id="n" style="flex: none; flex-flow: column wrap; inset: 5%"></div>`,
  );
  const m = s.m!;
  assert.deepEqual([m['margin-top'], m['margin-right'], m['margin-bottom'], m['margin-left']], [px(1), px(2), px(3), px(2)]);
  assert.deepEqual([m['padding-top'], m['padding-right'], m['padding-bottom'], m['padding-left']], [px(4), px(5), px(4), px(5)]);
  assert.deepEqual([m['border-top-width'], m['border-left-width']], [px(2), px(0)]);
  const f = s.f!;
  assert.deepEqual([f['flex-grow'], f['flex-shrink'], f['flex-basis']], [2, 1, { n: 0, unit: '%' }], 'a number alone makes the basis 0%');
  assert.deepEqual([f['row-gap'], f['column-gap']], [px(3), px(4)]);
  assert.deepEqual([f['overflow-x'], f['overflow-y']], ['hidden', 'hidden']);
  assert.deepEqual(
    [f['grid-row-start'], f['grid-column-start'], f['grid-row-end'], f['grid-column-end']],
    [{ line: 2 }, { line: 3 }, { span: 2 }, 'auto'],
  );
  assert.deepEqual([f['align-items'], f['justify-items']], ['center', 'start']);
  const n = s.n!;
  assert.deepEqual([n['flex-grow'], n['flex-shrink'], n['flex-basis']], [0, 0, 'auto']);
  assert.deepEqual([n['flex-direction'], n['flex-wrap']], ['column', 'wrap']);
  assert.deepEqual(n.top, { n: 5, unit: '%' });
});

test('a declaration a browser drops is dropped: a misspelt value, a property no browser knows', () => {
  const s = styles(
    `div { align-items: flex-end; flex-grow: 1 }`,
    `<div id="d" style="align-items: strech; margin-start: 10px; flex-grow: -1"></div>`,
  );
  assert.equal(s.d!['align-items'], 'flex-end');
  assert.deepEqual(s.d!['margin-left'], px(0));
  assert.equal(s.d!['flex-grow'], 1, 'a negative flex-grow is invalid');
});

test('the browsers’ default stylesheet: displays, the body’s margin, headings in em', () => {
  const s = styles('', `<div id="d"></div><span id="s"></span><p id="p"></p><h1 id="h">x</h1>`);
  assert.equal(s.head!.display, 'none');
  assert.equal(s.style!.display, 'none');
  assert.deepEqual(s.body!['margin-top'], px(8));
  assert.equal(s.d!.display, 'block');
  assert.equal(s.s!.display, 'inline');
  assert.deepEqual(s.p!['margin-top'], px(16), '1em of the 16px default');
  assert.deepEqual(s.h!['font-size'], px(32));
  assert.deepEqual(s.h!['margin-top'], px(0.67 * 32), 'em against its own font size');
  assert.equal(s.h!['font-weight'], 700);
});

test('computed values: font-relative and viewport units, inheritance, borders, blockification, the overflow pair', () => {
  const s = styles(
    `html { font-size: 20px } #a { font-size: 150%; width: 2em; height: 1rem; min-width: 10vw; max-height: 50vh }`,
    `<div id="a" style="direction: rtl"><div id="b" style="width: inherit; border: 1.5px solid; border-top-width: 0.5px; overflow-x: clip; overflow-y: hidden"></div></div>
     <div id="c" style="display: flex"><span id="item"></span><div id="abs" style="display: inline-grid; position: absolute; float: left"></div></div>
     <div id="e" style="border-width: 5px"></div>`,
  );
  assert.deepEqual(s.a!['font-size'], px(30));
  assert.deepEqual([s.a!.width, s.a!.height, s.a!['min-width'], s.a!['max-height']], [px(60), px(20), px(80), px(300)]);
  assert.deepEqual(s.b!.width, px(60), 'inherit takes the parent’s computed value');
  assert.equal(s.b!.direction, 'rtl', 'direction inherits');
  assert.deepEqual([s.b!['border-left-width'], s.b!['border-top-width']], [px(1), px(1)], 'snapped down to a pixel, at least one');
  assert.deepEqual(s.e!['border-top-width'], px(0), 'no style, no border');
  assert.deepEqual([s.b!['overflow-x'], s.b!['overflow-y']], ['hidden', 'hidden'], 'clip beside a scroller is hidden');
  assert.equal(s.item!.display, 'block', 'a flex item is blockified');
  assert.equal(s.abs!.display, 'grid', 'an absolutely positioned box is blockified');
  assert.equal(s.abs!.float, 'none', 'and does not float');
});

test('what the candidates cannot match or compute exactly is unsupported, when it wins on a box', () => {
  unsupported(`div:hover { width: 10px }`, `<div></div>`, /^selector: div:hover$/);
  unsupported(`div { transform: rotate(5deg) }`, `<div></div>`, /^transform: rotate\(5deg\)$/);
  unsupported(`div { width: calc(100% - 10px) }`, `<div></div>`, /^width: calc\(100% - 10px\)$/);
  unsupported(`div { width: 10ch }`, `<div></div>`, /^width: 10ch$/);
  unsupported(`@media (min-width: 100px) { div { width: 1px } }`, `<div></div>`, /^@media/);
  unsupported(`div { grid-template-columns: [a] 10px }`, `<div></div>`, /^grid-template-columns/);
  // Nothing to lay out: paint-only rules, pseudo-elements without content, overridden or hidden declarations.
  assert.doesNotThrow(() =>
    styles(`a:hover { color: red } *, ::before { box-sizing: border-box } div::after { width: 1px }`, `<div></div>`),
  );
  assert.doesNotThrow(() => styles(`div { transform: rotate(5deg) }`, `<div style="transform: none"></div>`));
  assert.doesNotThrow(() => styles(`#h { width: calc(1px + 1px) }`, `<div style="display: none"><div id="h"></div></div>`));
  assert.doesNotThrow(() =>
    styles(`@font-face { font-family: ahem; src: url(x) } div { background: red; cursor: pointer }`, `<div></div>`),
  );
});

test('a plain style attribute is split into the declarations postcss parses it into', () => {
  // Words, spaces and punctuation of the plain alphabet and beyond it (quotes, comments, !, braces, url()).
  const part = fc.constantFrom(
    'width',
    'margin-top',
    '-webkit-box-flex',
    '--x',
    '_a',
    'url',
    ':',
    ';',
    ' ',
    '\t',
    '\n',
    '\f',
    '\v',
    '\u00a0',
    '10px',
    '1 / 4',
    '(',
    ')',
    'repeat(2, 1fr)',
    '#e1',
    '!important',
    '/*c*/',
    '"a"',
    "'b'",
    '{',
    '}',
    '@x',
    '\\',
    ',',
    '.5',
    '+',
    '%',
    'A',
    '*',
  );
  // And mostly of the plain alphabet, with a few of the others.
  const plainPart = fc.oneof(
    {
      weight: 20,
      arbitrary: fc.constantFrom(' ', '\t', '\n', '10px', '-3px', '1 / 4', '(', ')', 'minmax(1px, 2fr)', '#a', '.5%', '+1', 'auto'),
    },
    { weight: 1, arbitrary: part },
  );
  const declaration = (values: fc.Arbitrary<string>) =>
    fc
      .tuple(fc.constantFrom('width', 'Grid-Row', 'gap', 'a1', ' margin ', '-x'), fc.array(values, { maxLength: 4 }))
      .map(([p, v]) => `${p}:${v.join('')}`);
  const text = fc.oneof(
    fc.array(part, { maxLength: 12 }).map((a) => a.join('')),
    fc.array(declaration(part), { maxLength: 4 }).map((a) => a.join(';')),
    fc.array(declaration(plainPart), { maxLength: 4 }).map((a) => a.join(';')),
  );
  fc.assert(
    fc.property(text, (css) => {
      const plain = plainDeclarations(css);
      if (plain === null) return;
      const nodes = postcss.parse(css).nodes;
      assert.ok(
        nodes.every((n) => n.type === 'decl' && !n.important),
        css,
      );
      assert.deepEqual(
        plain,
        nodes.map((n) => (n.type === 'decl' ? [n.prop, n.value] : [])),
        css,
      );
    }),
    { numRuns: 20000 },
  );
  assert.deepEqual(plainDeclarations(' display:block ;; margin : 8px\n11px ;grid-row:1 / 4;'), [
    ['display', 'block'],
    ['margin', '8px\n11px'],
    ['grid-row', '1 / 4'],
  ]);
  for (const css of ['width: 1px !important', 'a: b: c', 'width', 'width:', 'x: url(a)', 'a: (b;c)', 'a: b)', "font-family: 'x'", '--x: 1'])
    assert.equal(plainDeclarations(css), null, css);
});
