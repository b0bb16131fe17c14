// Attribute deletions, over every attribute of every element in document order.
import type { DefaultTreeAdapterTypes as T } from 'parse5';
import { isElement, walk, type HtmlDoc } from '../html-case.js';
import type { Pass } from '../pass.js';

interface AttributeUnit {
  element: T.Element;
  attr: T.Element['attrs'][number];
}

/** Deletes attributes (a `style` attribute as a whole; its declarations are the CSS pass's). */
export const attributes: Pass<HtmlDoc, AttributeUnit> = {
  name: 'attributes',
  hierarchical: false,
  collect(d) {
    const units: AttributeUnit[] = [];
    walk(d.doc, (n) => {
      if (isElement(n)) for (const attr of n.attrs) units.push({ element: n, attr });
    });
    return units;
  },
  remove(_d, units) {
    for (const { element, attr } of units) element.attrs = element.attrs.filter((a) => a !== attr);
  },
};
