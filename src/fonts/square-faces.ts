// What the square font is called and which faces it has: known to the font builder and to
// whoever launches engines with it, without loading the font library.

/** The family name every font-family resolves to under `--fonts=square`. */
export const SQUARE_FAMILY = 'Browser Oracle Square';

/**
 * The faces built. Bold and italic faces with the same squares keep engines from synthesizing
 * them: synthetic bold widens each glyph in Gecko but not in Blink.
 */
export const SQUARE_FACES = [
  { style: 'Regular', weight: 400, italic: false },
  { style: 'Bold', weight: 700, italic: false },
  { style: 'Italic', weight: 400, italic: true },
  { style: 'Bold Italic', weight: 700, italic: true },
] as const;
export type SquareFace = (typeof SQUARE_FACES)[number];

/** The file name of a face, e.g. `BrowserOracleSquare-BoldItalic.otf`. */
export function squareFaceFile(face: SquareFace): string {
  return `${SQUARE_FAMILY.replace(/ /g, '')}-${face.style.replace(/ /g, '')}.otf`;
}
