// XML 1.0 text and attribute values from any string: the five special characters escaped, and
// the characters XML 1.0 cannot carry (C0 controls but tab and line breaks, lone surrogates,
// U+FFFE, U+FFFF) or only discourages (DEL, C1 controls) written out as \uXXXX, visible, rather
// than making a file no parser accepts.

const FORBIDDEN = /[\p{Cc}\p{Cs}\ufffe\uffff]/gu;
const KEPT = new Set(['\t', '\n', '\r']);
const visible = (c: string) => (KEPT.has(c) ? c : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** `s` as XML character data. */
export const xmlText = (s: string): string =>
  s.replace(FORBIDDEN, visible).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** `s` as a double-quoted attribute value; line breaks and tabs are character references, so a parser keeps them. */
export const xmlAttribute = (s: string): string =>
  xmlText(s).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
