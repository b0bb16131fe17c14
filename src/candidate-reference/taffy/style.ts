// Computed CSS as taffy-layout's Style: every property it can express, set to what the page
// means; everything it cannot express exactly is unsupported, never dropped. The binding turns
// some values into others without a word (intrinsic sizes into auto, a fit-content() track into
// an empty track list), so those are refused here before they reach it.
import equal from 'fast-deep-equal';
import {
  AlignContent,
  AlignItems,
  AlignSelf,
  BoxSizing,
  Clear,
  Direction,
  Display,
  FlexDirection,
  FlexWrap,
  Float,
  GridAutoFlow,
  JustifyContent,
  Overflow,
  Position,
  Style,
  TextAlign,
  type Dimension,
  type GridPlacement,
  type GridTemplateComponent,
  type LengthPercentage,
  type LengthPercentageAuto,
  type MaxTrackSizingFunction,
  type MinTrackSizingFunction,
  type TrackSizingFunction,
} from 'taffy-layout';
import type { Box } from '../web/boxes.js';
import type { Element } from '../web/document.js';
import type { Breadth, GridLine, LengthAuto, Size, Track, TrackSize } from '../web/grammar.js';
import { flexEnums } from '../web/longhands.js';
import { laidOutSize, type Placement } from '../web/sizing.js';
import type { Style as Computed } from '../web/style.js';
import { Unsupported } from '../web/unsupported.js';
import type { Length } from '../web/values.js';

const DISPLAY: Record<string, Display> = { block: Display.Block, 'flow-root': Display.FlowRoot, flex: Display.Flex, grid: Display.Grid };
const OVERFLOW: Record<string, Overflow> = { visible: Overflow.Visible, clip: Overflow.Clip, hidden: Overflow.Hidden };
const { direction: FLEX_DIRECTION, wrap: FLEX_WRAP } = flexEnums(FlexDirection, FlexWrap);
/** Content distribution and position, by the member names AlignContent and JustifyContent share. */
const CONTENT: Record<string, keyof typeof AlignContent & keyof typeof JustifyContent> = {
  start: 'Start',
  end: 'End',
  'flex-start': 'FlexStart',
  'flex-end': 'FlexEnd',
  center: 'Center',
  stretch: 'Stretch',
  'space-between': 'SpaceBetween',
  'space-around': 'SpaceAround',
  'space-evenly': 'SpaceEvenly',
  'safe start': 'SafeStart',
  'safe end': 'SafeEnd',
  'safe flex-start': 'SafeFlexStart',
  'safe flex-end': 'SafeFlexEnd',
  'safe center': 'SafeCenter',
};
const ITEMS: Record<string, AlignItems> = {
  start: AlignItems.Start,
  end: AlignItems.End,
  'flex-start': AlignItems.FlexStart,
  'flex-end': AlignItems.FlexEnd,
  center: AlignItems.Center,
  baseline: AlignItems.Baseline,
  stretch: AlignItems.Stretch,
  'self-start': AlignItems.SelfStart,
  'self-end': AlignItems.SelfEnd,
  'safe start': AlignItems.SafeStart,
  'safe end': AlignItems.SafeEnd,
  'safe flex-start': AlignItems.SafeFlexStart,
  'safe flex-end': AlignItems.SafeFlexEnd,
  'safe center': AlignItems.SafeCenter,
  'safe self-start': AlignItems.SafeSelfStart,
  'safe self-end': AlignItems.SafeSelfEnd,
};
const SELF: Record<string, AlignSelf> = {
  start: AlignSelf.Start,
  end: AlignSelf.End,
  'flex-start': AlignSelf.FlexStart,
  'flex-end': AlignSelf.FlexEnd,
  center: AlignSelf.Center,
  baseline: AlignSelf.Baseline,
  stretch: AlignSelf.Stretch,
  'self-start': AlignSelf.SelfStart,
  'self-end': AlignSelf.SelfEnd,
  'safe start': AlignSelf.SafeStart,
  'safe end': AlignSelf.SafeEnd,
  'safe flex-start': AlignSelf.SafeFlexStart,
  'safe flex-end': AlignSelf.SafeFlexEnd,
  'safe center': AlignSelf.SafeCenter,
  'safe self-start': AlignSelf.SafeSelfStart,
  'safe self-end': AlignSelf.SafeSelfEnd,
};
const AUTO_FLOW: Record<string, GridAutoFlow> = {
  row: GridAutoFlow.Row,
  column: GridAutoFlow.Column,
  'row dense': GridAutoFlow.RowDense,
  'column dense': GridAutoFlow.ColumnDense,
};
const LEGACY_ALIGN: Record<string, TextAlign> = {
  '-webkit-left': TextAlign.LegacyLeft,
  '-moz-left': TextAlign.LegacyLeft,
  '-webkit-right': TextAlign.LegacyRight,
  '-moz-right': TextAlign.LegacyRight,
  '-webkit-center': TextAlign.LegacyCenter,
  '-moz-center': TextAlign.LegacyCenter,
};

