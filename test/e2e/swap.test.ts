// The fast path's off-document parse and root swap (src/page/swap.ts): a case is swapped in only
// where that gives the document a write gives. Odd documents — quirks, limited quirks, noscript,
// a style sheet or an image that loads, <base>, a declarative shadow root, an rtl or lang'd or
// styled root — each written into the blank page after cases that were swapped, and a case
// that would be swapped written after each, give the dump of the same case in its own document.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dumpJson } from '../../src/protocol/dump.js';
import type { EngineName } from '../../src/protocol/schema.js';
import { mayEnableBidi } from '../../src/workers/host/fast-path.js';
import { DirectEngines } from '../support/direct-engines.js';

const STANDARDS = '<!doctype html><html><head><meta charset="utf-8"><title>t</title></head>';
/** Swappable, and laid out otherwise in quirks mode: the body's percentage height, a table's font. */
const ordinary = (n: number) =>
  `${STANDARDS}<body style="margin:0"><div style="height:${20 + n}%;width:50%;display:flex"><div style="flex:1;height:50%"></div>` +
  `<div style="width:${10 + n}px"></div></div><table><tr><td>ab cd</td></tr></table></body></html>`;
const quirksBody = '<body style="margin:0"><div style="height:40%;width:30px"></div><table><tr><td>ab cd</td></tr></table></body></html>';
const svg = (w: number, h: number) =>
  `data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='${w}' height='${h}'%3E%3C/svg%3E`;

/** The square font (a build product), as a data: URL of its own: `n` makes each URL a new one, which no cache holds. */
const squareFont = (n: number) =>
  `data:font/otf;n=${n};base64,${readFileSync(fileURLToPath(new URL('../../fonts/BrowserOracleSquare-Regular.otf', import.meta.url))).toString('base64')}`;
/** Text in a web font the case carries, as fixture suites carry Ahem, with a character reference in its style sheet. */
const webFont = (n: number) =>
  `${STANDARDS.replace('</head>', `<style>/* &#8203; breaks a line */ @font-face { font-family: own; src: url(${squareFont(n)}) format('opentype'); } p { font: 20px own, serif; width: 90px }</style></head>`)}` +
  '<body><p>XX&#8203;XXX XX</p></body></html>';

/** Each odd document, by what makes it odd. */
const ODD: Record<string, string> = {
  'no doctype (quirks)': `<html><head><meta charset="utf-8"></head>${quirksBody}`,
  'an unfinished doctype (quirks)': `<!DOCTYPE>${quirksBody}`,
  'XHTML 1.0 Transitional (limited quirks)':
    '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">' +
    `<html><body style="margin:0"><table><tr><td><img src="${svg(20, 20)}"></td></tr></table></body></html>`,
  noscript: `${STANDARDS}<body><noscript><div style="height:70px">shown without script</div></noscript><p>after</p></body></html>`,
  'a style sheet from a data: URL': `${STANDARDS.replace('</head>', '<link rel="stylesheet" href="data:text/css,p%7Bheight:77px%7D"></head>')}<body><p>x</p></body></html>`,
  '@import': `${STANDARDS.replace('</head>', '<style>@import url("data:text/css,p{margin:33px}");</style></head>')}<body><p>x</p></body></html>`,
  'an escaped url()': `${STANDARDS}<body><div style="width:10px;height:10px;background:u\\72l(${svg(5, 5)})"></div></body></html>`,
  'an image': `${STANDARDS}<body><p><img src="${svg(50, 60)}"> beside</p></body></html>`,
  '<base href>': `${STANDARDS.replace('<title>', '<base href="http://127.0.0.1:1/elsewhere/"><title>')}<body><a href="x">a link</a></body></html>`,
  'a declarative shadow root': `${STANDARDS}<body><div><template shadowrootmode="open"><div style="height:40px;width:40px"></div></template></div></body></html>`,
  'a <form> the parser associated out of nesting': `${STANDARDS}<body><table><form><tr><td><button>b</button></td></tr></form></table><style>button:default{width:90px}</style></body></html>`,
  'meta color-scheme': `${STANDARDS.replace('</head>', '<meta name="color-scheme" content="dark"></head>')}<body><p>x</p></body></html>`,
  'lang on the root and within':
    '<!doctype html><html lang="ja"><head><meta charset="utf-8"></head><body><p lang="zh">直角 骨</p><p>直角 骨</p></body></html>',
  'a styled root with a title':
    '<!doctype html><html style="font-size:30px;writing-mode:vertical-rl" class="x"><head><title>odd title</title></head><body><p>tall text</p></body></html>',
  'an rtl root': '<!doctype html><html dir="rtl"><head><meta charset="utf-8"></head><body><p>abc <span>def</span> ghi</p></body></html>',
  'a web font of its own (data: URL), used': webFont(1),
  'another web font of its own, used': webFont(2),
  'a web font from the server': webFont(3).replace(/url\(data:[^)]*\)/, 'url(/font.otf)'),
};

