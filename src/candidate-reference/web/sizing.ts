// The intrinsic size keywords (min-content, max-content, fit-content, stretch, and flex-basis'
// content) where CSS makes one the same as `auto`: neither engine's binding has them (taffy-layout
// 3.0.0's Dimension and yoga-layout 3.2.1's setters take lengths, percentages and auto only), so
// a keyword is laid out as `auto` there and refused everywhere else.
import type { LengthAuto, Size } from './grammar.js';
import type { Style } from './style.js';

/** Where a box is laid out, as far as its size keywords depend on it. */
export interface Placement {
  /** In flow in a block container (its width is the stretch-fit width when auto). */
  readonly inBlock: boolean;
  /** The flex direction of its flex container, when it is a flex item. */
  readonly flexDirection?: string;
  /** Its insets, as laid out (a root's with its static position). */
  readonly insets: Readonly<Record<'top' | 'right' | 'bottom' | 'left', LengthAuto>>;
}

const BLOCK_AXIS_KEYWORDS = new Set<Size>(['min-content', 'max-content', 'fit-content']);

/** The box's width, height or flex-basis as the engines lay it out: a keyword CSS makes equal to `auto` there is `auto`. */
export function laidOutSize(style: Style, property: 'width' | 'height' | 'flex-basis', at: Placement): Size {
  const value = style[property];
  if (typeof value !== 'string' || value === 'auto') return value;
  const absolute = style.position === 'absolute' || style.position === 'fixed';
  const { insets } = at;
  switch (property) {
    case 'width':
      // A block-level box fills its line when auto, as stretch makes it (both treat auto margins as 0 for that).
      if (value === 'stretch' && at.inBlock && !absolute && style.float === 'none') return 'auto';
      // An absolutely positioned box's auto width is its fit-content width, unless both insets stretch it.
      if (value === 'fit-content' && absolute && (insets.left === 'auto' || insets.right === 'auto')) return 'auto';
      return value;
    case 'height':
      // In the block axis the content-based keywords are the content height, which an absolutely positioned box's auto height is too.
      if (BLOCK_AXIS_KEYWORDS.has(value) && absolute && (insets.top === 'auto' || insets.bottom === 'auto')) return 'auto';
      return value;
    case 'flex-basis': {
      if (value !== 'content') return value;
      // The content basis is what auto is where the main size is auto, or where there is no flex layout to use it.
      if (at.flexDirection === undefined || absolute) return 'auto';
      const main = at.flexDirection.startsWith('row') ? style.width : style.height;
      return main === 'auto' ? 'auto' : value;
    }
  }
}
