// The reference candidates on a page with files of its own (a case's `site`, as a WPT layout
// request carries it): the style sheets its `<link rel=stylesheet>` elements and @import rules
// load, found in the site as the case server serves them (src/protocol/site-paths.ts), in the
// cascade at their place in document order; what the browsers would not get (no site, a missing
// file, a file not served as CSS, another origin) applies nothing; an image is never guessed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { layOutCase } from '../../src/candidate-reference/engine.js';
import { answerLine, referenceEngine } from '../../src/candidate-reference/serve.js';
import { cascade } from '../../src/candidate-reference/web/cascade.js';
import { parseDocument } from '../../src/candidate-reference/web/document.js';
import { computeStyles, type Style } from '../../src/candidate-reference/web/style.js';
import { Unsupported } from '../../src/candidate-reference/web/unsupported.js';
import { USER_AGENT_SHEET } from '../../src/candidate-reference/web/user-agent.js';
import type { Site } from '../../src/protocol/site-schema.js';

const PAGE = 'css/css-flexbox/page.html';
const px = (n: number) => ({ n, unit: 'px' });

/** Each element's computed style by its id, the page served with `files`; no site at all when `files` is null. */
function styles(head: string, body: string, files: Site['files'] | null): Record<string, Style> {
  const site = files === null ? undefined : { path: PAGE, files };
  const document = parseDocument(`<!doctype html><html><head>${head}</head><body>${body}</body></html>`, site);
  const { styles } = computeStyles(document, cascade(document, USER_AGENT_SHEET));
  return Object.fromEntries(document.elements.flatMap((e) => (e.attributes.has('id') ? [[e.attributes.get('id')!, styles.get(e)!]] : [])));
}

test('a linked sheet applies from the site: absolute and relative to the page, its @imports relative to itself', () => {
  const files = {
    'css/support/grid.css': '@import "sizes.css"; .g { display: grid }',
    'css/support/sizes.css': '.g { width: 30px }',
    'css/css-flexbox/support/flex.css': '@import url(../../support/heights.css); .f { display: flex }',
    'css/support/heights.css': '.f { height: 7px }',
    'css/css-flexbox/support/b64.css': { base64: Buffer.from('.f { min-width: 4px }').toString('base64') },
  };
  const s = styles(
    '<link rel="stylesheet" href="/css/support/grid.css"><link rel=stylesheet href="support/flex.css"><link rel="stylesheet" href="./support/b64.css">',
    '<div id="g" class="g"></div><div id="f" class="f"></div>',
    files,
  );
  assert.equal(s.g!.display, 'grid');
  assert.deepEqual(s.g!.width, px(30), 'imported relative to the importing sheet');
  assert.equal(s.f!.display, 'flex');
  assert.deepEqual(s.f!.height, px(7));
  assert.deepEqual(s.f!['min-width'], px(4), 'a sheet the site holds as base64');
});

test('linked and inline sheets cascade in document order, an import before the rules of its sheet', () => {
  const files = { 'a.css': '@import "/b.css"; #x { width: 2px }', 'b.css': '#x { width: 1px; height: 1px }' };
  const order = (head: string) => styles(head, '<div id="x"></div>', files).x!;
  assert.deepEqual(order('<style>#x { width: 3px; height: 3px }</style><link rel=stylesheet href=/a.css>').width, px(2));
  assert.deepEqual(order('<style>#x { width: 3px; height: 3px }</style><link rel=stylesheet href=/a.css>').height, px(1));
  assert.deepEqual(order('<link rel=stylesheet href=/a.css><style>#x { width: 3px }</style>').width, px(3));
  assert.deepEqual(order('<link rel=stylesheet href=/a.css><style>#x { width: 3px }</style>').height, px(1));
  // An <style>'s own @import resolves against the page.
  assert.deepEqual(styles('<style>@import "../../b.css";</style>', '<div id="x"></div>', files).x!.height, px(1));
});

test('what no browser is served applies nothing: no site, a missing file, not CSS, another origin, an alternate sheet, a late @import', () => {
  const files = {
    'css/support/w.css': '#x { width: 5px }',
    'css/support/w.txt': '#x { width: 6px }',
    'css/support/late.css': '#x { height: 1px } @import "w.css";',
  };
  const width = (head: string, f: Site['files'] | null = files) => styles(head, '<div id="x"></div>', f).x!.width;
  assert.deepEqual(width('<link rel=stylesheet href=/css/support/w.css>'), px(5), 'the control: served, it applies');
  assert.equal(width('<link rel=stylesheet href=/css/support/w.css>', null), 'auto', 'no site: nothing is served');
  assert.equal(width('<link rel=stylesheet href=/fonts/ahem.css>'), 'auto');
  assert.equal(width('<link rel=stylesheet href=w.css>'), 'auto', 'relative to the page, css/css-flexbox/w.css is not a file');
  assert.equal(width('<link rel=stylesheet href=/css/support/w.txt>'), 'auto', 'served as text/plain with nosniff');
  assert.equal(width('<link rel=stylesheet href=http://elsewhere.test/css/support/w.css>'), 'auto');
  assert.equal(width('<link rel="alternate stylesheet" href=/css/support/w.css>'), 'auto');
  assert.equal(width('<link rel=stylesheet type=text/plain href=/css/support/w.css>'), 'auto');
  assert.equal(width('<link rel=stylesheet href=/css/support/late.css>'), 'auto', 'an @import after a rule is dropped');
});

