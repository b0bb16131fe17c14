// A check-layout page whose prose the candidate cannot measure (a system font): the elements under
// test — the scope's matches, or without a scope the outermost elements carrying a check-layout
// attribute — laid out alone. Everything else is display:none and the text around them is dropped,
// so the document keeps its elements (the dump's shape) while only their subtrees are laid out;
// their own offsets then mean nothing (the answer says placed:false), their sizes and everything
// inside them do (src/comparator/authored-candidate.ts).
import { AUTHORED_ATTRIBUTES } from '../../protocol/authored-schema.js';
import { selectAll } from './selectors.js';
import { isElement, type Document, type Element, type Text } from './document.js';

const carries = (e: Element) => [...e.attributes.keys()].some((name) => Object.hasOwn(AUTHORED_ATTRIBUTES, name));

/** The document with only the elements under test laid out, and their indexes; null when there are none. */
export function underTestAlone(document: Document, scope: readonly string[] | undefined): { document: Document; roots: number[] } | null {
  const matched = new Set(scope ? scope.flatMap((selector) => selectAll(document, selector)) : document.elements.filter(carries));
  const under = (e: Element): boolean => e.parent !== null && (matched.has(e.parent) || under(e.parent));
  const roots = document.elements.filter((e) => matched.has(e) && !under(e));
  if (roots.length === 0) return null;
  const keep = new Set<Element>();
  for (const root of roots) for (let e: Element | null = root; e; e = e.parent) keep.add(e);
  const copies = new Map<Element, Element>();
  const elements = document.elements.map((e) => {
    const inside = under(e) || roots.includes(e);
    const attributes = new Map(e.attributes);
    if (!inside && !keep.has(e)) attributes.set('style', `${attributes.get('style') ?? ''};display:none!important`);
    const copy: Element = { ...e, parent: e.parent && copies.get(e.parent)!, attributes, children: [] };
    copies.set(e, copy);
    return { copy, inside };
  });
  for (const [i, e] of document.elements.entries()) {
    const { copy, inside } = elements[i]!;
    // Around the elements under test, the prose goes; inside them, everything stays.
    copy.children.push(...e.children.flatMap((c): (Element | Text)[] => (isElement(c) ? [copies.get(c)!] : inside ? [c] : [])));
  }
  const all = elements.map((e) => e.copy);
  return { document: { ...document, elements: all, root: all[0]! }, roots: roots.map((r) => r.index) };
}
