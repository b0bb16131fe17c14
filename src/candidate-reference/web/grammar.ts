// The value grammars the longhands share: sizes, box alignment, grid tracks and lines, border
// widths, gaps, font families. Each reader takes a declaration's value split into components and
// returns the parsed value, or INVALID for text a browser drops; a valid value the candidates do
// not model throws Unsupported (values.ts says why that split).
import { flex, INVALID, isWord, keyword, length, number, shown, splitAt, type Invalid, type Length, type Node } from './values.js';
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
export type LineHeight = 'normal' | { number: number } | Length;

export const one =
  <T>(read: (node: Node, text: string, property: string) => T | Invalid) =>
  (nodes: Node[], text: string, property: string) =>
    nodes.length === 1 ? read(nodes[0]!, text, property) : INVALID;

export const keywords =
  (...words: string[]) =>
  (nodes: Node[]): string | Invalid => {
    const word = nodes.length === 1 ? keyword(nodes[0]) : undefined;
    return word !== undefined && words.includes(word) ? word : INVALID;
  };

export const lengthAuto = (negative: boolean) =>
  one<LengthAuto>((node, text, property) => (isWord(node, 'auto') ? 'auto' : length(node, property, text, { percent: true, negative })));

export const lengthPercent = one<Length>((node, text, property) => length(node, property, text, { percent: true }));

export function size(kind: 'size' | 'min' | 'max' | 'basis') {
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
export const textOf = (n: Node): string =>
  n.type === 'function' ? `${n.value}(${n.nodes.map(textOf).join('')})` : n.type === 'string' ? JSON.stringify(n.value) : n.value;

export const SELF_POSITION = ['center', 'start', 'end', 'self-start', 'self-end', 'flex-start', 'flex-end'];
export const CONTENT_POSITION = ['center', 'start', 'end', 'flex-start', 'flex-end'];

/** A box-alignment value, normalized to its words (`first baseline` is `baseline`). */
export function alignment(options: { lead: string[]; positions: string[]; leftRight: boolean; distribution: boolean; legacy?: boolean }) {
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

export function trackList(nodes: Node[], text: string, property: string): Track[] | 'none' | Invalid {
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

export function gridLine(nodes: Node[], text: string, property: string): GridLine | Invalid {
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

export const BORDER_STYLES = ['none', 'hidden', 'dotted', 'dashed', 'solid', 'double', 'groove', 'ridge', 'inset', 'outset'];

export function borderWidth(node: Node, text: string, property: string): Length | Invalid {
  const word = keyword(node);
  if (word === 'thin') return { n: 1, unit: 'px' };
  if (word === 'medium') return { n: 3, unit: 'px' };
  if (word === 'thick') return { n: 5, unit: 'px' };
  return length(node, property, text);
}

export function gap(node: Node, text: string, property: string): Length | 'normal' | Invalid {
  return isWord(node, 'normal') ? 'normal' : length(node, property, text, { percent: true });
}

export function autoTracks(nodes: Node[], text: string, property: string): TrackSize[] | Invalid {
  const tracks: TrackSize[] = [];
  for (const node of nodes) {
    const t = trackSize(node, text, property);
    if (t === INVALID) return INVALID;
    tracks.push(t);
  }
  return tracks.length ? tracks : INVALID;
}

export function fontFamilies(nodes: Node[]): string[] | Invalid {
  const families = splitAt(nodes, ',').map((part) =>
    part.length === 1 && part[0]!.type === 'string'
      ? part[0]!.value
      : part.every((n) => n.type === 'word')
        ? part.map((n) => n.value).join(' ')
        : '',
  );
  return families.every((f) => f !== '') ? families : INVALID;
}
