// The CSS longhands the candidates read: each one's grammar, initial value and whether it
// inherits. Shorthands (shorthands.ts) set them; declarations.ts says what a browser does with
// every other property.
import {
  alignment,
  autoTracks,
  BORDER_STYLES,
  borderWidth,
  CONTENT_POSITION,
  fontFamilies,
  gap,
  gridLine,
  keywords,
  lengthAuto,
  lengthPercent,
  one,
  SELF_POSITION,
  size,
  trackList,
  type GridLine,
  type LengthAuto,
  type LineHeight,
  type Size,
  type Track,
  textOf,
  type TrackSize,
} from './grammar.js';
import { INVALID, isWord, keyword, length, number, shown, splitAt, type Invalid, type Length, type Node } from './values.js';
import { Unsupported } from './unsupported.js';

/** The value each longhand takes, after parsing (lengths keep their units until computed). */
export interface Values {
  display: string;
  position: string;
  top: LengthAuto;
  right: LengthAuto;
  bottom: LengthAuto;
  left: LengthAuto;
  'box-sizing': string;
  direction: string;
  'writing-mode': string;
  float: string;
  clear: string;
  width: Size;
  height: Size;
  'min-width': Size;
  'min-height': Size;
  'max-width': Size;
  'max-height': Size;
  'margin-top': LengthAuto;
  'margin-right': LengthAuto;
  'margin-bottom': LengthAuto;
  'margin-left': LengthAuto;
  'padding-top': Length;
  'padding-right': Length;
  'padding-bottom': Length;
  'padding-left': Length;
  'border-top-width': Length;
  'border-right-width': Length;
  'border-bottom-width': Length;
  'border-left-width': Length;
  'border-top-style': string;
  'border-right-style': string;
  'border-bottom-style': string;
  'border-left-style': string;
  'overflow-x': string;
  'overflow-y': string;
  'flex-direction': string;
  'flex-wrap': string;
  'flex-grow': number;
  'flex-shrink': number;
  'flex-basis': Size;
  order: number;
  'justify-content': string;
  'align-content': string;
  'align-items': string;
  'align-self': string;
  'justify-items': string;
  'justify-self': string;
  'row-gap': Length | 'normal';
  'column-gap': Length | 'normal';
  'grid-template-columns': Track[] | 'none';
  'grid-template-rows': Track[] | 'none';
  'grid-auto-columns': TrackSize[];
  'grid-auto-rows': TrackSize[];
  'grid-auto-flow': string;
  'grid-row-start': GridLine;
  'grid-row-end': GridLine;
  'grid-column-start': GridLine;
  'grid-column-end': GridLine;
  'aspect-ratio': 'auto' | number;
  'font-size': Length | string;
  'line-height': LineHeight;
  'font-family': string[];
  'font-weight': number;
  'font-style': string;
  'text-align': string;
  /** Text properties the measurement requires at their initial values: kept as their text. */
  'white-space': string;
  'word-break': string;
  'overflow-wrap': string;
  'letter-spacing': string;
  'word-spacing': string;
  'text-indent': string;
  'text-transform': string;
  'font-variant': string;
  'font-stretch': string;
  'font-kerning': string;
  'font-feature-settings': string;
  'font-synthesis': string;
  hyphens: string;
  'line-break': string;
  'text-rendering': string;
}
export type Property = keyof Values;

interface Longhand<T> {
  inherited: boolean;
  initial: T;
  /** The value of `text` (already split into components), or INVALID; throws Unsupported. */
  parse(nodes: Node[], text: string, property: string): T | Invalid;
}

const OVERFLOW = ['visible', 'hidden', 'clip', 'scroll', 'auto', 'overlay'];
/** flex-direction's and flex-wrap's keywords, each with the name both engines' bindings give its enum member. */
const FLEX_DIRECTION_MEMBERS = { row: 'Row', 'row-reverse': 'RowReverse', column: 'Column', 'column-reverse': 'ColumnReverse' } as const;
const FLEX_WRAP_MEMBERS = { nowrap: 'NoWrap', wrap: 'Wrap', 'wrap-reverse': 'WrapReverse' } as const;
export const FLEX_DIRECTIONS = Object.keys(FLEX_DIRECTION_MEMBERS);
export const FLEX_WRAPS = Object.keys(FLEX_WRAP_MEMBERS);

