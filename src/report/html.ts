// Markup built so that text can never become markup: every value put into an `html` template
// is escaped unless it is already `Html` (made by this template), so case html, ids, error
// texts, signatures and tag names always land as text, in element content and in quoted
// attributes alike.

const MINT = Symbol('html');

/** A piece of markup made by `html`; nothing else can make one, so no text passes for markup by mistake. */
export class Html {
  constructor(
    token: typeof MINT,
    readonly text: string,
  ) {
    if (token !== MINT) throw new Error('Html is made only by the html template');
  }
}

/** What an `html` template accepts: text (escaped), markup, or lists of either; null and undefined are nothing. */
export type HtmlValue = string | number | Html | null | undefined | readonly HtmlValue[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe in element content and in quoted attribute values. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

function piece(value: HtmlValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(piece).join('');
  return escapeHtml(String(value));
}

/** A template whose literal parts are markup and whose values are escaped text (or `Html`). */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += piece(values[i]!) + strings[i + 1]!;
  return new Html(MINT, out);
}
