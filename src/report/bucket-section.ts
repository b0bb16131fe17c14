// One bucket of findings: its signature and count, then its example case (reduced when a
// reduction exists): the vote, the failing node, the three engines' pictures (and the engine under
// test's, a fourth column), the source.
import type { SummaryBucket } from '../campaign/journal/summary.js';
import { ENGINE_NAMES, type Dump, type EngineName } from '../protocol/schema.js';
import type { VoteResult } from '../protocol/vote-schema.js';
import { authoredBlock } from './authored-block.js';
import { candidateFigure } from './candidate-figure.js';
import { engineFigure } from './engine-view.js';
import { failingNode } from './failing-node.js';
import { html, type Html } from './html.js';
import type { ReportCase } from './input.js';
import { nodeBlock } from './node-block.js';
import { relayoutBlock, relayoutNode } from './relayout-block.js';
import { sourceBlock } from './source.js';

/** The section's anchor; by position, so no client text ever goes into an id. */
export const bucketAnchor = (n: number) => `bucket-${n}`;

function voteLine(vote: VoteResult): Html {
  const majority = vote.majority.length ? ` (majority ${vote.majority.join(', ')})` : '';
  return html`<p>Vote: <strong>${vote.verdict}${vote.outlier ? ` ${vote.outlier}` : ''}</strong>${majority}</p>`;
}

/** An example case: its vote, the node where it fails, each engine's picture, its source (`n` makes its ids unique). */
export function exampleBlock(c: ReportCase, n: number, signature: string): Html {
  const dumps: Partial<Record<EngineName, Dump>> = {};
  for (const e of ENGINE_NAMES) if (c.engines[e]?.dump) dumps[e] = c.engines[e].dump;
  const node = c.vote ? failingNode(c.vote, dumps) : null;
  // A relayout bucket's node is the one where its engine parts from itself, not the vote's.
  const self = c.relayout ? relayoutNode(c.relayout.engine, c.relayout.check) : null;
  const highlight = c.relayout ? (self?.index ?? null) : (node?.index ?? null);
  const reducedNote = !c.reduced
    ? null
    : c.reduced.signature === signature
      ? html`<p class="muted">Shown reduced; the reduced case keeps this signature.</p>`
      : html`<p class="muted">Shown reduced; the reduced case's signature is <code>${c.reduced.signature ?? 'none (unanimous)'}</code>.</p>`;
  return html`${reducedNote}
${c.invalid ? html`<p class="error">${c.invalid}</p>` : null}
${c.vote ? voteLine(c.vote) : null}
${c.relayout ? relayoutBlock(c.relayout.engine, c.relayout.check) : null}
${c.relayout ? null : node ? nodeBlock(node) : c.vote ? html`<p class="muted">No failing node: no pair of usable engines disagrees.</p>` : null}
${c.authored ? authoredBlock(c.id, c.authored) : null}
${c.op === null ? null : html`<div class="engines">${ENGINE_NAMES.map((e) => engineFigure(e, c, highlight))}${candidateFigure(c)}</div>`}
${sourceBlock(c, n)}`;
}

/** The bucket's section; `example` is its example case, when the report was given one. */
export function bucketSection(bucket: SummaryBucket, n: number, example: ReportCase | undefined): Html {
  const anchor = bucketAnchor(n);
  return html`<section class="bucket" id="${anchor}">
<h2><a href="#${anchor}">#${n}</a> <code>${bucket.signature}</code></h2>
<p>${bucket.count} ${bucket.count === 1 ? 'case' : 'cases'} · example <code>${bucket.example}</code>${example?.op ? ` · ${example.op}` : ''} · <a href="#buckets">back to the table</a></p>
${example ? exampleBlock(example, n, bucket.signature) : html`<p class="muted">No example case was given for this bucket.</p>`}
</section>`;
}