const ENGINES = ['chromium', 'firefox', 'webkit'] as const;

describe('a case is swapped in only where that gives the dump of its own document', () => {
  let engines: DirectEngines;
  before(async () => {
    engines = await DirectEngines.open(ENGINES, true);
  });
  after(() => engines.close());

  for (const engine of ENGINES) {
    test(`${engine}: odd documents, each after swapped cases and before one`, async () => {
      // As the fast path orders them: a case that may turn bidi on last, followed by none that may
      // not (src/workers/host/fast-path.ts), since Gecko keeps bidi on through document.open too.
      const odd = Object.entries(ODD);
      const cases: { id: string; html: string }[] = [{ id: 'ordinary 0', html: ordinary(0) }];
      odd.forEach(([id, html], n) => {
        if (!mayEnableBidi(html)) cases.push({ id, html }, { id: `ordinary after ${id}`, html: ordinary(n + 1) });
      });
      for (const [id, html] of odd) if (mayEnableBidi(html)) cases.push({ id, html });
      const own = (e: EngineName, c: { id: string; html: string }) => engines.loadAndWalk(e, c.id.replace(/\W+/g, '-'), c.html);
      const reference: string[] = [];
      for (const c of cases) reference.push(dumpJson(engine, 'v', await own(engine, c)).text);
      await engines.pages.get(engine)!.page.load(engines.blankUrl, 30_000);
      // What the fast path asks of this engine (src/workers/host/fast-path.ts).
      const { browser } = engines.pages.get(engine)!;
      const swaps = (html: string) => browser.traits.swapsWrites && !(browser.traits.writesKeepBidi && mayEnableBidi(html));
      const { walks, swapped } = await engines.batch(
        engine,
        cases.map((c) => c.html),
        cases.map((c) => swaps(c.html)),
      );
      cases.forEach((c, i) => {
        assert.equal(dumpJson(engine, 'v', walks[i]!).text, reference[i], `${c.id}: the dump of its own document`);
      });
      if (!browser.traits.swapsWrites) {
        assert.deepEqual(
          swapped,
          cases.map(() => false),
          'an engine that does not swap writes every case',
        );
        return;
      }
      // The swap was taken where it may be (else this test would hold document.open to itself), but
      // not on the blank page's fresh frame: its first document has no doctype, so it is in quirks
      // mode, like the page after a quirks case, and the first case is written.
      assert.equal(swapped[0], false, "the first case, on the frame's first document (quirks), was written");
      const swappedAt = (id: string) => swapped[cases.findIndex((c) => c.id === id)];
      assert.equal(swappedAt('lang on the root and within'), true, 'a case with lang attributes is swapped in');
      assert.equal(swappedAt('ordinary after lang on the root and within'), true, 'a case after a swapped one is swapped in');
      assert.equal(swappedAt('ordinary after noscript'), true, 'a case after a written one in standards mode is swapped in');
      assert.equal(swappedAt('ordinary after no doctype (quirks)'), false, 'a case after one written in quirks mode is written');
      assert.equal(swappedAt('a web font of its own (data: URL), used'), true, 'a case with a font of its own is swapped in');
      assert.equal(
        swappedAt('another web font of its own, used'),
        true,
        'another font of its own, a data: URL no cache holds, is swapped in too',
      );
      assert.equal(swappedAt('a web font from the server'), false, 'a font from elsewhere is written');
    });
  }
});
