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

/** The same test on the parsed document, run inside the page by the walk. */
export const SCRIPT_CAPABLE_SELECTOR = 'script,iframe,frame,frameset,object,embed,portal,meta[http-equiv],[autofocus],[srcdoc]';
