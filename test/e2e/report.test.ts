// The report in the real headless Chromium the oracle uses: rendered from the recorded dumps with
// screenshots that Chromium takes of the recorded cases, written to a file and opened from its
// file:// URL. It must load cleanly and alone, show every bucket's pictures and overlays, copy a
// request with or without the clipboard API, and look like something (a screenshot that is not blank).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { ENGINE_NAMES } from '../../src/protocol/schema.js';
import type { ReportInput } from '../../src/report/input.js';
import { renderReport } from '../../src/report/render.js';
import { DUMP_REQUESTS } from '../fixtures/dumps/requests.js';
import { launchReportChromium, screenshotCase } from '../support/report-chromium.js';
import { sampleReportInput } from '../support/report-sample.js';

let browser: Browser;
let dir: string;
let input: ReportInput;
let url: string;

/** The case whose engines all get no screenshot (as when the screenshot op fails), so placeholders show. */
const NO_SCREENSHOTS = DUMP_REQUESTS.overflow.html;

before(async () => {
  browser = await launchReportChromium();
  const shots = new Map<string, Uint8Array>();
  input = await sampleReportInput(async (engine, request) => {
    if (request.html === NO_SCREENSHOTS) return { png: null, error: 'navigation_failed: no screenshot in this test' };
    if (request.script && engine === 'firefox') return { png: null, error: 'script_error: Error: recorded failure' };
    const key = JSON.stringify(request);
    if (!shots.has(key)) shots.set(key, await screenshotCase(browser, request.html, request.script));
    return { png: shots.get(key)! };
  });
  assert.ok(
    [...input.examples.values()].some((c) => c.op !== null && ENGINE_NAMES.every((e) => c.engines[e]?.screenshot === null)),
    'the sample has a case without screenshots',
  );
  dir = mkdtempSync(join(tmpdir(), 'report-e2e-'));
  const file = join(dir, 'report.html');
  writeFileSync(file, renderReport(input));
  url = pathToFileURL(file).href;
});

after(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The report open in a fresh page, with everything it logged, threw and asked for. */
async function open(): Promise<{ page: Page; errors: string[]; requests: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') errors.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => errors.push(`request failed: ${r.url().slice(0, 100)}`));
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(url, { waitUntil: 'load' });
  return { page, errors, requests };
}

test('the report loads from its file alone: no console errors, no failed requests, nothing fetched but itself and its data: images', async () => {
  const { page, errors, requests } = await open();
  try {
    assert.deepEqual(errors, []);
    assert.ok(requests.length >= 1);
    for (const r of requests) assert.ok(r === url || r.startsWith('data:image/png;base64,'), r.slice(0, 100));
    // Every image decoded: a data: image that failed would have no natural size.
    const sizes = await page.$$eval('img', (images) =>
      images.map((i) => [(i as HTMLImageElement).naturalWidth, (i as HTMLImageElement).naturalHeight]),
    );
    assert.ok(sizes.length > 0);
    for (const size of sizes) assert.deepEqual(size, [800, 600]);
  } finally {
    await page.context().close();
  }
});

test('every bucket has three engine pictures (or placeholders) with their box overlays, and the failing node highlighted', async () => {
  const { page, errors } = await open();
  try {
    const sections = await page.$$eval('section.bucket', (list) =>
      list.map((s) => ({
        id: s.id,
        figures: [...s.querySelectorAll('figure.engine')].map((f) => ({
          engine: f.getAttribute('data-engine'),
          image: f.querySelector('img.shot') !== null,
          placeholder: f.querySelector('.placeholder')?.textContent ?? null,
          boxes: f.querySelectorAll('svg.overlay rect.box').length,
          // Drawn, not just present: the highlighted box's size on screen.
          hit: [...f.querySelectorAll('svg.overlay .hit rect.box')].map((r) => {
            const box = r.getBoundingClientRect();
            return box.width * box.height;
          }),
        })),
      })),
    );
    assert.equal(sections.length, input.summary.buckets.length);
    let highlighted = 0;
    for (const [i, bucket] of input.summary.buckets.entries()) {
      const c = input.examples.get(bucket.signature)!;
      const section = sections[i]!;
      assert.equal(section.id, `bucket-${i + 1}`);
      if (c.op === null) {
        assert.deepEqual(section.figures, [], 'an invalid item has no engines');
        continue;
      }
      assert.deepEqual(
        section.figures.map((f) => f.engine),
        [...ENGINE_NAMES],
      );
      for (const [k, f] of section.figures.entries()) {
        const result = c.engines[ENGINE_NAMES[k]!]!;
        assert.equal(f.image, result.screenshot !== null, `${c.id} ${f.engine}`);
        assert.equal(f.placeholder !== null, result.screenshot === null);
        if (result.screenshotError) assert.ok(f.placeholder!.includes(result.screenshotError));
        assert.equal(f.boxes > 0, result.dump !== undefined, `${c.id} ${f.engine}: an overlay of its boxes`);
        if (c.vote?.verdict === 'outlier' || c.vote?.verdict === 'split') {
          assert.equal(f.hit.length, 1, `${c.id} ${f.engine}: the failing node`);
          assert.ok(f.hit[0]! > 0, `${c.id} ${f.engine}: the failing node is drawn`);
          highlighted++;
        }
      }
    }
    assert.ok(highlighted >= 3);
    assert.deepEqual(errors, []);
  } finally {
    await page.context().close();
  }
});

test("the case's html shows as text, and the copy button copies the request, with the clipboard API or without it", async () => {
  const { page, errors } = await open();
  try {
    const first = input.examples.get(input.summary.buckets[0]!.signature)!;
    const shown = first.reduced?.request ?? first.request;
    assert.equal(await page.inputValue('#request-1'), shown);
    const html = (JSON.parse(shown) as { html?: string }).html;
    if (html !== undefined) assert.equal(await page.textContent('#bucket-1 pre.html'), html);

    await page.click('#bucket-1 button[data-copy]');
    await page.waitForFunction(() => document.querySelector('#bucket-1 .copy-status')?.textContent !== '');
    // With the API gone, the script falls back and says what it did; it must not throw.
    await page.evaluate(() => Object.defineProperty(navigator, 'clipboard', { value: undefined }));
    await page.click('#bucket-2 button[data-copy]');
    const status = await page.waitForFunction(() => document.querySelector('#bucket-2 .copy-status')?.textContent || null);
    assert.match(String(await status.jsonValue()), /copied|selected/);
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'request-2', 'the request is selected for the reader');
    assert.deepEqual(errors, []);
  } finally {
    await page.context().close();
  }
});

test('a screenshot of the report is not blank', async () => {
  const { page } = await open();
  try {
    const png = PNG.sync.read(await page.screenshot({ type: 'png', fullPage: true }));
    const luma: number[] = [];
    const colors = new Set<number>();
    for (let at = 0; at < png.data.length; at += 4) {
      const [r, g, b] = [png.data[at]!, png.data[at + 1]!, png.data[at + 2]!];
      luma.push(0.299 * r + 0.587 * g + 0.114 * b);
      colors.add((r << 16) | (g << 8) | b);
    }
    const mean = luma.reduce((s, v) => s + v, 0) / luma.length;
    const variance = luma.reduce((s, v) => s + (v - mean) ** 2, 0) / luma.length;
    assert.ok(png.height > 900, `the page is longer than one screen (${png.height} px)`);
    assert.ok(variance > 100, `luminance varies (variance ${variance.toFixed(1)})`);
    assert.ok(colors.size > 50, `many colours (${colors.size})`);
  } finally {
    await page.context().close();
  }
});
