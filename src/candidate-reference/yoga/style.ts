// Computed CSS onto a Yoga node. Yoga's defaults are not the web's (a column direction, no
// shrinking, relative positioning, align-content flex-start), so every property is set to what
// the page means, whatever Yoga would assume. Yoga lays out flexbox only: a block box is mapped
// only where block and flex layout agree (a box without element children, as a column that
// stretches its text), and anything else it cannot express exactly is unsupported.
import {
  Align,
  BoxSizing,
  Direction,
  Display,
  Edge,
  FlexDirection,
  Gutter,
  Justify,
  Overflow,
  PositionType,
  Wrap,
  type Node,
} from 'yoga-layout';
import type { Box } from '../web/boxes.js';
import type { LengthAuto, Size } from '../web/grammar.js';
import { laidOutSize } from '../web/sizing.js';
import { flexEnums } from '../web/longhands.js';
import { Unsupported } from '../web/unsupported.js';
import type { Length } from '../web/values.js';

const refuse = (property: string, value: string, why?: string): never => {
  throw new Unsupported(`${property}: ${value}${why ? ` (${why})` : ''}`);
};

const { direction: FLEX_DIRECTION, wrap: WRAP } = flexEnums(FlexDirection, Wrap);
const EDGES = [
  ['top', Edge.Top],
  ['right', Edge.Right],
  ['bottom', Edge.Bottom],
  ['left', Edge.Left],
] as const;

type Value = number | `${number}%`;
const value = (l: Length): Value => (l.unit === '%' ? `${l.n}%` : l.n);

/** A size Yoga can hold: px or percentage, or nothing (auto, none); intrinsic sizes it does not have. */
function size(property: string, s: Size): Value | undefined {
  if (s === 'auto' || s === 'none') return undefined;
  if (typeof s === 'string' || 'fitContent' in s)
    return refuse(property, typeof s === 'string' ? s : 'fit-content()', 'Yoga has no intrinsic sizes');
  return value(s);
}

/** Where the box sits, as the mapping needs it. */
export interface Context {
  /** The flex-wrap of the box's flex container (start and end in the cross axis turn with wrap-reverse). */
  parentWrap: string;
  /** The flex-direction of the box's flex container, when it is a flex item. */
  flexDirection?: string;
  /** The box is in flow in a block container (the body). */
  inBlock: boolean;
  /** The box is a child of the body laid out against the viewport. */
  root: boolean;
  /** Insets to use instead of the box's own (a root's, with its static position). */
  insets?: Record<'top' | 'right' | 'bottom' | 'left', LengthAuto>;
}

/** The context of the children of `box`, a box that is not display: contents. */
export function childContext(box: Box): Context {
  return {
    parentWrap: box.style['flex-wrap'],
    ...(box.style.display === 'flex' ? { flexDirection: box.style['flex-direction'] } : {}),
    inBlock: false,
    root: false,
  };
}

