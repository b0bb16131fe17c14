// The campaign at a glance: counts by verdict, the runs the journal holds, and the table of
// buckets, each row linking to its section.
import type { Summary } from '../campaign/journal/summary.js';
import { ENGINE_NAMES } from '../protocol/schema.js';
import { bucketAnchor } from './bucket-section.js';
import { findingsTable } from './finding-section.js';
import { html, type Html } from './html.js';
import type { ReportRun } from './input.js';

function counts(s: Summary): Html {
  const cells: [string, number][] = [
    ['cases', s.cases],
    ['unanimous', s.verdicts.unanimous],
    ...ENGINE_NAMES.map((e): [string, number] => [`outlier ${e}`, s.verdicts.outlier[e]]),
    ['split', s.verdicts.split],
    ['insufficient', s.verdicts.insufficient],
    ['invalid', s.invalid],
    ['expected', s.expected],
  ];
  return html`<table class="counts"><tr>${cells.map(([name]) => html`<th>${name}</th>`)}</tr><tr>${cells.map(
    ([, n]) => html`<td class="n">${n}</td>`,
  )}</tr></table>
<p class="muted">Expected cases matched a known difference; they are counted under their verdicts too, and kept out of the buckets.</p>`;
}

function runs(list: ReportRun[]): Html {
  if (list.length === 0) return html`<p class="muted">No runs recorded.</p>`;
  const rows = list.map(
    (r, i) => html`<tr><td class="n">${i + 1}</td><td>${r.startedAt}</td><td>${r.endedAt ?? 'not ended'}</td>
<td>${r.engines.map((e) => `${e} ${r.versions[e] ?? '?'}`).join(', ')}</td><td>${r.fonts ?? '-'}</td><td><code>${r.command.join(' ')}</code></td></tr>`,
  );
  return html`<table class="runs"><tr><th>run</th><th>started</th><th>ended</th><th>engines</th><th>fonts</th><th>command</th></tr>${rows}</table>`;
}

/** A bucket table; its sections are numbered from `first` on. */
function buckets(list: Summary['buckets'], first = 1): Html {
  if (list.length === 0) return html`<p>No findings.</p>`;
  const rows = list.map(
    (b, i) =>
      html`<tr><td class="n">${b.count}</td><td><code>${b.signature}</code></td><td><a href="#${bucketAnchor(first + i)}">${b.example}</a></td></tr>`,
  );
  return html`<table class="buckets"><tr><th>count</th><th>signature</th><th>example</th></tr>${rows}</table>`;
}

/** The engine under test's verdict counts and its buckets, whose sections follow the engines'. */
function candidate(s: Summary): Html | null {
  const c = s.candidate;
  if (!c) return null;
  const cells = Object.entries(c.verdicts).concat([
    ['sides with the outlier', c.sides_with_outlier],
    ['subpixel', c.subpixel],
  ]);
  return html`<section id="candidate"><h2>Candidate ${c.name} <small class="muted">${c.version}</small></h2>
<table class="counts"><tr>${cells.map(([name]) => html`<th>${name}</th>`)}</tr><tr>${cells.map(([, n]) => html`<td class="n">${n}</td>`)}</tr></table>
${buckets(c.buckets, s.buckets.length + 1)}</section>`;
}

/** The summary, the runs and the bucket tables. */
export function summarySection(summary: Summary, list: ReportRun[]): Html {
  return html`<section id="summary"><h2>Summary</h2>${counts(summary)}${summary.hint ? html`<p><strong>Hint:</strong> ${summary.hint}</p>` : null}<h3>Runs</h3>${runs(list)}</section>
${findingsTable(summary)}
<section id="buckets"><h2>Buckets</h2>${buckets(summary.buckets)}</section>
${candidate(summary)}`;
}
