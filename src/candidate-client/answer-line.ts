// A candidate's answer line read: its value, and, for a dump answer written as
// `{"id":…,"dump":…}` with `"roots":…` last or not at all, the dump's JSON as the candidate wrote
// it. The journal keeps that text rather than writing the dump again (20 KB a case). It is kept as
// a copy of its bytes, off the JS heap, until the case is journaled: held as text, it outlived
// young-generation collections and was promoted; and the journal binds bytes as they are.
//
// Such a line is parsed in its parts: the id, the dump, the roots, each alone. When each part is
// one JSON value, the line is exactly those members, in that order, so its value is the one
// JSON.parse gives the whole line, and the dump's bytes are known without scanning them for a
// second key. Any other line (another order, spacing, another key, a part that is not one value)
// is parsed whole, and has no kept text.
import { isUtf8 } from 'node:buffer';

/** A line read: its value, and its dump's JSON when it could be sliced out. */
export interface ReadLine {
  value: unknown;
  /** The dump's bytes, copied out of the line (text re-encoded when the bytes were not UTF-8). */
  dump?: Uint8Array;
}

/** The id, when it is a string without escapes or quotes, and the key after it; checked on the line's first bytes. */
const HEAD = /^\{"id":("[^"\\]*"),"dump":/;
/** Where the id's JSON starts: after `{"id":`. */
const ID_AT = '{"id":'.length;
/** How much of the line the head is looked for in: an id longer than this is read the slow way. */
const HEAD_BYTES = 256;
const ROOTS = Buffer.from(',"roots":');
const CLOSE = 0x7d; // }
const BRACKET = 0x5d; // ]

/** Reads an answer line; throws a SyntaxError when it is not JSON. */
export function readAnswerLine(bytes: Buffer): ReadLine {
  return sliced(bytes) ?? { value: JSON.parse(bytes.toString('utf8')) as unknown };
}

function sliced(bytes: Buffer): ReadLine | undefined {
  // latin1: one character a byte, so that the match's offsets are the bytes'.
  const head = HEAD.exec(bytes.toString('latin1', 0, Math.min(HEAD_BYTES, bytes.length)));
  if (!head || bytes[bytes.length - 1] !== CLOSE) return undefined;
  const from = head[0].length;
  let to = bytes.length - 1;
  let roots: string | undefined;
  if (bytes[to - 1] === BRACKET) {
    const at = bytes.lastIndexOf(ROOTS, to);
    if (at < from) return undefined;
    roots = bytes.toString('utf8', at + ROOTS.length, to);
    to = at;
  }
  // Each cut falls on an ASCII byte, which no multi-byte UTF-8 sequence holds: each part decodes as it does in the whole line.
  const text = bytes.toString('utf8', from, to);
  let value: { id: string; dump: unknown; roots?: unknown };
  try {
    const id = JSON.parse(bytes.toString('utf8', ID_AT, ID_AT + head[1]!.length)) as string;
    value = { id, dump: JSON.parse(text) as unknown, ...(roots === undefined ? {} : { roots: JSON.parse(roots) as unknown }) };
  } catch {
    return undefined; // a part that is not one value: the line is read whole
  }
  // Bytes that were not UTF-8 were read as U+FFFD: the kept text is then what was read.
  const dump = isUtf8(bytes.subarray(from, to)) ? Buffer.copyBytesFrom(bytes, from, to - from) : Buffer.from(text);
  return { value, dump };
}
