// One random element: its tag and its inline style, drawn with the parent's display in mind
// (a flex or grid item gets item properties, a flex or grid container container ones).
import { BOX, displaysFor, FLEX_CONTAINER, FLEX_ITEM, GRID_CONTAINER, GRID_ITEM, TEXT, type Declarations } from './css-values.js';
import type { Random, Weighted } from './random.js';
import { words } from './text.js';
import { displayOf, INLINE_TAGS, type ElementNode } from './tree.js';

/** b and em bring the bold and italic faces in. p is left out: the parser closes it at a nested block. */
const TAGS: Weighted<string>[] = [
  [6, 'div'],
  [4, 'span'],
  [1, 'section'],
  [1, 'b'],
  [1, 'em'],
];

/** How many box (and text) properties an element declares besides its display. */
const PROPERTY_COUNTS: Weighted<number>[] = [
  [1, 0],
  [2, 1],
  [3, 2],
  [3, 3],
  [2, 4],
  [1, 5],
];

export interface ElementContext {
  /** Whether text properties and text children are in play. */
  text: boolean;
  /** The display of the element it goes into. */
  parentDisplay: string;
}

/**
 * A childless element with a random tag and style; with text on, it may hold a few words, and an
 * inline one always does. Without text no element is an inline box (an empty one has no agreed
 * geometry, src/campaign/inline-boxes.ts): span, b and em always declare another display.
 */
export function drawElement(random: Random, id: string, context: ElementContext): ElementNode {
  const tag = random.weighted(TAGS);
  const displays = displaysFor(context.text);
  const display = random.chance(0.7) || (!context.text && INLINE_TAGS.has(tag)) ? random.weighted(displays) : undefined;
  const pools: [Declarations[], number][] = [[context.text ? [...BOX, ...TEXT] : BOX, random.weighted(PROPERTY_COUNTS)]];
  if (display === 'flex' || display === 'inline-flex') pools.push([FLEX_CONTAINER, random.int(1, 3)]);
  if (display === 'grid' || display === 'inline-grid') pools.push([GRID_CONTAINER, random.int(1, 3)]);
  if (/flex$/.test(context.parentDisplay)) pools.push([FLEX_ITEM, random.int(0, 2)]);
  if (/grid$/.test(context.parentDisplay)) pools.push([GRID_ITEM, random.int(0, 2)]);
  const declarations = pools.flatMap(([pool, count]) => random.sample(pool, count).flatMap((draw) => draw(random)));
  const element: ElementNode = {
    id,
    tag,
    declarations: display === undefined ? declarations : [['display', display], ...declarations],
    children: [],
  };
  if (context.text && (displayOf(element) === 'inline' || random.chance(0.5))) element.children.push(words(random, random.int(1, 8)));
  return element;
}
