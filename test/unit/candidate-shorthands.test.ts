// The reference candidates' shorthands and logical properties (src/candidate-reference/web:
// shorthands.ts, logical.ts, the cascade): every shorthand a browser accepts sets all its
// longhands, to what its value gives or to their initial values; a value a browser drops is
// dropped; logical properties set the physical side the element's direction maps them to, and
// compete with that side's own declarations in the cascade.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import mdnProperties from 'mdn-data/css/properties.json' with { type: 'json' };
import { cascade } from '../../src/candidate-reference/web/cascade.js';
import { parseDocument } from '../../src/candidate-reference/web/document.js';
import { LOGICAL } from '../../src/candidate-reference/web/logical.js';
import { LONGHANDS } from '../../src/candidate-reference/web/longhands.js';
import { SHORTHANDS } from '../../src/candidate-reference/web/shorthands.js';
import { computeStyles, type Style } from '../../src/candidate-reference/web/style.js';
import { Unsupported } from '../../src/candidate-reference/web/unsupported.js';
import { USER_AGENT_SHEET } from '../../src/candidate-reference/web/user-agent.js';

/** Each element's computed style, by its id. */
function styles(css: string, body: string): Record<string, Style> {
  const document = parseDocument(`<!doctype html><html><head><style>${css}</style></head><body>${body}</body></html>`);
  const { styles } = computeStyles(document, cascade(document, USER_AGENT_SHEET));
  return Object.fromEntries(document.elements.map((e) => [e.attributes.get('id') ?? e.name, styles.get(e)!]));
}

/** The computed values of `properties` on a div with `declarations` in its style attribute (under `css`). */
function computed(declarations: string, properties: string[], css = ''): Record<string, unknown> {
  const style = styles(css, `<div id="d" style="${declarations}"></div>`).d!;
  return Object.fromEntries(properties.map((p) => [p, style[p as keyof Style]]));
}

const px = (n: number) => ({ n, unit: 'px' });
const pct = (n: number) => ({ n, unit: '%' });
const track = (n: number) => ({ min: px(n), max: px(n) });
const fr = (n: number) => ({ min: 'auto', max: { fr: n } });
const SIDES = ['top', 'right', 'bottom', 'left'];

