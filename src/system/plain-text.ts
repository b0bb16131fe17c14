// Untrusted text in a line of plain output (a table for people): case ids, a candidate's name and
// version, signatures carrying a page's tags and labels. Printed as itself when that is safe;
// otherwise as a JSON string literal with every control, format and separator character escaped,
// so that no string from a journal can end a line, forge a row, move the cursor or reorder the
// text around it.

/** Characters never printed as themselves: controls (C0, DEL, C1), format characters (bidi controls among them), line and paragraph separators. */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
const HIDDEN_ALL = new RegExp(HIDDEN.source, 'gu');
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const quoted = (text: string) =>
  // JSON.stringify escapes C0 controls, quotes, backslashes and lone surrogates; the rest of HIDDEN is escaped here.
  JSON.stringify(text).replace(HIDDEN_ALL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** Free text (a signature, a version): itself when every character is visible or a plain space, else quoted and escaped. */
export function plainText(text: string): string {
  return /[^\S ]/.test(text) || HIDDEN.test(text) || LONE_SURROGATE.test(text) || text.startsWith('"') ? quoted(text) : text;
}

/** One token of a line (an id in a column): as plainText, and quoted too when it is empty or holds a space. */
export function plainToken(text: string): string {
  return text === '' || text.includes(' ') ? quoted(text) : plainText(text);
}
