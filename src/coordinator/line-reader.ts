// Where requests enter: splits stdin into lines without ever holding more than one line
// (bounded by maxLineBytes). An oversized line is reported with its first bytes, so an id
// can still be read from it, and the reader resynchronizes at the next newline.
import type { Readable } from 'node:stream';

export type InputLine = { bytes: Buffer } | { tooLong: true; head: Buffer; length: number };

const HEAD_BYTES = 4096;

export async function* readLines(input: Readable, maxLineBytes: number): AsyncGenerator<InputLine> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let overflow: { head: Buffer; length: number } | undefined;

  for await (const chunk of input as AsyncIterable<Buffer>) {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; start = nl + 1, nl = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, nl);
      if (overflow) {
        yield { tooLong: true, head: overflow.head, length: overflow.length + piece.length };
        overflow = undefined;
      } else if (pendingBytes + piece.length > maxLineBytes) {
        yield { tooLong: true, head: Buffer.concat([...pending, piece]).subarray(0, HEAD_BYTES), length: pendingBytes + piece.length };
      } else {
        const bytes = pending.length ? Buffer.concat([...pending, piece]) : Buffer.from(piece);
        if (bytes.length) yield { bytes: stripCr(bytes) };
      }
      pending = [];
      pendingBytes = 0;
    }
    const rest = chunk.subarray(start);
    if (overflow) overflow.length += rest.length;
    else if (pendingBytes + rest.length > maxLineBytes) {
      overflow = { head: Buffer.concat([...pending, rest]).subarray(0, HEAD_BYTES), length: pendingBytes + rest.length };
      pending = [];
      pendingBytes = 0;
    } else if (rest.length) {
      pending.push(Buffer.from(rest));
      pendingBytes += rest.length;
    }
  }
  if (overflow) yield { tooLong: true, head: overflow.head, length: overflow.length };
  else if (pendingBytes) yield { bytes: stripCr(Buffer.concat(pending)) };
}

function stripCr(bytes: Buffer): Buffer {
  return bytes.length && bytes[bytes.length - 1] === 13 ? bytes.subarray(0, -1) : bytes;
}