test('an import cycle ends; media, supports and layers on a sheet are not modelled, so unsupported', () => {
  const files = { 'a.css': '@import "b.css"; #x { width: 1px }', 'b.css': '@import "a.css"; #x { height: 2px }', 'm.css': '' };
  const s = styles('<link rel=stylesheet href=/a.css>', '<div id="x"></div>', files).x!;
  assert.deepEqual([s.width, s.height], [px(1), px(2)]);
  const refused = (head: string, message: RegExp, f: Site['files'] = files) =>
    assert.throws(
      () => styles(head, '<div id="x"></div>', f),
      (e: Error) => e instanceof Unsupported && message.test(e.message),
    );
  refused('<link rel=stylesheet media=print href=/m.css>', /^<link media="print">$/);
  refused('<style>@import "/m.css" print;</style>', /^@import "\/m.css" print$/);
  refused('<link rel=stylesheet href=/l.css>', /^@media/, { 'l.css': '@media (min-width: 1px) { #x { width: 1px } }' });
  assert.deepEqual(styles('<link rel=stylesheet media="all" href=/a.css>', '<div id="x"></div>', files).x!.width, px(1));
});

test("the page's URLs resolve against its first <base href>, as a browser's do", () => {
  const files = {
    'css/support/w.css': '#x { width: 5px }',
    'css/support/h.css': '#x { height: 6px }',
    'css/css-flexbox/w.css': '#x { width: 7px }',
  };
  const x = (head: string) => styles(head, '<div id="x"></div>', files).x!;
  assert.deepEqual(x('<base href="/css/support/"><link rel=stylesheet href=w.css>').width, px(5));
  assert.deepEqual(x('<base href="../support/x.html"><style>@import "h.css";</style>').height, px(6), "a <style>'s @import too");
  assert.deepEqual(
    x('<base target=_self><base href="/css/support/"><base href="/"><link rel=stylesheet href=w.css>').width,
    px(5),
    'the first with an href',
  );
  assert.deepEqual(x('<link rel=stylesheet href=w.css>').width, px(7), "the control: without one, the page's own path");
  assert.equal(
    x('<base href="http://elsewhere.test/css/support/"><link rel=stylesheet href=w.css>').width,
    'auto',
    'another origin serves nothing',
  );
});

test('an @font-face defines its family only when a browser gets its font: a data: URL, or a file of the site', () => {
  const ahemCss = "@font-face { font-family: Ahem; src: url('/fonts/Ahem.ttf'); }";
  const faces = (head: string, files: Site['files'] | null) => {
    const site = files === null ? undefined : { path: PAGE, files };
    return [...cascade(parseDocument(`<!doctype html><html><head>${head}</head><body></body></html>`, site), USER_AGENT_SHEET).fontFaces];
  };
  const link = '<link rel=stylesheet href=/fonts/ahem.css>';
  assert.deepEqual(faces(link, { 'fonts/ahem.css': ahemCss, 'fonts/Ahem.ttf': { base64: 'AAAA' } }), ['ahem']);
  assert.deepEqual(faces(link, { 'fonts/ahem.css': ahemCss }), [], 'the font file is not in the site: a 404');
  assert.deepEqual(faces(`<style>${ahemCss}</style>`, null), [], 'no site: nothing is served');
  assert.deepEqual(faces('<style>@font-face { font-family: "Ahem"; src: url(data:font/ttf;base64,AAAA) }</style>', null), ['ahem']);
  assert.deepEqual(faces('<style>@font-face { font-family: Ahem; src: local(Ahem) }</style>', {}), [], 'local() is no font of the case');
  const relative = { 'css/support/f.css': '@font-face { font-family: X; src: url(Ahem.ttf) }', 'css/support/Ahem.ttf': { base64: 'AAAA' } };
  assert.deepEqual(faces('<link rel=stylesheet href=../support/f.css>', relative), ['x'], 'relative to the sheet that holds it');
  assert.deepEqual(faces('<base href=/css/support/><style>@font-face { font-family: X; src: url(Ahem.ttf) }</style>', relative), ['x']);
});

for (const name of ['taffy', 'yoga'] as const) {
  test(`${name}: a page laid out by its linked support sheet, and an image it cannot size is unsupported`, async () => {
    const engine = await referenceEngine(name);
    const site = {
      path: PAGE,
      files: {
        'css/support/row.css': '.row { display: flex; width: 300px; height: 20px } .a { width: 100px } .b { flex: 1 }',
        'css/css-flexbox/support/a.png': { base64: 'iVBORw0KGgo=' },
      },
    };
    const html = '<!doctype html><link rel=stylesheet href=../support/row.css><div class=row><div class=a></div><div class=b></div></div>';
    const answer = layOutCase(engine, { id: 'c', html, site }, 'liberation');
    assert.ok('dump' in answer, JSON.stringify(answer));
    const boxes = answer.dump.nodes.slice(-2).map((n) => [n.bounding.x, n.bounding.w]);
    assert.deepEqual(boxes, [
      [8, 100],
      [108, 200],
    ]);
    const image = layOutCase(engine, { id: 'i', html: '<!doctype html><img src="support/a.png">', site }, 'liberation');
    assert.deepEqual(image, { id: 'i', unsupported: 'element: IMG' }, 'no image decoder: the image is not sized by a guess');
    const line = JSON.stringify({ id: 'l', html, site });
    assert.deepEqual((answerLine(engine, line, 'liberation') as { dump: { nodes: unknown[] } }).dump.nodes, answer.dump.nodes);
    const bad = answerLine(engine, JSON.stringify({ id: 'b', html, site: { path: '../x.html', files: {} } }), 'liberation');
    assert.match((bad as { error: string }).error, /^invalid_request: field "site\.path": expected string to match/);
  });
}
