import type { EngineName } from '../protocol/schema.js';

// Which cases may take the fast path. A case that cannot run script leaves nothing behind in the
// page's global object, so it can be written into a page that has never run page script
// (document.open/write/close, many cases to one driver call) and still produce exactly the dump a
// fresh navigation would. Anything that could run script, navigate, focus or scroll loads as its
// own document instead. This check only routes: the fast path's page also forbids script by CSP,
// and the walk re-checks the parsed DOM with SCRIPT_CAPABLE_SELECTOR (and every element's `on…`
// attributes), so a case this test misses is redone as its own document, never dumped wrong.
const SCRIPT_CAPABLE =
  /<\s*(?:script|iframe|frame|frameset|object|embed|portal)\b|<\s*meta\b[^>]*http-equiv|\son[a-z]+\s*=|javascript:|srcdoc|autofocus/i;

export function mayRunScript(html: string): boolean {
  return SCRIPT_CAPABLE.test(html);
}

// Gecko turns a document's bidi processing on when right-to-left content appears, and keeps it on
// through document.open: a left-to-right case written after an rtl one then gets other fragments
// than in a document of its own (measured: an inline split in two on its line). A case that may
// turn it on is written after the left-to-right cases of its batch, and the page goes back to a
// fresh blank document before it takes a left-to-right case again. The test errs towards yes:
// rtl anywhere, dir=auto, bdo/bdi, &rlm;, and the UTF-16 code units Gecko takes for bidi text
// (its UTF16_CODE_UNIT_IS_BIDI, and a little more: the strong right-to-left blocks, the lead
// surrogates of the astral ones, RLM, RLE, RLO, RLI), whether written as they are, as numeric
// character references or as CSS escapes. An escape of any other character cannot turn it on:
// counting every `&#` and `\` sent every case of a fixture corpus down the bidi route, for a
// `&#8203;` in a comment.
const BIDI_UNITS = '\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff\ud802\ud803\ud83a\ud83b\u200f\u202b\u202e\u2067';
const BIDI_CAPABLE = new RegExp(`rtl|\\bdir\\s*=\\s*["']?\\s*auto|<\\s*bd[io]\\b|&rlm|[${BIDI_UNITS}]`, 'i');
const BIDI_UNIT = new RegExp(`[${BIDI_UNITS}]`);
/** A numeric character reference (decimal or hex, the semicolon optional, as HTML parses it) or a CSS hex escape. */
const ESCAPE = /&#(?:x([0-9a-f]+)|([0-9]+))|\\([0-9a-f]{1,6})/gi;

export function mayEnableBidi(html: string): boolean {
  if (BIDI_CAPABLE.test(html)) return true;
  for (const [, hex, decimal, css] of html.matchAll(ESCAPE)) {
    const code = decimal !== undefined ? Number(decimal) : Number.parseInt((hex ?? css)!, 16);
    // Past U+10FFFF both parsers give U+FFFD; a surrogate's escape errs towards yes.
    if (code <= 0x10ffff && BIDI_UNIT.test(String.fromCodePoint(code))) return true;
  }
  return false;
}

// Which engines take a script-free case by parsing it off the page and swapping its root in, where
// the page finds that exact (src/page/swap.ts), rather than by document.open, which costs them
// about half of a small case. Chromium: every such case. Firefox: not one that may turn bidi on;
// Gecko's bidi switch lives on the document, which a swap keeps, and whether a swapped-in rtl
// text turns it on when a write would has not been shown. WebKit: none; it missed a font once on
// a 1500-fixture corpus with the swap, and what it was waiting for has not been found.
const SWAPS: Record<EngineName, 'all' | 'ltr' | 'none'> = { chromium: 'all', firefox: 'ltr', webkit: 'none' };

export function swapsCase(engine: EngineName, bidi: boolean): boolean {
  return SWAPS[engine] === 'all' || (SWAPS[engine] === 'ltr' && !bidi);
}

/** The same test on the parsed document, run inside the page by the walk. */
export const SCRIPT_CAPABLE_SELECTOR = 'script,iframe,frame,frameset,object,embed,portal,meta[http-equiv],[autofocus],[srcdoc]';
