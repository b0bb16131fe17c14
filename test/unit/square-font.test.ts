// The square font's bytes, read back: metrics, faces, and what every covered code point draws.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import opentype from 'opentype.js';
import { buildSquareFace, codePointKind, COVERED_PLANES, SQUARE_METRICS } from '../../src/fonts/square-font.js';
import { SQUARE_FACES, SQUARE_FAMILY } from '../../src/fonts/square-faces.js';

const faces = SQUARE_FACES.map((face) => {
  const bytes = buildSquareFace(face);
  return { face, bytes, font: opentype.parse(bytes.slice().buffer) };
});
const regular = faces[0]!;

const SQUARE_BOX = { x1: 0, y1: SQUARE_METRICS.descender, x2: SQUARE_METRICS.unitsPerEm, y2: SQUARE_METRICS.ascender };
const EMPTY_BOX = { x1: 0, y1: 0, x2: 0, y2: 0 };

test('every face has the metrics engines agree on: 1024 units per em, ascent 819, descent 205, line gap 205, in hhea and typo alike', () => {
  for (const { font } of faces) {
    const { os2, hhea } = font.tables;
    assert.equal(font.unitsPerEm, 1024);
    assert.deepEqual([hhea.ascender, hhea.descender, hhea.lineGap], [819, -205, 205]);
    assert.deepEqual([os2.sTypoAscender, os2.sTypoDescender, os2.sTypoLineGap], [819, -205, 205]);
    assert.deepEqual([os2.usWinAscent, os2.usWinDescent], [819, 205]);
    assert.equal(os2.fsSelection & 128, 128, 'USE_TYPO_METRICS');
  }
});

test('rounded to whole pixels, the ascent and descent are Ahem 0.8 and 0.2 em at every size up to 499 px', () => {
  const { unitsPerEm, ascender, descender } = SQUARE_METRICS;
  for (let size = 1; size < 500; size++) {
    assert.equal(Math.round((ascender * size) / unitsPerEm), Math.round(0.8 * size), `${size}px ascent`);
    assert.equal(Math.round((-descender * size) / unitsPerEm), Math.round(0.2 * size), `${size}px descent`);
  }
});

test('every table checksum and the whole-font checksum hold after the hhea line gap is written', () => {
  for (const { face, bytes } of faces) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let i = 0; i < view.getUint16(4); i++) {
      const record = 12 + 16 * i;
      const tag = String.fromCharCode(...bytes.subarray(record, record + 4));
      const offset = view.getUint32(record + 8);
      const copy = bytes.slice(offset, offset + view.getUint32(record + 12));
      if (tag === 'head') copy.fill(0, 8, 12); // its checksum is taken with checkSumAdjustment zeroed
      assert.equal(checksum(copy), view.getUint32(record + 4), `${face.style}: ${tag} checksum`);
    }
    assert.equal(checksum(bytes), 0xb1b0afba, `${face.style}: whole-font checksum`);
  }
});

test('the faces are one family in four styles, with the weight and style bits fontconfig reads', () => {
  for (const { face, font } of faces) {
    assert.equal(font.names.windows.fontFamily.en, SQUARE_FAMILY);
    assert.equal(font.names.windows.fontSubfamily.en, face.style);
    assert.equal(font.tables.os2.usWeightClass, face.weight);
    const fsSelection = font.tables.os2.fsSelection;
    assert.equal(Boolean(fsSelection & 1), face.italic, `${face.style}: italic bit`);
    assert.equal(Boolean(fsSelection & 32), face.weight === 700, `${face.style}: bold bit`);
  }
});

test('letters, symbols, CJK and emoji are one-em squares; whitespace advances one em and draws nothing', () => {
  const { font } = regular;
  for (const character of ['A', 'g', 'é', 'ß', 'Ω', 'ж', 'א', '—', '€', '中', '😀', '\u{2A6D6}']) {
    const glyph = font.charToGlyph(character);
    assert.equal(glyph.advanceWidth, SQUARE_METRICS.unitsPerEm, character);
    assert.deepEqual({ ...glyph.getBoundingBox() }, SQUARE_BOX, character);
  }
  for (const character of [' ', '\u00a0', '\u2003', '\u3000']) {
    const glyph = font.charToGlyph(character);
    assert.equal(glyph.advanceWidth, SQUARE_METRICS.unitsPerEm, `U+${character.codePointAt(0)!.toString(16)}`);
    assert.equal(glyph.path.commands.length, 0);
  }
  for (const character of ['\u00ad', '\u200b', '\u200d', '\ufe0f', '\ufeff']) {
    const glyph = font.charToGlyph(character);
    assert.equal(glyph.advanceWidth, 0, `U+${character.codePointAt(0)!.toString(16)}`);
    assert.equal(glyph.path.commands.length, 0);
  }
  for (const character of ['\t', '\n', '\u0085', '\ufffe', '\u{1FFFF}']) {
    assert.equal(font.charToGlyph(character).name, '.notdef', `U+${character.codePointAt(0)!.toString(16)} is not mapped`);
  }
});

