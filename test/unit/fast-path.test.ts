// Which cases take the fast path (written in place) and which are loaded by navigation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mayEnableBidi, mayRunScript } from '../../src/workers/host/fast-path.js';
import { layoutCorpus } from '../support/layout-corpus.js';

test('plain layout markup takes the fast path', () => {
  for (const html of [
    '<!doctype html><meta charset="utf-8"><style>p{margin:0}</style><p>text <a href="#x">link</a></p>',
    '<table border=1><tr><td>one<td>two</table>',
    '<svg width=10 height=10><rect width=5 height=5 /></svg>',
    '<p>a "script" in prose, an on-line form</p>',
  ])
    assert.equal(mayRunScript(html), false, html);
  // The whole bench corpus (the bench checks its fast-path dumps against navigation).
  for (const c of layoutCorpus()) assert.equal(mayRunScript(c.html), false, c.id);
});

test('markup that could run script, navigate, focus or nest a document is loaded by navigation', () => {
  for (const html of [
    '<script>1</script>',
    '<SCRIPT src=x></SCRIPT>',
    '<img src=x onerror=alert(1)>',
    '<body\tonload="f()">',
    '<a href="javascript:void 0">x</a>',
    '<iframe src=x></iframe>',
    '<iframe srcdoc="<p>"></iframe>',
    '<object data=x></object>',
    '<embed src=x>',
    '<meta http-equiv="refresh" content="0;url=x">',
    '<input autofocus>',
  ])
    assert.equal(mayRunScript(html), true, html);
});

test('a handler the markup test cannot see is left to the DOM check in the page', () => {
  // No whitespace before the attribute: the regular expression misses it by design; the walk's
  // DOM check catches it (see the oracle test "script the fast path cannot see in the markup").
  assert.equal(mayRunScript('<img src="x"onerror="f()">'), false);
});

test('a case that may turn on bidi processing is told apart from one that cannot', () => {
  const may = [
    '<p style="direction:rtl">x</p>',
    '<p dir=RTL>x</p>',
    '<p dir="auto">x</p>',
    '<bdo dir=ltr>x</bdo>',
    '<bdi>x</bdi>',
    '<p>\u05d0</p>',
    '<p>\u0627</p>',
    '<p>&#1488;</p>',
    '<p>&#x5d0;</p>',
    '<p>a&rlm;b</p>',
    '<p>\u200f</p>',
    '<style>p::after{content:"\\5d0"}</style><p>x</p>',
    '<style>p::after{content:"\\00202e"}</style><p>x</p>',
    '<p>&#8235;x</p>',
    '<p>&#X627</p>',
    // Gecko counts UTF-16 code units: the astral right-to-left blocks' lead surrogates too.
    '<p>\u{10900}</p>',
    '<p>\u{1e900}</p>',
    '<p>&#x10900;</p>',
  ];
  const cannot = [
    '<p style="direction:ltr">x</p>',
    '<div id="dir">x</div>',
    '<p dir="ltr">x</p>',
    '<p>caf\u00e9 \u4e2d\u6587</p>',
    // Escapes of left-to-right or neutral characters: a test font's comment with a zero-width
    // space matched every case of a fixture corpus.
    '<style>/* &#8203; */ @font-face{font-family:t;src:url(t.woff)}</style><p>x</p>',
    '<p>&#169; &#x2014; &#65;</p>',
    '<style>.a\\:b{content:"\\2014"}</style><p class="a:b">x</p>',
    '<p>&#99999999999;</p>',
  ];
  for (const html of may) assert.equal(mayEnableBidi(html), true, html);
  for (const html of cannot) assert.equal(mayEnableBidi(html), false, html);
});
