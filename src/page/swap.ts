// The fast path's cheaper way to put a case into the blank page: parse it off the page (DOMParser)
// and swap its root element in for the page's, instead of document.open/write/close, whose every
// call the browsers handle as a new document (about half of their cost per case on small cases).
// It is taken only where the result is the same document a write gives, else the case is
// written. What differs between the two, and how each difference is ruled out here:
//   - the mode: a write resets the document to no-quirks and its parser sets quirks or limited
//     quirks from the case's doctype; a swap keeps the page's mode. Both the parsed document and
//     the page must be no-quirks (CSS1Compat and no public identifier: limited quirks is only
//     reached through one), so a case after a quirks case that was written is written too;
//   - scripting: DOMParser parses with scripting off, so <noscript> holds elements, not text;
//   - declarative shadow roots: DOMParser leaves <template shadowrootmode> a template;
//   - loads: a parsed document loads nothing and a swapped root is walked at once, while a write
//     waits for its load event: no element or attribute that fetches (link, img, media, base,
//     SVG references, src/srcset/background/poster…), no url(), image(), image-set(),
//     cross-fade() or @import in any attribute or style sheet, and no CSS escape there (one can
//     spell any of those). An @font-face whose every source is a data: URL is the exception: the
//     font comes with the case, as fixture suites carry Ahem, and the swapped case is walked once
//     document.fonts.ready says its fonts have loaded, as a written one is (test/e2e/swap.test.ts
//     holds two such cases, each font a data: URL no cache holds, to their own documents);
//   - time: a write's walk comes a task later, a swap's at once: no animation, transition or
//     :hover, whose result depends on when the walk comes;
//   - <meta> other than charset (color-scheme, viewport…) and form owners set by the parser's
//     form pointer (reset when the root moves): no <meta> with other attributes, no <form>.
//   - the parse itself: Gecko starts an @import's load in a parsed document, and the written
//     document that follows shares it and is walked without it (measured). Markup that may load
//     anything when parsed is not parsed at all: the test is on the markup as sent, where no
//     element or attribute name can be hidden, and an @import only by an escape or in an SVG
//     <style>, the one style sheet whose character references are decoded (whose text may also be
//     split by comments). A character reference anywhere else (Ahem's comment has one) is left to
//     the check of the parsed document, which reads attributes decoded;
//   - the scroll position, which a write resets and a swap keeps: the page must be at 0, 0.
// What the root carries (its attributes: lang, dir, style), the head and body the parser made,
// the title and comments outside the root do not differ, or do not reach the walk. Shipped as
// source text (sources.ts).
import type { Builtins } from './builtins.js';

/**
 * Parses `html` off the page and swaps its root in for `doc`'s where that is exact; false, having
 * changed nothing, where the case must be written instead.
 */
export function swapIn(b: Builtins, doc: Document, html: string): boolean {
  const LOADS_WHEN_PARSED = /<(?:link|img|image|picture|source|video|audio|track|input|svg)|src(?:set)?\s*=|@import|@\\/i;
  if (b.matches(LOADS_WHEN_PARSED, html) || b.scrollX(b.window) !== 0 || b.scrollY(b.window) !== 0) return false;
  const parsed = b.parseHtml(html);
  if (!swappable(b, doc, parsed)) return false;
  b.replaceChild(doc, b.documentElement(parsed)!, b.documentElement(doc)!);
  return true;
}

/** Whether `parsed` may be swapped into `doc` and give the document a write of the same markup gives. */
export function swappable(b: Builtins, doc: Document, parsed: Document): boolean {
  // Inside the function: it is shipped as its own source text.
  /** Elements that fetch, hold what a scripting parser would not parse, or depend on the parser's state. */
  const UNSWAPPABLE_ELEMENT = /^(?:link|base|img|image|picture|source|video|audio|track|input|use|feimage|noscript|form|marquee)$/;
  /** Attributes that fetch or that a parsed document treats otherwise (href only outside a and area). */
  const UNSWAPPABLE_ATTRIBUTE = /^(?:src|srcset|imagesrcset|lowsrc|background|poster|data|manifest|ping|xlink:.*|shadowroot.*)$/;
  /** CSS that loads, that depends on when it is read, or that escapes could hide either in. */
  const UNSWAPPABLE_CSS = /url\(|image(?:-set)?\(|cross-fade|@import|@font-face|@keyframes|animation|transition|:hover|\\/i;
  /**
   * An @font-face rule, as far as its first `}` (a data: URL's base64 has none; a rule cut short
   * leaves its rest to UNSWAPPABLE_CSS). A font whose every source is a data: URL loads from the
   * case itself, and the swapped case is walked once it has (batchProgram); any other source refuses.
   */
  const FONT_FACE = /@font-face\s*\{[^}]*\}/gi;
  const NOT_DATA_URL = /url\(\s*(?!["']?data:)/i;
  const pageType = b.doctype(doc);
  const caseType = b.doctype(parsed);
  if (pageType === null || caseType === null || b.documentElement(parsed) === null) return false;
  if (b.compatMode(doc) !== 'CSS1Compat' || b.compatMode(parsed) !== 'CSS1Compat') return false;
  if (b.publicId(pageType) !== '' || b.publicId(caseType) !== '') return false;
  const all = b.allElements(parsed);
  const count = b.collectionLength(all);
  for (let i = 0; i < count; i++) {
    const el = b.collectionItem(all, i)!;
    const name = b.toLowerCase(b.localName(el));
    if (b.matches(UNSWAPPABLE_ELEMENT, name)) return false;
    const attributes = b.getAttributeNames(el);
    if (name === 'meta' && (attributes.length !== 1 || attributes[0] !== 'charset')) return false;
    if (name === 'style') {
      let fontsOfItsOwn = true;
      const rest = b.replaceAll(b.textContent(el) ?? '', FONT_FACE, (rule: string) => {
        if (b.matches(NOT_DATA_URL, rule)) fontsOfItsOwn = false;
        return '';
      });
      if (!fontsOfItsOwn || b.matches(UNSWAPPABLE_CSS, rest)) return false;
    }
    for (let k = 0; k < attributes.length; k++) {
      const attribute = b.toLowerCase(attributes[k]!);
      if (b.matches(UNSWAPPABLE_ATTRIBUTE, attribute)) return false;
      if (attribute === 'href' && name !== 'a' && name !== 'area') return false;
      if (b.matches(UNSWAPPABLE_CSS, b.getAttribute(el, attributes[k]!) ?? '')) return false;
    }
  }
  return true;
}
