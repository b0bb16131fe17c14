// The dump a candidate answers with, in the contract's format: every element in document order,
// the boxes its engine placed (elements without a box get no fragment and a zeroed bounding box),
// and the style subset on every node, as getComputedStyle gives it where the candidate knows the
// value (used sizes, margins and padding for boxes; computed values otherwise).
import { STYLE_PROPERTIES } from '../../protocol/common.js';
import type { CandidateDump } from '../../protocol/candidate-schema.js';
import type { Document, Element } from './document.js';
import type { Size } from './properties.js';
import type { Style } from './style.js';
import { VIEWPORT } from './style.js';
import type { Length } from './values.js';

export type Edges = readonly [top: number, right: number, bottom: number, left: number];

/** One box as its engine placed it: the border box in viewport coordinates, and its used edges. */
export interface Placed {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
  readonly margin: Edges;
  readonly padding: Edges;
  readonly border: Edges;
}

/** What the candidate's engine made of the case: a box per element that has one. */
export interface Geometry {
  readonly boxes: ReadonlyMap<Element, Placed>;
  /** Elements that are in-flow flex or grid items (their `min-width: auto` is reported as such). */
  readonly items: ReadonlySet<Element>;
}

const SIDES = ['top', 'right', 'bottom', 'left'] as const;

export function buildDump(
  engine: string,
  version: string,
  document: Document,
  styles: ReadonlyMap<Element, Style>,
  geometry: Geometry,
): CandidateDump {
  const depth = new Map<Element, number>();
  const nodes = document.elements.map((element) => {
    const d = element.parent ? depth.get(element.parent)! + 1 : 0;
    depth.set(element, d);
    const box = geometry.boxes.get(element);
    const rect = box ? { x: box.x, y: box.y, w: box.width, h: box.height } : { x: 0, y: 0, w: 0, h: 0 };
    return {
      index: element.index,
      parent: element.parent ? element.parent.index : -1,
      tag: element.tag,
      depth: d,
      bounding: rect,
      rects: box ? [rect] : [],
      style: styleSubset(styles.get(element)!, box, geometry.items.has(element)),
    };
  });
  return { engine, engine_version: version, viewport: { ...VIEWPORT }, overflowed: overflowed(document, styles, geometry), nodes };
}

type Subset = (style: Style, box: Placed | undefined, item: boolean) => string;

/** How each property of the subset is reported, side by side for the four sides of margin, padding and border. */
const SUBSET: Record<(typeof STYLE_PROPERTIES)[number], Subset> = {
  display: (style) => style.display,
  position: (style) => style.position,
  'box-sizing': (style) => style['box-sizing'],
  direction: (style) => style.direction,
  'writing-mode': (style) => style['writing-mode'],
  float: (style) => style.float,
  clear: (style) => style.clear,
  width: (style, box) => (box ? px(usedSize(box, style, 'width')) : size(style.width)),
  height: (style, box) => (box ? px(usedSize(box, style, 'height')) : size(style.height)),
  'min-width': (style, _box, item) => minSize(style['min-width'], item),
  'max-width': (style) => size(style['max-width']),
  'min-height': (style, _box, item) => minSize(style['min-height'], item),
  'max-height': (style) => size(style['max-height']),
  'overflow-x': (style) => style['overflow-x'],
  'overflow-y': (style) => style['overflow-y'],
  ...(Object.fromEntries(
    SIDES.flatMap((side, i): [string, Subset][] => [
      [`margin-${side}`, (style, box) => (box ? px(box.margin[i]!) : lengthAuto(style[`margin-${side}`]))],
      [`padding-${side}`, (style, box) => (box ? px(box.padding[i]!) : length(style[`padding-${side}`]))],
      [`border-${side}-width`, (style) => length(style[`border-${side}-width`])],
    ]),
  ) as Record<`${'margin' | 'padding'}-${(typeof SIDES)[number]}` | `border-${(typeof SIDES)[number]}-width`, Subset>),
};

/** The subset, built in the contract's order in one pass (every node's object then has the same shape, which JSON.stringify is fastest on). */
function styleSubset(style: Style, box: Placed | undefined, item: boolean): Record<string, string> {
  const values: Record<string, string> = {};
  for (const property of STYLE_PROPERTIES) values[property] = SUBSET[property](style, box, item);
  return values;
}

/** The used width or height as getComputedStyle reports it: the border box for border-box sizing, else the content box. */
function usedSize(box: Placed, style: Style, axis: 'width' | 'height'): number {
  const [a, b] = axis === 'width' ? [3, 1] : [0, 2];
  const outer = axis === 'width' ? box.width : box.height;
  if (style['box-sizing'] === 'border-box') return outer;
  return Math.max(0, outer - box.padding[a]! - box.padding[b]! - box.border[a]! - box.border[b]!);
}

/** A px value as the browsers print one: at most four decimals, no trailing zeros. */
const px = (n: number) => `${Number(n.toFixed(4))}px`;
const length = (l: Length) => (l.unit === '%' ? `${l.n}%` : px(l.n));
const lengthAuto = (l: Length | 'auto') => (l === 'auto' ? 'auto' : length(l));

function size(s: Size): string {
  if (typeof s === 'string') return s;
  if ('fitContent' in s) return `fit-content(${length(s.fitContent)})`;
  return length(s);
}

/** `auto` stays auto on flex and grid items, and is 0px elsewhere. */
const minSize = (s: Size, item: boolean) => (s === 'auto' && !item ? '0px' : size(s));

/**
 * Whether the document scrolls: a box reaching past the viewport's right or bottom edge, not
 * inside a box that clips that axis and not fixed (fixed boxes add nothing to the scrollable area).
 */
function overflowed(document: Document, styles: ReadonlyMap<Element, Style>, geometry: Geometry): boolean {
  const EPSILON = 1 / 128;
  for (const element of document.elements) {
    const box = geometry.boxes.get(element);
    if (!box) continue;
    let clipsX = false;
    let clipsY = false;
    let fixed = false;
    for (let e: Element | null = element; e; e = e.parent) {
      const style = styles.get(e)!;
      if (style.position === 'fixed') fixed = true;
      if (e === element) continue;
      if (style['overflow-x'] !== 'visible') clipsX = true;
      if (style['overflow-y'] !== 'visible') clipsY = true;
    }
    if (fixed) continue;
    if (!clipsX && box.x + box.width > VIEWPORT.width + EPSILON) return true;
    if (!clipsY && box.y + box.height > VIEWPORT.height + EPSILON) return true;
  }
  return false;
}
