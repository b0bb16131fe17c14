// A relayout finding for people: the engine held to itself, at the node where its walk and its walk
// after a layout from scratch part (the node the signature names, relayoutBucket's rule), both walks
// side by side: the box, each fragment, and the styles that differ.
import { relayoutBucket } from '../comparator/signature.js';
import type { RelayoutResult } from '../protocol/relayout-schema.js';
import type { EngineName } from '../protocol/schema.js';
import { html, type Html } from './html.js';

type Rect = RelayoutResult['nodes'][number]['walked']['bounding'];

const rect = (r: Rect | undefined) => (r ? `${r.x}, ${r.y} · ${r.w} × ${r.h}` : '-');

/** The node a relayout bucket names, or null when the two walks saw different trees. */
export function relayoutNode(engine: EngineName, check: RelayoutResult): RelayoutResult['nodes'][number] | null {
  const index = relayoutBucket(engine, check)?.first?.index;
  return check.nodes.find((n) => n.index === index) ?? null;
}

export function relayoutBlock(engine: EngineName, check: RelayoutResult): Html {
  const node = relayoutNode(engine, check);
  const head = html`<p>Relayout check: <strong>${engine} fails</strong>: the page's layout after its script, and ${engine}'s own layout of the same document from scratch, differ (${check.nodes.length} ${check.nodes.length === 1 ? 'node' : 'nodes'}, at most ${check.summary.max_abs_delta} px). The dump is the first walk, what the page saw.</p>`;
  if (!node) {
    const d = check.divergence;
    return html`<div class="failing">${head}<p>The two walks saw different trees from node #${d?.index ?? '?'} (${d?.a?.tag ?? '(end)'} / ${d?.b?.tag ?? '(end)'}): geometry not compared.</p></div>`;
  }
  const fragments = Math.max(node.walked.rects.length, node.fresh.rects.length);
  const rows = [
    html`<tr><td>bounding</td><td>${rect(node.walked.bounding)}</td><td>${rect(node.fresh.bounding)}</td></tr>`,
    ...Array.from(
      { length: fragments },
      (_, f) => html`<tr><td>fragment ${f}</td><td>${rect(node.walked.rects[f])}</td><td>${rect(node.fresh.rects[f])}</td></tr>`,
    ),
    ...node.styles.map(
      (s) => html`<tr><td><code>${s.property}</code></td><td><code>${s.walked}</code></td><td><code>${s.fresh}</code></td></tr>`,
    ),
  ];
  return html`<div class="failing">${head}
<h3>Failing node #${node.index} <code>${node.tag}</code> · ${node.kinds.join(', ')}</h3>
<table class="deltas"><tr><th></th><th>as the page had it (x, y · w × h)</th><th>laid out from scratch</th></tr>${rows}</table>
</div>`;
}
