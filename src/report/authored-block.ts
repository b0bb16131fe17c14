// A check-layout page's authored expectations in a bucket's example: the page's WPT path, and per
// engine and candidate how many assertions held, with each failing one (element, attribute, the
// expectation, the value). Every text is the journal's, escaped by html``.
import type { AuthoredFailures } from '../campaign/journal/authored-rows.js';
import type { AuthoredFailure } from '../comparator/authored.js';
import { html, type Html } from './html.js';

/** The block; `path` is the case's id, which a WPT layout case takes from its test's path. */
export function authoredBlock(path: string, subjects: readonly AuthoredFailures[]): Html {
  const rows = subjects.flatMap((s) => {
    const who = s.name === null ? s.subject : `candidate ${s.name}`;
    const failures = JSON.parse(s.failures) as AuthoredFailure[];
    const head = html`<tr><th>${who}</th><td>${s.pass} hold</td><td>${s.fail} fail</td><td></td></tr>`;
    return [
      head,
      ...failures.map(
        (f) =>
          html`<tr><td></td><td><code>${f.tag}</code> #${f.index}</td><td><code>${f.attr}</code></td><td>expected ${f.expected}, got ${f.actual === null ? 'nothing' : String(f.actual)}</td></tr>`,
      ),
    ];
  });
  return html`<div class="authored"><p>WPT check-layout page <code>${path}</code>: its authored expectations</p>
<table class="deltas">${rows}</table></div>`;
}
