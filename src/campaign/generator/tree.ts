// The element tree a case is made of, and its markup. Every element carries an id (e0, e1,
// …) so that a mutation script, and anyone reducing a case, can name it.
import type { Declaration } from './css-values.js';

/** One element: tag, inline style, and children (a string child is a text node). */
export interface ElementNode {
  id: string;
  tag: string;
  declarations: Declaration[];
  children: (ElementNode | string)[];
}

/** Tags whose boxes are inline unless a display says otherwise. */
export const INLINE_TAGS = new Set(['span', 'b', 'em']);

/** The element's display: its declared one, or its tag's. */
export function displayOf(element: ElementNode): string {
  const declared = element.declarations.filter(([property]) => property === 'display').at(-1);
  return declared?.[1] ?? (INLINE_TAGS.has(element.tag) ? 'inline' : 'block');
}

/** Whether the element's box is positioned (its last position declaration is not static), so a containing block for absolute ones. */
export function isPositioned(element: ElementNode): boolean {
  const position = element.declarations.filter(([property]) => property === 'position').at(-1)?.[1] ?? 'static';
  return position !== 'static' && displayOf(element) !== 'contents' && displayOf(element) !== 'none';
}

/** The element as markup, with no whitespace between tags (it would be text of its own). */
export function elementHtml(element: ElementNode): string {
  const style = element.declarations.map(([property, value]) => `${property}:${value}`).join(';');
  const children = element.children.map((child) => (typeof child === 'string' ? escapeText(child) : elementHtml(child))).join('');
  return `<${element.tag} id="${element.id}"${style ? ` style="${escapeAttribute(style)}"` : ''}>${children}</${element.tag}>`;
}

/** Every element of the tree, `root` first, in document order. */
export function elementsOf(root: ElementNode): ElementNode[] {
  return [root, ...root.children.flatMap((child) => (typeof child === 'string' ? [] : elementsOf(child)))];
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
}
