// The one in-page walk every engine runs. It is shipped to the page as source text
// (Playwright's evaluate and WebDriver's execute both take it), so it must not refer to
// anything outside its own body. It returns flat arrays rather than objects: smaller on
// every driver protocol, and WebKitWebDriver does not keep object key order anyway —
// the Node side rebuilds objects in the contract's order.
import type { RawWalk } from '../protocol/dump.js';
import { STYLE_PROPERTIES } from '../protocol/schema.js';

/** The markup test of src/workers/script-free.ts, on the parsed document (plus any `on…` attribute, checked per element). */
const SCRIPT_CAPABLE_SELECTOR = 'script,iframe,frame,frameset,object,embed,portal,meta[http-equiv],[autofocus],[srcdoc]';

async function walkInPage(script: string | null, styleProperties: readonly string[], scriptCapableSelector: string): Promise<RawWalk> {
  const walkStart = performance.now();
  await document.fonts.ready;
  if (script !== null) {
    // Called by another name, eval is indirect: global scope, like a classic <script>, without adding an element.
    const globalEval = eval;
    globalEval(script);
    await document.fonts.ready;
  }
  const root = document.documentElement;
  const elements: Element[] = root ? [root, ...Array.from(root.getElementsByTagName('*'))] : [];
  const indexOf = new Map<Element, number>();
  const tags: string[] = [];
  const parents: number[] = [];
  const bounding: number[] = [];
  const rectCounts: number[] = [];
  const rects: number[] = [];
  const styles: string[] = [];
  let scriptCapable = document.querySelector(scriptCapableSelector) !== null;
  for (let i = 0; i < elements.length; i++) {
    const el = elements[i]!;
    if (!scriptCapable && el.getAttributeNames().some((name) => name.startsWith('on'))) scriptCapable = true;
    indexOf.set(el, i);
    tags.push(el.tagName);
    parents.push(el.parentElement ? (indexOf.get(el.parentElement) ?? -1) : -1);
    const fragments = el.getClientRects();
    rectCounts.push(fragments.length);
    for (const r of Array.from(fragments)) rects.push(r.x, r.y, r.width, r.height);
    if (fragments.length === 0) bounding.push(0, 0, 0, 0);
    else {
      const b = el.getBoundingClientRect();
      bounding.push(b.x, b.y, b.width, b.height);
    }
    const computed = getComputedStyle(el);
    for (const p of styleProperties) styles.push(computed.getPropertyValue(p));
  }
  const scroller = document.scrollingElement ?? root;
  const overflowed = scroller !== null && (scroller.scrollWidth > scroller.clientWidth || scroller.scrollHeight > scroller.clientHeight);
  const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
  return {
    viewport: [innerWidth, innerHeight],
    overflowed,
    tags,
    parents,
    bounding,
    rectCounts,
    rects,
    styles,
    scriptCapable,
    // Kept apart: the gap between loading and the walk is driver round trip, not engine work.
    loadMs: navigation && navigation.loadEventEnd > 0 ? navigation.loadEventEnd - navigation.responseEnd : 0,
    walkMs: performance.now() - walkStart,
  };
}

/** An expression evaluating to the walk function: `(script, styleProperties, scriptCapableSelector) => Promise<RawWalk>`. */
export const WALK_FUNCTION_SOURCE = `(${walkInPage.toString()})`;

/** The walk's arguments after `script`, as JSON text (they never change). */
export const WALK_FIXED_ARGS = [STYLE_PROPERTIES, SCRIPT_CAPABLE_SELECTOR] as const;
