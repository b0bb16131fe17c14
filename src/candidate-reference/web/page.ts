// The page around a case: the viewport, html and body, and the boxes in the body, which are what
// a candidate lays out and declares as its roots. Each engine lays out the in-flow part (html,
// body and its in-flow children) and each absolutely positioned child of the body against the
// viewport, which is its containing block. The candidates model html and body only as far as that
// needs: html without margins, borders or padding, a body of block layout with auto sizes; a case
// that styles them otherwise, or a quirks-mode document, is unsupported.
import { layoutChildren, type Box } from './boxes.js';
import type { Document, Element } from './document.js';
import type { Edges } from './dump.js';
import type { LengthAuto } from './grammar.js';
import type { Style } from './style.js';
import { VIEWPORT } from '../../protocol/common.js';
import { Unsupported } from './unsupported.js';
import type { Length } from './values.js';

export interface Page {
  readonly html: Box;
  readonly body: Box;
  /** The body's margins (auto ones 0), borders and padding, px. */
  readonly bodyEdges: { margin: Edges; border: Edges; padding: Edges };
  /** The body's boxes in flow (block-level boxes and text runs), in order. */
  readonly inFlow: readonly Box[];
  /** The body's absolutely positioned (and fixed) boxes, each laid out against the viewport. */
  readonly outOfFlow: readonly Box[];
  /** For each of them, whether an in-flow box comes before it (its static position then depends on that box). */
  readonly afterInFlow: ReadonlySet<Box>;
  /** The dump indices of the body's element boxes: the subtrees the candidate lays out. */
  readonly roots: readonly number[];
  /** Every element's computed style. */
  readonly styles: ReadonlyMap<Element, Style>;
}

const SIDES = ['top', 'right', 'bottom', 'left'] as const;

export function pageOf(document: Document, html: Box, styles: ReadonlyMap<Element, Style>): Page {
  if (document.mode === 'quirks') throw new Unsupported('document mode: quirks (no doctype)');
  const htmlStyle = html.style;
  demand(htmlStyle, 'HTML', 'display', ['block', 'flow-root']);
  plain(htmlStyle, 'HTML');
  for (const side of SIDES) {
    if (!zero(htmlStyle[`margin-${side}`]) || !zero(htmlStyle[`padding-${side}`]) || htmlStyle[`border-${side}-width`].n !== 0) {
      throw new Unsupported(`margin, border or padding on HTML`);
    }
  }
  const inHtml = layoutChildren(html);
  const body = inHtml[0];
  if (inHtml.length !== 1 || !body?.element || body.element.name !== 'body') throw new Unsupported('boxes in HTML other than BODY');
  const bodyStyle = body.style;
  demand(bodyStyle, 'BODY', 'display', ['block']);
  plain(bodyStyle, 'BODY');
  const resolve = (l: LengthAuto) => (l === 'auto' ? 0 : l.unit === '%' ? (l.n * VIEWPORT.width) / 100 : l.n);
  const edges = (f: (side: (typeof SIDES)[number]) => LengthAuto): Edges => SIDES.map((s) => resolve(f(s))) as unknown as Edges;
  const children = layoutChildren(body);
  const outOfFlow = children.filter((b) => b.element && (b.style.position === 'absolute' || b.style.position === 'fixed'));
  const inFlow = children.filter((b) => !outOfFlow.includes(b));
  const afterInFlow = new Set(outOfFlow.filter((b) => children.slice(0, children.indexOf(b)).some((c) => inFlow.includes(c))));
  return {
    html,
    body,
    bodyEdges: {
      margin: edges((s) => bodyStyle[`margin-${s}`]),
      border: edges((s) => bodyStyle[`border-${s}-width`]),
      padding: edges((s) => bodyStyle[`padding-${s}`]),
    },
    inFlow,
    outOfFlow,
    afterInFlow,
    roots: children.filter((b) => b.element).map((b) => b.element!.index),
    styles,
  };
}

/**
 * The insets an absolutely positioned child of the body is laid out with: its own, and on an
 * axis where both are auto, the start inset at its static position (the body's content edge) —
 * which, in a left-to-right containing block, is what CSS does with them.
 */
