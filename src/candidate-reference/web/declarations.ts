// What a declaration sets, as a browser reads it: a longhand's value, a shorthand's longhands, or
// nothing. A declaration of a property the candidates do not model is treated as a browser treats
// it: one no browser knows is dropped; one of the paint-only properties is ignored (it moves no
// box); any other known property makes the case unsupported when it wins the cascade on a box.
import knownProperties from 'known-css-properties';
import { LOGICAL } from './logical.js';
import { LONGHANDS, type Property } from './longhands.js';
import { SHORTHANDS } from './shorthands.js';
import { components, INVALID, keyword, refuseFunctions, shown, type Node } from './values.js';
import { Unsupported } from './unsupported.js';

/** Properties that paint and move no box: their declarations are ignored. */
const PAINT_ONLY = new RegExp(
  '^(color|opacity|cursor|visibility|z-index|pointer-events|user-select|caret-color|accent-color|outline(-.*)?|background(-.*)?|' +
    'border(-(top|right|bottom|left|inline|block|inline-start|inline-end|block-start|block-end))?-color|border(-.*)?-radius|border-image(-.*)?|box-shadow|text-shadow|text-decoration(-.*)?|' +
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
  /** A longhand of Values, a logical longhand (logical.ts), or the name of a property the candidates do not model. */
  property: string;
  value: unknown;
}

/** The grammar of a longhand the candidates model, physical or logical (a logical one takes its physical sides'). */
const grammarOf = (property: string) => LONGHANDS[(LOGICAL[property]?.[0] ?? property) as Property];

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
  if (grammarOf(property)) {
    const value = parseLonghand(property, nodes, text, wide);
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
      if (settings.some((v) => v.value === INVALID)) return [];
      // The longhands the value leaves out are reset.
      for (const p of shorthand.longhands) {
        if (!parts.some(([given]) => given === p)) settings.push({ property: p, value: parseLonghand(p, nodes, text, 'initial') });
      }
      return settings;
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

/**
 * A longhand's value; for a longhand the candidates do not model (which only a shorthand sets
 * here), a CSS-wide keyword or a reset is NO_EFFECT: it inherits, or is, the initial value.
 */
function parseLonghand(property: string, nodes: Node[], text: string, wide: string | undefined, shorthand?: string): unknown {
  const name = shorthand ?? property;
  if (wide === 'revert' || wide === 'revert-layer') return new Unsupported(shown(name, text));
  const grammar = grammarOf(property);
  if (!grammar) return wide ? NO_EFFECT : INVALID;
  if (wide === 'inherit' || wide === 'initial' || wide === 'unset') return { wide };
  try {
    refuseFunctions(name, text, nodes);
    return grammar.parse(nodes, text, name);
  } catch (error) {
    if (error instanceof Unsupported) return error;
    throw error;
  }
}

/** A CSS-wide keyword as a parsed value. */
export const isWide = (value: unknown): value is { wide: 'inherit' | 'initial' | 'unset' } =>
  typeof value === 'object' && value !== null && 'wide' in value;
