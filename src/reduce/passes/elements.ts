// Element deletions: whole subtrees, level by level (HDD), and single elements whose children
// take their place (hoisting), which removes a wrapper while keeping what it wraps.
import type { DefaultTreeAdapterTypes as T } from 'parse5';
import { childrenOf, deletableElements, detach, hoist, type HtmlDoc } from '../html-case.js';
import type { Pass } from '../pass.js';

/** Deletes subtrees; level n holds the elements with n deletable element ancestors. */
export const subtrees: Pass<HtmlDoc, T.Element> = {
  name: 'subtrees',
  hierarchical: true,
  collect: (d, level) =>
    deletableElements(d)
      .filter((e) => e.depth === level)
      .map((e) => e.element),
  remove: (_d, units) => units.forEach(detach),
};

/** Deletes subtrees at any depth, as one flat list: the single removals the 1-minimality check tries. */
export const anySubtree: Pass<HtmlDoc, T.Element> = {
  name: 'subtree',
  hierarchical: false,
  collect: (d) => deletableElements(d).map((e) => e.element),
  remove: (_d, units) => units.forEach(detach),
};

// Their content is not markup: hoisting it would turn CSS or script into text, another case.
const RAW_TEXT = new Set(['style', 'script', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript', 'plaintext']);

/** Replaces elements by their children. Childless elements are left to the subtree passes. */
export const hoisting: Pass<HtmlDoc, T.Element> = {
  name: 'hoist',
  hierarchical: false,
  collect: (d) =>
    deletableElements(d)
      .map((e) => e.element)
      .filter((e) => childrenOf(e).length > 0 && !RAW_TEXT.has(e.tagName)),
  remove: (_d, units) => units.forEach(hoist),
};
