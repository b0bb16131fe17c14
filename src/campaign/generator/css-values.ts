// The CSS the generator draws from: what a dump observes (display, position, floats,
// box-sizing, sizes and their limits, margins, padding, borders, writing-mode, direction,
// overflow) and the flex, grid and text properties that move those boxes. Every length is
// bounded so that a case's boxes stay small next to the 800×600 viewport.
import type { Random, Weighted } from './random.js';

/** One CSS declaration: property and value. */
export type Declaration = readonly [property: string, value: string];
/** Draws one value. */
type Value = (random: Random) => string;
/** Draws one or more declarations that go together (a position and its offsets, say). */
export type Declarations = (random: Random) => Declaration[];

/** The largest absolute px length in any generated declaration (the case's root box aside). */
export const MAX_LENGTH_PX = 160;

/**
 * Whole pixels only. Quarter pixels, which Gecko's 1/60 px and Blink's and WebKit's 1/64 px units
 * both hold, still came apart where an engine rounds to whole pixels: WebKit places an inline-grid
 * with a -16.75px margin at y 39 where Blink and Gecko keep 38.75. And for text: square glyphs at
 * a whole-pixel size advance by whole pixels, which WebKitGTK's per-glyph rounding leaves alone.
 */
const px =
  (min: number, max: number): Value =>
  (r) =>
    `${r.int(min, max)}px`;
const pct =
  (max: number): Value =>
  (r) =>
    `${r.int(0, max)}%`;
const int =
  (min: number, max: number): Value =>
  (r) =>
    String(r.int(min, max));
const kw =
  (...words: string[]): Value =>
  (r) =>
    r.pick(words);
const oneOf =
  (...entries: Weighted<Value | string>[]): Value =>
  (r) => {
    const value = r.weighted(entries);
    return typeof value === 'string' ? value : value(r);
  };
/** One to `max` values, as in a margin shorthand. */
const upTo =
  (max: number, value: Value): Value =>
  (r) =>
    Array.from({ length: r.int(1, max) }, () => value(r)).join(' ');
const one =
  (property: string, value: Value): Declarations =>
  (r) => [[property, value(r)]];

const SIDES = ['top', 'right', 'bottom', 'left'];
const intrinsic = kw('min-content', 'max-content', 'fit-content');

/** `display` values, weighted toward the common ones. */
const DISPLAY: Weighted<string>[] = [
  [5, 'block'],
  [4, 'inline'],
  [3, 'inline-block'],
  [3, 'flex'],
  [1, 'inline-flex'],
  [3, 'grid'],
  [1, 'inline-grid'],
  [1, 'flow-root'],
  [1, 'none'],
  [1, 'contents'],
];

/**
 * The displays an element may declare. Without text, not `inline`: an inline box with nothing in
 * it has geometry each engine reports its own way (src/campaign/inline-boxes.ts).
 */
export const displaysFor = (text: boolean): Weighted<string>[] => (text ? DISPLAY : DISPLAY.filter(([, value]) => value !== 'inline'));

/** Box properties any element may get. */
export const BOX: Declarations[] = [
  one('width', oneOf([4, px(0, 160)], [2, pct(100)], [1, 'auto'], [1, intrinsic])),
  one('height', oneOf([4, px(0, 120)], [2, pct(100)], [1, 'auto'], [1, intrinsic])),
  one('min-width', oneOf([3, px(0, 120)], [1, pct(100)], [1, kw('auto', 'min-content', 'max-content')])),
  one('min-height', oneOf([3, px(0, 100)], [1, pct(100)], [1, kw('auto', 'min-content')])),
  one('max-width', oneOf([3, px(0, 160)], [1, pct(100)], [1, kw('none', 'min-content', 'max-content')])),
  one('max-height', oneOf([3, px(0, 120)], [1, pct(100)], [1, 'none'])),
  // No percentage margins or padding: they resolve against the containing block's width, which
  // in shrink-to-fit boxes, flex and grid items and orthogonal flows their own content helps
  // decide (a cyclic percentage, css-sizing-3 §5.2); and what they resolve to is fractional, which
  // Blink and WebKit floor to 1/64 px and Gecko rounds to 1/60, twice per box (docs/campaign.md).
  one('margin', upTo(4, oneOf([5, px(-20, 30)], [1, 'auto']))),
  one('padding', upTo(4, px(0, 24))),
  (r) => [[r.chance(0.5) ? 'border' : `border-${r.pick(SIDES)}`, `${px(0, 12)(r)} solid`]],
  one('box-sizing', kw('content-box', 'border-box')),
  one('float', kw('left', 'right', 'none')),
  one('clear', kw('left', 'right', 'both', 'none')),
  (r) => [
    [
      'position',
      r.weighted([
        [3, 'relative'],
        [3, 'absolute'],
        [1, 'fixed'],
        [1, 'static'],
      ]),
    ],
    ...r.sample(SIDES, r.int(0, 2)).map((side): Declaration => [side, oneOf([4, px(-40, 160)], [1, pct(50)], [1, 'auto'])(r)]),
  ],
  one('writing-mode', kw('horizontal-tb', 'vertical-rl', 'vertical-lr')),
  one('direction', kw('ltr', 'rtl')),
  // Scrollbars (auto, scroll) are left out: their thickness is each platform's choice.
  one('overflow', kw('visible', 'hidden', 'clip')),
  one('vertical-align', oneOf([3, kw('baseline', 'top', 'middle', 'bottom', 'text-top', 'text-bottom')], [1, px(-10, 10)])),
];

