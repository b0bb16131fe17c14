// The shorthands: each one's longhands (all of them are set, to what the value gives or to their
// initial value, as a browser resets them) and how its value splits among them. A value that
// does not split is dropped, as the browsers drop it.
import { BORDER_STYLES, size, textOf } from './grammar.js';
import { FLEX_DIRECTIONS, FLEX_WRAPS, LONGHANDS, type Property } from './longhands.js';
import { INVALID, isWord, keyword, length, number, splitAt, type Invalid, type Node } from './values.js';

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
  (to: Property): Expander =>
  (nodes) => [[to, nodes.map(textOf).join(' ')]];

const sideNames = (f: (s: Side) => string) => SIDES.map((s) => f(s) as Property);

/** Each shorthand: the longhands it sets (all of them, for a CSS-wide keyword) and how it splits its value. */
export const SHORTHANDS: Record<string, { longhands: Property[]; expand: Expander }> = {
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