/** Per shorthand, a declaration and the longhands' computed values it gives (over a rule that sets every one otherwise). */
const EXPANSIONS: [declaration: string, expected: Record<string, unknown>, css?: string][] = [
  ['margin: 1px 2px 3px', { 'margin-top': px(1), 'margin-right': px(2), 'margin-bottom': px(3), 'margin-left': px(2) }],
  ['padding: 4px 5px', { 'padding-top': px(4), 'padding-right': px(5), 'padding-bottom': px(4), 'padding-left': px(5) }],
  ['inset: 1px auto 5%', { top: px(1), right: 'auto', bottom: pct(5), left: 'auto' }],
  ['border-width: 2px 3px; border-style: solid', { 'border-top-width': px(2), 'border-right-width': px(3), 'border-left-width': px(3) }],
  ['border-style: solid none', { 'border-top-style': 'solid', 'border-right-style': 'none', 'border-bottom-style': 'solid' }],
  [
    'border: 2px dashed red',
    Object.fromEntries(
      SIDES.flatMap((s) => [
        [`border-${s}-width`, px(2)],
        [`border-${s}-style`, 'dashed'],
      ]),
    ),
  ],
  ...SIDES.map((s): [string, Record<string, unknown>] => [
    `border-${s}: solid`,
    { [`border-${s}-width`]: px(3), [`border-${s}-style`]: 'solid' },
  ]),
  ['overflow: clip visible', { 'overflow-x': 'clip', 'overflow-y': 'visible' }],
  ['flex: 2', { 'flex-grow': 2, 'flex-shrink': 1, 'flex-basis': pct(0) }],
  ['flex: none', { 'flex-grow': 0, 'flex-shrink': 0, 'flex-basis': 'auto' }],
  ['flex: 3 0 10px', { 'flex-grow': 3, 'flex-shrink': 0, 'flex-basis': px(10) }],
  ['flex-flow: wrap', { 'flex-direction': 'row', 'flex-wrap': 'wrap' }, 'div { flex-direction: column }'],
  ['gap: 3px 4px', { 'row-gap': px(3), 'column-gap': px(4) }],
  ['grid-gap: 5px', { 'row-gap': px(5), 'column-gap': px(5) }],
  ['grid-row-gap: 6px; grid-column-gap: 7px', { 'row-gap': px(6), 'column-gap': px(7) }],
  ['grid-row: 2 / span 3', { 'grid-row-start': { line: 2 }, 'grid-row-end': { span: 3 } }],
  ['grid-column: 4', { 'grid-column-start': { line: 4 }, 'grid-column-end': 'auto' }],
  ['grid-area: 2 / 3 / span 2', { 'grid-row-start': { line: 2 }, 'grid-column-start': { line: 3 }, 'grid-row-end': { span: 2 } }],
  ['place-content: center space-between', { 'align-content': 'center', 'justify-content': 'space-between' }],
  ['place-items: end', { 'align-items': 'end', 'justify-items': 'end' }],
  ['place-self: first baseline start', { 'align-self': 'baseline', 'justify-self': 'start' }],
  ['word-wrap: break-word', { 'overflow-wrap': 'break-word' }],
  [
    'font: italic small-caps bold condensed 12px/1.5 Ahem, serif',
    {
      'font-style': 'italic',
      'font-variant': 'small-caps',
      'font-weight': 700,
      'font-stretch': 'condensed',
      'font-size': px(12),
      'line-height': { number: 1.5 },
      'font-family': ['Ahem', 'serif'],
    },
  ],
  // Yoga's test template: the shorthand resets the weight and line height the rule before set.
  [
    'font: 10px Ahem',
    { 'font-size': px(10), 'line-height': 'normal', 'font-weight': 400, 'font-style': 'normal', 'font-family': ['Ahem'] },
    'div { line-height: 3; font-weight: 900; font-style: italic; font-kerning: none }',
  ],
  ["font: 500 2em/20px 'A b'", { 'font-weight': 500, 'font-size': px(32), 'line-height': px(20), 'font-family': ['A b'] }],
  [
    'grid-template: 10px 1fr / repeat(2, 5px)',
    { 'grid-template-rows': [track(10), fr(1)], 'grid-template-columns': [{ repeat: 2, tracks: [track(5)] }] },
  ],
  ['grid-template: none', { 'grid-template-rows': 'none', 'grid-template-columns': 'none' }, 'div { grid-template-rows: 1px }'],
  [
    'grid: auto-flow dense 20px / 30px',
    { 'grid-auto-flow': 'row dense', 'grid-auto-rows': [track(20)], 'grid-template-columns': [track(30)], 'grid-template-rows': 'none' },
  ],
  [
    'grid: 10px / auto-flow 5px',
    { 'grid-template-rows': [track(10)], 'grid-auto-flow': 'column', 'grid-auto-columns': [track(5)], 'grid-template-columns': 'none' },
  ],
  // grid resets the implicit grid, not the gaps.
  [
    'grid: 1px / 2px',
    { 'grid-auto-flow': 'row', 'grid-auto-rows': [{ min: 'auto', max: 'auto' }], 'row-gap': px(4) },
    'div { grid-auto-flow: column; grid-auto-rows: 9px; gap: 4px }',
  ],
];

test('every shorthand sets its longhands, and resets the ones its value leaves out', () => {
  for (const [declaration, expected, css] of EXPANSIONS)
    assert.deepEqual(computed(declaration, Object.keys(expected), css), expected, declaration);
});

