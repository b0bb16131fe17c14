// opentype.js 2.0 always writes hhea.lineGap 0 (its hhea table takes no line gap), while the
// OS/2 typo line gap can be given. Engines read either table, so the two must say the same:
// this writes the line gap into hhea afterwards and mends the checksums the change breaks.

const HHEA_LINE_GAP = 8;
const HEAD_CHECKSUM_ADJUSTMENT = 8;
const CHECKSUM_MAGIC = 0xb1b0afba;

/** `font` (sfnt bytes) with hhea.lineGap set to `lineGap` font units, its table checksum and head.checkSumAdjustment recomputed. */
export function withHheaLineGap(font: Uint8Array, lineGap: number): Uint8Array {
  const bytes = font.slice();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const hhea = tableRecord(view, 'hhea');
  const head = tableRecord(view, 'head');
  view.setInt16(hhea.offset + HHEA_LINE_GAP, lineGap);
  view.setUint32(hhea.record + 4, checksum(view, hhea.offset, hhea.length));
  // The whole-font checksum is taken with the adjustment zeroed (OpenType spec, 'head').
  view.setUint32(head.offset + HEAD_CHECKSUM_ADJUSTMENT, 0);
  view.setUint32(head.offset + HEAD_CHECKSUM_ADJUSTMENT, (CHECKSUM_MAGIC - checksum(view, 0, bytes.byteLength)) >>> 0);
  return bytes;
}

function tableRecord(view: DataView, tag: string): { record: number; offset: number; length: number } {
  const tables = view.getUint16(4);
  for (let i = 0; i < tables; i++) {
    const record = 12 + 16 * i;
    const name = String.fromCharCode(...[0, 1, 2, 3].map((k) => view.getUint8(record + k)));
    if (name === tag) return { record, offset: view.getUint32(record + 8), length: view.getUint32(record + 12) };
  }
  throw new Error(`the font has no ${tag} table`);
}

/** The sum of big-endian uint32 words, the last one padded with zeros, modulo 2^32. */
function checksum(view: DataView, offset: number, length: number): number {
  let sum = 0;
  for (let at = offset; at < offset + length; at += 4) {
    let word = 0;
    for (let k = 0; k < 4; k++) word = (word << 8) | (at + k < offset + length ? view.getUint8(at + k) : 0);
    sum = (sum + (word >>> 0)) >>> 0;
  }
  return sum;
}
