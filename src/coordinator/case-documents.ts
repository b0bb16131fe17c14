// The documents a case is served as, by its op's document kind (src/protocol/ops.ts): its html is
// the whole document, body markup in a standards-mode page, or body markup after the trace
// recorder. An engine without an isolated world (WebKitGTK) gets the guard as the first script of
// every case document, placed where it changes neither the document's mode nor its tree.
import type { DocumentKind } from '../protocol/ops.js';
import { guardScript } from '../page/sources.js';
import { tracePage } from '../page/trace-recorder.js';

/**
 * The document for one engine: `nonce` is its own, `guarded` says whether the guard goes first,
 * and `traceBytes` is how much a trace may record.
 */
export function caseDocument(kind: DocumentKind, html: string, nonce: string, guarded: boolean, traceBytes: number): string {
  switch (kind) {
    // The recorder is the first script already, and the trace's own checks are the recorder's.
    case 'recorder':
      return tracePage(html, nonce, traceBytes);
    case 'body':
      return guarded ? `<!doctype html><script>${guardScript(nonce, true)}</script>${html}` : `<!doctype html>${html}`;
    case 'document': {
      if (!guarded) return html;
      const at = scriptInsertionPoint(html);
      return `${html.slice(0, at)}<script>${guardScript(nonce, false)}</script>${html.slice(at)}`;
    }
  }
}

const SPACE = /[\t\n\f\r ]/;

/**
 * Where a first <script> may go without changing the parsed document: after any leading
 * whitespace, comments and doctype (so the mode is the doctype's), then after an <html …> start
 * tag and a <head …> start tag if they come next (so their attributes stay theirs). The script
 * removes itself when it runs, before anything after it is parsed.
 */
function scriptInsertionPoint(html: string): number {
  let i = html.startsWith('\uFEFF') ? 1 : 0;
  const skipSpaceAndComments = () => {
    for (;;) {
      while (i < html.length && SPACE.test(html[i]!)) i++;
      if (!html.startsWith('<!--', i)) return;
      const end = html.indexOf('-->', i + 4);
      i = end < 0 ? html.length : end + 3;
    }
  };
  skipSpaceAndComments();
  if (html.slice(i, i + 9).toLowerCase() === '<!doctype') {
    i = tagEnd(html, i);
    skipSpaceAndComments();
  }
  for (const name of ['html', 'head']) {
    if (!new RegExp(`^<${name}(?=[\\t\\n\\f\\r />])`, 'i').test(html.slice(i, i + name.length + 2))) break;
    i = tagEnd(html, i);
    skipSpaceAndComments();
  }
  return i;
}

/**
 * Just after the `>` that ends the start tag (or doctype) at `start`, read as the HTML tokenizer
 * reads it: a `>` inside a quoted attribute value does not end the tag, a quote elsewhere is text.
 */
function tagEnd(html: string, start: number): number {
  let i = start + 1;
  const at = (j: number) => html[j] ?? '>';
  while (i < html.length && !SPACE.test(at(i)) && at(i) !== '>' && at(i) !== '/') i++;
  for (;;) {
    while (i < html.length && (SPACE.test(at(i)) || at(i) === '/')) i++;
    if (i >= html.length) return html.length;
    if (at(i) === '>') return i + 1;
    // An attribute name, then perhaps `=` and a value.
    do i++;
    while (i < html.length && !SPACE.test(at(i)) && at(i) !== '/' && at(i) !== '>' && at(i) !== '=');
    while (i < html.length && SPACE.test(at(i))) i++;
    if (at(i) !== '=') continue;
    i++;
    while (i < html.length && SPACE.test(at(i))) i++;
    const quote = at(i);
    if (quote === '"' || quote === "'") {
      const end = html.indexOf(quote, i + 1);
      i = end < 0 ? html.length : end + 1;
    } else while (i < html.length && !SPACE.test(at(i)) && at(i) !== '>') i++;
  }
}
