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
// rtl anywhere, dir=auto, bdo/bdi, numeric entities, &rlm;, CSS escapes, and the strong
// right-to-left characters and controls.
const BIDI_CAPABLE =
  /rtl|\bdir\s*=\s*["']?\s*auto|<\s*bd[io]\b|&#|&rlm|\\|[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff\u200f\u202b\u202e\u2067]/i;

export function mayEnableBidi(html: string): boolean {
  return BIDI_CAPABLE.test(html);
}

/** The same test on the parsed document, run inside the page by the walk. */
export const SCRIPT_CAPABLE_SELECTOR = 'script,iframe,frame,frameset,object,embed,portal,meta[http-equiv],[autofocus],[srcdoc]';
