// How the reducer reads and writes html: doctype and quirks mode kept, structural tags left out
// only where the text still parses to the same tree.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse, serialize } from 'parse5';
import { canonicalHtml, countElements, deletableElements, detach, modeOf, parseHtml, printHtml } from '../../src/reduce/html-case.js';
import { dom, elements } from './support/dom.js';

const DOCTYPES = [
  { doctype: '<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">', mode: 'quirks' },
  {
    doctype: '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">',
    mode: 'limited-quirks',
  },
  { doctype: '<!doctype html>', mode: 'no-quirks' },
  { doctype: '', mode: 'quirks' },
];

test("parse5's own serializer loses quirks modes, which is why the doctype is copied from the source", () => {
  const html = `${DOCTYPES[0]!.doctype}<p>x</p>`;
  assert.equal(parse(html).mode, 'quirks');
  assert.equal(parse(serialize(parse(html))).mode, 'no-quirks');
});

test('printing keeps every doctype verbatim and the document in its mode', () => {
  for (const { doctype, mode } of DOCTYPES) {
    const d = parseHtml(`${doctype}\n<table><tr><td>x</td></tr></table>`, 'document');
    assert.equal(modeOf(d), mode);
    const printed = printHtml(d);
    assert.ok(printed.startsWith(doctype), printed);
    assert.equal(dom(printed).mode, mode, doctype);
  }
});

test('html, head and body tags are left out when they carry nothing', () => {
  const d = parseHtml('<!DOCTYPE html><html><head><title>t</title></head><body><p>x</p></body></html>', 'document');
  assert.equal(printHtml(d), '<!DOCTYPE html><title>t</title><p>x</p>');
});

test('structural tags with attributes are kept', () => {
  const d = parseHtml('<!DOCTYPE html><html lang="en"><body class="c"><p>x</p>', 'document');
  assert.equal(printHtml(d), '<!DOCTYPE html><html lang="en"><head></head><body class="c"><p>x</p></body></html>');
});

test('the short form is not used when it would parse to another tree', () => {
  // A <meta> the markup put in <body> would move to <head> without the tags.
  const d = parseHtml('<body><meta name="x"><p>y</p>', 'body');
  const printed = printHtml(d);
  const body = elements(dom(printed, 'body')).find((e) => e.tagName === 'body')!;
  assert.deepEqual(
    body.childNodes.map((n) => n.nodeName),
    ['meta', 'p'],
  );
});

test('body markup prints without a doctype: the oracle adds its own', () => {
  const d = parseHtml('<style>p{}</style><p id="a">x</p>', 'body');
  assert.equal(printHtml(d), '<style>p{}</style><p id="a">x</p>');
});

test('a trial that would parse in another mode is refused', () => {
  const d = parseHtml('<!DOCTYPE html><p>x</p>', 'document');
  const mode = modeOf(d);
  detach(d.doc.childNodes[0]!);
  assert.equal(canonicalHtml(d, mode), undefined);
});

test('the canonical form is stable: printing it again changes nothing', () => {
  const messy = ['<p>a<p>b<div>c</div>', '<table><td>x<div>y</table>', '<ul><li>a<li>b</ul><!--c-->', '<b><i>x</b>y</i>'];
  for (const html of messy) {
    const once = canonicalHtml(parseHtml(html, 'document'), 'quirks')!;
    assert.equal(canonicalHtml(parseHtml(once, 'document'), 'quirks'), once, html);
  }
});

test('elements are counted as a dump would list them, and depth counts deletable ancestors', () => {
  const d = parseHtml('<!DOCTYPE html><div><p><b>x</b></p></div><span></span>', 'document');
  assert.equal(countElements(d), 7);
  assert.deepEqual(
    deletableElements(d).map((e) => `${e.element.tagName}@${e.depth}`),
    ['div@0', 'p@1', 'b@2', 'span@0'],
  );
});