/** An engine's enum by the keywords of flex-direction and flex-wrap. */
export const flexEnums = <D, W>(
  direction: Record<(typeof FLEX_DIRECTION_MEMBERS)[keyof typeof FLEX_DIRECTION_MEMBERS], D>,
  wrap: Record<(typeof FLEX_WRAP_MEMBERS)[keyof typeof FLEX_WRAP_MEMBERS], W>,
): { direction: Record<string, D>; wrap: Record<string, W> } => ({
  direction: Object.fromEntries(Object.entries(FLEX_DIRECTION_MEMBERS).map(([word, member]) => [word, direction[member]])),
  wrap: Object.fromEntries(Object.entries(FLEX_WRAP_MEMBERS).map(([word, member]) => [word, wrap[member]])),
});

const DISPLAY_VALUES = new Set([
  'block',
  'inline',
  'inline-block',
  'flex',
  'inline-flex',
  'grid',
  'inline-grid',
  'flow-root',
  'none',
  'contents',
  'list-item',
  'table',
  'inline-table',
  'table-row-group',
  'table-header-group',
  'table-footer-group',
  'table-row',
  'table-cell',
  'table-column-group',
  'table-column',
  'table-caption',
  'ruby',
  'ruby-base',
  'ruby-text',
  'ruby-base-container',
  'ruby-text-container',
  'math',
  'inline-list-item',
  '-webkit-box',
  '-webkit-inline-box',
  '-webkit-flex',
  '-webkit-inline-flex',
  'masonry',
  'inline-masonry',
]);
const TWO_KEYWORD_DISPLAY: Record<string, string> = {
  'block flow': 'block',
  'inline flow': 'inline',
  'inline flow-root': 'inline-block',
  'block flex': 'flex',
  'inline flex': 'inline-flex',
  'block grid': 'grid',
  'inline grid': 'inline-grid',
  'block flow-root': 'flow-root',
  'block table': 'table',
  'inline table': 'inline-table',
};

/** CSS's absolute font-size keywords, in px (medium is 16px). */
export const FONT_SIZE_KEYWORDS: Record<string, number> = {
  'xx-small': 9,
  'x-small': 10,
  small: 13,
  medium: 16,
  large: 18,
  'x-large': 24,
  'xx-large': 32,
  'xxx-large': 48,
};

/** A text property kept as its value's words (a shorthand's part is its own text, not the shorthand's). */
const raw = (initial: string) => ({
  inherited: true,
  initial,
  parse: (nodes: Node[]) => nodes.map(textOf).join(' ').toLowerCase(),
});

