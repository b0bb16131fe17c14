// Each kind of deletion, through the whole reducer: a predicate that needs one thing, a case
// with that thing among others, and a check that the others are gone and the thing is intact.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse as parseJs } from 'acorn';
import { reduce } from '../../src/reduce/index.js';
import { attr, dom, elements, hasClass, inlineDisplay, sheetDisplay, styleTexts, texts } from './support/dom.js';

interface Geometry {
  html: string;
  script?: string;
}

test('subtrees and wrappers go: what is needed is kept in its place', async () => {
  const html = '<!DOCTYPE html><div class="w"><section><p>a</p><span class="x">b</span></section></div><footer><i>c</i></footer>';
  const { request } = await reduce<Geometry>({ html }, async (c) => elements(dom(c.html)).some((e) => hasClass(e, 'x')));
  assert.equal(request.html, '<!DOCTYPE html><span class="x"></span>');
});

test('hoisting keeps an element that is needed inside one that is not', async () => {
  const html = '<!DOCTYPE html><div class="outer"><div class="mid"><b id="k"></b></div></div>';
  const needsBInsideOuter = async (c: Geometry) => {
    const outer = elements(dom(c.html)).find((e) => hasClass(e, 'outer'));
    return outer !== undefined && elements(outer).some((e) => attr(e, 'id') === 'k');
  };
  const { request } = await reduce<Geometry>({ html }, needsBInsideOuter);
  assert.equal(request.html, '<!DOCTYPE html><div class="outer"><b id="k"></b></div>');
});

test('attributes the predicate does not need are deleted, the needed one kept with its value', async () => {
  const html = '<!DOCTYPE html><div id="a" class="b c" title="t" data-x="y" lang="en" hidden></div>';
  const { request } = await reduce<Geometry>({ html }, async (c) => elements(dom(c.html)).some((e) => attr(e, 'title') === 't'));
  assert.equal(request.html, '<!DOCTYPE html><div title="t"></div>');
});

test('CSS rules and declarations in <style> are deleted, down to the one declaration needed, formatting kept', async () => {
  const html = `<!DOCTYPE html><style>
.p { color: red; display: flex; margin: 0 }
.q { padding: 1px }
@media screen { .p { width: 1px } .z { color: blue } }
/* note */
</style><div class="p"><span class="x">t</span></div>`;
  const flexParent = async (c: Geometry) => {
    const doc = dom(c.html);
    const x = elements(doc).find((e) => hasClass(e, 'x'));
    const parent = x?.parentNode;
    return (
      parent !== undefined && parent !== null && 'tagName' in parent && hasClass(parent, 'p') && sheetDisplay(doc, 'p').includes('flex')
    );
  };
  const { request } = await reduce<Geometry>({ html }, flexParent);
  assert.deepEqual(styleTexts(dom(request.html)), ['\n.p { display: flex }\n']);
  assert.equal(request.html, '<!DOCTYPE html><style>\n.p { display: flex }\n</style><div class="p"><span class="x"></span></div>');
});

test('rules nested in an at-rule are deleted one level down while the at-rule stays', async () => {
  const html = '<!DOCTYPE html><style>@media screen { .a { color: red } .k { display: grid } .b { margin: 0 } }</style><i class="k"></i>';
  const { request } = await reduce<Geometry>(
    { html },
    async (c) => styleTexts(dom(c.html)).some((s) => s.includes('display: grid')) && c.html.includes('class="k"'),
  );
  assert.equal(request.html, '<!DOCTYPE html><style>@media screen { .k { display: grid } }</style><i class="k"></i>');
});

test('inline style declarations are deleted one by one', async () => {
  const html = '<!DOCTYPE html><div style="width: 10px; display: flex; height: 5px;color:red"><span class="x"></span></div>';
  const { request } = await reduce<Geometry>({ html }, async (c) =>
    elements(dom(c.html)).some((e) => inlineDisplay(e).includes('flex') && elements(e).some((k) => hasClass(k, 'x'))),
  );
  assert.equal(request.html, '<!DOCTYPE html><div style="display: flex"><span class="x"></span></div>');
});

test('CSS that postcss cannot parse is left exactly as it was', async () => {
  const html = '<!DOCTYPE html><style>.a { color: red</style><p class="k">x</p>';
  const { request } = await reduce<Geometry>(
    { html },
    async (c) => styleTexts(dom(c.html)).includes('.a { color: red') && c.html.includes('class="k"'),
  );
  assert.equal(request.html, '<!DOCTYPE html><style>.a { color: red</style><p class="k"></p>');
});

test('text nodes and comments go, then words inside the text that is left', async () => {
  const html = '<!DOCTYPE html><p>keep this one please</p><p>drop me</p><!-- a comment --><b>and me</b>';
  const { request } = await reduce<Geometry>({ html }, async (c) => texts(dom(c.html)).some((t) => t.includes('this')));
  assert.equal(request.html, '<!DOCTYPE html>this');
});

test('words are deleted with the space before them, so what is left reads as text', async () => {
  const html = '<!DOCTYPE html><p>alpha beta gamma delta</p>';
  const { request } = await reduce<Geometry>({ html }, async (c) => {
    const t = texts(dom(c.html)).join('');
    return t.includes('beta') && t.includes('delta') && elements(dom(c.html)).some((e) => e.tagName === 'p');
  });
  assert.equal(request.html, '<!DOCTYPE html><p>beta delta</p>');
});

test('script statements go, top level first, then inside blocks, and the script still parses', async () => {
  const script = `var a = 1;
function g() {
  bar();
  if (a) {
    baz();
    foo(a);
  }
  a++;
}
g();
console.log(a);
`;
  const callsFoo = async (c: Geometry) => /\bfoo\(/.test(c.script ?? '') && parses(c.script ?? '');
  const { request } = await reduce<Geometry>({ html: '<!DOCTYPE html><p>x</p>', script }, callsFoo);
  assert.equal(request.script, 'function g() {\n  if (a) {\n    foo(a);\n  }\n}\n');
});

test('a script acorn cannot parse is left alone, and the html is still reduced', async () => {
  const script = 'foo(; bar()';
  const { request } = await reduce<Geometry>({ html: '<!DOCTYPE html><p>x</p><i>y</i>', script }, async (c) => c.script === script);
  assert.equal(request.script, script);
  assert.equal(request.html, '<!DOCTYPE html>');
});

function parses(script: string): boolean {
  try {
    parseJs(script, { ecmaVersion: 'latest' });
    return true;
  } catch {
    return false;
  }
}
