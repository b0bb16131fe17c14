// The CSS properties the candidates read: each longhand's grammar, initial value and whether it
// inherits, and the shorthands that set them. A declaration of a property not listed here is
// treated as a browser treats it: one no browser knows is dropped; one of the paint-only
// properties is ignored (it moves no box); any other known property makes the case unsupported.
import knownProperties from 'known-css-properties';
import {
  components,
  flex,
  INVALID,
  isWord,
  keyword,
  length,
  number,
  refuseFunctions,
  shown,
  splitAt,
  type Invalid,
  type Length,
  type Node,
} from './values.js';
import { Unsupported } from './unsupported.js';

export type LengthAuto = Length | 'auto';
/** A box size: width, height, their limits, flex-basis. */
export type Size =
  | Length
  | 'auto'
  | 'none'
  | 'min-content'
  | 'max-content'
  | 'fit-content'
  | 'stretch'
  | 'content'
  | { fitContent: Length };
/** A grid track's min or max sizing function. */
export type Breadth = Length | { fr: number } | 'auto' | 'min-content' | 'max-content';
export type TrackSize = { min: Breadth; max: Breadth } | { fitContent: Length };
export type Track = TrackSize | { repeat: number | 'auto-fill' | 'auto-fit'; tracks: TrackSize[] };
export type GridLine = 'auto' | { line: number } | { span: number };
type LineHeight = 'normal' | { number: number } | Length;

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

const one =
  <T>(read: (node: Node, text: string, property: string) => T | Invalid) =>
  (nodes: Node[], text: string, property: string) =>
    nodes.length === 1 ? read(nodes[0]!, text, property) : INVALID;

const keywords =
  (...words: string[]) =>
  (nodes: Node[]): string | Invalid => {
    const word = nodes.length === 1 ? keyword(nodes[0]) : undefined;
    return word !== undefined && words.includes(word) ? word : INVALID;
  };

const lengthAuto = (negative: boolean) =>
  one<LengthAuto>((node, text, property) => (isWord(node, 'auto') ? 'auto' : length(node, property, text, { percent: true, negative })));

const lengthPercent = one<Length>((node, text, property) => length(node, property, text, { percent: true }));

function size(kind: 'size' | 'min' | 'max' | 'basis') {
  return (nodes: Node[], text: string, property: string): Size | Invalid => {
    if (nodes.length === 1 && nodes[0]!.type === 'function' && nodes[0]!.value.toLowerCase() === 'fit-content' && kind !== 'basis') {
      const inner = argumentsOf(nodes[0]!);
      const limit = inner.length === 1 ? length(inner[0], property, text, { percent: true }) : INVALID;
      return limit === INVALID ? INVALID : { fitContent: limit };
    }
    const word = nodes.length === 1 ? keyword(nodes[0]) : undefined;
    if (word === 'min-content' || word === 'max-content' || word === 'fit-content') return word;
    if (word === 'stretch' || word === '-webkit-fill-available' || word === '-moz-available') return 'stretch';
    if (word === 'auto' && kind !== 'max') return 'auto';
    if (word === 'none' && kind === 'max') return 'none';
    if (word === 'content' && kind === 'basis') return 'content';
    return one((node) => length(node, property, text, { percent: true }))(nodes, text, property);
  };
}

/** A function's arguments as components. */
const argumentsOf = (fn: Node): Node[] =>
  fn.type === 'function' ? fn.nodes.filter((n) => n.type !== 'space' && n.type !== 'comment') : [];

/** A component as text again (shorthands hand their parts to the longhands as text). */
const textOf = (n: Node): string =>
  n.type === 'function' ? `${n.value}(${n.nodes.map(textOf).join('')})` : n.type === 'string' ? JSON.stringify(n.value) : n.value;

const SELF_POSITION = ['center', 'start', 'end', 'self-start', 'self-end', 'flex-start', 'flex-end'];
const CONTENT_POSITION = ['center', 'start', 'end', 'flex-start', 'flex-end'];

