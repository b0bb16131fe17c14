// An engine's boxes drawn from its dump: every element's bounding box as a thin outline on the
// viewport, laid over that engine's screenshot, with the failing node (and its fragments)
// drawn last, so on top, and marked `hit`. Each box's tooltip names it.
import type { Dump } from '../protocol/schema.js';
import { html, type Html } from './html.js';

type Rect = Dump['nodes'][number]['bounding'];

const num = (n: number) => String(Math.round(n * 1000) / 1000);
const rectAttrs = (r: Rect) => html`x="${num(r.x)}" y="${num(r.y)}" width="${num(r.w)}" height="${num(r.h)}"`;

/** The SVG overlay of a dump's boxes, with node `highlight` (when it is in this dump) marked. */
export function overlay(dump: Pick<Dump, 'viewport' | 'nodes'>, highlight: number | null, kind: 'engine' | 'candidate' = 'engine'): Html {
  const { width, height } = dump.viewport;
  // A node without fragments (display:none, contents) has only a zeroed placeholder box.
  const boxes = dump.nodes.filter((n) => n.rects.length > 0 && n.index !== highlight);
  const hit = highlight === null ? undefined : dump.nodes[highlight];
  const title = (n: Dump['nodes'][number]) =>
    html`<title>#${n.index} ${n.tag} ${num(n.bounding.x)},${num(n.bounding.y)} ${num(n.bounding.w)}×${num(n.bounding.h)}</title>`;
  return html`<svg class="overlay ${kind}" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${num(width)} ${num(height)}" preserveAspectRatio="xMinYMin meet">${boxes.map(
    (n) => html`<rect class="box" ${rectAttrs(n.bounding)}>${title(n)}</rect>`,
  )}${
    hit
      ? html`<g class="hit" data-index="${hit.index}">${hit.rects.map((r) => html`<rect class="fragment" ${rectAttrs(r)}/>`)}<rect class="box" ${rectAttrs(hit.bounding)}>${title(hit)}</rect></g>`
      : null
  }</svg>`;
}
