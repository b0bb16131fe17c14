// `browser-oracle report` end to end: a real campaign on the three engines, one of its findings
// reduced, the report written by the real command (its screenshots taken by the screenshot op on
// the farm it starts), then opened from its file:// URL in the headless Chromium the oracle runs,
// launched with the adapter's own switches. It must load cleanly and alone, show every bucket's
// three pictures with their box overlays, copy a request, look like something, and be where
// `summary` says.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { ENGINE_NAMES } from '../../src/protocol/schema.js';
import { DUMP_REQUESTS } from '../fixtures/dumps/requests.js';
import { readJournal, runCli } from '../support/campaign-process.js';
import { launchOptions } from '../support/direct-engines.js';
import { launchPlaywrightChromium } from '../support/playwright-chromium.js';
import { ONE_PAGE, UNHURRIED } from '../support/oracle-process.js';

const root = mkdtempSync(join(tmpdir(), 'report-e2e-'));
const FARM = [...ONE_PAGE, UNHURRIED];
const db = join(root, 'run.sqlite');
const file = join(root, 'report.html');
let url: string;
let browser: Browser;
let buckets: { signature: string; example: string; op: string | null; verdict: string | null }[];

before(async () => {
  const generated = await runCli(['campaign', '--generate', '3', '--seed', '7', '--emit']);
  const corpus = join(root, 'cases.ndjson');
  writeFileSync(
    corpus,
    [
      JSON.stringify({ id: 'text-line', ...DUMP_REQUESTS['text-line'] }),
      JSON.stringify({ id: 'agree', ...DUMP_REQUESTS.agree }),
      ...generated.stdout.trim().split('\n'),
      '{"id": "broken", "html": "<p>unclosed',
    ].join('\n') + '\n',
  );
  for (const args of [
    ['campaign', '--db', db, '--corpus', corpus, '--quiet', ...FARM],
    ['reduce', '--db', db, '--case', 'text-line', '--quiet', ...FARM],
  ]) {
    const run = await runCli(args);
    assert.equal(run.code, 0, `${args[0]}: ${run.stderr}`);
  }
  const report = await runCli(['report', '--db', db, '-o', file, ...FARM]);
  assert.equal(report.code, 0, report.stderr);
  assert.equal(report.stdout, `${file}\n`);
  buckets = readJournal(db, (sql) =>
    sql
      .prepare<[], (typeof buckets)[number]>(
        `SELECT signature, id AS example, op, verdict, MIN(seq) FROM cases WHERE signature IS NOT NULL GROUP BY signature ORDER BY COUNT(*) DESC, signature`,
      )
      .all(),
  );
  assert.ok(buckets.filter((b) => b.op !== null).length >= 2, 'findings to show');
  url = pathToFileURL(file).href;
  // The oracle's own Chromium, as its adapter launches it; the proxy is a port nothing listens on, so a fetch would fail.
  browser = await launchPlaywrightChromium(launchOptions('http://127.0.0.1:9'));
});

after(async () => {
  await browser?.close();
  rmSync(root, { recursive: true, force: true });
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

test('the report loads from its file alone: no console errors, nothing fetched but itself and its data: images', async () => {
  const { page, errors, requests } = await open();
  try {
    assert.deepEqual(errors, []);
    for (const r of requests) assert.ok(r === url || r.startsWith('data:image/png;base64,'), r.slice(0, 100));
    // Every image decoded, at the viewport's size: a data: image that failed would have no natural size.
    const sizes = await page.$$eval('img', (images) =>
      images.map((i) => [(i as HTMLImageElement).naturalWidth, (i as HTMLImageElement).naturalHeight]),
    );
    assert.equal(sizes.length, 3 * buckets.filter((b) => b.op !== null).length);
    for (const size of sizes) assert.deepEqual(size, [800, 600]);
  } finally {
    await page.context().close();
  }
});

test('every bucket has three screenshots, each with an overlay of its boxes and the failing node highlighted', async () => {
  const { page, errors } = await open();
  try {
    const sections = await page.$$eval('section.bucket', (list) =>
      list.map((s) => ({
        title: s.querySelector('h2 code')?.textContent ?? '',
        reduced: s.querySelector('h3 .tag')?.textContent ?? null,
        figures: [...s.querySelectorAll('figure.engine')].map((f) => ({
          engine: f.getAttribute('data-engine'),
          shown: f.querySelector('img.shot')?.getBoundingClientRect().width ?? 0,
          boxes: f.querySelectorAll('svg.overlay rect.box').length,
          // Drawn, not just present: the highlighted box's area on screen.
          hit: [...f.querySelectorAll('svg.overlay .hit rect.box')].map(
            (r) => r.getBoundingClientRect().width * r.getBoundingClientRect().height,
          ),
        })),
      })),
    );
    assert.deepEqual(
      sections.map((s) => s.title),
      buckets.map((b) => b.signature),
    );
    for (const [i, bucket] of buckets.entries()) {
      const section = sections[i]!;
      if (bucket.op === null) {
        assert.deepEqual(section.figures, [], 'an invalid item never ran: no engines');
        continue;
      }
      assert.deepEqual(
        section.figures.map((f) => f.engine),
        [...ENGINE_NAMES],
        bucket.signature,
      );
      for (const f of section.figures) {
        assert.ok(f.shown > 0, `${bucket.signature}: ${f.engine}'s screenshot is shown`);
        assert.ok(f.boxes > 0, `${bucket.signature}: ${f.engine}'s boxes are drawn over it`);
        assert.equal(f.hit.length, 1, `${bucket.signature}: ${f.engine}'s failing node is highlighted`);
        assert.ok(f.hit[0]! > 0, `${bucket.signature}: ${f.engine}'s failing node is drawn`);
      }
      assert.equal(section.reduced, bucket.example === 'text-line' ? 'reduced' : null, `${bucket.signature}: shown reduced when reduced`);
    }
    assert.deepEqual(errors, []);
  } finally {
    await page.context().close();
  }
});

test('the copy button copies the request, with the clipboard API or without it', async () => {
  const { page, errors } = await open();
  try {
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

test('summary says where the report is while it exists', async () => {
  const shown = await runCli(['summary', '--db', db]);
  assert.equal(shown.code, 0, shown.stderr);
  assert.equal(shown.stdout.trimEnd().split('\n').at(-1), `report: ${file}`);
  rmSync(file);
  const gone = await runCli(['summary', '--db', db]);
  assert.doesNotMatch(gone.stdout, /report:/);
});
