// The header of a PNG, read without trusting it: a screenshot is the page's output (the engine
// painted whatever the case drew), and a report embeds it. Only the signature and the IHDR chunk
// are read — enough to know the bytes claim to be a PNG of a given size, and that the header
// arrived whole (its CRC).
import { crc32 } from 'node:zlib';

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Signature, IHDR length and type, 13 bytes of IHDR data, its CRC. */
const HEADER_BYTES = 8 + 8 + 13 + 4;

/** A PNG's width and height from its IHDR chunk, or null when the bytes do not start as a PNG does. */
export function pngSize(bytes: Uint8Array): { width: number; height: number } | null {
  if (bytes.length < HEADER_BYTES || SIGNATURE.some((b, i) => bytes[i] !== b)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(8) !== 13 || String.fromCharCode(...bytes.subarray(12, 16)) !== 'IHDR') return null;
  if (crc32(bytes.subarray(12, 29)) !== view.getUint32(29)) return null;
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  return width > 0 && height > 0 ? { width, height } : null;
}