test('every covered code point draws what its kind says, in every face', () => {
  for (const { face, font } of faces) {
    for (let codePoint = 0; codePoint < COVERED_PLANES * 0x10000; codePoint++) {
      const kind = codePointKind(codePoint);
      if (kind === 'unmapped') continue; // surrogates have no string to look up
      const glyph = font.charToGlyph(String.fromCodePoint(codePoint));
      const em = SQUARE_METRICS.unitsPerEm;
      const expected = kind === 'square' ? [em, SQUARE_BOX] : [kind === 'whitespace' ? em : 0, EMPTY_BOX];
      const actual = [glyph.advanceWidth, glyph.getBoundingBox()];
      if (JSON.stringify(actual) !== JSON.stringify(expected)) {
        assert.fail(`${face.style}: U+${codePoint.toString(16)} (${kind}) draws ${JSON.stringify(actual)}`);
      }
    }
  }
});

test('the format 4 subtable maps every BMP code point to the same glyph as the format 12 one', () => {
  // opentype.js reads the format 12 subtable when there is one; engines that read format 4
  // for the BMP must find the same glyphs there.
  const { bytes, font } = regular;
  const format4 = readFormat4(bytes);
  for (let codePoint = 0; codePoint < 0xffff; codePoint++) {
    if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue;
    const expected = font.charToGlyph(String.fromCodePoint(codePoint)).index;
    if (format4(codePoint) !== expected)
      assert.fail(`U+${codePoint.toString(16)}: format 4 gives glyph ${format4(codePoint)}, format 12 glyph ${expected}`);
  }
});

test('the faces stay small, so building them is cheap', () => {
  for (const { face, bytes } of faces) assert.ok(bytes.length < 64 * 1024, `${face.style}: ${bytes.length} bytes`);
});

/** The OpenType checksum: big-endian uint32 words, the last padded with zeros, summed modulo 2^32. */
function checksum(bytes: Uint8Array): number {
  const padded = new Uint8Array(Math.ceil(bytes.length / 4) * 4);
  padded.set(bytes);
  const view = new DataView(padded.buffer);
  let sum = 0;
  for (let at = 0; at < padded.length; at += 4) sum = (sum + view.getUint32(at)) >>> 0;
  return sum;
}

/** A glyph lookup in the (3, 1) format 4 cmap subtable, read per the OpenType spec. */
function readFormat4(bytes: Uint8Array): (codePoint: number) => number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tableCount = view.getUint16(4);
  let cmap = -1;
  for (let i = 0; i < tableCount; i++) {
    const record = 12 + 16 * i;
    if (String.fromCharCode(...bytes.subarray(record, record + 4)) === 'cmap') cmap = view.getUint32(record + 8);
  }
  assert.ok(cmap >= 0, 'no cmap table');
  let subtable = -1;
  for (let i = 0; i < view.getUint16(cmap + 2); i++) {
    const record = cmap + 4 + 8 * i;
    if (view.getUint16(record) === 3 && view.getUint16(record + 2) === 1) subtable = cmap + view.getUint32(record + 4);
  }
  assert.ok(subtable >= 0 && view.getUint16(subtable) === 4, 'no (3, 1) format 4 subtable');
  const segments = view.getUint16(subtable + 6) / 2;
  const ends = subtable + 14;
  const starts = ends + 2 * segments + 2;
  const deltas = starts + 2 * segments;
  const rangeOffsets = deltas + 2 * segments;
  return (codePoint) => {
    for (let s = 0; s < segments; s++) {
      if (codePoint > view.getUint16(ends + 2 * s)) continue;
      const start = view.getUint16(starts + 2 * s);
      if (codePoint < start) return 0;
      const delta = view.getInt16(deltas + 2 * s);
      const rangeOffset = view.getUint16(rangeOffsets + 2 * s);
      if (rangeOffset === 0) return (codePoint + delta) & 0xffff;
      const glyph = view.getUint16(rangeOffsets + 2 * s + rangeOffset + 2 * (codePoint - start));
      return glyph === 0 ? 0 : (glyph + delta) & 0xffff;
    }
    return 0;
  };
}
