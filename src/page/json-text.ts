// JSON text written by trusted in-page code itself, not by the page's JSON.stringify (which a case
// may replace, or bend through String.prototype.toJSON). Every string is escaped here, lone
// surrogates included, so what leaves the page is ASCII-safe; the Node side still parses and
// checks all of it (src/protocol/page-output.ts) before anything reaches an answer.
//
// Shipped as source text (programs.ts): these functions refer only to each other and to the
// captured built-ins they are given.
import type { Builtins } from './builtins.js';

/** `s` as a JSON string literal. */
export function quoteJson(b: Builtins, s: string): string {
  const hex = '0123456789abcdef';
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = b.charCodeAt(s, i);
    if (c >= 0x20 && c !== 0x22 && c !== 0x5c && (c < 0xd800 || c > 0xdfff)) continue;
    // A surrogate pair is a well-formed character: keep it as it is.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const next = b.charCodeAt(s, i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
    }
    out += b.stringSlice(s, start, i);
    out += c === 0x22 ? '\\"' : c === 0x5c ? '\\\\' : `\\u${hex[(c >> 12) & 15]}${hex[(c >> 8) & 15]}${hex[(c >> 4) & 15]}${hex[c & 15]}`;
    start = i + 1;
  }
  return `${out}${b.stringSlice(s, start)}"`;
}

/** A number as JSON; a non-finite one (which no layout box has) becomes null, which the Node side refuses. */
export function numberJson(b: Builtins, n: number): string {
  return b.isFinite(n) ? `${n}` : 'null';
}
