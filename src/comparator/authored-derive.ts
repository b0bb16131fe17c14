// The DOM values a check-layout attribute is held to, derived from a dump (a candidate's: it has no
// DOM to read), with CSSOM View's formulas over the contract's boxes and style subset:
//   offsetWidth/Height, getBoundingClientRect: the border box (bounding), 0 without a box;
//   offsetLeft/Top: the first fragment against the offset parent's first fragment inside its border
//     (against the viewport when the parent is null or BODY), 0 without a box;
//   clientWidth/Height: the border box less its borders (scrollbars take no width), 0 for a
//     non-replaced inline or no box, the viewport for the root; clientLeft/Top: the borders;
//   scrollWidth/Height: approximated (text runs are not in a dump): the furthest descendant edge
//     not inside another scroll container, plus the end padding, at least the client size;
//     flagged approximate.
// Unrounded: the engines snap offset*/client* to integers, a candidate need not.
import type { AuthoredNumber } from '../protocol/authored-schema.js';
import { STYLE_PROPERTIES, VIEWPORT } from '../protocol/common.js';
import type { ColumnarDump } from './columnar.js';

const STYLE_COUNT = STYLE_PROPERTIES.length;
const styleAt = (d: ColumnarDump, i: number, property: (typeof STYLE_PROPERTIES)[number]) =>
  d.styles[i * STYLE_COUNT + STYLE_PROPERTIES.indexOf(property)]!;
const px = (d: ColumnarDump, i: number, property: (typeof STYLE_PROPERTIES)[number]) => Number.parseFloat(styleAt(d, i, property)) || 0;
const tag = (d: ColumnarDump, i: number) => d.tagTable.name(d.tags[i]!);
const hasBox = (d: ColumnarDump, i: number) => d.fragmentStart[i + 1]! > d.fragmentStart[i]!;

/** Elements that are replaced (or behave so for client*): a display:inline one still has client sizes. */
const REPLACED = new Set(['IMG', 'svg', 'CANVAS', 'VIDEO', 'IFRAME', 'EMBED', 'OBJECT', 'INPUT', 'SELECT', 'TEXTAREA', 'BUTTON']);

/** An element of the HTML namespace: offset* exist on HTMLElement alone (an HTML document upper-cases their tags). */
const isHtml = (d: ColumnarDump, i: number) => {
  const t = tag(d, i);
  return t === t.toUpperCase();
};

/**
 * CSSOM View's offsetParent from a dump: null (-1) without a box, for HTML and BODY, and for a
 * fixed box; else the nearest ancestor that is positioned, or BODY, or — for a static element —
 * TD, TH or TABLE. (Transforms, filters and containment also make one; the dump has none of them.)
 */
export function offsetParentOf(d: ColumnarDump, i: number): number {
  const t = tag(d, i);
  if (!hasBox(d, i) || t === 'HTML' || t === 'BODY' || styleAt(d, i, 'position') === 'fixed') return -1;
  const isStatic = styleAt(d, i, 'position') === 'static';
  for (let p = d.parents[i]!; p >= 0; p = d.parents[p]!) {
    const pt = tag(d, p);
    if (styleAt(d, p, 'position') !== 'static' || pt === 'BODY') return p;
    if (isStatic && (pt === 'TD' || pt === 'TH' || pt === 'TABLE')) return p;
  }
  return -1;
}

/** Whether a node clips its overflow into a scroll container of its own. */
const scrolls = (d: ColumnarDump, i: number) => styleAt(d, i, 'overflow-x') !== 'visible' || styleAt(d, i, 'overflow-y') !== 'visible';

/** One numeric DOM value of node `i`, with whether it is an approximation; `offsetParent` as the browsers gave it (else the rule above). */
export function derivedNumber(
  d: ColumnarDump,
  i: number,
  name: AuthoredNumber,
  offsetParent: number = offsetParentOf(d, i),
): { value: number | null; approximate: boolean } {
  const exact = (value: number | null) => ({ value, approximate: false });
  const box = hasBox(d, i);
  const [x, y, w, h] = [d.bounding[i * 4]!, d.bounding[i * 4 + 1]!, d.bounding[i * 4 + 2]!, d.bounding[i * 4 + 3]!];
  const noClient = !box || (styleAt(d, i, 'display') === 'inline' && !REPLACED.has(tag(d, i)));
  const isRoot = d.parents[i] === -1;
  switch (name) {
    case 'offsetWidth':
    case 'offsetHeight':
      if (!isHtml(d, i)) return exact(null);
      return exact(name === 'offsetWidth' ? w : h);
    case 'bcrWidth':
      return exact(w);
    case 'bcrHeight':
      return exact(h);
    case 'offsetLeft':
    case 'offsetTop': {
      if (!isHtml(d, i)) return exact(null);
      if (!box) return exact(0);
      const first = d.fragmentStart[i]! * 4 + (name === 'offsetLeft' ? 0 : 1);
      const own = d.fragments[first]!;
      const p = offsetParent;
      if (p < 0 || tag(d, p) === 'BODY' || !hasBox(d, p)) return exact(own);
      const parentFirst = d.fragmentStart[p]! * 4 + (name === 'offsetLeft' ? 0 : 1);
      return exact(own - d.fragments[parentFirst]! - px(d, p, name === 'offsetLeft' ? 'border-left-width' : 'border-top-width'));
    }
    case 'clientLeft':
      return exact(noClient ? 0 : px(d, i, 'border-left-width'));
    case 'clientTop':
      return exact(noClient ? 0 : px(d, i, 'border-top-width'));
    case 'clientWidth':
      if (isRoot) return exact(VIEWPORT.width);
      return exact(noClient ? 0 : w - px(d, i, 'border-left-width') - px(d, i, 'border-right-width'));
    case 'clientHeight':
      if (isRoot) return exact(VIEWPORT.height);
      return exact(noClient ? 0 : h - px(d, i, 'border-top-width') - px(d, i, 'border-bottom-width'));
    case 'scrollWidth':
    case 'scrollHeight': {
      const wide = name === 'scrollWidth';
      const client = derivedNumber(d, i, wide ? 'clientWidth' : 'clientHeight').value ?? 0;
      const start = wide ? x + px(d, i, 'border-left-width') : y + px(d, i, 'border-top-width');
      let far = client;
      // Descendants follow a node in document order; those inside another scroll container are clipped there.
      const descendants = new Set([i]);
      const clipped = new Set<number>();
      for (let k = i + 1; k < d.count && descendants.has(d.parents[k]!); k++) {
        descendants.add(k);
        const p = d.parents[k]!;
        if (p !== i && (clipped.has(p) || scrolls(d, p))) {
          clipped.add(k);
          continue;
        }
        if (!hasBox(d, k)) continue;
        const end = wide ? d.bounding[k * 4]! + d.bounding[k * 4 + 2]! : d.bounding[k * 4 + 1]! + d.bounding[k * 4 + 3]!;
        far = Math.max(far, end - start + px(d, i, wide ? 'padding-right' : 'padding-bottom'));
      }
      return { value: box ? far : 0, approximate: true };
    }
  }
}

/** A computed-style string from the dump's style subset (display, padding-*, margin-*). */
export const derivedString = (d: ColumnarDump, i: number, name: 'display' | `padding-${string}` | `margin-${string}`): string =>
  styleAt(d, i, name as (typeof STYLE_PROPERTIES)[number]);
