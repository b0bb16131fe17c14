// Computed values: the cascade's winners, inherited and initial values filled in, lengths made px
// (percentages stay percentages, for the layout to resolve), and the computed-value rules that
// move boxes: blockification, float none for absolutely positioned boxes, the overflow pair,
// border widths that are 0 without a style and snapped to whole pixels otherwise.
import { VIEWPORT } from '../../protocol/common.js';
import type { Cascaded } from './cascade.js';
import type { Document, Element } from './document.js';
import { isWide } from './declarations.js';
import { FONT_SIZE_KEYWORDS, LONGHANDS, type Property, type Values } from './longhands.js';
import { Unsupported } from './unsupported.js';
import { toPx, type Length, type LengthContext } from './values.js';

export type Style = Readonly<Values>;

export interface Styled {
  /** Per element, its computed style. */
  readonly styles: ReadonlyMap<Element, Style>;
  /** Elements that generate no box for being display: none or inside such an element. */
  readonly hidden: ReadonlySet<Element>;
}

const PROPERTIES = Object.keys(LONGHANDS) as Property[];
const INITIAL = Object.fromEntries(PROPERTIES.map((p) => [p, LONGHANDS[p].initial])) as Record<Property, unknown>;
const INHERITED = PROPERTIES.filter((p) => LONGHANDS[p].inherited);
/** Each side's border properties, named once (a key made by a template for every element had to be looked up each time). */
const BORDERS = (['top', 'right', 'bottom', 'left'] as const).map((side) => ({
  style: `border-${side}-style` as const,
  width: `border-${side}-width` as const,
}));
const FLEX_OR_GRID = new Set(['flex', 'grid', 'inline-flex', 'inline-grid']);

const BLOCKIFIED: Record<string, string> = {
  inline: 'block',
  'inline-block': 'block',
  'inline-flex': 'flex',
  'inline-grid': 'grid',
  'inline-table': 'table',
  'inline-list-item': 'list-item',
  '-webkit-inline-box': '-webkit-box',
};

/**
 * Every element's computed style. An unsupported declaration that wins on an element with a box
 * makes the case unsupported; on a hidden element nothing is laid out, so it is left at its
 * inherited or initial value.
 */
export function computeStyles(document: Document, cascaded: Cascaded): Styled {
  const styles = new Map<Element, Style>();
  const hidden = new Set<Element>();
  let rootFontSize = FONT_SIZE_KEYWORDS.medium!;
  for (const element of document.elements) {
    const parent = element.parent ? styles.get(element.parent) : undefined;
    const declared = cascaded.settings.get(element)!;
    const inHidden = element.parent !== null && hidden.has(element.parent);
    // Start from what is not declared: initial values, and the parent's computed ones where they inherit.
    const values = { ...INITIAL } as Record<Property, unknown>;
    if (parent) for (const property of INHERITED) values[property] = parent[property];
    const computed = (property: Property, value: unknown, strict: boolean): unknown => {
      const { inherited, initial } = LONGHANDS[property];
      const inheritedValue = parent ? parent[property] : initial;
      if (isWide(value)) return value.wide === 'inherit' || (value.wide === 'unset' && inherited) ? inheritedValue : initial;
      if (value instanceof Unsupported) {
        if (strict) throw value;
        return inherited ? inheritedValue : initial;
      }
      return value;
    };
    const display = declared.has('display')
      ? (computed('display', declared.get('display'), !inHidden) as string)
      : (INITIAL.display as string);
    const hides = inHidden || display === 'none';
    if (hides) hidden.add(element);
    const own: Property[] = [];
    for (const [name, value] of declared) {
      if (!(name in LONGHANDS)) {
        // A property the candidates do not model: any value of it that moves a box wins here only as Unsupported.
        if (!hides && value instanceof Unsupported) throw value;
        continue;
      }
      const property = name as Property;
      values[property] = property === 'display' ? display : computed(property, value, !hides);
      own.push(property);
    }
    const fontSize = declared.has('font-size')
      ? resolveFontSize(values['font-size'] as Values['font-size'], parent, rootFontSize)
      : parent
        ? (parent['font-size'] as Length).n
        : FONT_SIZE_KEYWORDS.medium!;
    // Undeclared, it is the parent's computed value already (font-size inherits).
    if (declared.has('font-size') || !parent) values['font-size'] = { n: fontSize, unit: 'px' };
    if (!element.parent) rootFontSize = fontSize;
    const context: LengthContext = { fontSize, rootFontSize, viewport: VIEWPORT };
    // Inherited and initial values are computed already; only the element's own need resolving.
    for (const property of own) if (property !== 'font-size') values[property] = resolveLengths(values[property], context);
    applyComputedRules(values as unknown as Values, element, styles);
    styles.set(element, values as unknown as Style);
  }
  return { styles, hidden };
}

