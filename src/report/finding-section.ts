// Triage's findings in a report, above the raw buckets: a table of them (count, odd one out,
// signature, template, size), the cases no finding holds, and a section per finding with its
// template, its cases and its reduced case shown as a bucket's example is (the vote, the failing
// node, each engine's picture with its boxes, the source).
import type { Summary, SummaryFinding } from '../campaign/journal/summary.js';
import { exampleBlock } from './bucket-section.js';
import { html, type Html } from './html.js';
import type { ReportCase } from './input.js';

/** A finding's anchor; by position, so no client text ever goes into an id. */
const findingAnchor = (n: number) => `finding-${n}`;

/** The findings' table and the untriaged cases; nothing for a journal never triaged. */
export function findingsTable(s: Summary): Html | null {
  const findings = s.findings ?? [];
  if (findings.length === 0) return null;
  const rows = findings.map(
    (f, i) =>
      html`<tr><td><a href="#${findingAnchor(i + 1)}">${f.id}</a></td><td class="n">${f.members.length}</td><td>${f.outlier ?? 'split'}</td><td><code>${f.signature}</code></td><td><code>${f.template}</code></td><td class="n">${f.elements}</td><td>${f.known ?? ''}</td></tr>`,
  );
  const untriaged = s.untriaged ?? [];
  return html`<section id="findings"><h2>Findings</h2>
<p class="muted">Each finding is a reduced case and its template; its cases are those whose own disagreement its template's instance in them shows. Known ones were marked so (triage --mark-known).</p>
<table class="findings"><tr><th>finding</th><th>cases</th><th>odd one out</th><th>signature</th><th>template</th><th>elements</th><th>known as</th></tr>${rows}</table>
${untriaged.length ? html`<p>${untriaged.length} disagreeing ${untriaged.length === 1 ? 'case is' : 'cases are'} in no finding: <code>${untriaged.slice(0, 30).join(' ')}${untriaged.length > 30 ? ' …' : ''}</code></p>` : html`<p>Every disagreeing case is in a finding.</p>`}</section>`;
}

/** A finding's section; `n` numbers it, `key` makes its copy button's id unique in the report. */
export function findingSection(f: SummaryFinding, n: number, key: number, example: ReportCase | undefined): Html {
  const anchor = findingAnchor(n);
  const members = f.members.slice(0, 40).join(' ') + (f.members.length > 40 ? ' …' : '');
  return html`<section class="bucket finding" id="${anchor}">
<h2><a href="#${anchor}">${f.id}</a> <code>${f.signature}</code>${f.known ? html` <span class="tag">known: ${f.known}</span>` : null}</h2>
<p>Template <code>${f.template}</code></p>
<p>${f.members.length} ${f.members.length === 1 ? 'case' : 'cases'}: <code>${members}</code> · reduced to ${f.elements} elements${f.fonts ? `, fonts ${f.fonts}` : ''} · <a href="#findings">back to the findings</a></p>
${example ? exampleBlock(example, key, f.signature) : html`<p class="muted">No reduced case was given for this finding.</p>`}
</section>`;
}
