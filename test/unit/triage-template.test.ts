// Triage's templates on cases written here: what a reduced case's template says (elements, display
// types, declarations with their values generalized, text, where the difference starts), that its
// text reads back to the same template, and which cases hold an instance of it and what that
// instance is; and the known-difference rule that matches by template.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { caseShape, embeddings, instanceHtml } from '../../src/campaign/triage/match.js';
import { deriveTemplate, generalizeValue, parseTemplate, TemplateSyntaxError } from '../../src/campaign/triage/template.js';
import { Expectations } from '../../src/campaign/loop/expectations.js';
import { CampaignError } from '../../src/campaign/campaign-error.js';
import type { Bucket } from '../../src/comparator/signature.js';

const doc = (body: string, bodyAttrs = '') =>
  `<!doctype html><html><head><meta charset="utf-8"></head><body${bodyAttrs}>${body}</body></html>`;

test('values are generalized to their kind: numbers by unit and sign, keywords and functions kept', () => {
  const cases: [string, string][] = [
    ['28px 13px 0px 3px', '<length> <length> 0 <length>'],
    ['-16px auto', '-<length> auto'],
    ['50%', '<percent>'],
    ['2fr minmax(8px, 1fr)', '<flex> minmax(<length>, <flex>)'],
    ['repeat(3, 10px)', 'repeat(<number>, <length>)'],
    ['span 2 / -1', 'span <number> / -<number>'],
    ['1.5', '<number>'],
    ['Vertical-LR', 'vertical-lr'],
    ['3px solid #abcdef', '<length> solid <color>'],
    ['"a b"', '<string>'],
    ['1em', '<length>'],
    ['90deg', '<dimension>'],
  ];
  for (const [value, kind] of cases) assert.equal(generalizeValue(value), kind, value);
  assert.equal(generalizeValue('10px', true), '<length> !important');
});

test("a reduced case's template: its elements, their display and declarations, text, and the node where it starts", () => {
  const reduced =
    '<!doctype html><div style="height:404px"><span style="display:inline-block"><div><div style="writing-mode:vertical-lr">' +
    '<span style="display:grid;margin:28px 13px 0px 3px"></span></div></div></span></div>';
  // html 0, head 1, body 2, div 3, span 4, div 5, div 6, span 7.
  const t = deriveTemplate(reduced, { starts: 7 });
  assert.equal(
    t.text,
    'div{height:<length>} > span{display:inline-block} > div > div{writing-mode:vertical-lr} > span{display:grid; margin:<length> <length> 0 <length>}!',
  );
  assert.deepEqual(t.extras, []);
  const siblings = deriveTemplate(
    '<!doctype html><section style="writing-mode:vertical-rl"><b style="display:grid">ab<div style="position:fixed"></div></b><div style="padding:11px"></div></section>',
    { starts: 4 },
  );
  assert.equal(siblings.text, 'section{writing-mode:vertical-rl} > (b{display:grid} "…"! > div{position:fixed}, div{padding:<length>})');
  // Body and html show only when something of theirs is left; a node with nothing below it alone.
  assert.equal(
    deriveTemplate(doc('<div style="display:inline-block"></div>', ' style="margin:0"')).text,
    'body{margin:0} > div{display:inline-block}',
  );
  assert.equal(
    deriveTemplate('<!doctype html><html style="writing-mode:vertical-rl"><body><p></p>').text,
    'html{writing-mode:vertical-rl} > body > p',
  );
  assert.equal(deriveTemplate('<!doctype html><body style="margin:0">', { starts: 2 }).text, 'body{margin:0}!');
  assert.equal(deriveTemplate('<!doctype html>').text, 'body');
});

test('what a template cannot hold makes it exact: named after the tree, and no case matches it', () => {
  const t = deriveTemplate('<!doctype html><style>p{}</style><div class="a" style="width:3px"></div>', { script: true });
  assert.equal(t.text, 'div{width:<length>} + attribute class + script + stylesheet');
  assert.deepEqual(embeddings(t, caseShape(doc('<div class="a" style="width:3px"></div>')), null), []);
});

