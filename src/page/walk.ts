// The one in-page walk every engine runs: every element in document order, its boxes, fragments
// and computed style subset. It calls only captured built-ins (builtins.ts) and writes its own
// JSON text (json-text.ts), so a case that replaced built-ins or clobbered DOM properties gets
// the same dump as without the replacement. It returns flat arrays rather than objects, and each
// tag and style value once, in a table the arrays index (a document repeats a few dozen of them
// across thousands of slots): less to escape here, to carry over every driver protocol and to
// parse in Node, which rebuilds objects in the contract's key order.
// Bounded: a document with more nodes, fragments or text than the limits is reported as too
// large, and nothing more is built.
//
// Shipped as source text (programs.ts): these functions refer only to each other, to
// json-text.ts and to the built-ins they are given; no async function or iterator, both of
// which would consult objects a page can replace.
import type { Builtins } from './builtins.js';
import { numberJson, quoteJson } from './json-text.js';

/** What a walk is told; the same for every case of a run except `loadMs`. */
export interface WalkOptions {
  styleProperties: readonly string[];
  scriptCapableSelector: string;
  maxNodes: number;
  maxFragments: number;
  /** Roughly the JSON text's length; past it the walk stops. */
  maxBytes: number;
  /** Milliseconds loading the document, when the caller measured it (the fast path's write). */
  loadMs: number | null;
}

/** Calls `next` once document.fonts.ready has settled, whichever way. */
export function afterFonts(b: Builtins, next: () => void): void {
  let called = false;
  const once = () => {
    if (called) return;
    called = true;
    next();
  };
  try {
    b.promiseThen(b.fontsReady(b.fonts(b.document)), once, once);
  } catch {
    // A case that broke promises themselves: walk what there is.
    once();
  }
}

/**
 * Lays the document out again from nothing: the root is taken out of the layout and put back, so
 * the next layout is a fresh one of the document as it is now. A navigated document gets one once
 * it has loaded and its fonts have settled, before the case's script: Chromium has layout that
 * depends on its own history (how many passes ran while the document was parsed), which differs
 * between a navigation and a written document, and from one navigation to the next (measured on
 * generated cases, 2 of 180 dumps differed without this). The relayout check gets one after the
 * walk. The root's style attribute and the window's scroll position are put back as they were.
 */
export function freshLayout(b: Builtins, doc: Document): void {
  const root = b.documentElement(doc);
  if (root === null) return;
  const style = b.getAttribute(root, 'style');
  const x = b.scrollX(b.window);
  const y = b.scrollY(b.window);
  b.setAttribute(root, 'style', `${style ?? ''};display:none!important`);
  b.getBoundingClientRect(root);
  if (style === null) b.removeAttribute(root, 'style');
  else b.setAttribute(root, 'style', style);
  b.scrollTo(b.window, { left: x, top: y, behavior: 'instant' });
}

/** Once the document's fonts have settled: lays it out from scratch when `fresh`, then calls `next`. */
export function prepared(b: Builtins, fresh: boolean | undefined, next: () => void, wait?: string): void {
  afterWait(b, wait, () =>
    afterFonts(b, () => {
      if (fresh) freshLayout(b, b.document);
      next();
    }),
  );
}

/**
 * Calls `next` once the page says it is ready (a request's `wait`): "testharness", once its
 * document holds the comment `wpt-harness-complete`, which the stand-in testharnessreport.js
 * appends when the harness completes (src/wpt/stand-ins.ts) (a comment: no
 * element, style or selector sees it, and it stays, unlike an event that may fire before this
 * runs); "reftest-wait", once its root no longer has the class reftest-wait. Polled: a page that
 * never says so ends at the case's timeout.
 */
export function afterWait(b: Builtins, wait: string | undefined, next: () => void): void {
  const ready = () => {
    const doc = b.document;
    if (wait === 'reftest-wait') {
      const root = b.documentElement(doc);
      return root === null || !b.matches(/(^|\s)reftest-wait(\s|$)/, b.getAttribute(root, 'class') ?? '');
    }
    for (let node = b.firstChild(doc); node !== null; node = b.nextSibling(node)) {
      if (b.nodeType(node) === 8 && b.textContent(node) === 'wpt-harness-complete') return true;
    }
    return false;
  };
  const poll = () => (ready() ? next() : b.setTimeout(b.window, poll, 10));
  if (wait === 'testharness' || wait === 'reftest-wait') poll();
  else next();
}

/**
 * The walk of the document as it is laid out now, and with `relayout` a second walk after a fresh
 * layout, as the first's `relayout` member: the engine's layout from scratch, held against the
 * layout the page had (src/comparator/relayout.ts). Either walk too large is the answer.
 */
export function walkCase(b: Builtins, options: WalkOptions, relayout: boolean): string {
  const TOO_LARGE = '{"tooLarge":';
  const walked = walkDocument(b, options);
  if (!relayout || b.stringSlice(walked, 0, TOO_LARGE.length) === TOO_LARGE) return walked;
  freshLayout(b, b.document);
  const fresh = walkDocument(b, options);
  if (b.stringSlice(fresh, 0, TOO_LARGE.length) === TOO_LARGE) return fresh;
  return `${b.stringSlice(walked, 0, -1)},"relayout":${fresh}}`;
}