export function setYogaStyle(node: Node, box: Box, context: Context): void {
  const c = box.style;
  display(node, box);
  const absolute = c.position === 'absolute' || c.position === 'fixed';
  switch (c.position) {
    case 'static':
      node.setPositionType(PositionType.Static);
      break;
    case 'relative':
      node.setPositionType(PositionType.Relative);
      break;
    case 'fixed':
      if (!context.root) refuse('position', 'fixed', 'inside another box');
      node.setPositionType(PositionType.Absolute);
      break;
    case 'absolute':
      node.setPositionType(PositionType.Absolute);
      break;
    default:
      refuse('position', c.position);
  }
  const insets = context.insets ?? { top: c.top, right: c.right, bottom: c.bottom, left: c.left };
  for (const [side, edge] of EDGES) {
    const inset = insets[side];
    if (c.position !== 'static' && inset !== 'auto') node.setPosition(edge, value(inset));
    const margin = c[`margin-${side}`];
    node.setMargin(edge, margin === 'auto' ? 'auto' : value(margin));
    node.setPadding(edge, value(c[`padding-${side}`]));
    node.setBorder(edge, c[`border-${side}-width`].n);
  }
  node.setDirection(c.direction === 'rtl' ? Direction.RTL : Direction.LTR);
  if (c['writing-mode'] !== 'horizontal-tb') refuse('writing-mode', c['writing-mode']);
  node.setBoxSizing(c['box-sizing'] === 'border-box' ? BoxSizing.BorderBox : BoxSizing.ContentBox);
  const placement = { inBlock: context.inBlock, ...(context.flexDirection ? { flexDirection: context.flexDirection } : {}), insets };
  node.setWidth(size('width', laidOutSize(c, 'width', placement)) ?? 'auto');
  node.setHeight(size('height', laidOutSize(c, 'height', placement)) ?? 'auto');
  node.setMinWidth(size('min-width', c['min-width']));
  node.setMinHeight(size('min-height', c['min-height']));
  node.setMaxWidth(size('max-width', c['max-width']));
  node.setMaxHeight(size('max-height', c['max-height']));
  if (c['overflow-x'] !== c['overflow-y'])
    refuse('overflow', `${c['overflow-x']} ${c['overflow-y']}`, 'Yoga has one overflow for both axes');
  node.setOverflow(
    c['overflow-x'] === 'visible' ? Overflow.Visible : c['overflow-x'] === 'hidden' ? Overflow.Hidden : refuse('overflow', c['overflow-x']),
  );
  // A block box (text at most inside) is a column that stretches its text: its flex container properties do not apply.
  const block = c.display !== 'flex' && c.display !== 'contents';
  const direction = block ? 'column' : c['flex-direction'];
  node.setFlexDirection(FLEX_DIRECTION[direction]!);
  node.setFlexWrap(block ? Wrap.NoWrap : WRAP[c['flex-wrap']]!);
  node.setFlexGrow(c['flex-grow']);
  node.setFlexShrink(c['flex-shrink']);
  const basis = laidOutSize(c, 'flex-basis', placement);
  if (basis === 'auto') node.setFlexBasisAuto();
  else if (basis === 'content') refuse('flex-basis', 'content');
  else node.setFlexBasis(size('flex-basis', basis));
  if (c.order !== 0) refuse('order', String(c.order), 'Yoga has no order');
  if (c['aspect-ratio'] !== 'auto') node.setAspectRatio(c['aspect-ratio']);
  node.setGap(Gutter.Row, block || c['row-gap'] === 'normal' ? 0 : value(c['row-gap']));
  node.setGap(Gutter.Column, block || c['column-gap'] === 'normal' ? 0 : value(c['column-gap']));
  const reversed = /reverse/.test(direction);
  node.setJustifyContent(block ? Justify.FlexStart : justify(c['justify-content'], reversed));
  node.setAlignContent(block ? Align.Stretch : align('align-content', c['align-content'], c['flex-wrap'] === 'wrap-reverse', true));
  node.setAlignItems(block ? Align.Stretch : align('align-items', c['align-items'], c['flex-wrap'] === 'wrap-reverse', false));
  const self = c['align-self'];
  if (self === 'normal' && absolute) refuse('align-self', self, 'on an absolutely positioned box');
  node.setAlignSelf(self === 'auto' ? Align.Auto : align('align-self', self, context.parentWrap === 'wrap-reverse', false));
}

function display(node: Node, box: Box): void {
  const d = box.style.display;
  if (d === 'flex') node.setDisplay(Display.Flex);
  else if (d === 'contents') node.setDisplay(Display.Contents);
  // A block box with no element children lays out as a flex column that stretches its text.
  else if ((d === 'block' || d === 'flow-root') && box.children.every((c) => !c.element)) node.setDisplay(Display.Flex);
  else refuse('display', d, 'Yoga lays out flex containers, and block boxes without element children');
}

function unsafe(property: string, v: string): string {
  if (v.startsWith('safe ')) refuse(property, v, 'Yoga has no safe alignment');
  return v.replace(/^unsafe /, '');
}

function justify(v: string, reversed: boolean): Justify {
  const table: Record<string, Justify> = {
    normal: Justify.FlexStart,
    stretch: Justify.FlexStart,
    'flex-start': Justify.FlexStart,
    'flex-end': Justify.FlexEnd,
    center: Justify.Center,
    'space-between': Justify.SpaceBetween,
    'space-around': Justify.SpaceAround,
    'space-evenly': Justify.SpaceEvenly,
    // start and end follow the writing mode, flex-start and flex-end the flex direction.
    start: reversed ? Justify.FlexEnd : Justify.FlexStart,
    end: reversed ? Justify.FlexStart : Justify.FlexEnd,
  };
  return table[unsafe('justify-content', v)] ?? refuse('justify-content', v);
}

function align(property: string, v: string, wrapReverse: boolean, content: boolean): Align {
  const table: Record<string, Align> = {
    normal: Align.Stretch,
    stretch: Align.Stretch,
    'flex-start': Align.FlexStart,
    'flex-end': Align.FlexEnd,
    center: Align.Center,
    // In the cross axis, start and end follow the writing mode; flex-start and flex-end turn with wrap-reverse.
    start: wrapReverse ? Align.FlexEnd : Align.FlexStart,
    end: wrapReverse ? Align.FlexStart : Align.FlexEnd,
    ...(content
      ? { 'space-between': Align.SpaceBetween, 'space-around': Align.SpaceAround, 'space-evenly': Align.SpaceEvenly }
      : { baseline: Align.Baseline }),
  };
  return table[unsafe(property, v)] ?? refuse(property, v);
}