/** A box-alignment value, normalized to its words (`first baseline` is `baseline`). */
function alignment(options: { lead: string[]; positions: string[]; leftRight: boolean; distribution: boolean; legacy?: boolean }) {
  return (nodes: Node[]): string | Invalid => {
    const words = nodes.map(keyword);
    if (words.some((w) => w === undefined)) return INVALID;
    const [a, b] = words as string[];
    if (words.length === 1) {
      if (options.lead.includes(a!) || a === 'baseline' || options.positions.includes(a!)) return a!;
      if (options.leftRight && (a === 'left' || a === 'right')) return a;
      if (options.distribution && ['space-between', 'space-around', 'space-evenly', 'stretch'].includes(a!)) return a!;
      if (options.legacy && a === 'legacy') return a;
      return INVALID;
    }
    if (words.length === 2) {
      if ((a === 'first' || a === 'last') && b === 'baseline') return a === 'first' ? 'baseline' : 'last baseline';
      if ((a === 'safe' || a === 'unsafe') && (options.positions.includes(b!) || (options.leftRight && (b === 'left' || b === 'right'))))
        return `${a} ${b}`;
      if (options.legacy && (a === 'legacy' || b === 'legacy') && ['left', 'right', 'center'].includes(a === 'legacy' ? b! : a!))
        return 'legacy';
    }
    return INVALID;
  };
}

function trackBreadth(node: Node | undefined, text: string, property: string, min: boolean): Breadth | Invalid {
  const word = keyword(node);
  if (word === 'auto' || word === 'min-content' || word === 'max-content') return word;
  const fr = flex(node);
  if (fr !== INVALID) return min ? INVALID : { fr };
  return length(node, property, text, { percent: true });
}

function trackSize(node: Node, text: string, property: string): TrackSize | Invalid {
  if (node.type === 'function') {
    const name = node.value.toLowerCase();
    const args = splitAt(argumentsOf(node), ',');
    if (name === 'minmax' && args.length === 2 && args.every((a) => a.length === 1)) {
      const min = trackBreadth(args[0]![0], text, property, true);
      const max = trackBreadth(args[1]![0], text, property, false);
      return min === INVALID || max === INVALID ? INVALID : { min, max };
    }
    if (name === 'fit-content' && args.length === 1 && args[0]!.length === 1) {
      const limit = length(args[0]![0], property, text, { percent: true });
      return limit === INVALID ? INVALID : { fitContent: limit };
    }
    return INVALID;
  }
  const breadth = trackBreadth(node, text, property, false);
  if (breadth === INVALID) return INVALID;
  // A lone <flex> is minmax(auto, <flex>).
  return typeof breadth === 'object' && 'fr' in breadth ? { min: 'auto', max: breadth } : { min: breadth, max: breadth };
}

