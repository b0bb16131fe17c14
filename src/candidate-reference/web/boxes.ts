// The box tree: which elements make boxes, and the anonymous boxes text makes. Elements with
// display: none (and what is inside them) make none; display: contents makes none either, its
// children taking its place (or, for an engine that implements it, a box of its own marked as
// such); a run of text makes one anonymous box in its container. What the candidates do not lay
// out makes the case unsupported: inline-level boxes in a block container (there is no inline
// layout), tables, list items, replaced elements and form controls.
import { isElement, type Element } from './document.js';
import type { Style, Styled } from './style.js';
import { Unsupported } from './unsupported.js';
import { BROWSER_RENDERED } from './user-agent.js';

export interface Box {
  /** The element, or null for the anonymous box of a text run. */
  readonly element: Element | null;
  /** The element's style; a text run's is its parent element's. */
  readonly style: Style;
  readonly children: Box[];
  /** A text run, its white space collapsed (anonymous boxes only). */
  readonly text?: string;
}

export interface BoxOptions {
  /** Keep display: contents boxes (the engine implements it) rather than putting their children in their place. */
  keepContents: boolean;
}

const LAID_OUT = new Set(['block', 'flow-root', 'flex', 'grid', 'inline', 'inline-block', 'inline-flex', 'inline-grid', 'contents']);
const INLINE_LEVEL = new Set(['inline', 'inline-block', 'inline-flex', 'inline-grid']);
const COLLAPSIBLE = /[ \t\n\r\f]+/g;

/** The box of the root element and its descendants. */
export function buildBoxes(root: Element, styled: Styled, options: BoxOptions): Box {
  const box = boxOf(root, styled, options);
  if (!box || Array.isArray(box)) throw new Unsupported('the root element makes no box');
  refuseInlineLevel(box);
  return box;
}

/** A box's children as its layout sees them: those of a display: contents child in its place. */
export const layoutChildren = (box: Box): Box[] =>
  box.children.flatMap((c) => (c.style.display === 'contents' && c.element ? layoutChildren(c) : [c]));

/** There is no inline layout: an inline-level box in a block container is not laid out. */
function refuseInlineLevel(box: Box): void {
  if (box.style.display !== 'contents' && box.style.display !== 'flex' && box.style.display !== 'grid') {
    const inline = layoutChildren(box).find((c) => c.element && INLINE_LEVEL.has(c.style.display));
    if (inline) throw new Unsupported(`display: ${inline.style.display} (${inline.element!.tag} in a block container)`);
  }
  for (const child of box.children) refuseInlineLevel(child);
}

/** An element's box, its children's boxes in its place (display: contents, spliced), or null. */
function boxOf(element: Element, styled: Styled, options: BoxOptions): Box | Box[] | null {
  if (styled.hidden.has(element)) return null;
  const style = styled.styles.get(element)!;
  if (!element.html) throw new Unsupported(`element: ${element.tag}`);
  if (BROWSER_RENDERED.has(element.name)) throw new Unsupported(`element: ${element.tag}`);
  if (!LAID_OUT.has(style.display)) throw new Unsupported(`display: ${style.display}`);
  const children = childBoxes(element, style, styled, options);
  if (style.display === 'contents' && !options.keepContents) return children;
  return { element, style, children };
}

function childBoxes(element: Element, style: Style, styled: Styled, options: BoxOptions): Box[] {
  const boxes: Box[] = [];
  let run = '';
  const flush = () => {
    const text = run.replace(COLLAPSIBLE, ' ').trim();
    if (text) boxes.push({ element: null, style, children: [], text });
    run = '';
  };
  for (const child of element.children) {
    if (!isElement(child)) {
      run += child.text;
      continue;
    }
    const box = boxOf(child, styled, options);
    if (box === null) continue;
    if (Array.isArray(box)) {
      // A spliced display: contents element's own text is its; runs do not join across it.
      flush();
      boxes.push(...box);
      continue;
    }
    flush();
    boxes.push(box);
  }
  flush();
  return boxes;
}