test('a template read back from its text is the same template', () => {
  for (const text of [
    'div{height:<length>} > span{display:inline-block} > div > div{writing-mode:vertical-lr} > span{display:grid; margin:<length> <length> 0 <length>}!',
    'section{writing-mode:vertical-rl} > (b{display:grid} "…"! > div{position:fixed}, div{padding:<length>})',
    'body{margin:0} > (div{grid-template-rows:minmax(<length>, <flex>) <flex>}, span "…")',
    'html{writing-mode:vertical-rl} > body > p',
    'body{margin:0}!',
    'div + script',
  ]) {
    assert.equal(parseTemplate(text).text, text);
  }
  assert.deepEqual(
    parseTemplate('div{height:<length>} > span{display:inline-block}!').root,
    deriveTemplate('<!doctype html><div style="height:9px"><span style="display:inline-block"></span></div>', { starts: 4 }).root,
  );
  assert.throws(() => parseTemplate('div{height:<length> > span'), TemplateSyntaxError);
  assert.throws(() => parseTemplate('(div, span'), /not a template: "\)" at character 11/);
  assert.throws(() => parseTemplate('div > '), /a tag name at character 7/);
});

/** The template of a grid inside a vertical block inside an inline-block, starting at the grid. */
const GRID = parseTemplate(
  'div{height:<length>} > span{display:inline-block} > div{writing-mode:vertical-lr} > span{display:grid; margin:<length>}!',
);

test("a case holds an instance where elements of the same display types nest in the template's order; the instance keeps what it names", () => {
  // html 0, head 1, meta 2, body 3, root 4, e0 5, b 6, section 7, em 8, e4 9, e5 10.
  const html = doc(
    '<div id="root" style="position:relative;width:500px"><div id="e0" style="height:30px;width:10px">' +
      '<b id="e1" style="display:inline-block;padding:3px"><section id="e2"><em style="display:block;writing-mode:vertical-lr;width:4px">x' +
      '<div id="e4" style="display:grid;margin:1px 2px;order:2"></div></em></section></b><span id="e5">y</span></div></div>',
    ' style="margin:0"',
  );
  const shape = caseShape(html);
  const found = embeddings(GRID, shape, [9], { strict: true });
  assert.equal(found.length, 1);
  assert.deepEqual([...found[0]!.values()], [5, 6, 8, 9]);
  assert.equal(
    instanceHtml(GRID, shape, found[0]!),
    '<!doctype html><div style="height:30px"><b style="display:inline-block"><em style="display:block;writing-mode:vertical-lr"><div style="display:grid;margin:1px 2px"></div></em></b></div>',
  );
  // The instance may keep the case's own magnitudes too (the root's width goes with the root; the body's margin stays).
  assert.equal(
    instanceHtml(GRID, shape, found[0]!, 'magnitudes'),
    '<!doctype html><html><head></head><body style="margin:0"><div style="height:30px;width:10px"><b style="display:inline-block;padding:3px"><em style="display:block;writing-mode:vertical-lr;width:4px"><div style="display:grid;margin:1px 2px;order:2"></div></em></b></div></body></html>',
  );
  assert.deepEqual(embeddings(GRID, shape, [8]), [], 'the difference starts elsewhere in the case');
  assert.equal(embeddings(GRID, shape, [8, 9], { strict: true }).length, 1, 'or at one of its other failing nodes');
  assert.deepEqual(
    embeddings(GRID, shape, null).map((e) => [...e.values()]),
    [
      [4, 6, 8, 9],
      [5, 6, 8, 9],
    ],
    'no starting node to keep to, and the height a magnitude: either block above the inline-block',
  );
  // A keyword must be the same keyword; another value of the same property may differ.
  assert.deepEqual(embeddings(GRID, caseShape(html.replace('vertical-lr', 'vertical-rl')), [9]), []);
  assert.equal(embeddings(GRID, caseShape(html.replace('margin:1px 2px', 'margin:auto')), [9], { strict: true }).length, 1);
  // A display the template declares must be the element's: the inline-block made a block is another element.
  assert.deepEqual(embeddings(GRID, caseShape(html.replace('display:inline-block;', '')), [9]), []);
  // Where it declares none, its reduction dropped the element's own: any display stands for it, strictly too
  // (strictly, only e0 declares the height).
  const inlineEm = caseShape(html.replace('display:block;writing-mode', 'writing-mode'));
  assert.equal(embeddings(GRID, inlineEm, [9]).length, 2);
  assert.equal(embeddings(GRID, inlineEm, [9], { strict: true }).length, 1);
  // A magnitude may come from elsewhere in another case; strictly, every declaration must be there.
  const noHeight = caseShape(html.replace('height:30px;', ''));
  assert.equal(embeddings(GRID, noHeight, [9]).length, 2, 'the root or e0 above the inline-block');
  assert.deepEqual(embeddings(GRID, noHeight, [9], { strict: true }), []);
});

