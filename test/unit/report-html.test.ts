// The report's markup builder: every value is escaped text unless it is markup the builder made,
// in element content and in quoted attributes, whatever characters it holds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { escapeHtml, html, Html } from '../../src/report/html.js';
import { attr, dom, elements, texts } from './support/dom.js';

test('escapeHtml escapes the five characters that can end text or an attribute', () => {
  assert.equal(escapeHtml(`<a href="x" title='y'>&amp;</a>`), '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;');
  assert.equal(escapeHtml('plain text, é ✓'), 'plain text, é ✓');
});

test('html escapes its values, keeps markup it made, joins lists and drops null and undefined', () => {
  const inner = html`<b>${'<i>'}</b>`;
  assert.equal(inner.text, '<b>&lt;i&gt;</b>');
  assert.equal(html`<p>${inner}</p>`.text, '<p><b>&lt;i&gt;</b></p>', 'markup is not escaped twice');
  assert.equal(html`<ul>${['<a>', html`<li>x</li>`, 3, null, undefined, [['&']]]}</ul>`.text, '<ul>&lt;a&gt;<li>x</li>3&amp;</ul>');
});

test('only the html template makes Html', () => {
  const forge = Html as unknown as new (token: symbol, text: string) => Html;
  assert.throws(() => new forge(Symbol('html'), '<script>alert(1)</script>'), /only by the html template/);
});

/** Markup-heavy strings: the pieces that end text, attributes, comments and raw-text elements. */
const hostile = fc
  .array(
    fc.constantFrom(
      '<',
      '>',
      '&',
      '"',
      "'",
      '</p>',
      '<script>',
      '</script>',
      '&amp;',
      '&#x3c;',
      '<!--',
      '-->',
      '`',
      '=',
      'x',
      ' ',
      '\n',
      'é',
      '✓',
    ),
  )
  .map((parts) => parts.join(''));

test('whatever the text, the parsed page has it back exactly, as text and as an attribute value', () => {
  fc.assert(
    fc.property(hostile, (s) => {
      const doc = dom(html`<!doctype html><p title="${s}">${s}</p><textarea>\n${s}</textarea>`.text);
      const all = elements(doc);
      const p = all.find((e) => e.tagName === 'p')!;
      assert.equal(attr(p, 'title'), s);
      assert.equal(texts(p).join(''), s);
      assert.deepEqual(
        p.childNodes.map((c) => c.nodeName).filter((n) => n !== '#text'),
        [],
        'no element inside',
      );
      assert.equal(texts(all.find((e) => e.tagName === 'textarea')!).join(''), s);
      assert.equal(all.filter((e) => e.tagName === 'script').length, 0);
    }),
  );
});
