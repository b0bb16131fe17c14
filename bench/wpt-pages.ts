// WPT-like layout pages for the bench, made here (no WPT file): each page loads Ahem through
// /fonts/ahem.css (the project's square font as fonts/Ahem.ttf) and an image from its support
// folder, carries a paragraph of prose in the system font above the elements under test, which
// carry check-layout attributes, calls checkLayout() through the layout route's stand-in harness,
// and is taller than the viewport, so it scrolls. Each is one vote request of the layout route:
// site, wait "testharness", authored scope.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Site } from '../src/protocol/site-schema.js';
import { STAND_INS } from '../src/wpt/stand-ins.js';
import type { BenchCase } from '../test/support/layout-corpus.js';
import { greenPng } from '../test/support/wpt-checkout.js';

const SQUARE_FONT = fileURLToPath(new URL('../../dist/fonts/BrowserOracleSquare-Regular.otf', import.meta.url));

const PROSE =
  'This test checks that flex items of Ahem text are laid out at the sizes and offsets their attributes say; the prose above them is in the system font.';

/** `count` pages, varied by index: item count, widths, wrapping, text length, page height. */
export function wptPages(count: number): BenchCase[] {
  const files: Site['files'] = {
    'fonts/ahem.css': "@font-face { font-family: Ahem; src: url('/fonts/Ahem.ttf'); }",
    'fonts/Ahem.ttf': { base64: readFileSync(SQUARE_FONT).toString('base64') },
    'css/bench/support/green.png': { base64: greenPng(60, 60).toString('base64') },
    ...Object.fromEntries(STAND_INS),
  };
  return Array.from({ length: count }, (_, i) => {
    const items = 3 + (i % 6);
    const width = 200 + (i % 5) * 60;
    const cells = Array.from({ length: items }, (_, k) => {
      const chars = 1 + ((i + k) % 4);
      return `<span class="item" data-expected-width="${chars * 20}" data-expected-height="20">${'X'.repeat(chars)}</span>`;
    }).join('\n  ');
    const path = `css/bench/page-${i}.html`;
    const html = `<!DOCTYPE html>
<title>Bench page ${i}</title>
<link rel="stylesheet" href="/fonts/ahem.css">
<script src="/resources/testharness.js"></script>
<script src="/resources/testharnessreport.js"></script>
<script src="/resources/check-layout-th.js"></script>
<style>
.flex { display: flex; flex-wrap: ${i % 2 ? 'wrap' : 'nowrap'}; align-items: flex-start; width: ${width}px; gap: ${i % 3}px; }
.item { font: 20px/1 Ahem; }
</style>
<p>${PROSE}</p>
<div class="flex" data-expected-width="${width}">
  ${cells}
  <img src="support/green.png" data-expected-width="60" data-expected-height="60">
</div>
<div style="height: ${700 + (i % 7) * 90}px"></div>
<script>checkLayout('.flex');</script>
`;
    return { id: path, family: 'wpt', html, fields: { site: { path, files }, wait: 'testharness', authored: { scope: ['.flex'] } } };
  });
}