function resolveFontSize(value: Values['font-size'], parent: Style | undefined, rootFontSize: number): number {
  const inherited = parent ? (parent['font-size'] as Length).n : FONT_SIZE_KEYWORDS.medium!;
  if (typeof value === 'string') return FONT_SIZE_KEYWORDS[value]!;
  if (value.unit === '%') return (value.n * inherited) / 100;
  if (value.unit === 'em') return value.n * inherited;
  return toPx(value, { fontSize: inherited, rootFontSize: parent ? rootFontSize : FONT_SIZE_KEYWORDS.medium!, viewport: VIEWPORT });
}

const isLength = (v: unknown): v is Length => typeof v === 'object' && v !== null && 'unit' in v && 'n' in v;

/** Every length inside a value made px (percentages kept). */
function resolveLengths(value: unknown, context: LengthContext): unknown {
  if (isLength(value)) return value.unit === 'px' || value.unit === '%' ? value : { n: toPx(value, context), unit: 'px' };
  if (Array.isArray(value)) return value.map((v) => resolveLengths(v, context));
  if (typeof value === 'object' && value !== null && !(value instanceof Unsupported)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveLengths(v, context)]));
  }
  return value;
}

function applyComputedRules(v: Values, element: Element, styles: ReadonlyMap<Element, Style>): void {
  const positioned = v.position === 'absolute' || v.position === 'fixed';
  if (positioned) v.float = 'none';
  // Blockified: the root, absolutely positioned and floated boxes, and the children of flex and grid containers.
  let layoutParent = element.parent;
  while (layoutParent && styles.get(layoutParent)!.display === 'contents') layoutParent = layoutParent.parent;
  const parentDisplay = layoutParent ? styles.get(layoutParent)!.display : undefined;
  const inFlexOrGrid = parentDisplay !== undefined && FLEX_OR_GRID.has(parentDisplay);
  if ((element.parent === null || positioned || v.float !== 'none' || inFlexOrGrid) && v.display in BLOCKIFIED) {
    v.display = BLOCKIFIED[v.display]!;
  }
  if (element.parent === null && v.display === 'contents') v.display = 'block';
  // An overflow pair with one scrolling axis cannot keep the other visible.
  const scrolls = (o: string) => o !== 'visible' && o !== 'clip';
  if (scrolls(v['overflow-x']) !== scrolls(v['overflow-y'])) {
    const fix = (o: string) => (o === 'visible' ? 'auto' : o === 'clip' ? 'hidden' : o);
    v['overflow-x'] = fix(v['overflow-x']);
    v['overflow-y'] = fix(v['overflow-y']);
  }
  for (const border of BORDERS) {
    const style = v[border.style];
    const width = v[border.width];
    // Browsers snap border widths to device pixels: down to a whole pixel, and at least one.
    const px = style === 'none' || style === 'hidden' ? 0 : width.n > 0 && width.n < 1 ? 1 : Math.floor(width.n);
    // Values are never changed once made, so one already snapped is kept.
    if (width.n !== px || width.unit !== 'px') v[border.width] = { n: px, unit: 'px' };
  }
}
