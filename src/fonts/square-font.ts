// The square test font, in the manner of the CSS Working Group's Ahem: every character is a
// one-em square from the descent (0.2 em below the baseline) to the ascent (0.8 em above it),
// whitespace advances one em and draws nothing. With every glyph alike, a line of text is as
// wide in every engine as its character count says, whatever each engine's text stack would
// do with real outlines, kerning or hinting.
import opentype, { type Glyph, type Path } from 'opentype.js';
import { withHheaLineGap } from './hhea-line-gap.js';
import { SQUARE_FAMILY, type SquareFace } from './square-faces.js';

/**
 * The vertical metrics, in font units, the same in hhea and OS/2 typo (win has no line gap):
 *
 * - 1024 units per em. FreeType scales by a 16.16 factor, size × 64 / unitsPerEm, which is exact
 *   only for a power of two. With 1000 units a glyph advanced a hair more than the size at most
 *   sizes, and Blink, which rounds a text run's width up to 1/64 px, made runs at 9, 12, 13, 16,
 *   25 and 32 px 1/64 px wider than Gecko and WebKit did, a difference that added up along a line.
 * - Ascent 819 and descent 205: 0.8 and 0.2 em, Ahem's, to 0.0002 em; they add up to the em, and
 *   rounded to whole pixels they are Ahem's at every size below 500 px.
 * - A line gap of 205 (0.2 em). Gecko makes `line-height: normal` 1.2 em for any font without
 *   leading (GetNormalLineHeight in layout/generic/ReflowInput.cpp; no pref turns that off since
 *   it was hard-coded), where Blink and WebKit make it the ascent plus descent. With the gap all
 *   three make it round(1.2 × size) px at a whole-pixel size: Gecko rounds the sum, Blink and
 *   WebKit the three parts apiece, which agree because 0.2 × size never ends in .5.
 */
export const SQUARE_METRICS = { unitsPerEm: 1024, ascender: 819, descender: -205, lineGap: 205 } as const;

/** Planes 0–3 hold every assigned graphic character; 4–13 are unassigned, 14 only format controls, 15–16 private use. */
export const COVERED_PLANES = 4;

/** Not mapped: controls and surrogates are never glyphs, noncharacters are never text. */
const UNMAPPED = /^[\p{Cc}\p{Cs}\p{Noncharacter_Code_Point}]$/u;
const WHITESPACE = /^\p{White_Space}$/u;
/** Format controls, joiners, variation selectors, soft hyphen: engines hide them; zero width keeps any that slips through invisible too. */
const IGNORABLE = /^\p{Default_Ignorable_Code_Point}$/u;

// OS/2 fsSelection bits.
const ITALIC = 1;
const BOLD = 32;
const REGULAR = 64;
const USE_TYPO_METRICS = 128;

/** One face as OpenType (CFF outlines) bytes; opentype.js writes hhea without a line gap, so the gap is put in afterwards. */
export function buildSquareFace(face: SquareFace): Uint8Array {
  const { lineGap, ...metrics } = SQUARE_METRICS;
  const font = new opentype.Font({
    familyName: SQUARE_FAMILY,
    styleName: face.style,
    ...metrics,
    weightClass: face.weight,
    fsSelection: USE_TYPO_METRICS | ((face.italic ? ITALIC : 0) | (face.weight >= 600 ? BOLD : 0) || REGULAR),
    // Fixed, so that the bytes do not depend on the day of the build (only head.modified does).
    createdTimestamp: 1767225600,
    version: 'Version 1.0',
    glyphs: glyphs(),
    tables: { os2: { sTypoLineGap: lineGap } },
  });
  return withHheaLineGap(new Uint8Array(font.toArrayBuffer()), lineGap);
}

function glyphs(): Glyph[] {
  const notdef = new opentype.Glyph({ name: '.notdef', advanceWidth: SQUARE_METRICS.unitsPerEm, path: squarePath() });
  const blank = glyph('space', SQUARE_METRICS.unitsPerEm, new opentype.Path(), codePointsOf('whitespace'));
  const ignorable = glyph('zerowidth', 0, new opentype.Path(), codePointsOf('ignorable'));
  // A format 4 cmap maps a run of code points only onto a run of consecutive glyph ids, so one
  // square for everything would cost a cmap segment per code point (over the format's 64 KiB).
  // 256 identical squares, chosen by the code point's low byte, map each 256-code-point block
  // in one segment. The supplementary planes get their own 256: opentype.js writes the format 12
  // subtable they need only when some glyph's first code point lies beyond U+FFFF.
  const [bmp, supplementary] = squareCodePoints();
  const squares = (prefix: string, blocks: number[][]) =>
    blocks.map((codePoints, low) =>
      glyph(`${prefix}${low.toString(16).padStart(2, '0')}`, SQUARE_METRICS.unitsPerEm, squarePath(), codePoints),
    );
  return [notdef, blank, ignorable, ...squares('square', bmp), ...squares('square.s', supplementary)];
}

function glyph(name: string, advanceWidth: number, path: Path, unicodes: number[]): Glyph {
  return new opentype.Glyph({ name, advanceWidth, path, unicode: unicodes[0], unicodes });
}

function squarePath(): Path {
  const { unitsPerEm: em, ascender, descender } = SQUARE_METRICS;
  const path = new opentype.Path();
  path.moveTo(0, descender);
  path.lineTo(em, descender);
  path.lineTo(em, ascender);
  path.lineTo(0, ascender);
  path.close();
  return path;
}

/** What the font does with a code point: nothing, a blank em, a blank zero width, or a square. */
export type Kind = 'unmapped' | 'whitespace' | 'ignorable' | 'square';

/** What the font draws for one code point. */
export function codePointKind(codePoint: number): Kind {
  const character = String.fromCodePoint(codePoint);
  if (UNMAPPED.test(character)) return 'unmapped';
  if (WHITESPACE.test(character)) return 'whitespace';
  if (IGNORABLE.test(character)) return 'ignorable';
  return 'square';
}

let kinds: Kind[] | undefined;
function coveredKinds(): Kind[] {
  kinds ??= Array.from({ length: COVERED_PLANES * 0x10000 }, (_, codePoint) => codePointKind(codePoint));
  return kinds;
}

function codePointsOf(kind: Kind): number[] {
  const found: number[] = [];
  coveredKinds().forEach((k, codePoint) => {
    if (k === kind) found.push(codePoint);
  });
  return found;
}

/** Square code points grouped by low byte: [BMP blocks, supplementary blocks]. */
function squareCodePoints(): [number[][], number[][]] {
  const bmp = Array.from({ length: 256 }, (): number[] => []);
  const supplementary = Array.from({ length: 256 }, (): number[] => []);
  coveredKinds().forEach((kind, codePoint) => {
    if (kind === 'square') (codePoint > 0xffff ? supplementary : bmp)[codePoint & 0xff]!.push(codePoint);
  });
  return [bmp, supplementary];
}
