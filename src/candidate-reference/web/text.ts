// Text, measured exactly where it can be: in a square test font, every glyph one em square (Ahem,
// given by the case's own @font-face, or this project's square font, which every family is under
// the oracle's --fonts=square). A run breaks only at its spaces and zero-width spaces, so its
// words are runs of letters and digits; anything else (other characters, whose line-breaking
// classes differ, and any font whose advances are its own) is unsupported.
import type { Box } from './boxes.js';
import type { Style } from './style.js';
import { Unsupported } from './unsupported.js';

/** Which text the candidate measures: every family (--fonts=square), or only the case's own Ahem. */
export type FontMode = 'square' | 'liberation';

export interface Fonts {
  readonly mode: FontMode;
  /** The families the case's @font-face rules define with a font the browsers get, lower-case (links.ts). */
  readonly fontFaces: ReadonlySet<string>;
}

/** A text run's measurements at a font size, its words' widths and the break opportunities after them. */
export interface MeasuredText {
  /** Width of each word (an em per character; zero-width spaces add nothing). */
  readonly words: readonly number[];
  /** The width of the break after each word: a space's em, or 0 for a zero-width space. */
  readonly breaks: readonly number[];
  readonly lineHeight: number;
  readonly wraps: boolean;
}

const ZWSP = '\u200B';
const WORD_CHARACTER = /^[A-Za-z0-9\u00A0]$/;

/** Text properties a square font's lines depend on, with the values that keep them exact. */
const PLAIN: Partial<Record<keyof Style, readonly string[]>> = {
  'white-space': ['normal', 'nowrap'],
  'word-break': ['normal'],
  'overflow-wrap': ['normal'],
  'letter-spacing': ['normal', '0', '0px'],
  'word-spacing': ['normal', '0', '0px'],
  'text-indent': ['0', '0px', '0%'],
  'text-transform': ['none'],
  'font-variant': ['normal'],
  'font-stretch': ['normal', '100%'],
  'font-feature-settings': ['normal'],
  hyphens: ['manual', 'none'],
  'line-break': ['auto'],
};

/** A text box's run, checked and split into words; throws Unsupported for text it cannot measure exactly. */
export function measureText(box: Box, fonts: Fonts): MeasuredText {
  const style = box.style;
  const text = box.text!;
  const face = squareFace(style, fonts);
  for (const [property, values] of Object.entries(PLAIN) as [keyof Style, readonly string[]][]) {
    const value = String(style[property]);
    if (!values.includes(value)) throw new Unsupported(`${property}: ${value} (with text)`);
  }
  if (style['writing-mode'] !== 'horizontal-tb') throw new Unsupported(`writing-mode: ${style['writing-mode']} (with text)`);
  const size = (style['font-size'] as { n: number }).n;
  // Ahem has one face: a bold one is synthesized, and Gecko widens synthesized bold glyphs.
  if (face === 'ahem' && style['font-weight'] >= 600) throw new Unsupported(`font-weight: ${style['font-weight']} (with Ahem)`);
  const lineHeight = lineHeightOf(style, size, face);
  const words: number[] = [];
  const breaks: number[] = [];
  let word = 0;
  let inWord = false;
  for (const character of text) {
    if (character === ' ' || character === ZWSP) {
      // A space and a zero-width space in a row are one break, as wide as the space.
      if (inWord || words.length === 0) {
        words.push(word);
        breaks.push(character === ' ' ? size : 0);
      } else breaks[breaks.length - 1]! += character === ' ' ? size : 0;
      word = 0;
      inWord = false;
    } else if (WORD_CHARACTER.test(character)) {
      word += size;
      inWord = true;
    } else {
      throw new Unsupported(`text: ${JSON.stringify(character)} (only letters, digits and breaks are measured exactly)`);
    }
  }
  words.push(word);
  breaks.push(0);
  // A word of no width (a zero-width space at an end, or two in a row) makes a line of its own only in some engines.
  if (words.includes(0)) throw new Unsupported(`text: ${JSON.stringify(text)} (an empty word between breaks)`);
  return { words, breaks, lineHeight, wraps: style['white-space'] === 'normal' };
}

/** The square face the run is set in, or Unsupported. */
function squareFace(style: Style, fonts: Fonts): 'ahem' | 'square' {
  const first = style['font-family'][0]!;
  const family = first.toLowerCase();
  if (fonts.fontFaces.has(family)) {
    if (family === 'ahem') return 'ahem';
    throw new Unsupported(`font-family: ${first} (a web font other than Ahem)`);
  }
  if (fonts.mode === 'square') return 'square';
  throw new Unsupported(`font-family: ${first} (text is measured only in a square font: Ahem, or any family under --fonts=square)`);
}

function lineHeightOf(style: Style, size: number, face: 'ahem' | 'square'): number {
  const value = style['line-height'];
  if (value === 'normal') {
    // The square font's line gap makes `normal` round(1.2 em) in every engine at a whole-pixel size
    // (docs/campaign.md, "The square font"); Ahem has none, and Gecko makes it 1.2 em where Blink and WebKit make it 1 em.
    if (face === 'square' && Number.isInteger(size)) return Math.round(1.2 * size);
    throw new Unsupported(`line-height: normal (with ${face === 'ahem' ? 'Ahem' : `a ${size}px font size`})`);
  }
  if ('number' in value) return value.number * size;
  return value.unit === '%' ? (value.n * size) / 100 : value.n;
}

/** Room a line may take past the available width: layout engines work in f32, and float error must not break a line. */
const SLACK = 1 / 128;

/** The run laid out in lines at `available` width (Infinity: max-content, 0: min-content): its width and height. */
export function lineBox(text: MeasuredText, available: number): { width: number; height: number } {
  const { words, breaks, lineHeight } = text;
  let lines = 1;
  let line = words[0]!;
  let widest = line;
  for (let i = 1; i < words.length; i++) {
    const next = line + breaks[i - 1]! + words[i]!;
    if (text.wraps && next > available + SLACK) {
      lines++;
      line = words[i]!;
    } else line = next;
    widest = Math.max(widest, line);
  }
  return { width: widest, height: lines * lineHeight };
}
