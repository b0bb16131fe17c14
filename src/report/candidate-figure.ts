// The engine under test's column of a bucket's example: its boxes drawn in its own colour over
// the majority engine's screenshot, the node its signature names highlighted, and that node's
// deltas against each engine (candidate − engine, CSS px); or what it said instead of a dump. For a
// case with mutations, its layout from scratch is drawn beside, over the same screenshot.
import { html, type Html } from './html.js';
import type { ReportCase } from './input.js';
import { check } from './node-block.js';
import { overlay } from './overlay.js';
import { pngDataUrl } from './png.js';

/** The candidate's figure, when the case has its answer. */
export function candidateFigure(c: ReportCase): Html | null {
  const k = c.candidate;
  if (!k) return null;
  const shot = k.over ? c.engines[k.over]?.screenshot : null;
  const picture = shot
    ? html`<img class="shot" alt="${k.over} screenshot under ${k.name}'s boxes" src="${pngDataUrl(shot)}">`
    : html`<div class="placeholder">no screenshot of a majority engine</div>`;
  const rows = (k.node?.against ?? []).flatMap(({ engine, failures }) =>
    failures.length === 0
      ? [html`<tr><td>${k.name} − ${engine}</td><td>-</td><td>matches at this node</td></tr>`]
      : failures.map((f) => {
          const [what, deltas] = check(f);
          return html`<tr><td>${k.name} − ${engine}</td><td>${what}</td><td>${deltas}</td></tr>`;
        }),
  );
  const said = k.unsupported ?? k.error;
  // A case with mutations: its layout from scratch beside its incremental one, over the same screenshot.
  const fresh = k.fresh
    ? html`<div class="view fresh">${picture}${overlay(k.fresh.dump, k.node?.index ?? null, 'candidate')}</div>
<p>Left: after the mutations, incrementally; right: from scratch — ${k.fresh.self}${k.fresh.signature ? html` (<code>${k.fresh.signature}</code>)` : null}</p>`
    : null;
  return html`<figure class="engine candidate" data-engine="candidate">
<figcaption>candidate ${k.name} <small>${k.version} · ${k.verdict}${k.over ? ` · over ${k.over}'s screenshot` : ''}</small></figcaption>
<div class="view">${picture}${k.dump ? overlay(k.dump, k.node?.index ?? null, 'candidate') : null}</div>
${fresh}
${said ? html`<p class="error">${said}</p>` : null}
${k.node ? html`<p>Node #${k.node.index} <code>${k.node.tag}</code></p>` : null}
${rows.length ? html`<table class="deltas candidate-deltas"><tr><th>pair</th><th>check</th><th>delta (px)</th></tr>${rows}</table>` : null}
</figure>`;
}
