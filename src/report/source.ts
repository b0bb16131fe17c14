// A case's source as text (never as markup): its html and script in <pre>, the request itself
// in a textarea that the copy button reads, and the original beside a reduced case.
import type { ReportCase } from './input.js';
import { html, type Html } from './html.js';

/** The html and script a request carries as strings, or null when it is not a JSON object (an invalid item's text). */
function fieldsOf(request: string): { html?: string; script?: string; json: string } | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(request);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const { html, script } = parsed as Record<string, unknown>;
  return {
    ...(typeof html === 'string' ? { html } : {}),
    ...(typeof script === 'string' ? { script } : {}),
    json: JSON.stringify(parsed, null, 2),
  };
}

// The parser drops one newline right after <pre> and <textarea>: the one written here, never the text's own.
const pre = (label: string, text: string) => html`<h4 class="muted">${label}</h4><pre class="${label}">\n${text}</pre>`;

/** The source of one request, and its copy button (`key` names its textarea, unique in the report). */
function requestSource(request: string, key: string, what: string): Html {
  const fields = fieldsOf(request);
  const shown =
    fields === null
      ? pre('text', request)
      : fields.html !== undefined || fields.script !== undefined
        ? [fields.html !== undefined ? pre('html', fields.html) : null, fields.script !== undefined ? pre('script', fields.script) : null]
        : pre('json', fields.json);
  return html`${shown}<p><button type="button" data-copy="${key}">copy ${what}</button> <span class="copy-status muted" role="status"></span></p>
<details><summary>${what} as recorded</summary><textarea id="${key}" readonly rows="6">\n${request}</textarea></details>`;
}

/** The case's source: the reduced request when there is one (with the original folded away), else the request. */
export function sourceBlock(c: ReportCase, n: number): Html {
  if (!c.reduced) return html`<h3>Source</h3>${requestSource(c.request, `request-${n}`, 'request')}`;
  return html`<h3>Source <span class="tag">reduced</span></h3>${requestSource(c.reduced.request, `request-${n}`, 'reduced request')}
<details class="original"><summary>Original request</summary>${requestSource(c.request, `original-${n}`, 'original request')}</details>`;
}
