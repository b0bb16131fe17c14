// CSS values as the candidates read them: a declaration's text split into components by
// postcss-value-parser, and the value types the layout properties take. Each reader returns the
// value, or INVALID for text a browser would drop at parse time (the declaration then does not
// exist, as in the browsers); a valid value the candidates cannot represent (calc(), var(), a
// font-relative unit) throws Unsupported, which matters only if its declaration wins the cascade.
import valueParser from 'postcss-value-parser';
import { Unsupported } from './unsupported.js';

export const INVALID = Symbol('invalid');
export type Invalid = typeof INVALID;

export type Node = valueParser.Node;

/** Units a length is kept in until it is resolved against its element (`%` included). */
type Unit = 'px' | 'em' | 'rem' | 'vw' | 'vh' | 'vmin' | 'vmax' | '%';
export interface Length {
  readonly n: number;
  readonly unit: Unit;
}

/** Absolute units, in px. */
const ABSOLUTE: Record<string, number> = { px: 1, in: 96, cm: 96 / 2.54, mm: 96 / 25.4, q: 96 / 101.6, pt: 4 / 3, pc: 16 };
const RELATIVE = new Set(['em', 'rem', 'vw', 'vh', 'vmin', 'vmax']);
/** Units that are valid CSS but need font metrics or containers the candidates do not model. */
const UNMODELLED = new Set([
  'ex',
  'ch',
  'ic',
  'cap',
  'lh',
  'rlh',
  'rex',
  'rch',
  'ric',
  'rcap',
  'cqw',
  'cqh',
  'cqi',
  'cqb',
  'cqmin',
  'cqmax',
]);
const VIEWPORT_VARIANTS = /^[sld](vw|vh|vmin|vmax|vi|vb)$|^(vi|vb)$/;
const MATH = new Set(['calc', 'min', 'max', 'clamp', 'round', 'mod', 'rem', 'abs', 'sign', 'var', 'env', 'attr']);

/** The value's components: whitespace dropped, `/` and `,` kept as div nodes, comments dropped. */
export function components(text: string): Node[] {
  return valueParser(text).nodes.filter((n) => n.type !== 'space' && n.type !== 'comment');
}

/** The declaration's text, one line, for an `unsupported` message. */
export const shown = (property: string, text: string) => `${property}: ${text.replace(/\s+/g, ' ').trim()}`;

export const isWord = (node: Node | undefined, ...words: string[]): boolean =>
  node?.type === 'word' && (words.length === 0 || words.includes(node.value.toLowerCase()));

export const keyword = (node: Node | undefined): string | undefined => (node?.type === 'word' ? node.value.toLowerCase() : undefined);

/** Throws Unsupported for the math and substitution functions, wherever they appear in a value. */
export function refuseFunctions(property: string, text: string, nodes: Node[]): void {
  valueParser.walk(nodes, (node) => {
    if (node.type === 'function' && MATH.has(node.value.toLowerCase())) throw new Unsupported(shown(property, text));
  });
}

export interface LengthOptions {
  percent?: boolean;
  negative?: boolean;
}

/** A <length> (or <length-percentage>); unitless 0 is a length. */
export function length(node: Node | undefined, property: string, text: string, options: LengthOptions = {}): Length | Invalid {
  if (node?.type !== 'word') return INVALID;
  const dimension = valueParser.unit(node.value);
  if (!dimension) return INVALID;
  const n = Number(dimension.number);
  if (!Number.isFinite(n) || (!options.negative && n < 0)) return INVALID;
  const unit = dimension.unit.toLowerCase();
  if (unit === '') return n === 0 ? { n: 0, unit: 'px' } : INVALID;
  if (unit === '%') return options.percent ? { n, unit: '%' } : INVALID;
  if (unit in ABSOLUTE) return { n: n * ABSOLUTE[unit]!, unit: 'px' };
  if (RELATIVE.has(unit)) return { n, unit: unit as Unit };
  if (UNMODELLED.has(unit) || VIEWPORT_VARIANTS.test(unit)) throw new Unsupported(shown(property, text));
  return INVALID;
}

/** A <number> (or <integer> with `integer`). */
export function number(node: Node | undefined, options: { negative?: boolean; integer?: boolean } = {}): number | Invalid {
  if (node?.type !== 'word' || !/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(node.value)) return INVALID;
  const n = Number(node.value);
  if (!options.negative && n < 0) return INVALID;
  if (options.integer && !Number.isInteger(n)) return INVALID;
  return n;
}

/** An <flex> value (`1fr`), as its number. */
export function flex(node: Node | undefined): number | Invalid {
  if (node?.type !== 'word') return INVALID;
  const dimension = valueParser.unit(node.value);
  if (dimension === false || dimension.unit.toLowerCase() !== 'fr') return INVALID;
  const n = Number(dimension.number);
  return Number.isFinite(n) && n >= 0 ? n : INVALID;
}

/** Components split at the `/` (or `,`) divs between them. */
export function splitAt(nodes: Node[], separator: '/' | ','): Node[][] {
  const parts: Node[][] = [[]];
  for (const node of nodes) {
    if (node.type === 'div' && node.value === separator) parts.push([]);
    else parts[parts.length - 1]!.push(node);
  }
  return parts;
}

/** What a length is resolved against, at its element. */
export interface LengthContext {
  fontSize: number;
  rootFontSize: number;
  viewport: { width: number; height: number };
}

/** A length in px; percentages are left to the layout (callers resolve them against their basis). */
export function toPx(value: Length, context: LengthContext): number {
  const { width, height } = context.viewport;
  switch (value.unit) {
    case 'px':
      return value.n;
    case 'em':
      return value.n * context.fontSize;
    case 'rem':
      return value.n * context.rootFontSize;
    case 'vw':
      return (value.n * width) / 100;
    case 'vh':
      return (value.n * height) / 100;
    case 'vmin':
      return (value.n * Math.min(width, height)) / 100;
    case 'vmax':
      return (value.n * Math.max(width, height)) / 100;
    case '%':
      throw new Error('a percentage has no px value without its basis');
  }
}
