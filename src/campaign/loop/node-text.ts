// The text of one element of a geometry case, for the `text` field of a known-difference rule.
// A dump carries boxes and styles, not text, so the case's html is parsed again with parse5 (the
// HTML standard's parsing algorithm, as the engines run it) and its elements are counted in the
// page walk's order: document order, `<html>` first, template contents left out (as
// getElementsByTagName('*') does).
import { defaultTreeAdapter as tree, parse, type DefaultTreeAdapterMap } from 'parse5';

type ParentNode = DefaultTreeAdapterMap['parentNode'];
type ChildNode = DefaultTreeAdapterMap['childNode'];

/**
 * The textContent of element `index` of `html`, or null when the parse does not reach an
 * element `tag` there: a script changed the DOM, so the html no longer describes the dump.
 */
export function nodeText(html: string, index: number, tag: string): string | null {
  let seen = -1;
  const stack: ChildNode[] = [...tree.getChildNodes(parse(html))].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    if (!tree.isElementNode(node)) continue;
    if (++seen === index) return node.tagName.toLowerCase() === tag.toLowerCase() ? textContent(node) : null;
    stack.push(...[...tree.getChildNodes(node)].reverse());
  }
  return null;
}

function textContent(node: ParentNode): string {
  return tree
    .getChildNodes(node)
    .map((child) => (tree.isTextNode(child) ? child.value : tree.isElementNode(child) ? textContent(child) : ''))
    .join('');
}
