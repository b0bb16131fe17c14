// One random element: its tag and its inline style, drawn with the parent's display in mind
// (a flex or grid item gets item properties, a flex or grid container container ones), and, for
// an engine under test, only what it declares it lays out.
import {
  BOX,
  displaysFor,
  FLEX_CONTAINER,
  FLEX_ITEM,
  GRID_CONTAINER,
  GRID_ITEM,
  TEXT,
  type Declaration,
  type Declarations,
} from './css-values.js';
import type { Random, Weighted } from './random.js';
import type { Supported } from './supported-css.js';
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
  /** Whether the element it goes into is positioned (so a containing block for an absolutely positioned box). */
  parentPositioned: boolean;
  /** Only what an engine under test lays out (its `supports`); text then in plain words. */
  supported?: Supported;
}

/** Draws of a declaration group that an engine under test does not admit are drawn again, this many times, then left out. */
const REDRAWS = 8;

/**
 * A childless element with a random tag and style; with text on, it may hold a few words, and an
 * inline one always does. Without text no element is an inline box (an empty one has no agreed
 * geometry, src/campaign/inline-boxes.ts): span, b and em always declare another display.
 */
export function drawElement(random: Random, id: string, context: ElementContext): ElementNode {
  const { supported } = context;
  const tag = random.weighted(TAGS);
  const displays = supported ? displaysFor(context.text).filter(([, d]) => supported.admits('display', d)) : displaysFor(context.text);
  // An element whose tag's own display is not admitted always declares one that is.
  const inline = INLINE_TAGS.has(tag);
  const mustDeclare = (!context.text && inline) || (supported !== undefined && !supported.admits('display', inline ? 'inline' : 'block'));
  const display = displays.length && (random.chance(0.7) || mustDeclare) ? random.weighted(displays) : undefined;
  const pools: [Declarations[], number][] = [[context.text ? [...BOX, ...TEXT] : BOX, random.weighted(PROPERTY_COUNTS)]];
  if (display === 'flex' || display === 'inline-flex') pools.push([FLEX_CONTAINER, random.int(1, 3)]);
  if (display === 'grid' || display === 'inline-grid') pools.push([GRID_CONTAINER, random.int(1, 3)]);
  if (/flex$/.test(context.parentDisplay)) pools.push([FLEX_ITEM, random.int(0, 2)]);
  if (/grid$/.test(context.parentDisplay)) pools.push([GRID_ITEM, random.int(0, 2)]);
  const declarations = pools.flatMap(([pool, count]) =>
    random.sample(pool, count).flatMap((draw) => drawSupported(random, draw, supported, context.parentPositioned)),
  );
  const element: ElementNode = {
    id,
    tag,
    declarations: display === undefined ? declarations : [['display', display], ...declarations],
    children: [],
  };
  if (context.text && (displayOf(element) === 'inline' || random.chance(0.5)))
    element.children.push(words(random, random.int(1, 8), { plain: supported !== undefined }));
  return element;
}

/**
 * A draw of `draw` inside what `supported` lets through (drawn again up to REDRAWS times), else
 * none: every declaration admitted, and no absolutely positioned box in an unpositioned parent
 * where the candidate lays such a box out in its parent.
 */
export function drawSupported(
  random: Random,
  draw: Declarations,
  supported: Supported | undefined,
  parentPositioned: boolean,
): Declaration[] {
  if (!supported) return draw(random);
  const fits = ([property, value]: Declaration) =>
    supported.admits(property, value) &&
    !(supported.absoluteInParent && !parentPositioned && property === 'position' && value === 'absolute');
  for (let i = 0; i < REDRAWS; i++) {
    const drawn = draw(random);
    if (drawn.every(fits)) return drawn;
  }
  return [];
}