function trackList(nodes: Node[], text: string, property: string): Track[] | 'none' | Invalid {
  if (nodes.length === 1 && isWord(nodes[0], 'none')) return 'none';
  const tracks: Track[] = [];
  for (const node of nodes) {
    if (node.type === 'word' && /^\[/.test(node.value)) throw new Unsupported(shown(property, text));
    if (isWord(node, 'subgrid', 'masonry')) throw new Unsupported(shown(property, text));
    if (node.type === 'function' && node.value.toLowerCase() === 'repeat') {
      const [count, ...rest] = splitAt(argumentsOf(node), ',');
      if (rest.length !== 1 || count?.length !== 1) return INVALID;
      const times = isWord(count[0], 'auto-fill', 'auto-fit')
        ? (keyword(count[0]) as 'auto-fill' | 'auto-fit')
        : number(count[0], { integer: true });
      if (times === INVALID || times === 0) return INVALID;
      const inner: TrackSize[] = [];
      for (const n of rest[0]!) {
        if (n.type === 'word' && /^\[/.test(n.value)) throw new Unsupported(shown(property, text));
        const t = trackSize(n, text, property);
        if (t === INVALID) return INVALID;
        inner.push(t);
      }
      if (!inner.length) return INVALID;
      tracks.push({ repeat: times, tracks: inner });
      continue;
    }
    const t = trackSize(node, text, property);
    if (t === INVALID) return INVALID;
    tracks.push(t);
  }
  return tracks.length ? tracks : INVALID;
}

function gridLine(nodes: Node[], text: string, property: string): GridLine | Invalid {
  if (nodes.length === 1 && isWord(nodes[0], 'auto')) return 'auto';
  const words = nodes.map((n) => (n.type === 'word' ? n.value : undefined));
  if (words.some((w) => w === undefined)) return INVALID;
  const span = words.findIndex((w) => w!.toLowerCase() === 'span');
  const numbers = nodes.map((n) => number(n, { negative: true, integer: true }));
  const integers = numbers.filter((n) => n !== INVALID) as number[];
  const names = words.filter((_, i) => i !== span && numbers[i] === INVALID);
  if (names.length) {
    // Named lines: valid CSS, not modelled.
    if (names.every((n) => /^-?[a-z_][a-z0-9_-]*$/i.test(n!))) throw new Unsupported(shown(property, text));
    return INVALID;
  }
  if (span >= 0) return integers.length === 1 && integers[0]! > 0 && nodes.length === 2 ? { span: integers[0]! } : INVALID;
  return integers.length === 1 && nodes.length === 1 && integers[0] !== 0 ? { line: integers[0]! } : INVALID;
}

const BORDER_STYLES = ['none', 'hidden', 'dotted', 'dashed', 'solid', 'double', 'groove', 'ridge', 'inset', 'outset'];
const OVERFLOW = ['visible', 'hidden', 'clip', 'scroll', 'auto', 'overlay'];
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

function borderWidth(node: Node, text: string, property: string): Length | Invalid {
  const word = keyword(node);
  if (word === 'thin') return { n: 1, unit: 'px' };
  if (word === 'medium') return { n: 3, unit: 'px' };
  if (word === 'thick') return { n: 5, unit: 'px' };
  return length(node, property, text);
}

function gap(node: Node, text: string, property: string): Length | 'normal' | Invalid {
  return isWord(node, 'normal') ? 'normal' : length(node, property, text, { percent: true });
}

function autoTracks(nodes: Node[], text: string, property: string): TrackSize[] | Invalid {
  const tracks: TrackSize[] = [];
  for (const node of nodes) {
    const t = trackSize(node, text, property);
    if (t === INVALID) return INVALID;
    tracks.push(t);
  }
  return tracks.length ? tracks : INVALID;
}

function fontFamilies(nodes: Node[]): string[] | Invalid {
  const families = splitAt(nodes, ',').map((part) =>
    part.length === 1 && part[0]!.type === 'string'
      ? part[0]!.value
      : part.every((n) => n.type === 'word')
        ? part.map((n) => n.value).join(' ')
        : '',
  );
  return families.every((f) => f !== '') ? families : INVALID;
}

const raw = (...allowed: string[]) => ({
  inherited: true,
  initial: allowed[0]!,
  parse: (_nodes: Node[], text: string) => text.trim().toLowerCase().replace(/\s+/g, ' '),
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
  'flex-direction': { inherited: false, initial: 'row', parse: keywords('row', 'row-reverse', 'column', 'column-reverse') },
  'flex-wrap': { inherited: false, initial: 'nowrap', parse: keywords('nowrap', 'wrap', 'wrap-reverse') },
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
      if (a === 0 || b === 0) throw new Unsupported(shown(property, text));
      return a / b;
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

// ——— Shorthands ———

type Expansion = [Property, string][];
type Expander = (nodes: Node[], text: string, property: string) => Expansion | Invalid;

const SIDES = ['top', 'right', 'bottom', 'left'] as const;
type Side = (typeof SIDES)[number];

/** The 1–4 value box shorthands (margin, padding, inset, border-width, border-style). */
const sides =
  (property: (side: Side) => Property): Expander =>
  (nodes) => {
    if (nodes.length < 1 || nodes.length > 4 || nodes.some((n) => n.type === 'div')) return INVALID;
    const [top, right = top, bottom = top, left = right] = nodes.map(textOf);
    const values = [top!, right!, bottom!, left!];
    return SIDES.map((s, i): [Property, string] => [property(s), values[i]!]);
  };

/** `border` and `border-<side>`: a width, a style and a color, each optional, in any order. */
const border =
  (targets: readonly Side[]): Expander =>
  (nodes, text, property) => {
    let width: string | undefined;
    let style: string | undefined;
    let color = false;
    for (const node of nodes) {
      if (node.type === 'div') return INVALID;
      const word = keyword(node);
      if (style === undefined && word && BORDER_STYLES.includes(word)) style = word;
      else if (width === undefined && (isWord(node, 'thin', 'medium', 'thick') || length(node, property, text) !== INVALID))
        width = textOf(node);
      else if (!color)
        color = true; // a color moves no box
      else return INVALID;
    }
    if (!nodes.length) return INVALID;
    return targets.flatMap(
      (s): Expansion => [
        [`border-${s}-width` as Property, width ?? 'medium'],
        [`border-${s}-style` as Property, style ?? 'none'],
      ],
    );
  };

/** `flex`: none | [<grow> <shrink>? || <basis>]; with a number and no basis, the basis is 0%, as the browsers compute it. */
const flexShorthand: Expander = (nodes, text, property) => {
  const word = nodes.length === 1 ? keyword(nodes[0]) : undefined;
  if (word === 'none')
    return [
      ['flex-grow', '0'],
      ['flex-shrink', '0'],
      ['flex-basis', 'auto'],
    ];
  if (word === 'auto')
    return [
      ['flex-grow', '1'],
      ['flex-shrink', '1'],
      ['flex-basis', 'auto'],
    ];
  const isNumber = (n: Node | undefined) => number(n) !== INVALID;
  const isBasis = (n: Node | undefined) => n !== undefined && size('basis')([n], text, property) !== INVALID;
  let i = 0;
  let basis: string | undefined;
  const factors: string[] = [];
  if (!isNumber(nodes[0]) && isBasis(nodes[0])) basis = textOf(nodes[i++]!);
  while (factors.length < 2 && isNumber(nodes[i])) factors.push(nodes[i++]!.value);
  if (basis === undefined && isBasis(nodes[i])) basis = textOf(nodes[i++]!);
  if (i !== nodes.length || (!factors.length && basis === undefined)) return INVALID;
  return [
    ['flex-grow', factors[0] ?? '1'],
    ['flex-shrink', factors[1] ?? '1'],
    ['flex-basis', basis ?? '0%'],
  ];
};

const isIdent = (part: Node[]) => part.length === 1 && part[0]!.type === 'word' && number(part[0]) === INVALID && !isWord(part[0], 'auto');

/** grid-row, grid-column: <start> [/ <end>]; a lone name is its own end, anything else ends at auto. */
const gridPlacement =
  (start: Property, end: Property): Expander =>
  (nodes) => {
    const parts = splitAt(nodes, '/');
    if (parts.length > 2 || parts.some((p) => !p.length)) return INVALID;
    const [a, b] = parts.map((p) => p.map(textOf).join(' '));
    return [
      [start, a!],
      [end, b ?? (isIdent(parts[0]!) ? a! : 'auto')],
    ];
  };

/** grid-area: row-start / column-start / row-end / column-end, omitted ones by the same rule. */
const gridArea: Expander = (nodes) => {
  const parts = splitAt(nodes, '/');
  if (parts.length > 4 || parts.some((p) => !p.length)) return INVALID;
  const texts = parts.map((p) => p.map(textOf).join(' '));
  const or = (i: number, from: number) => texts[i] ?? (isIdent(parts[from]!) ? texts[from]! : 'auto');
  const columnStart = or(1, 0);
  return [
    ['grid-row-start', texts[0]!],
    ['grid-column-start', columnStart],
    ['grid-row-end', or(2, 0)],
    ['grid-column-end', texts[3] ?? (parts[1] ? (isIdent(parts[1]) ? texts[1]! : 'auto') : or(3, 0))],
  ];
};

/** Two longhands from one or two values (gap, overflow). */
const pair =
  (first: Property, second: Property): Expander =>
  (nodes) => {
    if (nodes.length < 1 || nodes.length > 2) return INVALID;
    const [a, b] = nodes.map(textOf);
    return [
      [first, a!],
      [second, b ?? a!],
    ];
  };

/** place-*: the align value, then the justify value (the same when only one is given). */
const place =
  (align: Property, justify: Property): Expander =>
  (nodes) => {
    // A value may be two words (safe center, first baseline): try each cut.
    for (let cut = 1; cut < nodes.length; cut++) {
      const a = nodes.slice(0, cut);
      const j = nodes.slice(cut);
      if (LONGHANDS[align].parse(a, '', align) !== INVALID && LONGHANDS[justify].parse(j, '', justify) !== INVALID) {
        return [
          [align, a.map(textOf).join(' ')],
          [justify, j.map(textOf).join(' ')],
        ];
      }
    }
    const all = nodes.map(textOf).join(' ');
    return [
      [align, all],
      [justify, all],
    ];
  };

const flexFlow: Expander = (nodes) => {
  let direction: string | undefined;
  let wrap: string | undefined;
  for (const node of nodes) {
    const word = keyword(node) ?? '';
    if (direction === undefined && ['row', 'row-reverse', 'column', 'column-reverse'].includes(word)) direction = word;
    else if (wrap === undefined && ['nowrap', 'wrap', 'wrap-reverse'].includes(word)) wrap = word;
    else return INVALID;
  }
  return nodes.length
    ? [
        ['flex-direction', direction ?? 'row'],
        ['flex-wrap', wrap ?? 'nowrap'],
      ]
    : INVALID;
};

const rename =
  (to: Property): Expander =>
  (nodes) => [[to, nodes.map(textOf).join(' ')]];

const sideNames = (f: (s: Side) => string) => SIDES.map((s) => f(s) as Property);

/** Each shorthand: the longhands it sets (all of them, for a CSS-wide keyword) and how it splits its value. */
const SHORTHANDS: Record<string, { longhands: Property[]; expand: Expander }> = {
  margin: { longhands: sideNames((s) => `margin-${s}`), expand: sides((s) => `margin-${s}` as Property) },
  padding: { longhands: sideNames((s) => `padding-${s}`), expand: sides((s) => `padding-${s}` as Property) },
  inset: { longhands: [...SIDES], expand: sides((s) => s) },
  'border-width': { longhands: sideNames((s) => `border-${s}-width`), expand: sides((s) => `border-${s}-width` as Property) },
  'border-style': { longhands: sideNames((s) => `border-${s}-style`), expand: sides((s) => `border-${s}-style` as Property) },
  border: { longhands: [...sideNames((s) => `border-${s}-width`), ...sideNames((s) => `border-${s}-style`)], expand: border(SIDES) },
  ...Object.fromEntries(
    SIDES.map((s) => [`border-${s}`, { longhands: [`border-${s}-width`, `border-${s}-style`] as Property[], expand: border([s]) }]),
  ),
  overflow: { longhands: ['overflow-x', 'overflow-y'], expand: pair('overflow-x', 'overflow-y') },
  flex: { longhands: ['flex-grow', 'flex-shrink', 'flex-basis'], expand: flexShorthand },
  'flex-flow': { longhands: ['flex-direction', 'flex-wrap'], expand: flexFlow },
  gap: { longhands: ['row-gap', 'column-gap'], expand: pair('row-gap', 'column-gap') },
  'grid-gap': { longhands: ['row-gap', 'column-gap'], expand: pair('row-gap', 'column-gap') },
  'grid-row-gap': { longhands: ['row-gap'], expand: rename('row-gap') },
  'grid-column-gap': { longhands: ['column-gap'], expand: rename('column-gap') },
  'grid-row': { longhands: ['grid-row-start', 'grid-row-end'], expand: gridPlacement('grid-row-start', 'grid-row-end') },
  'grid-column': { longhands: ['grid-column-start', 'grid-column-end'], expand: gridPlacement('grid-column-start', 'grid-column-end') },
  'grid-area': { longhands: ['grid-row-start', 'grid-column-start', 'grid-row-end', 'grid-column-end'], expand: gridArea },
  'place-content': { longhands: ['align-content', 'justify-content'], expand: place('align-content', 'justify-content') },
  'place-items': { longhands: ['align-items', 'justify-items'], expand: place('align-items', 'justify-items') },
  'place-self': { longhands: ['align-self', 'justify-self'], expand: place('align-self', 'justify-self') },
  'word-wrap': { longhands: ['overflow-wrap'], expand: rename('overflow-wrap') },
};

/** Properties that paint and move no box: their declarations are ignored. */
const PAINT_ONLY = new RegExp(
  '^(color|opacity|cursor|visibility|z-index|pointer-events|user-select|caret-color|accent-color|outline(-.*)?|background(-.*)?|' +
    'border(-(top|right|bottom|left))?-color|border(-.*)?-radius|border-image(-.*)?|box-shadow|text-shadow|text-decoration(-.*)?|' +
    'filter|backdrop-filter|mix-blend-mode|isolation|clip-path|mask(-.*)?|transition(-.*)?|will-change|list-style(-.*)?|quotes|' +
    'counter-(reset|increment|set)|empty-cells|table-layout|border-collapse|border-spacing|caption-side|object-fit|object-position|' +
    'image-rendering|resize|touch-action|scroll-behavior|overscroll-behavior(-.*)?|scroll-snap-.*|color-scheme|forced-color-adjust|' +
    'print-color-adjust|vertical-align|paint-order|shape-rendering|fill(-.*)?|stroke(-.*)?|-webkit-tap-highlight-color|' +
    '-webkit-font-smoothing|-moz-osx-font-smoothing|font-optical-sizing|font-palette|font-variation-settings|text-emphasis(-.*)?|' +
    'text-underline-(offset|position)|tab-size|widows|orphans|page-break-(before|after|inside)|break-(before|after|inside)|' +
    'appearance|-webkit-appearance|-moz-appearance|color-interpolation(-.*)?)$',
);

/** Properties the candidates do not model, with the values that move nothing (any other value is unsupported). */
const NO_OP_VALUES: Record<string, string[]> = {
  transform: ['none'],
  translate: ['none'],
  rotate: ['none'],
  scale: ['none'],
  animation: ['none'],
  'animation-name': ['none'],
  contain: ['none'],
  content: ['normal', 'none'],
  zoom: ['normal', '1', '100%'],
  columns: ['auto'],
  'column-count': ['auto'],
  'column-width': ['auto'],
  'scrollbar-gutter': ['auto'],
  'scrollbar-width': ['auto'],
  'container-type': ['normal'],
  'content-visibility': ['visible'],
  'unicode-bidi': ['normal'],
  'text-orientation': ['mixed'],
  'grid-template-areas': ['none'],
  'grid-template': ['none'],
  grid: ['none'],
};

/** `-webkit-` aliases every engine here accepts for a property of its own. */
const ALIASES: Record<string, string> = {
  '-webkit-flex': 'flex',
  '-webkit-flex-direction': 'flex-direction',
  '-webkit-flex-wrap': 'flex-wrap',
  '-webkit-flex-flow': 'flex-flow',
  '-webkit-flex-grow': 'flex-grow',
  '-webkit-flex-shrink': 'flex-shrink',
  '-webkit-flex-basis': 'flex-basis',
  '-webkit-order': 'order',
  '-webkit-align-items': 'align-items',
  '-webkit-align-self': 'align-self',
  '-webkit-align-content': 'align-content',
  '-webkit-justify-content': 'justify-content',
  '-webkit-box-sizing': 'box-sizing',
};

const KNOWN = new Set<string>(knownProperties.all);

/** A declaration of a property the candidates do not model, whose value moves nothing: it still competes in the cascade. */
export const NO_EFFECT = Symbol('no effect');

/** One property's value as a declaration sets it: a parsed value, a CSS-wide keyword, NO_EFFECT or Unsupported. */
export interface Setting {
  /** A longhand of Values, or the name of a property the candidates do not model. */
  property: string;
  value: unknown;
}

/**
 * What one declaration sets, in order: [] when a browser drops or ignores it. An Unsupported
 * value is kept as a value, since it matters only if its declaration wins the cascade.
 */
export function expand(propertyName: string, text: string): Setting[] {
  const property = ALIASES[propertyName] ?? propertyName;
  if (property.startsWith('--')) return [];
  const nodes = components(text);
  if (!nodes.length) return [];
  const wide = nodes.length === 1 ? keyword(nodes[0]) : undefined;
  if (property in LONGHANDS) {
    const value = parseLonghand(property as Property, nodes, text, wide);
    return value === INVALID ? [] : [{ property, value }];
  }
  const shorthand = SHORTHANDS[property];
  if (shorthand) {
    if (wide && WIDE.has(wide)) return shorthand.longhands.map((p) => ({ property: p, value: parseLonghand(p, nodes, text, wide) }));
    try {
      refuseFunctions(property, text, nodes);
      const parts = shorthand.expand(nodes, text, property);
      if (parts === INVALID) return [];
      const settings = parts.map(([p, t]) => ({ property: p, value: parseLonghand(p, components(t), text, undefined, property) }));
      return settings.some((v) => v.value === INVALID) ? [] : settings;
    } catch (error) {
      if (error instanceof Unsupported) return shorthand.longhands.map((p) => ({ property: p, value: error }));
      throw error;
    }
  }
  if (PAINT_ONLY.test(property)) return [];
  const noOp = NO_OP_VALUES[property];
  if (noOp || KNOWN.has(property)) {
    const moves = !(noOp?.includes(text.trim().toLowerCase()) || wide === 'initial' || wide === 'unset');
    return [{ property, value: moves ? new Unsupported(shown(property, text)) : NO_EFFECT }];
  }
  // A property no browser knows is dropped, as the browsers drop it.
  return [];
}

const WIDE = new Set(['inherit', 'initial', 'unset', 'revert', 'revert-layer']);

function parseLonghand(property: Property, nodes: Node[], text: string, wide: string | undefined, shorthand?: string): unknown {
  if (wide === 'inherit' || wide === 'initial' || wide === 'unset') return { wide };
  const name = shorthand ?? property;
  if (wide === 'revert' || wide === 'revert-layer') return new Unsupported(shown(name, text));
  try {
    refuseFunctions(name, text, nodes);
    return LONGHANDS[property].parse(nodes, text, name);
  } catch (error) {
    if (error instanceof Unsupported) return error;
    throw error;
  }
}

/** A CSS-wide keyword as a parsed value. */
export const isWide = (value: unknown): value is { wide: 'inherit' | 'initial' | 'unset' } =>
  typeof value === 'object' && value !== null && 'wide' in value;