export function rootInsets(page: Page, box: Box, bodyContent: { x: number; y: number }): Record<(typeof SIDES)[number], LengthAuto> {
  const s = box.style;
  const insets = { top: s.top, right: s.right, bottom: s.bottom, left: s.left };
  if (s.left === 'auto' && s.right === 'auto') insets.left = { n: bodyContent.x, unit: 'px' };
  if (s.top === 'auto' && s.bottom === 'auto') {
    if (page.afterInFlow.has(box))
      throw new Unsupported(`position: ${s.position} with auto top and bottom after in-flow content (a static position)`);
    insets.top = { n: bodyContent.y, unit: 'px' };
  }
  return insets;
}

/** Where an absolutely positioned child of the body goes once it knows its size: its border box's origin, for a width and height. */
export type ContentPlacement = (width: number, height: number) => { x: number; y: number } | null;

/**
 * The placement of an absolutely positioned child of the body that is sized by its content alone,
 * laid out by itself with no space given (as Taffy's and Yoga's own test harnesses lay out every
 * fixture's root): null where CSS sizes it otherwise, so that it is laid out against the viewport
 * instead. That is where a percentage of the viewport reaches its own box, where an auto size sits
 * between two insets (it stretches), and, once sized (the returned function answers null), where
 * its width is wider than the viewport leaves it (shrink-to-fit is then the room, not the content).
 * Fitting, an auto size is its max-content size, which is what CSS gives it.
 */
export function placedByContent(box: Box, insets: Record<(typeof SIDES)[number], LengthAuto>): ContentPlacement | null {
  const s = box.style;
  const lengths: (LengthAuto | Style['width'])[] = [
    ...Object.values(insets),
    s.width,
    s.height,
    s['min-width'],
    s['min-height'],
    s['max-width'],
    s['max-height'],
    ...SIDES.flatMap((side) => [s[`margin-${side}`], s[`padding-${side}`]]),
  ];
  if (lengths.some((l) => typeof l === 'object' && 'unit' in l && l.unit === '%')) return null;
  if (s.width === 'auto' && insets.left !== 'auto' && insets.right !== 'auto') return null;
  if (s.height === 'auto' && insets.top !== 'auto' && insets.bottom !== 'auto') return null;
  // With an inset auto on an axis, CSS takes that axis's auto margins as 0.
  const px = (l: LengthAuto) => (l === 'auto' ? 0 : l.n);
  const [mt, mr, mb, ml] = SIDES.map((side) => px(s[`margin-${side}`]));
  const room = VIEWPORT.width - px(insets.left) - px(insets.right) - ml! - mr!;
  return (width, height) => {
    if (width > room) return null;
    return {
      x: insets.left !== 'auto' ? insets.left.n + ml! : VIEWPORT.width - px(insets.right) - mr! - width,
      y: insets.top !== 'auto' ? insets.top.n + mt! : VIEWPORT.height - px(insets.bottom) - mb! - height,
    };
  };
}

const zero = (l: LengthAuto | Length) => l !== 'auto' && l.n === 0;

function demand<P extends keyof Style>(style: Style, tag: string, property: P, values: readonly Style[P][]): void {
  if (!values.includes(style[property])) throw new Unsupported(`${property}: ${String(style[property])} (on ${tag})`);
}

/** html and body as the candidates model them: static, auto-sized, unclipped, left to right. */
function plain(style: Style, tag: string): void {
  demand(style, tag, 'position', ['static']);
  demand(style, tag, 'float', ['none']);
  demand(style, tag, 'width', ['auto']);
  demand(style, tag, 'height', ['auto']);
  demand(style, tag, 'min-width', ['auto']);
  demand(style, tag, 'min-height', ['auto']);
  demand(style, tag, 'max-width', ['none']);
  demand(style, tag, 'max-height', ['none']);
  demand(style, tag, 'overflow-x', ['visible']);
  demand(style, tag, 'overflow-y', ['visible']);
  demand(style, tag, 'direction', ['ltr']);
  demand(style, tag, 'writing-mode', ['horizontal-tb']);
  demand(style, tag, 'box-sizing', ['content-box', 'border-box']);
}
