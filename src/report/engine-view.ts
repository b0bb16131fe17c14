// One engine's column of a bucket's example: its screenshot with its boxes drawn over it, or a
// placeholder saying why there is no picture, and its error.
import { VIEWPORT } from '../protocol/common.js';
import type { EngineName } from '../protocol/schema.js';
import type { ReportCase } from './input.js';
import { html, type Html } from './html.js';
import { overlay } from './overlay.js';
import { pngSize } from '../protocol/png.js';
import { pngDataUrl } from './png.js';

/** The engine's figure: caption (version, vote status), picture with overlay, and any error. */
export function engineFigure(engine: EngineName, c: ReportCase, highlight: number | null): Html {
  const result = c.engines[engine];
  const dump = result?.dump;
  const status = c.vote?.engines[engine].status;
  const size = result?.screenshot ? pngSize(result.screenshot) : null;
  const viewport = dump?.viewport ?? VIEWPORT;
  let picture: Html;
  if (result?.screenshot && size) picture = html`<img class="shot" alt="${engine} screenshot" src="${pngDataUrl(result.screenshot)}">`;
  else {
    const why = !result ? 'not run' : result.screenshot ? 'screenshot is not a PNG' : 'no screenshot';
    picture = html`<div class="placeholder">${why}${result?.screenshotError ? html`<br>${result.screenshotError}` : null}</div>`;
  }
  const mismatch =
    size && (size.width !== viewport.width || size.height !== viewport.height)
      ? html`<p class="muted">screenshot is ${size.width}×${size.height}, the boxes are on ${viewport.width}×${viewport.height}</p>`
      : null;
  return html`<figure class="engine" data-engine="${engine}">
<figcaption>${engine} <small>${dump?.engine_version ?? ''}${status ? ` · ${status}` : ''}${c.vote?.outlier === engine ? ' · outlier' : ''}</small></figcaption>
<div class="view">${picture}${dump ? overlay(dump, highlight) : null}</div>${mismatch}
${result?.error ? html`<p class="error">${result.error}</p>` : null}</figure>`;
}
