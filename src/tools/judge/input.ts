// What `compare` and `vote` read: one JSON document (an answer line saved to a file, or the same
// pretty-printed), or a batch — an NDJSON file or standard input `-`, one JSON value per line.
// A file is a batch when it has more than one non-blank line and is not one JSON document.
import { createReadStream, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { fsErrorText } from '../../system/fs-errors.js';

/** An input that cannot be used at all: one line on stderr, exit status 2. */
export class BadInput extends Error {}

/** One line of a batch: its value, or why it is not JSON. */
export type BatchItem = { line: number; value: unknown } | { line: number; error: string };

export type Input = { kind: 'single'; value: unknown } | { kind: 'batch'; items: AsyncIterator<BatchItem> };

/** Opens `source`: a file name, or `-` for `stdin` (always a batch). */
export async function openInput(source: string, stdin: Readable = process.stdin): Promise<Input> {
  if (source === '-') return { kind: 'batch', items: batchItems(stdin) };
  const stream = createReadStream(source);
  try {
    await once(stream, 'open');
  } catch (error) {
    throw new BadInput(`cannot read ${source}: ${fsErrorText(error)}`);
  }
  const items = batchItems(stream);
  const first = await items.next();
  const second = first.done ? first : await items.next();
  if (first.done || second.done) {
    stream.destroy();
    return { kind: 'single', value: !first.done && 'value' in first.value ? first.value.value : wholeFile(source) };
  }
  const batch = (): Input => ({ kind: 'batch', items: prepend([first.value, second.value], items) });
  if ('value' in first.value) return batch();
  // The first line is not JSON by itself: a pretty-printed document, or a batch whose first line is bad.
  try {
    const value = wholeFile(source);
    stream.destroy();
    return { kind: 'single', value };
  } catch {
    return batch();
  }
}

/** The file as one JSON document. */
function wholeFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new BadInput(`cannot read ${file}: ${fsErrorText(error)}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new BadInput(`${file} is not JSON (${(error as Error).message})`);
  }
}

/** The non-blank lines of `input`, each parsed, numbered from 1 as in the file. */
async function* batchItems(input: Readable): AsyncGenerator<BatchItem> {
  let line = 0;
  for await (const text of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
    line++;
    if (!text.trim()) continue;
    try {
      yield { line, value: JSON.parse(text) as unknown };
    } catch (error) {
      yield { line, error: `not JSON (${(error as Error).message})` };
    }
  }
}

async function* prepend<T>(head: T[], rest: AsyncIterator<T>): AsyncGenerator<T> {
  yield* head;
  for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value;
}
