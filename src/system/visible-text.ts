// The text boundary: a string that came from outside (a candidate's name, version, stderr or
// answer; a case id; a checkout's file names) made safe to put on a line of plain text for a
// person — a table, a progress line, the log. JSON and HTML outputs encode such strings by their
// own rules; plain text has none, so a newline would forge a row, an escape sequence would drive
// the terminal, and a bidirectional override would reorder what is shown. Each such character is
// written as an escape instead (`\n`, `\x1b`, `\u202e`); everything else is kept as it is.

/**
 * Controls (C0, DEL, C1), the line and paragraph separators, the bidirectional marks, embeddings,
 * overrides and isolates, and lone surrogates.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what is looked for.
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|\p{Cs}/gu;

const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escaped(char: string): string {
  const short = SHORT[char];
  if (short) return short;
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * `text` with every character that would not show as itself on a line written as an escape, cut
 * to `max` characters (then ending in `…` and the length cut off).
 */
export function visible(text: string, max = Number.POSITIVE_INFINITY): string {
  const cut = text.length > max ? text.slice(0, max) : text;
  const shown = cut.replace(INVISIBLE, escaped);
  return cut === text ? shown : `${shown}… (${text.length - max} more characters)`;
}

/** One token of a line (an id in a column): as `visible`, and quoted when it is empty, holds a space or starts with a quote. */
export function visibleToken(text: string): string {
  return text === '' || text.includes(' ') || text.startsWith('"') ? `"${visible(text).replaceAll('"', '\\"')}"` : visible(text);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A file name (as the bytes the file system holds) as text: itself when it is UTF-8; else ASCII as
 * is and every other byte (and `\`, so that two names never show alike) as `\xHH`.
 */
export function fileNameText(name: Uint8Array): { text: string; utf8: boolean } {
  try {
    return { text: utf8.decode(name), utf8: true };
  } catch {
    let text = '';
    for (const byte of name) text += byte < 0x80 && byte !== 0x5c ? String.fromCharCode(byte) : `\\x${byte.toString(16).padStart(2, '0')}`;
    return { text, utf8: false };
  }
}
