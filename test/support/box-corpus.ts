// The bench's corpus of small layout cases, the shape of layout-engine test fixtures (Taffy's,
// Yoga's) and of fuzzing campaigns: a tree of nested `div`s, each with an inline style of block,
// flex, grid or absolute layout, over one base stylesheet, with no text. Seeded: the same seed and
// size give the same case.
import { type BenchCase, int, pick, px, rng, type Rng } from './layout-corpus.js';

/** The base stylesheet every fixture shares. */
const BASE = `div { box-sizing: border-box; position: relative; margin: 0; padding: 0; border: 0 solid #333; min-width: 0; min-height: 0; }
body { margin: 0; }`;

const size = (r: Rng) => pick(r, ['auto', px(r, 5, 200), `${int(r, 10, 100)}%`, 'min-content', 'max-content', 'fit-content']);
const edges = (r: Rng) => `${px(r, 0, 12)} ${px(r, 0, 12)}`;

/** One element's inline style: a layout mode of its own, and how it sits in its parent. */
function style(r: Rng, container: boolean): string {
  const s: string[] = [];
  const mode = container ? pick(r, ['flex', 'flex', 'grid', 'grid', 'block', 'inline-flex']) : pick(r, ['block', 'flex']);
  s.push(`display:${mode}`);
  if (mode.endsWith('flex')) {
    s.push(`flex-direction:${pick(r, ['row', 'column', 'row-reverse', 'column-reverse'])}`);
    s.push(`flex-wrap:${pick(r, ['nowrap', 'wrap', 'wrap-reverse'])}`);
    s.push(`align-items:${pick(r, ['stretch', 'flex-start', 'center', 'flex-end', 'baseline'])}`);
    s.push(`justify-content:${pick(r, ['flex-start', 'center', 'space-between', 'space-around', 'space-evenly', 'flex-end'])}`);
  }
  if (mode === 'grid') {
    const track = () => pick(r, ['1fr', 'auto', px(r, 10, 120), 'minmax(20px, 1fr)', 'min-content', `${int(r, 10, 40)}%`]);
    s.push(`grid-template-columns:${Array.from({ length: int(r, 1, 4) }, track).join(' ')}`);
    s.push(`grid-template-rows:${Array.from({ length: int(r, 1, 3) }, track).join(' ')}`);
    s.push(`grid-auto-flow:${pick(r, ['row', 'column', 'row dense'])}`);
  }
  if (r() < 0.4) s.push(`gap:${px(r, 0, 10)}`);
  if (r() < 0.12) s.push(`position:absolute;left:${px(r, 0, 80)};top:${px(r, 0, 80)}`);
  s.push(`width:${size(r)}`);
  if (r() < 0.6) s.push(`height:${size(r)}`);
  if (r() < 0.5) s.push(`flex:${int(r, 0, 3)} ${int(r, 0, 2)} ${pick(r, ['auto', '0', px(r, 5, 100)])}`);
  if (r() < 0.4) s.push(`padding:${edges(r)}`);
  if (r() < 0.3) s.push(`margin:${edges(r)}`);
  if (r() < 0.3) s.push(`border-width:${int(r, 0, 5)}px`);
  if (r() < 0.15) s.push(`aspect-ratio:${int(r, 1, 4)} / ${int(r, 1, 4)}`);
  if (r() < 0.15) s.push(`max-width:${px(r, 20, 300)}`);
  if (r() < 0.15) s.push(`align-self:${pick(r, ['auto', 'flex-start', 'center', 'stretch'])}`);
  return s.join(';');
}

/** `count` nested divs: each takes a few children, the rest of the count going to later ones. */
function tree(r: Rng, count: number, depth = 0): string {
  const pad = '  '.repeat(depth);
  const inside = count - 1;
  if (!inside) return `${pad}<div style="${style(r, false)}"></div>`;
  const children: number[] = [];
  for (let left = inside; left > 0; ) {
    const take = Math.min(left, int(r, 1, Math.max(1, Math.ceil(left / int(r, 1, 4)))));
    children.push(take);
    left -= take;
  }
  return `${pad}<div style="${style(r, true)}">\n${children.map((n) => tree(r, n, depth + 1)).join('\n')}\n${pad}</div>`;
}

/** One fixture of exactly `elements` divs. */
export function boxCase(seed: number, elements: number): BenchCase {
  return {
    id: `box-${elements}-${seed}`,
    family: 'box',
    html: `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>box ${seed}</title>
<style>
${BASE}
</style>
</head>
<body>
${tree(rng(seed), elements)}
</body>
</html>`,
  };
}

/**
 * `count` fixtures of 5 to 60 divs each, their sizes drawn from one seeded stream: the first draw
 * of each of the seeds 1 to 300 alone fell between 18 and 24.
 */
export function boxCorpus(count = 300): BenchCase[] {
  const sizes = rng(1);
  return Array.from({ length: count }, (_, i) => boxCase(7_000 + i, int(sizes, 5, 60)));
}
