// The part of opentype.js 2.0 this project uses. The package ships no types, and
// @types/opentype.js describes 1.3 (it types weightClass and fsSelection as strings).
declare module 'opentype.js' {
  export class Path {
    commands: { type: string; x?: number; y?: number }[];
    moveTo(x: number, y: number): void;
    lineTo(x: number, y: number): void;
    close(): void;
  }

  export class Glyph {
    constructor(options: { name: string; advanceWidth: number; path: Path; unicode?: number; unicodes?: number[] });
    index: number;
    name: string;
    advanceWidth: number;
    path: Path;
    getBoundingBox(): { x1: number; y1: number; x2: number; y2: number };
  }

  export class Font {
    constructor(options: {
      familyName: string;
      styleName: string;
      unitsPerEm: number;
      ascender: number;
      descender: number;
      weightClass?: number;
      fsSelection?: number;
      createdTimestamp?: number;
      version?: string;
      glyphs: Glyph[];
      /** Fields written over the ones opentype.js computes, per table (only os2 is read). */
      tables?: { os2?: Record<string, number> };
    });
    unitsPerEm: number;
    ascender: number;
    descender: number;
    tables: Record<string, Record<string, number>>;
    names: { windows: Record<string, { en: string }> };
    glyphs: { length: number; get(index: number): Glyph };
    charToGlyph(character: string): Glyph;
    toArrayBuffer(): ArrayBuffer;
  }

  export function parse(buffer: ArrayBuffer): Font;

  const opentype: { Font: typeof Font; Glyph: typeof Glyph; Path: typeof Path; parse: typeof parse };
  export default opentype;
}