/** Properties that only matter with text in the case. */
export const TEXT: Declarations[] = [
  one('font-size', px(8, 24)),
  // Whole multiples and whole pixels: a line-height of 1.25 or 1.5 times a whole-pixel font size
  // leaves a fractional leading, whose half Blink and WebKit floor to a whole pixel and Gecko does not.
  one('line-height', oneOf([2, 'normal'], [2, kw('1', '2')], [1, px(8, 32)])),
  one('font-family', kw('serif', 'sans-serif', 'monospace', 'Arial', "'Times New Roman'", "'Courier New'", "'No Such Family'")),
  one('font-weight', kw('normal', 'bold', '100', '900')),
  one('font-style', kw('normal', 'italic')),
  one('text-align', kw('start', 'end', 'left', 'right', 'center', 'justify')),
  one('white-space', kw('normal', 'nowrap', 'pre', 'pre-wrap', 'pre-line', 'break-spaces')),
  one('word-break', kw('normal', 'break-all', 'keep-all')),
  one('overflow-wrap', kw('normal', 'anywhere', 'break-word')),
  one('text-indent', px(-20, 30)),
  one('letter-spacing', px(0, 4)),
  one('word-spacing', px(0, 8)),
];

const gap = upTo(2, px(0, 16));

/** Properties of a flex container. */
export const FLEX_CONTAINER: Declarations[] = [
  one('flex-direction', kw('row', 'row-reverse', 'column', 'column-reverse')),
  one('flex-wrap', kw('nowrap', 'wrap', 'wrap-reverse')),
  one('justify-content', kw('flex-start', 'flex-end', 'center', 'space-between', 'space-around', 'space-evenly', 'start', 'end')),
  one('align-items', kw('stretch', 'flex-start', 'flex-end', 'center', 'baseline')),
  one('align-content', kw('normal', 'stretch', 'flex-start', 'flex-end', 'center', 'space-between', 'space-around')),
  one('gap', gap),
];

const flexBasis = oneOf([3, px(0, 120)], [1, pct(100)], [1, kw('auto', 'content', '0')]);

/** Properties of a flex item. */
export const FLEX_ITEM: Declarations[] = [
  one('flex', oneOf([2, kw('1', 'auto', 'none', 'initial')], [3, (r) => `${r.int(0, 3)} ${r.int(0, 3)} ${flexBasis(r)}`])),
  one('flex-grow', int(0, 3)),
  one('flex-shrink', int(0, 3)),
  one('flex-basis', flexBasis),
  one('align-self', kw('auto', 'stretch', 'flex-start', 'flex-end', 'center', 'baseline')),
  one('order', int(-2, 2)),
];

const track = oneOf(
  [3, px(0, 80)],
  [3, kw('auto', '1fr', '2fr', 'min-content', 'max-content')],
  [1, pct(50)],
  [1, (r) => `minmax(${px(0, 40)(r)}, 1fr)`],
  [1, (r) => `fit-content(${px(0, 80)(r)})`],
);
const tracks = (max: number): Value => oneOf([4, upTo(max, track)], [1, (r) => `repeat(${r.int(1, max)}, ${track(r)})`]);
const line: Value = oneOf(
  [2, (r) => `span ${r.int(1, 3)}`],
  [
    2,
    (r) => {
      const start = r.int(1, 3);
      return `${start} / ${r.int(start + 1, 4)}`;
    },
  ],
  [1, 'auto'],
);

/** Properties of a grid container. */
export const GRID_CONTAINER: Declarations[] = [
  one('grid-template-columns', tracks(4)),
  one('grid-template-rows', tracks(3)),
  one('grid-auto-flow', kw('row', 'column', 'row dense', 'column dense')),
  one('grid-auto-rows', oneOf([2, px(0, 60)], [1, kw('auto', 'min-content', 'max-content', '1fr')])),
  one('grid-auto-columns', oneOf([2, px(0, 60)], [1, kw('auto', 'min-content', 'max-content', '1fr')])),
  one('justify-items', kw('start', 'end', 'center', 'stretch')),
  one('align-items', kw('start', 'end', 'center', 'stretch', 'baseline')),
  one('justify-content', kw('start', 'end', 'center', 'stretch', 'space-between', 'space-around')),
  one('align-content', kw('start', 'end', 'center', 'stretch', 'space-between', 'space-around')),
  one('gap', gap),
];

/** Properties of a grid item. */
export const GRID_ITEM: Declarations[] = [
  one('grid-column', line),
  one('grid-row', line),
  one('justify-self', kw('auto', 'start', 'end', 'center', 'stretch')),
  one('align-self', kw('auto', 'start', 'end', 'center', 'stretch')),
  one('order', int(-2, 2)),
];
