// What differs at the failing node, for people: each failing pair's signed deltas (b − a, CSS
// px) and each engine's value of the styles that differ there.
import type { Failure } from '../comparator/compare.js';
import { ENGINE_NAMES } from '../protocol/schema.js';
import type { FailingNode } from './failing-node.js';
import { html, type Html } from './html.js';

/** A signed length: +1, −0.297, ±0. */
const signed = (d: number) => {
  const abs = String(Math.round(Math.abs(d) * 1000) / 1000);
  return abs === '0' ? '±0' : `${d > 0 ? '+' : '−'}${abs}`;
};

/** A failure as the report words it: what was checked, and its signed deltas. */
export function check(f: Failure): [string, string] {
  switch (f.kind) {
    case 'size':
      return ['size', `width ${signed(f.dw)}, height ${signed(f.dh)}`];
    case 'fragment':
      return [`fragment ${f.fragment}`, `width ${signed(f.dw)}, height ${signed(f.dh)}`];
    case 'fragment_count':
      return ['fragment count', `${f.a} → ${f.b}`];
    case 'offset':
      return ['offset', `x ${signed(f.dx)}, y ${signed(f.dy)}`];
  }
}

/** The failing node's heading, its deltas per pair (or where the documents part), and its differing styles. */
export function nodeBlock(node: FailingNode): Html {
  const rows = node.pairs.flatMap(({ a, b, failures }) =>
    failures.map((f) => {
      const [what, deltas] = check(f);
      return html`<tr><td>${b} − ${a}</td><td>${what}</td><td>${deltas}</td></tr>`;
    }),
  );
  const divergences = node.divergences.map(
    ({ a, b, tags }) => html`<li>${a} has ${tags[0] ?? '(end of document)'}, ${b} has ${tags[1] ?? '(end of document)'}</li>`,
  );
  const styles = node.styles.map(
    ({ property, values }) =>
      html`<tr><td><code>${property}</code></td>${ENGINE_NAMES.map((e) => html`<td><code>${values[e] ?? '-'}</code></td>`)}</tr>`,
  );
  return html`<div class="failing">
<h3>Failing node #${node.index} <code>${node.tags.join(' / ')}</code> · ${node.kind}${node.outlier ? ` · outlier ${node.outlier}` : ''}</h3>
${divergences.length ? html`<p>The documents differ at this node (geometry not compared):</p><ul>${divergences}</ul>` : null}
${rows.length ? html`<table class="deltas"><tr><th>pair (b − a)</th><th>check</th><th>delta (px)</th></tr>${rows}</table>` : null}
${styles.length ? html`<table class="styles"><tr><th>style</th>${ENGINE_NAMES.map((e) => html`<th>${e}</th>`)}</tr>${styles}</table>` : null}
</div>`;
}