/**
 * The walk of the current document as JSON text: see RawWalk (src/protocol/dump.ts), or
 * {tooLarge}. It lays nothing out afresh: its reads force only the layout any script's reads would.
 */
export function walkDocument(b: Builtins, options: WalkOptions): string {
  const start = b.now();
  const doc = b.document;
  const all = b.allElements(doc);
  const count = b.collectionLength(all);
  if (count > options.maxNodes) return `{"tooLarge":{"nodes":${count}}}`;
  const styleCount = options.styleProperties.length;
  const indexOf = b.newMap();
  // Each distinct tag or style value, once, as JSON text; the lists below hold indexes into it.
  const stringIndex = b.newMap();
  let strings = '';
  let stringCount = 0;
  const intern = (s: string): number => {
    let at = b.mapGet(stringIndex, s) as number | undefined;
    if (at === undefined) {
      at = stringCount++;
      b.mapSet(stringIndex, s, at);
      strings += (at ? ',' : '') + quoteJson(b, s);
    }
    return at;
  };
  let tags = '';
  let parents = '';
  let bounding = '';
  let rectCounts = '';
  let rects = '';
  let styles = '';
  let fragments = 0;
  let bytes = 0;
  let scriptCapable = b.querySelector(doc, options.scriptCapableSelector) !== null;
  for (let i = 0; i < count; i++) {
    const el = b.collectionItem(all, i)!;
    const sep = i ? ',' : '';
    if (!scriptCapable) {
      const names = b.getAttributeNames(el);
      for (let k = 0; k < names.length; k++) {
        const name = names[k]!;
        // An event handler attribute: on…
        if (name.length >= 2 && b.charCodeAt(name, 0) === 111 && b.charCodeAt(name, 1) === 110) scriptCapable = true;
      }
    }
    b.mapSet(indexOf, el, i);
    const tag = b.tagName(el);
    tags += sep + intern(tag);
    const parent = b.parentElement(el);
    const parentIndex = parent === null ? -1 : b.mapGet(indexOf, parent);
    parents += sep + (parentIndex === undefined ? -1 : parentIndex);
    const list = b.getClientRects(el);
    const listLength = b.rectListLength(list);
    fragments += listLength;
    if (fragments > options.maxFragments) return `{"tooLarge":{"nodes":${count},"fragments":${fragments}}}`;
    rectCounts += sep + listLength;
    for (let k = 0; k < listLength; k++) {
      const r = b.rectListItem(list, k)!;
      rects += `${rects ? ',' : ''}${numberJson(b, b.rectX(r))},${numberJson(b, b.rectY(r))},${numberJson(b, b.rectWidth(r))},${numberJson(b, b.rectHeight(r))}`;
    }
    if (listLength === 0) bounding += `${sep}0,0,0,0`;
    else {
      const r = b.getBoundingClientRect(el);
      bounding += `${sep}${numberJson(b, b.rectX(r))},${numberJson(b, b.rectY(r))},${numberJson(b, b.rectWidth(r))},${numberJson(b, b.rectHeight(r))}`;
    }
    const computed = b.getComputedStyle(el);
    for (let s = 0; s < styleCount; s++) {
      const value = b.getPropertyValue(computed, options.styleProperties[s]!);
      styles += (i || s ? ',' : '') + intern(value);
      // The budget counts what the answer will hold: every value in full, quoted, with its key.
      bytes += value.length + 26;
    }
    bytes += tag.length + 66 + listLength * 48;
    if (bytes > options.maxBytes) return `{"tooLarge":{"nodes":${count},"bytes":${bytes}}}`;
  }
  const root = b.documentElement(doc);
  const scroller = b.scrollingElement(doc) ?? root;
  const overflowed =
    scroller !== null && (b.scrollWidth(scroller) > b.clientWidth(scroller) || b.scrollHeight(scroller) > b.clientHeight(scroller));
  const room = b.scrollbarRoom();
  let loadMs = options.loadMs;
  if (loadMs === null) {
    // Navigation response to load event: the engine's work loading the document, not the driver's.
    const entry = b.navigationEntry();
    const end = entry === null ? 0 : b.loadEventEnd(entry);
    loadMs = end > 0 ? end - b.responseEnd(entry!) : 0;
  }
  return (
    `{"viewport":[${numberJson(b, b.innerWidth())},${numberJson(b, b.innerHeight())}],"ratio":${numberJson(b, b.devicePixelRatio())},` +
    `"overflowed":${overflowed},"scrollbars":[${numberJson(b, room[0])},${numberJson(b, room[1])}],"strings":[${strings}],"tags":[${tags}],"parents":[${parents}],"bounding":[${bounding}],"rectCounts":[${rectCounts}],` +
    `"rects":[${rects}],"styles":[${styles}],"scriptCapable":${scriptCapable},` +
    `"loadMs":${numberJson(b, loadMs)},"walkMs":${numberJson(b, b.now() - start)}}`
  );
}
