// The documents a case is served as, by its op's document kind (src/protocol/ops.ts): its html is
// the whole document, body markup in a standards-mode page, or body markup after the trace
// recorder. An engine without an isolated world (WebKitGTK) gets the guard as the first script of
// every case document, placed where it changes neither the document's mode nor its tree.
//
// parse5's Tokenizer is the one its own SAX parser is built on, exported but not documented as a
// stable API: test/unit/guard-placement.test.ts is what a parse5 update must pass.
import { Tokenizer, type TokenHandler } from 'parse5';
import type { DocumentKind } from '../protocol/ops.js';
import { guardScript } from '../page/sources.js';
import { tracePage } from '../page/trace-recorder.js';

/**
 * The document for one engine: `nonce` is its own, `guarded` says whether the guard goes first,
 * `traceBytes` is how much a trace may record and `completionMs` when it ends undone.
 */
export function caseDocument(
  kind: DocumentKind,
  html: string,
  nonce: string,
  guarded: boolean,
  traceBytes: number,
  completionMs?: number,
): string {
  switch (kind) {
    // The recorder is the first script already (nothing of the case comes before it), and the
    // trace's own checks are the recorder's.
    case 'recorder':
      return tracePage(html, nonce, traceBytes, completionMs, guarded);
    case 'body':
      return withScript(`<!doctype html>${html}`, guarded ? guardScript(nonce, true) : null);
    case 'document':
      return withScript(html, guarded ? guardScript(nonce, false) : null);
  }
}

function withScript(html: string, script: string | null): string {
  if (script === null) return html;
  const at = scriptInsertionPoint(html);
  return `${html.slice(0, at)}<script>${script}</script>${html.slice(at)}`;
}

/**
 * Where a first <script> may go without changing the parsed document, found with parse5's
 * tokenizer, the HTML standard's own: after every leading token that puts no content into the
 * tree, and before the first that does. Those are whitespace, comments (bogus ones too),
 * doctypes, <html …> and <head …> start tags (the script must follow them, so that the mode is
 * the doctype's and the attributes are theirs) and the end tags the tree builder ignores there
 * (all but </head>, </body>, </html> and </br>, which imply elements). Before any other token
 * the tree builder only makes the elements it implies (html, head), exactly as the script makes
 * them, so everything after the script is built as it would have been. The script removes
 * itself when it runs, before anything after it is parsed. No markup can come before it:
 * everything before it is one of those tokens.
 *
 * A token that only the end of the document closes (`<!-- x`, `<!doctype html`) would take the
 * script into itself: the script goes before it. Only a document with no content at all ends so;
 * the one difference is then where that comment lands (in the head), or that the ignored doctype
 * leaves no node (the mode is quirks either way).
 */
function scriptInsertionPoint(html: string): number {
  // The browser's decoder drops a byte order mark before its parser sees the document.
  const bom = html.startsWith('\uFEFF') ? 1 : 0;
  const doc = html.slice(bom);
  const { ends, content } = leadingTokens(doc);
  let at = ends.at(-1) ?? 0;
  if (content === null && ends.length > 0) {
    // Nothing but leading tokens: the last one may be open until the end. A script after it is a
    // script start tag only if that token was closed by its own characters.
    const probe = leadingTokens(`${doc.slice(0, at)}<script>`).content;
    if (probe?.startTag !== 'script' || probe.start !== at) at = ends.at(-2) ?? 0;
  }
  return bom + at;
}

type Located = { location: { startOffset: number; endOffset: number } | null };
/** The first token that puts content into the tree: where it starts, and its name if it is a start tag. */
type Content = { start: number; startTag?: string };

/** Tags whose start tag puts no content into the tree where the leading tokens are. */
const LEADING_START_TAGS = new Set(['html', 'head']);
/** Tags whose end tag the tree builder does not ignore where the leading tokens are. */
const IMPLYING_END_TAGS = new Set(['head', 'body', 'html', 'br']);

/** Where each leading token that puts no content into the tree ends, and the first that does (null: none does). */
function leadingTokens(html: string): { ends: number[]; content: Content | null } {
  const ends: number[] = [];
  let content: Content | null = null;
  // A pause takes effect after the token being emitted, and text is emitted just before the
  // token that follows it: that token must not count once the text has stopped the scan.
  const past = (token: Located) => {
    if (content === null) ends.push(token.location!.endOffset);
  };
  const stop = (token: Located, startTag?: string) => {
    content ??= { start: token.location!.startOffset, startTag };
    tokenizer.pause();
  };
  const handler: TokenHandler = {
    onWhitespaceCharacter: past,
    onComment: past,
    onDoctype: past,
    onStartTag: (token) => (LEADING_START_TAGS.has(token.tagName) ? past(token) : stop(token, token.tagName)),
    onEndTag: (token) => (IMPLYING_END_TAGS.has(token.tagName) ? stop(token) : past(token)),
    onCharacter: (token) => stop(token),
    onNullCharacter: (token) => stop(token),
    onEof: () => tokenizer.pause(),
  };
  const tokenizer = new Tokenizer({ sourceCodeLocationInfo: true }, handler);
  tokenizer.write(html, true);
  return { ends, content };
}
