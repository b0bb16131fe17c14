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

/** One value as JsonText (a vote, a reflection state, a trace). */
export function encodeJson<T extends WireValue>(value: T): JsonText<T> {
  const out: string[] = [];
  encodeInto(value, out);
  return JsonText.mint(out.join(''));
}

/**
 * The JSON text of a plain value, written by the native encoder: a value JSON.parse made (an
 * answer that came from another process), or a comparator's result, where a difference without
 * bound (Infinity) becomes null as JSON.stringify writes it. JSON.stringify escapes every line break.
 */
export function plainJson<T>(value: T): JsonText<T> {
  const text = JSON.stringify(value);
  if (typeof text !== 'string') throw new UnencodableError(`a ${typeof value} has no JSON form`);
  return JsonText.mint(text);
}

/** A member of an answer's field as it is held in process: an object as its JsonText, a base64 string as it is or as its bytes. */
type Held<T> = T extends string ? T | Uint8Array : T extends readonly unknown[] ? T : T extends object ? JsonText<T> : T;
type Field<T> = T extends readonly unknown[] ? T : T extends object ? JsonText<T> | { [M in keyof T]: Held<T[M]> } : Held<T>;

/**
 * A response as it is held in process, before it becomes a line (answerLine) or is handed to a
 * program (decodeAnswer): a field that is an object is its JsonText (a vote), or its members held
 * (one result per engine: each dump as its JsonText, each picture as its bytes).
 */
export type InProcess<T> = { [K in keyof T]: Field<T[K]> };

/** The value a held value stands for: a JsonText parsed (once), anything else as it is. */
export function heldValue<T>(held: T | JsonText<T>): T {
  return held instanceof JsonText ? (JSON.parse(held.text) as T) : held;
}

/** The JSON text of a held value: a JsonText's own, anything else encoded. */
export function textOf(held: WireValue): string {
  return held instanceof JsonText ? held.text : encodeJson(held).text;
}

const decodeHeld = (value: WireValue): unknown =>
  value instanceof JsonText
    ? JSON.parse(value.text)
    : value instanceof Uint8Array
      ? Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64')
      : value;

const isMap = (value: WireValue): value is { readonly [key: string]: WireValue | undefined } =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof JsonText) && !(value instanceof Uint8Array);

/**
 * A response held in process as the plain value a client of the stdio protocol would parse from
 * its line: each JsonText parsed once, bytes as base64, and nothing encoded to be parsed again.
 */
export function decodeAnswer<T>(answer: InProcess<T>): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(answer as Record<string, WireValue | undefined>)) {
    if (value === undefined) continue;
    if (!isMap(value)) out[key] = decodeHeld(value);
    else {
      const members: Record<string, unknown> = {};
      for (const [name, member] of Object.entries(value)) if (member !== undefined) members[name] = decodeHeld(member);
      out[key] = members;
    }
  }
  return out as T;
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