export const LONGHANDS: { [P in Property]: Longhand<Values[P]> } = {
  display: {
    inherited: false,
    initial: 'inline',
    parse: (nodes) => {
      const words = nodes.map(keyword);
      const [a, b] = words;
      if (words.length === 1 && a && DISPLAY_VALUES.has(a)) return a;
      // Two-keyword displays: the ones that mean a one-keyword value.
      if (words.length === 2 && a && b) {
        const pair = TWO_KEYWORD_DISPLAY[`${a} ${b}`] ?? TWO_KEYWORD_DISPLAY[`${b} ${a}`];
        if (pair) return pair;
      }
      return INVALID;
    },
  },
  position: { inherited: false, initial: 'static', parse: keywords('static', 'relative', 'absolute', 'fixed', 'sticky') },
  top: { inherited: false, initial: 'auto', parse: lengthAuto(true) },
  right: { inherited: false, initial: 'auto', parse: lengthAuto(true) },
  bottom: { inherited: false, initial: 'auto', parse: lengthAuto(true) },
  left: { inherited: false, initial: 'auto', parse: lengthAuto(true) },
  'box-sizing': { inherited: false, initial: 'content-box', parse: keywords('content-box', 'border-box') },
  direction: { inherited: true, initial: 'ltr', parse: keywords('ltr', 'rtl') },
  'writing-mode': {
    inherited: true,
    initial: 'horizontal-tb',
    parse: keywords(
      'horizontal-tb',
      'vertical-rl',
      'vertical-lr',
      'sideways-rl',
      'sideways-lr',
      'lr',
      'lr-tb',
      'rl',
      'rl-tb',
      'tb',
      'tb-rl',
    ),
  },
  float: { inherited: false, initial: 'none', parse: keywords('none', 'left', 'right', 'inline-start', 'inline-end') },
  clear: { inherited: false, initial: 'none', parse: keywords('none', 'left', 'right', 'both', 'inline-start', 'inline-end') },
  width: { inherited: false, initial: 'auto', parse: size('size') },
  height: { inherited: false, initial: 'auto', parse: size('size') },
  'min-width': { inherited: false, initial: 'auto', parse: size('min') },
  'min-height': { inherited: false, initial: 'auto', parse: size('min') },
  'max-width': { inherited: false, initial: 'none', parse: size('max') },
  'max-height': { inherited: false, initial: 'none', parse: size('max') },
  'margin-top': { inherited: false, initial: { n: 0, unit: 'px' }, parse: lengthAuto(true) },
  'margin-right': { inherited: false, initial: { n: 0, unit: 'px' }, parse: lengthAuto(true) },
  'margin-bottom': { inherited: false, initial: { n: 0, unit: 'px' }, parse: lengthAuto(true) },
  'margin-left': { inherited: false, initial: { n: 0, unit: 'px' }, parse: lengthAuto(true) },
  'padding-top': { inherited: false, initial: { n: 0, unit: 'px' }, parse: lengthPercent },
  'padding-right': { inherited: false, initial: { n: 0, unit: 'px' }, parse: lengthPercent },
  'padding-bottom': { inherited: false, initial: { n: 0, unit: 'px' }, parse: lengthPercent },
  'padding-left': { inherited: false, initial: { n: 0, unit: 'px' }, parse: lengthPercent },
  'border-top-width': { inherited: false, initial: { n: 3, unit: 'px' }, parse: one(borderWidth) },
  'border-right-width': { inherited: false, initial: { n: 3, unit: 'px' }, parse: one(borderWidth) },
  'border-bottom-width': { inherited: false, initial: { n: 3, unit: 'px' }, parse: one(borderWidth) },
  'border-left-width': { inherited: false, initial: { n: 3, unit: 'px' }, parse: one(borderWidth) },
  'border-top-style': { inherited: false, initial: 'none', parse: keywords(...BORDER_STYLES) },
  'border-right-style': { inherited: false, initial: 'none', parse: keywords(...BORDER_STYLES) },
  'border-bottom-style': { inherited: false, initial: 'none', parse: keywords(...BORDER_STYLES) },
  'border-left-style': { inherited: false, initial: 'none', parse: keywords(...BORDER_STYLES) },
  'overflow-x': { inherited: false, initial: 'visible', parse: keywords(...OVERFLOW) },
  'overflow-y': { inherited: false, initial: 'visible', parse: keywords(...OVERFLOW) },
  'flex-direction': { inherited: false, initial: 'row', parse: keywords(...FLEX_DIRECTIONS) },
  'flex-wrap': { inherited: false, initial: 'nowrap', parse: keywords(...FLEX_WRAPS) },
  'flex-grow': { inherited: false, initial: 0, parse: one((n) => number(n)) },
  'flex-shrink': { inherited: false, initial: 1, parse: one((n) => number(n)) },
  'flex-basis': { inherited: false, initial: 'auto', parse: size('basis') },
  order: { inherited: false, initial: 0, parse: one((n) => number(n, { negative: true, integer: true })) },
  'justify-content': {
    inherited: false,
    initial: 'normal',
    parse: alignment({ lead: ['normal'], positions: CONTENT_POSITION, leftRight: true, distribution: true }),
  },
  'align-content': {
    inherited: false,
    initial: 'normal',
    parse: alignment({ lead: ['normal'], positions: CONTENT_POSITION, leftRight: false, distribution: true }),
  },
  'align-items': {
    inherited: false,
    initial: 'normal',
    parse: alignment({ lead: ['normal', 'stretch'], positions: SELF_POSITION, leftRight: false, distribution: false }),
  },
  'align-self': {
    inherited: false,
    initial: 'auto',
    parse: alignment({ lead: ['auto', 'normal', 'stretch'], positions: SELF_POSITION, leftRight: false, distribution: false }),
  },
  'justify-items': {
    inherited: false,
    initial: 'legacy',
    parse: alignment({ lead: ['normal', 'stretch'], positions: SELF_POSITION, leftRight: true, distribution: false, legacy: true }),
  },
  'justify-self': {
    inherited: false,
    initial: 'auto',
    parse: alignment({ lead: ['auto', 'normal', 'stretch'], positions: SELF_POSITION, leftRight: true, distribution: false }),
  },
  'row-gap': { inherited: false, initial: 'normal', parse: one(gap) },
  'column-gap': { inherited: false, initial: 'normal', parse: one(gap) },
  'grid-template-columns': { inherited: false, initial: 'none', parse: trackList },
  'grid-template-rows': { inherited: false, initial: 'none', parse: trackList },
  'grid-auto-columns': { inherited: false, initial: [{ min: 'auto', max: 'auto' }], parse: autoTracks },
  'grid-auto-rows': { inherited: false, initial: [{ min: 'auto', max: 'auto' }], parse: autoTracks },
  'grid-auto-flow': {
    inherited: false,
    initial: 'row',
    parse: (nodes) => {
      const words = nodes.map(keyword).sort();
      const key = words.join(' ');
      const forms: Record<string, string> = {
        row: 'row',
        column: 'column',
        dense: 'row dense',
        'dense row': 'row dense',
        'column dense': 'column dense',
      };
      return forms[key] ?? INVALID;
    },
  },
  'grid-row-start': { inherited: false, initial: 'auto', parse: gridLine },
  'grid-row-end': { inherited: false, initial: 'auto', parse: gridLine },
  'grid-column-start': { inherited: false, initial: 'auto', parse: gridLine },
  'grid-column-end': { inherited: false, initial: 'auto', parse: gridLine },
  'aspect-ratio': {
    inherited: false,
    initial: 'auto',
    parse: (nodes, text, property) => {
      if (nodes.length === 1 && isWord(nodes[0], 'auto')) return 'auto';
      if (nodes.some((n) => isWord(n, 'auto'))) throw new Unsupported(shown(property, text));
      const [w, h] = splitAt(nodes, '/');
      const a = w?.length === 1 ? number(w[0]) : INVALID;
      const b = h === undefined ? 1 : h.length === 1 ? number(h[0]) : INVALID;
      if (a === INVALID || b === INVALID) return INVALID;
      // A degenerate ratio behaves as auto (CSS Values 4); aspect-ratio is not in the dump, so only its layout matters.
      return a === 0 || b === 0 ? 'auto' : a / b;
    },
  },
  'font-size': {
    inherited: true,
    initial: 'medium',
    parse: one((node, text, property) => {
      const word = keyword(node);
      if (word && word in FONT_SIZE_KEYWORDS) return word;
      if (word === 'smaller' || word === 'larger') throw new Unsupported(shown(property, text));
      return length(node, property, text, { percent: true });
    }),
  },
  'line-height': {
    inherited: true,
    initial: 'normal',
    parse: one((node, text, property) => {
      if (isWord(node, 'normal')) return 'normal';
      const n = number(node);
      if (n !== INVALID) return { number: n };
      return length(node, property, text, { percent: true });
    }),
  },
  'font-family': { inherited: true, initial: ['serif'], parse: fontFamilies },
  'font-weight': {
    inherited: true,
    initial: 400,
    parse: one((node, text, property) => {
      const word = keyword(node);
      if (word === 'normal') return 400;
      if (word === 'bold') return 700;
      if (word === 'bolder' || word === 'lighter') throw new Unsupported(shown(property, text));
      const n = number(node);
      return n !== INVALID && n >= 1 && n <= 1000 ? n : INVALID;
    }),
  },
  'font-style': {
    inherited: true,
    initial: 'normal',
    parse: (nodes) => (nodes.length >= 1 && isWord(nodes[0], 'normal', 'italic', 'oblique') ? keyword(nodes[0])! : INVALID),
  },
  'text-align': {
    inherited: true,
    initial: 'start',
    parse: keywords(
      'start',
      'end',
      'left',
      'right',
      'center',
      'justify',
      'match-parent',
      '-webkit-left',
      '-webkit-right',
      '-webkit-center',
      '-moz-left',
      '-moz-right',
      '-moz-center',
    ),
  },
  'white-space': raw('normal'),
  'word-break': raw('normal'),
  'overflow-wrap': raw('normal'),
  'letter-spacing': raw('normal'),
  'word-spacing': raw('normal'),
  'text-indent': raw('0'),
  'text-transform': raw('none'),
  'font-variant': raw('normal'),
  'font-stretch': raw('normal'),
  'font-kerning': raw('auto'),
  'font-feature-settings': raw('normal'),
  'font-synthesis': raw('weight style small-caps position'),
  hyphens: raw('manual'),
  'line-break': raw('auto'),
  'text-rendering': raw('auto'),
};
