// The shorthands: each one's longhands (all of them are set, to what the value gives or else to
// their initial value, as a browser resets them) and how its value splits among them. A value
// that does not split is dropped, as the browsers drop it. Logical longhands (logical.ts) and
// longhands the candidates do not model are named as they are; the cascade and declarations.ts
// take them from there.
import { BORDER_STYLES, size, textOf } from './grammar.js';
import { FLEX_DIRECTIONS, FLEX_WRAPS, LONGHANDS, type Property } from './longhands.js';
import { FLOW_SIDES } from './logical.js';
import { INVALID, isWord, keyword, length, number, shown, splitAt, type Invalid, type Node } from './values.js';
import { Unsupported } from './unsupported.js';

/** Longhands and their values' text; a longhand the shorthand sets and leaves out here is reset to its initial value. */
type Expansion = [longhand: string, text: string][];
export type Expander = (nodes: Node[], text: string, property: string) => Expansion | Invalid;

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

/** A component that can be a color (a name, a hex, a function), not a number or a dimension. */
const isColor = (node: Node) => node.type === 'function' || (node.type === 'word' && !/^[+-]?(\d|\.\d)/.test(node.value));

/** `border`, `border-<side>` and their logical forms: a width, a style and a color, each optional, in any order. */
const border =
  (targets: readonly string[]): Expander =>
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
      else if (!color && isColor(node))
        color = true; // a color moves no box
      else return INVALID;
    }
    if (!nodes.length) return INVALID;
    return targets.flatMap(
      (s): Expansion => [
        [`border-${s}-width`, width ?? 'medium'],
        [`border-${s}-style`, style ?? 'none'],
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
  (first: string, second: string): Expander =>
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
    if (direction === undefined && FLEX_DIRECTIONS.includes(word)) direction = word;
    else if (wrap === undefined && FLEX_WRAPS.includes(word)) wrap = word;
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
  (to: string): Expander =>
  (nodes) => [[to, nodes.map(textOf).join(' ')]];

/** The system fonts, whose sizes and families are the platform's: valid, not modelled. */
const SYSTEM_FONTS = ['caption', 'icon', 'menu', 'message-box', 'small-caption', 'status-bar'];
const FONT_WIDTHS = [
  'ultra-condensed',
  'extra-condensed',
  'condensed',
  'semi-condensed',
  'semi-expanded',
  'expanded',
  'extra-expanded',
  'ultra-expanded',
];
/**
 * What `font` sets: the longhands it gives and the ones it resets, the browsers' list (Blink's and
 * Gecko's agree); those the candidates do not model are reset to no effect.
 */
const FONT_LONGHANDS = [
  'font-style',
  'font-variant',
  'font-weight',
  'font-stretch',
  'font-size',
  'line-height',
  'font-family',
  'font-kerning',
  'font-feature-settings',
  'font-size-adjust',
  'font-language-override',
  ...['caps', 'ligatures', 'numeric', 'east-asian', 'alternates', 'position', 'emoji'].map((v) => `font-variant-${v}`),
];

/**
 * `font`: [<style> || <small-caps> || <weight> || <width>]? <size> [/ <line-height>]? <family>#,
 * each of the first four at most once (a `normal` stands for any of them), or a system font.
 */
const font: Expander = (nodes, text, property) => {
  if (nodes.length === 1 && isWord(nodes[0], ...SYSTEM_FONTS)) throw new Unsupported(shown(property, text));
  const given: Record<string, string> = {};
  let normals = 0;
  let i = 0;
  for (; i < nodes.length; i++) {
    const node = nodes[i]!;
    const word = keyword(node);
    const weight = number(node);
    if (word === 'normal') normals++;
    else if (given['font-style'] === undefined && (word === 'italic' || word === 'oblique')) {
      // An oblique angle goes with it.
      const angle = word === 'oblique' && nodes[i + 1]?.type === 'word' && /^[-+]?[\d.]+(deg|grad|rad|turn)$/i.test(nodes[i + 1]!.value);
      given['font-style'] = angle ? `${word} ${nodes[++i]!.value}` : word;
    } else if (given['font-variant'] === undefined && word === 'small-caps') given['font-variant'] = word;
    else if (given['font-weight'] === undefined && (word === 'bold' || (weight !== INVALID && weight >= 1 && weight <= 1000)))
      given['font-weight'] = textOf(node);
    else if (given['font-stretch'] === undefined && word !== undefined && FONT_WIDTHS.includes(word)) given['font-stretch'] = word;
    else break;
  }
  if (normals + Object.keys(given).length > 4) return INVALID;
  const fontSize = nodes[i++];
  let lineHeight: Node | undefined;
  if (nodes[i]?.type === 'div' && nodes[i]!.value === '/') {
    lineHeight = nodes[i + 1];
    i += 2;
  }
  const family = nodes.slice(i);
  if (
    !fontSize ||
    fontSize.type === 'div' ||
    lineHeight?.type === 'div' ||
    (lineHeight === undefined && i > nodes.length) ||
    !family.length
  )
    return INVALID;
  return [
    ...Object.entries(given),
    ['font-size', textOf(fontSize)],
    ...(lineHeight ? ([['line-height', textOf(lineHeight)]] as Expansion) : []),
    ['font-family', family.map(textOf).join(' ')],
  ];
};

const GRID_TEMPLATE_LONGHANDS = ['grid-template-rows', 'grid-template-columns', 'grid-template-areas'];
const GRID_LONGHANDS = [...GRID_TEMPLATE_LONGHANDS, 'grid-auto-flow', 'grid-auto-rows', 'grid-auto-columns'];
const joined = (part: Node[]) => part.map(textOf).join(' ');

/**
 * `grid-template`: none | <rows> / <columns> | the areas form. Areas (its strings) are not
 * modelled: valid, and unsupported. Left out here, the areas are reset to none.
 */
const gridTemplate: Expander = (nodes, text, property) => {
  if (nodes.length === 1 && isWord(nodes[0], 'none'))
    return [
      ['grid-template-rows', 'none'],
      ['grid-template-columns', 'none'],
    ];
  if (nodes.some((n) => n.type === 'string')) throw new Unsupported(shown(property, text));
  const parts = splitAt(nodes, '/');
  if (parts.length !== 2 || parts.some((p) => !p.length)) return INVALID;
  return [
    ['grid-template-rows', joined(parts[0]!)],
    ['grid-template-columns', joined(parts[1]!)],
  ];
};

/**
 * `grid`: a grid-template, or the auto-flow forms, <rows> / auto-flow dense? <auto-columns>? and
 * auto-flow dense? <auto-rows>? / <columns>. Whatever a form leaves out is reset (gaps are not).
 */
const grid: Expander = (nodes, text, property) => {
  const parts = splitAt(nodes, '/');
  const flowAt = parts.findIndex((p) => p.some((n) => isWord(n, 'auto-flow')));
  if (flowAt < 0) return gridTemplate(nodes, text, property);
  if (parts.length !== 2 || parts.some((p) => !p.length) || nodes.some((n) => n.type === 'string')) return INVALID;
  // auto-flow and dense, in either order, lead their part.
  const part = parts[flowAt]!;
  const lead = part.slice(0, 2).filter((n) => isWord(n, 'auto-flow', 'dense'));
  if (!isWord(lead[0], 'auto-flow') && !isWord(lead[1], 'auto-flow')) return INVALID;
  if (part.slice(lead.length).some((n) => isWord(n, 'auto-flow', 'dense'))) return INVALID;
  const dense = lead.some((n) => isWord(n, 'dense')) ? ' dense' : '';
  const sizes = part.slice(lead.length);
  const other = joined(parts[1 - flowAt]!);
  return flowAt === 0
    ? [
        ['grid-auto-flow', `row${dense}`],
        ...(sizes.length ? ([['grid-auto-rows', joined(sizes)]] as Expansion) : []),
        ['grid-template-columns', other],
      ]
    : [
        ['grid-template-rows', other],
        ['grid-auto-flow', `column${dense}`],
        ...(sizes.length ? ([['grid-auto-columns', joined(sizes)]] as Expansion) : []),
      ];
};

const sideNames = (f: (s: Side) => string) => SIDES.map((s) => f(s) as Property);

/** A logical shorthand of one axis (margin-inline, inset-block, border-inline-width, …): its start and end longhands from one or two values. */
const flowPair = (name: (flow: string) => string) =>
  Object.fromEntries(
    (['inline', 'block'] as const).map((axis) => {
      const [start, end] = [name(`${axis}-start`), name(`${axis}-end`)];
      return [name(axis), { longhands: [start, end], expand: pair(start, end) }];
    }),
  );

/** border-inline and border-block (both sides of the axis), and border-inline-start and the others (one side). */
const logicalBorders = Object.fromEntries([
  ...(['inline', 'block'] as const).map((axis) => {
    const sides = [`${axis}-start`, `${axis}-end`];
    return [`border-${axis}`, { longhands: sides.flatMap((f) => [`border-${f}-width`, `border-${f}-style`]), expand: border(sides) }];
  }),
  ...FLOW_SIDES.map((f) => [`border-${f}`, { longhands: [`border-${f}-width`, `border-${f}-style`], expand: border([f]) }]),
]);

/** Each shorthand: the longhands it sets (all of them, for a CSS-wide keyword) and how it splits its value. */
export const SHORTHANDS: Record<string, { longhands: string[]; expand: Expander }> = {
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
  ...flowPair((flow) => `margin-${flow}`),
  ...flowPair((flow) => `padding-${flow}`),
  ...flowPair((flow) => `inset-${flow}`),
  ...flowPair((flow) => `border-${flow}-width`),
  ...flowPair((flow) => `border-${flow}-style`),
  ...logicalBorders,
  font: { longhands: FONT_LONGHANDS, expand: font },
  'grid-template': { longhands: GRID_TEMPLATE_LONGHANDS, expand: gridTemplate },
  grid: { longhands: GRID_LONGHANDS, expand: grid },
};