/** The logical shorthands, in both directions: the start and end sides are the element's. */
const LOGICAL_SHORTHANDS: [declaration: string, ltr: Record<string, unknown>, rtl: Record<string, unknown>][] = [
  ['margin-inline: 1px 2px', { 'margin-left': px(1), 'margin-right': px(2) }, { 'margin-right': px(1), 'margin-left': px(2) }],
  ['margin-block: 3px', { 'margin-top': px(3), 'margin-bottom': px(3) }, { 'margin-top': px(3), 'margin-bottom': px(3) }],
  ['padding-inline: 4px 5%', { 'padding-left': px(4), 'padding-right': pct(5) }, { 'padding-right': px(4), 'padding-left': pct(5) }],
  ['padding-block: 6px 7px', { 'padding-top': px(6), 'padding-bottom': px(7) }, { 'padding-top': px(6), 'padding-bottom': px(7) }],
  ['inset-inline: 1px auto', { left: px(1), right: 'auto' }, { right: px(1), left: 'auto' }],
  ['inset-block: 2px 3px', { top: px(2), bottom: px(3) }, { top: px(2), bottom: px(3) }],
  [
    'border-inline-width: 2px 4px; border-style: solid',
    { 'border-left-width': px(2), 'border-right-width': px(4) },
    { 'border-right-width': px(2), 'border-left-width': px(4) },
  ],
  [
    'border-block-width: 5px; border-style: solid',
    { 'border-top-width': px(5), 'border-bottom-width': px(5) },
    { 'border-top-width': px(5), 'border-bottom-width': px(5) },
  ],
  [
    'border-inline-style: solid none; border-width: 2px',
    { 'border-left-style': 'solid', 'border-right-style': 'none' },
    { 'border-right-style': 'solid', 'border-left-style': 'none' },
  ],
  [
    'border-block-style: dotted; border-width: 2px',
    { 'border-top-style': 'dotted', 'border-bottom-style': 'dotted' },
    { 'border-top-style': 'dotted', 'border-bottom-style': 'dotted' },
  ],
  [
    'border-inline: 3px solid blue',
    { 'border-left-width': px(3), 'border-right-width': px(3), 'border-top-width': px(0) },
    { 'border-left-width': px(3), 'border-right-width': px(3), 'border-top-width': px(0) },
  ],
  [
    'border-block: 3px solid',
    { 'border-top-width': px(3), 'border-bottom-width': px(3), 'border-left-width': px(0) },
    { 'border-top-width': px(3), 'border-bottom-width': px(3), 'border-left-width': px(0) },
  ],
  [
    'border-inline-start: 2px solid',
    { 'border-left-width': px(2), 'border-right-width': px(0) },
    { 'border-right-width': px(2), 'border-left-width': px(0) },
  ],
  [
    'border-inline-end: 2px solid',
    { 'border-right-width': px(2), 'border-left-width': px(0) },
    { 'border-left-width': px(2), 'border-right-width': px(0) },
  ],
  ['border-block-start: 2px solid', { 'border-top-width': px(2) }, { 'border-top-width': px(2) }],
  ['border-block-end: 2px solid', { 'border-bottom-width': px(2) }, { 'border-bottom-width': px(2) }],
];

test('the logical shorthands set the sides of the element’s own direction', () => {
  for (const [declaration, ltr, rtl] of LOGICAL_SHORTHANDS) {
    assert.deepEqual(computed(declaration, Object.keys(ltr)), ltr, `${declaration} (ltr)`);
    assert.deepEqual(computed(`direction: rtl; ${declaration}`, Object.keys(rtl)), rtl, `${declaration} (rtl)`);
  }
});

test('every logical longhand sets its physical side: inline by direction, block from the top', () => {
  assert.equal(Object.keys(LOGICAL).length, 26);
  for (const [logical, [ltr, rtl]] of Object.entries(LOGICAL)) {
    const [value, expected] = /style$/.test(logical) ? ['dashed', 'dashed'] : ['7px', px(7)];
    const declaration = `border-style: solid; ${logical}: ${value}`;
    assert.deepEqual(computed(declaration, [ltr])[ltr], expected, `${logical} (ltr) is ${ltr}`);
    assert.deepEqual(computed(`direction: rtl; ${declaration}`, [rtl])[rtl], expected, `${logical} (rtl) is ${rtl}`);
  }
  assert.deepEqual(
    Object.fromEntries(['margin-inline-start', 'inset-inline-end', 'inline-size', 'max-block-size'].map((p) => [p, LOGICAL[p]])),
    {
      'margin-inline-start': ['margin-left', 'margin-right'],
      'inset-inline-end': ['right', 'left'],
      'inline-size': ['width', 'width'],
      'max-block-size': ['max-height', 'max-height'],
    },
  );
});