/** Each side's computed properties, top, right, bottom, left, named once. */
const SIDES = (['top', 'right', 'bottom', 'left'] as const).map(
  (side) => ({ margin: `margin-${side}`, padding: `padding-${side}`, border: `border-${side}-width` }) as const,
);

const refuse = (property: string, value: string, why?: string): never => {
  throw new Unsupported(`${property}: ${value}${why ? ` (${why})` : ''}`);
};

/** `unsafe X` aligns as X does; the binding has no separate unsafe forms. */
const unsafe = (value: string) => value.replace(/^unsafe /, '');

function mapped<T>(table: Record<string, T>, property: string, value: string): T {
  const found = table[unsafe(value)];
  return found === undefined ? refuse(property, value) : found;
}

const lp = (l: Length): LengthPercentage => (l.unit === '%' ? `${l.n}%` : l.n);
const lpa = (l: LengthAuto): LengthPercentageAuto => (l === 'auto' ? 'auto' : lp(l));

function dimension(property: string, s: Size): Dimension {
  if (s === 'auto' || s === 'none') return 'auto';
  if (typeof s === 'string' || 'fitContent' in s) {
    // taffy-layout makes these `auto` without a word.
    return refuse(property, typeof s === 'string' ? s : 'fit-content()', 'taffy-layout has no intrinsic sizes');
  }
  return lp(s);
}

function breadth(property: string, b: Breadth, max: boolean): MinTrackSizingFunction | MaxTrackSizingFunction {
  if (typeof b === 'string') return b;
  if ('fr' in b) return max ? (`${b.fr}fr` as MaxTrackSizingFunction) : refuse(property, `${b.fr}fr`);
  return lp(b);
}

function track(property: string, t: TrackSize): TrackSizingFunction {
  if ('fitContent' in t) return refuse(property, 'fit-content()', 'taffy-layout makes the track list empty');
  return { min: breadth(property, t.min, false) as MinTrackSizingFunction, max: breadth(property, t.max, true) as MaxTrackSizingFunction };
}

function template(property: string, tracks: Track[] | 'none'): GridTemplateComponent[] {
  if (tracks === 'none') return [];
  return tracks.map((t) => ('repeat' in t ? { count: t.repeat, tracks: t.tracks.map((x) => track(property, x)) } : track(property, t)));
}

/** Implicit tracks; Taffy's empty list means what the initial `auto` does. */
function autoTracks(property: string, tracks: TrackSize[]): TrackSizingFunction[] {
  const isAuto = tracks.length === 1 && 'min' in tracks[0]! && tracks[0].min === 'auto' && tracks[0].max === 'auto';
  return isAuto ? [] : tracks.map((t) => track(property, t));
}

/** A float or clear value with its logical sides made physical. */
const physicalSide = (value: string, rtl: boolean) =>
  value === 'inline-start' ? (rtl ? 'right' : 'left') : value === 'inline-end' ? (rtl ? 'left' : 'right') : value;

const gridPlacement = (l: GridLine): GridPlacement => (l === 'auto' ? 'auto' : 'line' in l ? l.line : { span: l.span });

/** Where the box sits, as the style mapping needs it. */
export interface Context {
  /** The box is a child of a block container (not a flex or grid item). */
  inBlock: boolean;
  /** The box is laid out against the viewport (a child of the body that is absolutely positioned). */
  root: boolean;
  /** Insets to use instead of the box's own (a root's, with its static position). */
  insets?: Record<'top' | 'right' | 'bottom' | 'left', LengthAuto>;
  /** The element of the box's parent box (null for a root). */
  parent: Element | null;
  /** Every element's computed style. */
  styles: ReadonlyMap<Element, Computed>;
}

