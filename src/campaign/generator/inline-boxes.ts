// Keeps generated trees free of two inline-box constructs whose geometry CSS leaves to each
// engine, which were the first difference of most non-unanimous generated cases (measured and
// reduced by hand, docs/campaign.md "Generator"):
//
// - block-in-inline: an in-flow block-level box directly inside an inline box (CSS 2.1
//   §9.2.1.1). The inline is split around the block into anonymous pieces, and what its own box
//   is then differs: an empty SECTION at y 15 in Chromium and 8 in Firefox and WebKit, an inline
//   0, 16 or 35 px high, for one margin on the block inside it;
// - an empty inline box: an in-flow inline box with no text and no atomic inline in it. It sits on
//   a line that CSS 2.1 §9.4.2 treats as not there, and WebKit puts it at its container's corner
//   (through padding, relative offsets and the right edge of an RTL line alike), Blink applies
//   vertical-align to it, and Blink's box for it takes in its children's borders and padding.
import { displayOf, elementsOf, type ElementNode } from './tree.js';

/** The block-level displays the generator draws. */
const BLOCK_LEVEL = new Set(['block', 'flow-root', 'flex', 'grid']);
/** Displays whose in-flow children are flex or grid items, which are blockified. */
const ITEM_CONTAINERS = new Set(['flex', 'inline-flex', 'grid', 'inline-grid']);

/** The box context an element's children are laid out in. */
interface Context {
  /** The children's box parent is an inline box. */
  inlineBox: boolean;
  /** The children's box parent is a flex or grid container. */
  itemContainer: boolean;
}

const BLOCK_CONTEXT: Context = { inlineBox: false, itemContainer: false };

/** Whether the tree has a block inside an inline box, or an empty inline box. */
export function hasInlineTrouble(root: ElementNode): boolean {
  return troubleAmong(root.children, BLOCK_CONTEXT, true);
}

/**
 * Where `element` can go when it was meant to go under `parent`: `parent` itself, or else its
 * nearest ancestor under which no block sits inside an inline box (adding an element never
 * empties an inline box).
 */
export function hostFor(root: ElementNode, parent: ElementNode, element: ElementNode): ElementNode {
  const path = pathTo(root, parent);
  for (const host of path.reverse()) {
    host.children.push(element);
    const breaks = troubleAmong(root.children, BLOCK_CONTEXT, false);
    host.children.pop();
    if (!breaks) return host;
  }
  return root;
}

function troubleAmong(children: ElementNode['children'], context: Context, empties: boolean): boolean {
  return children.some((child) => typeof child !== 'string' && trouble(child, context, empties));
}

function trouble(element: ElementNode, context: Context, empties: boolean): boolean {
  const display = displayOf(element);
  if (display === 'none') return false; // no boxes at all
  if (display === 'contents') return troubleAmong(element.children, context, empties); // its children take its place
  const inFlow = !outOfFlow(element);
  if (context.inlineBox && inFlow && BLOCK_LEVEL.has(display)) return true;
  // Floats, absolutely positioned boxes and flex and grid items are blockified.
  const inlineBox = display === 'inline' && inFlow && !context.itemContainer;
  if (empties && inlineBox && !hasLineContent(element.children)) return true;
  return troubleAmong(element.children, { inlineBox, itemContainer: ITEM_CONTAINERS.has(display) }, empties);
}

/** Text, or an in-flow atomic inline or non-empty inline box, among `children` (display: contents looked through). */
function hasLineContent(children: ElementNode['children']): boolean {
  return children.some((child) => {
    if (typeof child === 'string') return child !== '';
    const display = displayOf(child);
    if (display === 'contents') return hasLineContent(child.children);
    if (display === 'none' || outOfFlow(child)) return false;
    return display !== 'inline' || hasLineContent(child.children);
  });
}

/** Floated or absolutely positioned (the last declaration of each wins, as in the cascade). */
function outOfFlow(element: ElementNode): boolean {
  const last = (property: string) => element.declarations.filter(([name]) => name === property).at(-1)?.[1];
  return ['left', 'right'].includes(last('float') ?? 'none') || ['absolute', 'fixed'].includes(last('position') ?? 'static');
}

/** The elements from the root down to `target`, both included. */
function pathTo(root: ElementNode, target: ElementNode): ElementNode[] {
  if (root === target) return [root];
  for (const child of root.children) {
    if (typeof child === 'string' || !elementsOf(child).includes(target)) continue;
    return [root, ...pathTo(child, target)];
  }
  throw new Error(`${target.id} is not in the tree of ${root.id}`);
}