test('a logical property and its physical side compete in one cascade: importance, specificity, then order', () => {
  const s = styles(
    `#a { margin-inline-start: 5px } div { margin-left: 9px } .b { margin-left: 1px; margin-inline-start: 2px }
     .c { margin-inline-start: 2px; margin-left: 1px } .d { margin-inline-start: 4px !important }
     .rtl { direction: rtl } .e { direction: inherit; padding-inline-end: 3px } div div div { padding-left: 1px }`,
    `<div id="a"></div><div id="b" class="b"></div><div id="c" class="c"></div><div id="d" class="d" style="margin-left: 8px"></div>
     <div class="rtl"><div><div id="e" class="e" style="margin-inline: 6px 0"></div></div></div>
     <div id="f" style="margin-inline-start: 3px; direction: rtl"></div>`,
  );
  assert.deepEqual(s.a!['margin-left'], px(5), 'an id beats a type, logical or not');
  assert.deepEqual(s.b!['margin-left'], px(2), 'the later of two equal declarations: the logical one');
  assert.deepEqual(s.c!['margin-left'], px(1), 'the later of two equal declarations: the physical one');
  assert.deepEqual(s.d!['margin-left'], px(4), 'an important logical declaration over an inline physical one');
  assert.deepEqual(
    [s.e!['padding-left'], s.e!['margin-right'], s.e!['margin-left']],
    [px(3), px(6), px(0)],
    'a direction inherited from an ancestor',
  );
  assert.deepEqual(
    [s.f!['margin-right'], s.f!['margin-left']],
    [px(3), px(9)],
    'the element’s computed direction, wherever it is declared',
  );
});

test('a shorthand value a browser drops is dropped; one it takes and the candidates cannot model is unsupported', () => {
  for (const declaration of [
    'font: bold',
    'font: bolder 10px Ahem',
    'font: 10px/ Ahem',
    'font: italic italic 10px Ahem',
    'margin-inline: 1px 2px 3px',
    'inset-block: 1px 2px 3px',
    'border-inline: 1px 2px',
    'grid-template: 10px',
    'grid: auto-flow 1px / auto-flow 2px',
    'grid: dense 1px / 2px',
  ]) {
    const dropped = computed(
      declaration,
      ['font-size', 'font-weight', 'margin-left', 'top', 'border-left-width', 'grid-template-rows', 'grid-auto-flow'],
      'div { border-style: solid }',
    );
    assert.deepEqual(
      dropped,
      {
        'font-size': px(16),
        'font-weight': 400,
        'margin-left': px(0),
        top: 'auto',
        'border-left-width': px(3),
        'grid-template-rows': 'none',
        'grid-auto-flow': 'row',
      },
      declaration,
    );
  }
  for (const [declaration, message] of [
    ['font: caption', /^font: caption$/],
    ['font: 10px var(--f)', /^font: 10px var\(--f\)$/],
    ["grid-template: 'a b' 10px / 1fr 1fr", /^grid-template: 'a b' 10px/],
    ['margin-inline: calc(1px + 1px)', /^margin-inline: calc/],
  ] as const) {
    assert.throws(
      () => computed(declaration, []),
      (e: Error) => e instanceof Unsupported && message.test(e.message),
      declaration,
    );
  }
  // CSS-wide keywords reach every longhand, those the candidates do not model included.
  assert.deepEqual(computed('font: inherit', ['font-size', 'line-height'], 'body { font: 20px/2 serif }'), {
    'font-size': px(20),
    'line-height': { number: 2 },
  });
  assert.deepEqual(computed('font-size-adjust: 0.5; font: 10px a', ['font-size']), { 'font-size': px(10) }, 'font resets font-size-adjust');
});

test('every shorthand of a property the candidates model, as mdn-data lists them, expands', () => {
  const properties = mdnProperties as Record<string, { computed: unknown; status: string }>;
  const modelled = new Set([...Object.keys(LONGHANDS), ...Object.keys(LOGICAL)]);
  // A shorthand's longhands, through the shorthands it lists (border lists border-width).
  const reaches = (property: string): string[] => {
    const computed = properties[property]?.computed;
    return Array.isArray(computed) ? computed.flatMap((p: string) => (p === property ? [p] : [p, ...reaches(p)])) : [];
  };
  const missing = Object.entries(properties)
    .filter(([name, p]) => Array.isArray(p.computed) && p.status === 'standard' && !name.startsWith('-'))
    .filter(([name]) => reaches(name).some((p) => modelled.has(p)) && !(name in SHORTHANDS))
    .map(([name]) => name);
  assert.deepEqual(missing, []);
});
