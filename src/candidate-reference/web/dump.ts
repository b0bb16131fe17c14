// The dump a candidate answers with, in the contract's format: every element in document order,
// the boxes its engine placed (elements without a box get no fragment and a zeroed bounding box),
// and the style subset on every node, as getComputedStyle gives it where the candidate knows the
// value (used sizes, margins and padding for boxes; computed values otherwise).
import { VIEWPORT, type STYLE_PROPERTIES } from '../../protocol/common.js';
import type { CandidateDump } from '../../protocol/candidate-schema.js';
import type { Document, Element } from './document.js';
import type { Size } from './grammar.js';
import type { Style } from './style.js';
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

export function buildDump(
  engine: string,
  version: string,
  document: Document,
  styles: ReadonlyMap<Element, Style>,
  geometry: Geometry,
): CandidateDump {
  // Per element, by its index (elements come in document order, parents first).
  const depth: number[] = [];
  const nodes = document.elements.map((element) => {
    const d = element.parent ? depth[element.parent.index]! + 1 : 0;
    depth.push(d);
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

/**
 * The subset as getComputedStyle reports it, in the contract's order (STYLE_PROPERTIES): one
 * object literal, so that every node's object has the same shape and no property is stored by a
 * computed key (a table of one function per property was most of the dump's time).
 */
function styleSubset(s: Style, box: Placed | undefined, item: boolean): Record<(typeof STYLE_PROPERTIES)[number], string> {
  return {
    display: s.display,
    position: s.position,
    'box-sizing': s['box-sizing'],
    direction: s.direction,
    'writing-mode': s['writing-mode'],
    float: s.float,
    clear: s.clear,
    width: box ? px(usedSize(box, s, 'width')) : size(s.width),
    height: box ? px(usedSize(box, s, 'height')) : size(s.height),
    'min-width': minSize(s['min-width'], item),
    'max-width': size(s['max-width']),
    'min-height': minSize(s['min-height'], item),
    'max-height': size(s['max-height']),
    // Boxes report their used margins and padding; elements without one their computed values.
    'margin-top': box ? px(box.margin[0]) : lengthAuto(s['margin-top']),
    'margin-right': box ? px(box.margin[1]) : lengthAuto(s['margin-right']),
    'margin-bottom': box ? px(box.margin[2]) : lengthAuto(s['margin-bottom']),
    'margin-left': box ? px(box.margin[3]) : lengthAuto(s['margin-left']),
    'padding-top': box ? px(box.padding[0]) : length(s['padding-top']),
    'padding-right': box ? px(box.padding[1]) : length(s['padding-right']),
    'padding-bottom': box ? px(box.padding[2]) : length(s['padding-bottom']),
    'padding-left': box ? px(box.padding[3]) : length(s['padding-left']),
    'border-top-width': length(s['border-top-width']),
    'border-right-width': length(s['border-right-width']),
    'border-bottom-width': length(s['border-bottom-width']),
    'border-left-width': length(s['border-left-width']),
    'overflow-x': s['overflow-x'],
    'overflow-y': s['overflow-y'],
  };
}

/** The used width or height as getComputedStyle reports it: the border box for border-box sizing, else the content box. */
function usedSize(box: Placed, style: Style, axis: 'width' | 'height'): number {
  const [a, b] = axis === 'width' ? [3, 1] : [0, 2];
  const outer = axis === 'width' ? box.width : box.height;
  if (style['box-sizing'] === 'border-box') return outer;
  return Math.max(0, outer - box.padding[a]! - box.padding[b]! - box.border[a]! - box.border[b]!);
}

/** A px value as the browsers print one: at most four decimals, no trailing zeros (a whole number prints as itself, without toFixed's cost). */
const px = (n: number) => (Number.isInteger(n) ? `${n}px` : `${Number(n.toFixed(4))}px`);
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
  // Per element, by index, from its parent's (parents come first): whether an ancestor clips each axis, and whether it or one is fixed.
  const clipsX: boolean[] = [];
  const clipsY: boolean[] = [];
  const fixed: boolean[] = [];
  for (const element of document.elements) {
    const style = styles.get(element)!;
    const parent = element.parent;
    const parentStyle = parent ? styles.get(parent)! : undefined;
    const x = parent ? clipsX[parent.index]! || parentStyle!['overflow-x'] !== 'visible' : false;
    const y = parent ? clipsY[parent.index]! || parentStyle!['overflow-y'] !== 'visible' : false;
    const f = (parent ? fixed[parent.index]! : false) || style.position === 'fixed';
    clipsX.push(x);
    clipsY.push(y);
    fixed.push(f);
    const box = geometry.boxes.get(element);
    if (!box || f) continue;
    if (!x && box.x + box.width > VIEWPORT.width + EPSILON) return true;
    if (!y && box.y + box.height > VIEWPORT.height + EPSILON) return true;
  }
  return false;
}