/** A Style's properties as plain values, before any reaches WebAssembly. */
type Props = { -readonly [K in Exclude<keyof Style, 'free' | 'get' | 'set' | typeof Symbol.dispose>]?: Style[K] };

/** A Style property: Taffy's own default, and its setter (each call crosses into WebAssembly). */
interface Property {
  initial: unknown;
  set: (style: Style, value: unknown) => void;
}

const PROPERTIES = new Map<string, Property>();
/** A Style left at Taffy's defaults, read once per property. */
let pristine: Style | undefined;

function property(key: string): Property {
  let found = PROPERTIES.get(key);
  if (!found) {
    pristine ??= new Style();
    const setter = Object.getOwnPropertyDescriptor(Style.prototype, key)!.set!;
    found = { initial: (pristine as unknown as Record<string, unknown>)[key], set: (style, value) => setter.call(style, value) };
    PROPERTIES.set(key, found);
  }
  return found;
}

/**
 * The Style with `props` set, leaving Taffy's defaults where they already are what the page means.
 * Each setter is called directly: a store by a computed key into the accessors, and node's
 * isDeepStrictEqual, were half of the layout stage in a profile of the candidate bench's cases.
 */
function toStyle(props: Props): Style {
  const style = new Style();
  for (const key in props) {
    const value = props[key as keyof Props];
    const { initial, set } = property(key);
    if (!equal(value, initial)) set(style, value);
  }
  return style;
}

/** The taffy Style of an element's box, set property by property (flat: the setter of an object value, size or margin, has the binding read it back field by field). */
export function taffyStyle(box: Box, context: Context): Style {
  const c = box.style;
  const s: Props = {};
  s.display = DISPLAY[c.display] ?? refuse('display', c.display);
  s.boxSizing = c['box-sizing'] === 'border-box' ? BoxSizing.BorderBox : BoxSizing.ContentBox;
  s.direction = c.direction === 'rtl' ? Direction.Rtl : Direction.Ltr;
  if (c['writing-mode'] !== 'horizontal-tb') refuse('writing-mode', c['writing-mode']);
  position(s, box, context);
  const parent = context.parent ? context.styles.get(context.parent) : undefined;
  // Floats float only in block containers; in flex and grid they are items like any other. The
  // logical sides are the containing block's (the parent box's), by its direction.
  const side = (value: string) => physicalSide(value, parent?.direction === 'rtl');
  const float = side(c.float);
  s.float = context.inBlock && float === 'left' ? Float.Left : context.inBlock && float === 'right' ? Float.Right : Float.None;
  s.clear = { left: Clear.Left, right: Clear.Right, both: Clear.Both }[side(c.clear)] ?? Clear.None;
  const placement: Placement = {
    inBlock: context.inBlock,
    ...(parent?.display === 'flex' ? { flexDirection: parent['flex-direction'] } : {}),
    insets: context.insets ?? c,
  };
  s.width = dimension('width', laidOutSize(c, 'width', placement));
  s.height = dimension('height', laidOutSize(c, 'height', placement));
  s.minWidth = dimension('min-width', c['min-width']);
  s.minHeight = dimension('min-height', c['min-height']);
  s.maxWidth = dimension('max-width', c['max-width']);
  s.maxHeight = dimension('max-height', c['max-height']);
  // Stored by name: a store by a computed key left the Style's properties slow to set and read (a tenth of the adapter, measured).
  [s.marginTop, s.marginRight, s.marginBottom, s.marginLeft] = SIDES.map((side) => lpa(c[side.margin]));
  [s.paddingTop, s.paddingRight, s.paddingBottom, s.paddingLeft] = SIDES.map((side) => lp(c[side.padding]));
  [s.borderTop, s.borderRight, s.borderBottom, s.borderLeft] = SIDES.map((side) => lp(c[side.border]));
  s.overflowX = mapped(OVERFLOW, 'overflow-x', c['overflow-x']);
  s.overflowY = mapped(OVERFLOW, 'overflow-y', c['overflow-y']);
  s.scrollbarWidth = 0;
  s.flexDirection = FLEX_DIRECTION[c['flex-direction']]!;
  s.flexWrap = FLEX_WRAP[c['flex-wrap']]!;
  s.flexGrow = c['flex-grow'];
  s.flexShrink = c['flex-shrink'];
  const basis = laidOutSize(c, 'flex-basis', placement);
  s.flexBasis = basis === 'content' ? refuse('flex-basis', 'content') : dimension('flex-basis', basis);
  if (c.order !== 0) refuse('order', String(c.order), 'taffy has no order');
  alignment(s, c);
  s.columnGap = c['column-gap'] === 'normal' ? 0 : lp(c['column-gap']);
  s.rowGap = c['row-gap'] === 'normal' ? 0 : lp(c['row-gap']);
  s.gridTemplateColumns = template('grid-template-columns', c['grid-template-columns']);
  s.gridTemplateRows = template('grid-template-rows', c['grid-template-rows']);
  s.gridAutoColumns = autoTracks('grid-auto-columns', c['grid-auto-columns']);
  s.gridAutoRows = autoTracks('grid-auto-rows', c['grid-auto-rows']);
  s.gridAutoFlow = AUTO_FLOW[c['grid-auto-flow']]!;
  s.gridRowStart = gridPlacement(c['grid-row-start']);
  s.gridRowEnd = gridPlacement(c['grid-row-end']);
  s.gridColumnStart = gridPlacement(c['grid-column-start']);
  s.gridColumnEnd = gridPlacement(c['grid-column-end']);
  s.aspectRatio = c['aspect-ratio'] === 'auto' ? undefined : c['aspect-ratio'];
  s.textAlign = LEGACY_ALIGN[c['text-align']] ?? TextAlign.Auto;
  return toStyle(s);
}

