// The one way an answer becomes a line on stdout. Answers are values, never hand-built text:
// `answerLine` encodes plain JSON values, JsonText — JSON that an encoder in this folder made
// from checked data (a dump, a trace, a vote; json-text.ts) — and bytes (a screenshot), which
// travel as bytes until here and become a base64 string only in the line, and nothing else. Strings go
// through JSON.stringify (so a page's newline or quote stays inside its string), a non-finite
// number is refused, and the result is checked to hold no raw line break. A line therefore
// cannot be cut in two or carry another answer, whatever a page sent back.
import { pack, unpack } from 'msgpackr';
import { JsonText } from './json-text.js';

export type { JsonText } from './json-text.js';

/** What an answer is made of: JSON's own values, JsonText, and bytes (written as base64). `undefined` members are left out, as JSON.stringify does. */
export type WireValue =
  | string
  | Uint8Array
  | number
  | boolean
  | null
  | JsonText
  | readonly WireValue[]
  | { readonly [key: string]: WireValue | undefined };

/** Thrown for a value that has no JSON form; never reaches stdout. */
export class UnencodableError extends Error {
  override name = 'UnencodableError';
}

/** Appends the JSON of `value` to `out`, piece by piece: a large dump stays one piece, never copied into a bigger string. */
function encodeInto(value: WireValue, out: string[]): void {
  switch (typeof value) {
    case 'string':
      out.push(JSON.stringify(value));
      return;
    case 'number':
      if (!Number.isFinite(value)) throw new UnencodableError(`${value} has no JSON form`);
      out.push(String(value));
      return;
    case 'boolean':
      out.push(value ? 'true' : 'false');
      return;
  }
  if (value === null) out.push('null');
  else if (value instanceof JsonText) out.push(value.text);
  else if (value instanceof Uint8Array) out.push(`"${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64')}"`);
  else if (Array.isArray(value)) {
    out.push('[');
    value.forEach((item, i) => {
      if (i) out.push(',');
      encodeInto(item, out);
    });
    out.push(']');
  } else if (typeof value === 'object') {
    out.push('{');
    let first = true;
    for (const [key, item] of Object.entries(value as Record<string, WireValue | undefined>)) {
      if (item === undefined) continue;
      out.push(first ? '' : ',', JSON.stringify(key), ':');
      first = false;
      encodeInto(item, out);
    }
    out.push('}');
  } else throw new UnencodableError(`a ${typeof value} has no JSON form`);
}

/** One value as JsonText (a vote, a reflection state, a trace record list). */
export function encodeJson(value: WireValue): JsonText {
  const out: string[] = [];
  encodeInto(value, out);
  return JsonText.mint(out.join(''));
}

/** An answer as the pieces of one line, newline included; writing them in order writes the line. */
export function answerLine(answer: { readonly [key: string]: WireValue | undefined }): string[] {
  const out: string[] = [];
  encodeInto(answer, out);
  for (const piece of out) if (piece.includes('\n')) throw new UnencodableError('an answer piece holds a raw line break');
  out.push('\n');
  return out;
}

/**
 * A worker's result as msgpack (JsonText included), in a buffer of its own that can be moved to
 * the coordinator without a copy (msgpackr packs into a buffer it reuses).
 */
export function packResult(value: unknown): Uint8Array {
  return new Uint8Array(pack(value));
}

/** A worker's result, JsonText arriving as JsonText. */
export function unpackResult<R>(bytes: Uint8Array): R {
  return unpack(bytes) as R;
}
