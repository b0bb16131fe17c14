// Writes cases as NDJSON request lines, so a generated corpus can be kept and fed back in
// (`--generate N --seed S --emit`), or piped straight into the stdio oracle.
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { requestOf, type GeneratedCase } from './generator.js';

/** One case as a request line, without its newline: `{"id","html"[,"script"][,"relayout"]}`. */
export function requestLine(generated: GeneratedCase): string {
  return JSON.stringify(requestOf(generated));
}

/** Writes every case to `out`, one line each, waiting whenever `out` asks for it to drain. */
export async function emitNdjson(cases: Iterable<GeneratedCase>, out: Writable): Promise<void> {
  await writeLines(cases, requestLine, out);
}

/** Writes each item to `out` as its line, waiting whenever `out` asks for it to drain. */
export async function writeLines<T>(items: Iterable<T>, line: (item: T) => string, out: Writable): Promise<void> {
  for (const item of items) {
    if (!out.write(`${line(item)}\n`)) await once(out, 'drain');
  }
}
