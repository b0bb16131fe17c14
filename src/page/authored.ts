// The in-page reading of a check-layout page's authored expectations: every element carrying a
// check-layout attribute (data-expected-width, data-offset-x, …), its attributes and the DOM values
// /resources/check-layout-th.js holds them to, read as it reads them, after the page's own scripts,
// on built-ins captured before any page script (WebKitGTK's guard) or in an isolated world.
// Judged in Node (src/comparator/authored.ts); what comes back is checked there first
// (src/protocol/authored-output.ts). Element indexes are the walk's: document order of every element.
//
// Shipped as source text (programs.ts): these functions refer only to each other, to
// json-text.ts and to the built-ins they are given.
import type { Builtins } from './builtins.js';
import { numberJson, quoteJson } from './json-text.js';

/** What the reading is told: the selectors to scope it to, and check-layout-th.js's table, from src/protocol/authored-schema.ts. */
export interface AuthoredOptions {
  /** The checkLayout() calls' selectors; null: every element. */
  scope: readonly string[] | null;
  /** Each check-layout attribute with the DOM values it needs (`display` and the style names are computed-style reads). */
  attributes: readonly (readonly [string, readonly string[]])[];
  /** The DOM values in the order an answer lists them. */
  order: readonly string[];
  /** data-* names check-layout-th.js accepts beyond its attributes. */
  otherKeys: readonly string[];
  /** Roughly the JSON text's length; past it the reading stops. */
  maxBytes: number;
}

/** One DOM value of `el`, as JSON: null where check-layout-th.js would read undefined (offset* off an HTMLElement). */
export function authoredValue(b: Builtins, el: Element, name: string): string {
  const read = (get: (e: Element) => number) => {
    try {
      return numberJson(b, get(el));
    } catch {
      return 'null';
    }
  };
  if (name === 'offsetWidth') return read(b.offsetWidth as (e: Element) => number);
  if (name === 'offsetHeight') return read(b.offsetHeight as (e: Element) => number);
  if (name === 'offsetLeft') return read(b.offsetLeft as (e: Element) => number);
  if (name === 'offsetTop') return read(b.offsetTop as (e: Element) => number);
  if (name === 'clientWidth') return read(b.clientWidth);
  if (name === 'clientHeight') return read(b.clientHeight);
  if (name === 'clientLeft') return read(b.clientLeft);
  if (name === 'clientTop') return read(b.clientTop);
  if (name === 'scrollWidth') return read(b.scrollWidth);
  if (name === 'scrollHeight') return read(b.scrollHeight);
  if (name === 'bcrWidth') return read((e) => b.rectWidth(b.getBoundingClientRect(e)));
  if (name === 'bcrHeight') return read((e) => b.rectHeight(b.getBoundingClientRect(e)));
  return quoteJson(b, b.getPropertyValue(b.getComputedStyle(el), name));
}

/**
 * The reading as JSON text: {"elements": [...], "unknown_keys": [...]} (AuthoredReading in
 * src/protocol/authored-schema.ts), or {"tooLarge": …} past `maxBytes`. With a scope, only what
 * checkLayout(selector) checks: each match and its subtree, and each match's parent (its own
 * attributes, which check-layout-th.js checks in every child's subtest).
 */
export function readAuthored(b: Builtins, options: AuthoredOptions): string {
  const doc = b.document;
  const all = b.allElements(doc);
  const count = b.collectionLength(all);
  const indexOf = b.newMap();
  for (let i = 0; i < count; i++) b.mapSet(indexOf, b.collectionItem(all, i)!, i);
  // Per element index: 1 a match (its subtree is read), 2 a match's parent (its own attributes).
  const marks = b.newMap();
  if (options.scope !== null) {
    for (let s = 0; s < options.scope.length; s++) {
      let matches: NodeListOf<Element>;
      try {
        matches = b.querySelectorAll(doc, options.scope[s]!);
      } catch {
        // A selector the engine cannot parse: checkLayout() throws on it and checks nothing.
        continue;
      }
      const n = b.nodeListLength(matches);
      for (let k = 0; k < n; k++) {
        const match = b.nodeListItem(matches, k) as Element;
        b.mapSet(marks, b.mapGet(indexOf, match), 1);
        const parent = b.parentElement(match);
        const at = parent === null ? undefined : b.mapGet(indexOf, parent);
        if (at !== undefined && b.mapGet(marks, at) !== 1) b.mapSet(marks, at, 2);
      }
    }
  }
  // Whether each element is in a match's subtree: its parent precedes it in document order.
  const inSubtree = b.newMap();
  const attributes = b.newMap();
  for (let a = 0; a < options.attributes.length; a++) b.mapSet(attributes, options.attributes[a]![0], options.attributes[a]![1]);
  let elements = '';
  let unknown = '';
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const el = b.collectionItem(all, i)!;
    const parent = b.parentElement(el);
    const under = b.mapGet(marks, i) === 1 || (parent !== null && b.mapGet(inSubtree, b.mapGet(indexOf, parent)) === true);
    if (under) b.mapSet(inSubtree, i, true);
    if (options.scope !== null && !under && b.mapGet(marks, i) !== 2) continue;
    const names = b.getAttributeNames(el);
    let attrs = '';
    const needed = b.newMap();
    for (let k = 0; k < names.length; k++) {
      const name = names[k]!;
      if (b.stringSlice(name, 0, 5) !== 'data-' || b.stringSlice(name, 0, 9) === 'data-test') continue;
      const needs = b.mapGet(attributes, name) as readonly string[] | undefined;
      if (needs === undefined) {
        let other = false;
        for (let o = 0; o < options.otherKeys.length; o++) if (options.otherKeys[o] === name) other = true;
        if (!other) {
          unknown += `${unknown ? ',' : ''}{"index":${i},"name":${quoteJson(b, name)}}`;
          bytes += name.length + 24;
        }
        continue;
      }
      const value = b.getAttribute(el, name);
      // check-layout-th.js checks an attribute only when its value is truthy: "" is skipped.
      if (value === null || value === '') continue;
      attrs += `${attrs ? ',' : ''}${quoteJson(b, name)}:${quoteJson(b, value)}`;
      bytes += name.length + value.length + 6;
      for (let v = 0; v < needs.length; v++) b.mapSet(needed, needs[v]!, true);
    }
    if (bytes > options.maxBytes) return `{"tooLarge":{"nodes":${count},"bytes":${bytes}}}`;
    if (attrs === '') continue;
    let values = '';
    for (let v = 0; v < options.order.length; v++) {
      const name = options.order[v]!;
      if (b.mapGet(needed, name) === true) values += `${values ? ',' : ''}${quoteJson(b, name)}:${authoredValue(b, el, name)}`;
    }
    let offsetParent = -1;
    try {
      const p = b.offsetParent(el as HTMLElement);
      const at = p === null ? undefined : b.mapGet(indexOf, p);
      if (at !== undefined) offsetParent = at as number;
    } catch {
      // Not an HTMLElement: it has no offsetParent.
    }
    elements += `${elements ? ',' : ''}{"index":${i},"attrs":{${attrs}},"values":{${values}},"offset_parent":${offsetParent}}`;
    bytes += values.length + 48;
  }
  return `{"elements":[${elements}],"unknown_keys":[${unknown}]}`;
}