function position(s: Props, box: Box, context: Context): void {
  const c = box.style;
  const insets = context.insets ?? { top: c.top, right: c.right, bottom: c.bottom, left: c.left };
  switch (c.position) {
    case 'static':
      s.position = Position.Relative;
      s.top = s.right = s.bottom = s.left = 'auto';
      return;
    case 'relative':
      s.position = Position.Relative;
      break;
    case 'fixed':
      // The viewport is a fixed box's containing block; only the body's children are laid out against it.
      if (!context.root) refuse('position', 'fixed', 'inside another box');
      s.position = Position.Absolute;
      break;
    case 'absolute':
      // Taffy places an absolutely positioned box in its parent; CSS in its nearest positioned ancestor.
      if (!context.root && containingBlock(box.element!, context.styles) !== context.parent) {
        refuse('position', 'absolute', 'its containing block is not its parent box');
      }
      s.position = Position.Absolute;
      break;
    default:
      refuse('position', c.position);
  }
  s.top = lpa(insets.top);
  s.right = lpa(insets.right);
  s.bottom = lpa(insets.bottom);
  s.left = lpa(insets.left);
}

function alignment(s: Props, c: Computed): void {
  const absolute = c.position === 'absolute' || c.position === 'fixed';
  const jc = c['justify-content'];
  s.justifyContent = jc === 'normal' ? undefined : JustifyContent[mapped(CONTENT, 'justify-content', jc)];
  const ac = c['align-content'];
  s.alignContent = ac === 'normal' ? undefined : AlignContent[mapped(CONTENT, 'align-content', ac)];
  const ai = c['align-items'];
  s.alignItems = ai === 'normal' ? undefined : mapped(ITEMS, 'align-items', ai);
  const ji = c['justify-items'];
  s.justifyItems = ji === 'normal' || ji === 'legacy' ? undefined : mapped(ITEMS, 'justify-items', ji);
  s.alignSelf = self('align-self', c['align-self'], absolute);
  s.justifySelf = self('justify-self', c['justify-self'], absolute);
}

/** An item's own alignment: auto defers to its container's; normal is stretch for an in-flow item. */
function self(property: string, value: string, absolute: boolean): AlignSelf {
  if (value === 'auto') return AlignSelf.Auto;
  if (value === 'normal') return absolute ? refuse(property, value, 'on an absolutely positioned box') : AlignSelf.Stretch;
  return mapped(SELF, property, value);
}

/** The element whose box is an absolutely positioned element's containing block: its nearest positioned ancestor with a box. */
function containingBlock(element: Element, styles: ReadonlyMap<Element, Computed>): Element | null {
  for (let e = element.parent; e; e = e.parent) {
    const style = styles.get(e)!;
    if (style.position !== 'static' && style.display !== 'contents') return e;
  }
  return null;
}
