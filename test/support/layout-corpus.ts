// The built-in corpus of layout cases the bench runs: nine families of layout (block, inline
// text, flex, grid, floats, abspos, tables, writing modes, overflow), each rendered in many
// seeded variants with a shared page skeleton, so cases are a realistic few hundred lines.

export type Rng = () => number;

/** A seeded generator of numbers in [0, 1): the same seed, the same corpus. */
export function rng(seed: number): Rng {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const WORDS =
  'layout engine oracle ground truth fragment baseline inline block flex grid float table column writing mode overflow scroll margin padding border width height'.split(
    ' ',
  );
export const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
export const int = (r: Rng, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
const text = (r: Rng, words: number) => Array.from({ length: words }, () => pick(r, WORDS)).join(' ');
export const px = (r: Rng, lo: number, hi: number) => `${(lo + r() * (hi - lo)).toFixed(2)}px`;

const FAMILIES: Record<string, (r: Rng) => string> = {
  block: (r) =>
    Array.from(
      { length: int(r, 6, 12) },
      () =>
        `<section style="margin:${px(r, 0, 20)} ${px(r, 0, 30)};padding:${px(r, 0, 12)};border:${int(r, 0, 4)}px solid;width:${int(r, 40, 95)}%">
  <h3>${text(r, 3)}</h3><p>${text(r, int(r, 8, 30))}</p><div style="height:${px(r, 5, 40)};box-sizing:${pick(r, ['content-box', 'border-box'])};padding:3px"></div>
</section>`,
    ).join('\n'),
  inline: (r) =>
    Array.from(
      { length: int(r, 4, 8) },
      () =>
        `<p style="font:${int(r, 12, 20)}px/${(1 + r()).toFixed(2)} ${pick(r, ['serif', 'sans-serif', 'monospace'])};width:${px(r, 150, 600)}">
  ${text(r, int(r, 5, 15))} <span>${text(r, int(r, 3, 12))}</span> <b>${text(r, 4)}</b> <em style="padding:0 ${px(r, 0, 6)}">${text(r, int(r, 4, 10))}</em> <a href="#x">${text(r, 2)}</a> ${text(r, int(r, 5, 20))}
</p>`,
    ).join('\n'),
  flex: (r) =>
    Array.from(
      { length: int(r, 3, 6) },
      () =>
        `<div style="display:flex;flex-wrap:${pick(r, ['wrap', 'nowrap'])};flex-direction:${pick(r, ['row', 'column', 'row-reverse'])};gap:${px(r, 0, 12)};width:${int(r, 300, 760)}px;align-items:${pick(r, ['stretch', 'center', 'flex-start', 'baseline'])}">
${Array.from({ length: int(r, 2, 7) }, () => `  <div style="flex:${int(r, 0, 3)} ${int(r, 0, 2)} ${pick(r, ['auto', '0', px(r, 20, 200)])};padding:${px(r, 0, 10)};min-width:0">${text(r, int(r, 1, 8))}</div>`).join('\n')}
</div>`,
    ).join('\n'),
  grid: (r) =>
    Array.from({ length: int(r, 2, 4) }, () => {
      const cols = int(r, 2, 5);
      return `<div style="display:grid;grid-template-columns:${Array.from({ length: cols }, () => pick(r, ['1fr', 'auto', px(r, 40, 160), 'minmax(50px,2fr)'])).join(' ')};gap:${px(r, 0, 10)} ${px(r, 0, 10)};width:${int(r, 300, 780)}px">
${Array.from({ length: int(r, cols, cols * 3) }, () => `  <div style="padding:${px(r, 0, 8)}${r() < 0.2 ? ';grid-column:span 2' : ''}">${text(r, int(r, 1, 10))}</div>`).join('\n')}
</div>`;
    }).join('\n'),
  floats: (r) =>
    Array.from(
      { length: int(r, 3, 6) },
      () =>
        `<div style="width:${int(r, 300, 760)}px">
  <div style="float:${pick(r, ['left', 'right'])};width:${px(r, 40, 200)};height:${px(r, 20, 120)};margin:${px(r, 0, 10)}"></div>
  <p>${text(r, int(r, 20, 60))}</p>
  <div style="float:${pick(r, ['left', 'right'])};width:${int(r, 10, 45)}%">${text(r, 6)}</div>
  <p style="clear:${pick(r, ['none', 'both', 'left'])}">${text(r, int(r, 10, 30))}</p>
</div>`,
    ).join('\n'),
  abspos: (r) =>
    `<div style="position:relative;width:${int(r, 400, 780)}px;height:${int(r, 200, 500)}px">
${Array.from({ length: int(r, 4, 10) }, () => `  <div style="position:${pick(r, ['absolute', 'absolute', 'relative', 'fixed'])};left:${px(r, 0, 300)};top:${px(r, 0, 200)};width:${pick(r, ['auto', px(r, 20, 200), '30%'])};padding:${px(r, 0, 8)}">${text(r, int(r, 1, 10))}</div>`).join('\n')}
</div>`,
  tables: (r) => {
    const cols = int(r, 2, 6);
    return `<table border="${int(r, 0, 2)}" cellpadding="${int(r, 0, 6)}" style="width:${pick(r, ['auto', '100%', px(r, 200, 700)])};border-collapse:${pick(r, ['separate', 'collapse'])};table-layout:${pick(r, ['auto', 'fixed'])}">
  <caption>${text(r, 3)}</caption>
${Array.from({ length: int(r, 2, 8) }, () => `  <tr>${Array.from({ length: cols }, () => `<td${r() < 0.1 ? ' colspan="2"' : ''}>${text(r, int(r, 1, 6))}</td>`).join('')}</tr>`).join('\n')}
</table>`;
  },
  'writing-modes': (r) =>
    Array.from(
      { length: int(r, 2, 5) },
      () =>
        `<div style="writing-mode:${pick(r, ['vertical-rl', 'vertical-lr', 'horizontal-tb'])};direction:${pick(r, ['ltr', 'rtl'])};height:${int(r, 100, 300)}px;width:${int(r, 100, 600)}px;border:1px solid">
  <p>${text(r, int(r, 5, 20))}</p><span style="padding:${px(r, 0, 6)}">${text(r, int(r, 2, 8))}</span>
</div>`,
    ).join('\n'),
  overflow: (r) =>
    Array.from(
      { length: int(r, 2, 5) },
      () =>
        `<div style="overflow:${pick(r, ['hidden', 'auto', 'scroll', 'visible', 'clip'])};width:${int(r, 100, 500)}px;height:${int(r, 40, 200)}px;padding:${px(r, 0, 8)}">
  <div style="width:${int(r, 80, 900)}px">${text(r, int(r, 10, 60))}</div>
</div>`,
    ).join('\n'),
};

export interface BenchCase {
  id: string;
  family: string;
  html: string;
  /** Runs after load, before the walk (the generator's --script cases). */
  script?: string;
  /** Further fields of its request (a WPT-like page's site, wait and authored). */
  fields?: Record<string, unknown>;
}

/** `perFamily` variants of every family, deterministic for a given count. */
export function layoutCorpus(perFamily = 17): BenchCase[] {
  const cases: BenchCase[] = [];
  Object.entries(FAMILIES).forEach(([family, build], f) => {
    for (let v = 0; v < perFamily; v++) {
      const r = rng(1000 * f + v + 1);
      const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${family} ${v}</title>
<style>
  body { font: 16px/1.4 serif; margin: 8px; }
  h3 { margin: 0.5em 0; font: bold 1.1em sans-serif; }
  td, th { vertical-align: top; }
</style>
</head>
<body>
${build(r)}
</body>
</html>`;
      cases.push({ id: `${family}-${v}`, family, html });
    }
  });
  return cases;
}

/** What a fixture's page adds to the base stylesheet: mostly nothing, else something that decides the viewport's scrollbars. */
const SCROLLBAR_STYLES = [
  '',
  '',
  '',
  '',
  '::-webkit-scrollbar { width: 15px; height: 15px; }',
  '::-webkit-scrollbar { width: 8px; }',
  'html { overflow: scroll; }',
  'html { overflow-y: auto; scrollbar-gutter: stable; }',
  'html { scrollbar-width: thin; }',
  'body { overflow: hidden; }',
];

/**
 * Layout fixtures as test suites write them: one tree of nested divs, each styled inline (block,
 * inline-block, flex or grid, sometimes absolutely placed), over a base stylesheet; about two in
 * five sized past the viewport, so that it scrolls.
 */
export function layoutFixtures(count: number, seed = 1): BenchCase[] {
  const r = rng(seed);
  const length = (big: boolean) => pick(r, ['auto', `${int(r, 0, big ? 1400 : 300)}px`, `${int(r, 0, 150)}%`]);
  const box = (depth: number, big: boolean): string => {
    const display = pick(r, ['flex', 'flex', 'grid', 'block', 'inline-block', 'inline-flex']);
    const style = [`display:${display}`];
    if (r() < 0.25) style.push('position:absolute', `left:${int(r, -20, 400)}px`, `top:${int(r, -20, 700)}px`);
    if (r() < 0.6) style.push(`width:${length(big)}`);
    if (r() < 0.6) style.push(`height:${length(big)}`);
    if (r() < 0.3) style.push(`padding:${int(r, 0, 20)}px`);
    if (r() < 0.3) style.push(`margin:${int(r, -10, 30)}px`);
    if (display.endsWith('flex') && r() < 0.6) {
      style.push(`flex-direction:${pick(r, ['row', 'column', 'row-reverse'])}`, `flex-wrap:${pick(r, ['wrap', 'nowrap'])}`);
    }
    if (display === 'grid') style.push(`grid-template-columns:${pick(r, ['1fr', 'auto 1fr', `${int(r, 10, 300)}px minmax(20px,1fr)`])}`);
    if (r() < 0.3) style.push(`flex-grow:${int(r, 0, 3)}`);
    if (r() < 0.15) style.push(`overflow:${pick(r, ['hidden', 'auto', 'scroll'])}`);
    const children = depth < 4 ? int(r, 0, depth === 0 ? 5 : 3) : 0;
    const inner = Array.from({ length: children }, () => box(depth + 1, big)).join('') + (r() < 0.3 ? text(r, int(r, 1, 6)) : '');
    return `<div${depth === 0 ? ' id="test-root"' : ''} style="${style.join(';')}">${inner}</div>`;
  };
  return Array.from({ length: count }, (_, i) => {
    const html = `<!doctype html>
<html>
<head>
<meta charset="utf-8">
<style>
  body { margin: 0; padding: 0; font: 10px/1 sans-serif; }
  div { box-sizing: border-box; position: relative; border: 0 solid; margin: 0; padding: 0; }
  ${pick(r, SCROLLBAR_STYLES)}
</style>
</head>
<body>${box(0, r() < 0.4)}</body>
</html>`;
    return { id: `fixture-${seed}-${i}`, family: 'fixture', html };
  });
}
