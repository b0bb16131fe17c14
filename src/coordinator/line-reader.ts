// Where requests enter: splits stdin into lines without ever holding more than one line
// (bounded by maxLineBytes), at a cost linear in its length (src/system/line-splitter.ts). An
// oversized line is reported with its first bytes, so an id can still be read from it, and the
// reader resynchronizes at the next newline.
import type { Readable } from 'node:stream';
import { LineSplitter, type InputLine } from '../system/line-splitter.js';

export type { InputLine };

export async function* readLines(input: Readable, maxLineBytes: number): AsyncGenerator<InputLine> {
  const splitter = new LineSplitter(maxLineBytes);
  for await (const chunk of input as AsyncIterable<Buffer>) yield* splitter.push(chunk);
  const last = splitter.end();
  if (last) yield last;
}