test("an instance keeps the template's order and nesting: siblings stay siblings, in order; text stays only where the template has it", () => {
  const t = parseTemplate('div > (span{float:left}, span "…"!)');
  // html 0, head 1, meta 2, body 3, div 4, span 5, span 6.
  const inOrder = doc('<div style="width:9px"><span style="float:left">a</span><span>b<i>c</i></span></div>');
  const shape = caseShape(inOrder);
  const [only] = embeddings(t, shape, [6]);
  assert.ok(only);
  assert.equal(instanceHtml(t, shape, only), '<!doctype html><div><span style="float:left"></span><span>b</span></div>');
  assert.deepEqual(
    embeddings(t, caseShape(doc('<div><span>b</span><span style="float:left">a</span></div>')), [5]),
    [],
    'the order reversed',
  );
  assert.deepEqual(
    embeddings(t, caseShape(doc('<div><span style="float:left">a<span>b</span></span></div>')), [6]),
    [],
    'nested, not siblings',
  );
  assert.deepEqual(
    embeddings(t, caseShape(doc('<div><span style="float:left">a</span><span></span></div>')), [6]),
    [],
    'no text where the template has it',
  );
});

test('a known difference matches by template: its instance in the case starts where the case does', () => {
  const expectations = Expectations.parse(
    JSON.stringify({ known: [{ id: 'grid-in-vertical', verdict: 'outlier', engine: 'webkit', template: GRID.text }] }),
    'test',
  );
  const html = doc(
    '<div style="height:30px"><b style="display:inline-block"><div style="writing-mode:vertical-lr"><span style="display:grid;margin:3px"></span></div></b></div>',
  );
  const bucket = (index: number, outlier: Bucket['outlier'] = 'webkit'): Bucket => ({
    op: 'geometry',
    verdict: 'outlier',
    outlier,
    unusable: {},
    first: { index, kind: 'size', subjects: ['SPAN'], details: [] },
    maxDelta: 3,
  });
  // html 0, head 1, meta 2, body 3, div 4, b 5, div 6, span 7.
  assert.equal(expectations.matches({ request: { id: 'a', html }, bucket: bucket(7) }), 'grid-in-vertical');
  assert.equal(expectations.matches({ request: { id: 'a', html }, bucket: bucket(6) }), null, 'it starts elsewhere');
  // Its difference may start at another of the case's failing nodes than the first (a reduction keeps the signature, not the node).
  assert.equal(expectations.matches({ request: { id: 'a', html }, bucket: bucket(6), failing: [6, 7] }), 'grid-in-vertical');
  assert.equal(expectations.matches({ request: { id: 'a', html }, bucket: bucket(7, 'firefox') }), null, 'another outlier');
  assert.equal(expectations.matches({ request: { id: 'a', html, script: 'void 0' }, bucket: bucket(7) }), null, 'a script changes the DOM');
  // An element whose display the template does not name may declare any (the finding's own case had one the reduction
  // dropped), but every declaration the template names must be there.
  const flowRoot = html.replace('"writing-mode:vertical-lr"', '"display:flow-root;writing-mode:vertical-lr"');
  assert.equal(expectations.matches({ request: { id: 'a', html: flowRoot }, bucket: bucket(7) }), 'grid-in-vertical');
  const noHeight = html.replace('style="height:30px"', 'style="width:30px"');
  assert.equal(expectations.matches({ request: { id: 'a', html: noHeight }, bucket: bucket(7) }), null, 'a magnitude missing');
  assert.throws(
    () => Expectations.parse(JSON.stringify({ known: [{ id: 'x', template: 'div{' }] }), 'k.json'),
    (e: unknown) =>
      e instanceof CampaignError && /^k\.json: field "known\[0\]\.template": not a template: "}" at character 5$/.test(e.message),
  );
  assert.throws(
    () => Expectations.parse(JSON.stringify({ known: [{ id: 'x', template: 'div + script' }] }), 'k.json'),
    /field "known\[0\]\.template": it holds script, which no case is matched by/,
  );
});
