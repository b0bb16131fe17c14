#!/usr/bin/env node
// Renders docs/report-example.png, the picture of a report in README.md: the sample report of the
// recorded dumps (test/support/report-sample.ts) in the oracle's headless Chromium, showing the
// summary, the bucket table and the text-line bucket. Only Chromium runs here, so only its
// screenshots are real; the other engines' panels say so and show their boxes alone.
//
//   npx tsc -b && node scripts/render-report-example.mjs
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const built = (path) => `${root}dist/${path}`;
for (const path of ['src/report/render.js', 'test/support/report-sample.js', 'test/support/report-chromium.js']) {
  if (!existsSync(built(path))) {
    process.stderr.write(`render-report-example: ${built(path)} is missing; build first with \`npx tsc -b\`\n`);
    process.exit(2);
  }
}
const { renderReport } = await import(built('src/report/render.js'));
const { sampleReportInput } = await import(built('test/support/report-sample.js'));
const { launchReportChromium, screenshotCase } = await import(built('test/support/report-chromium.js'));

const dir = mkdtempSync(join(tmpdir(), 'report-example-'));
const browser = await launchReportChromium();
try {
  const input = await sampleReportInput(async (engine, request) =>
    engine === 'chromium'
      ? { png: await screenshotCase(browser, request.html, request.script) }
      : { png: null, error: 'only Chromium ran for this picture' },
  );
  const file = join(dir, 'report.html');
  writeFileSync(file, renderReport(input));
  // bypassCSP: the picture hides the other buckets with a style of its own, which the report's policy refuses.
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 }, deviceScaleFactor: 1, bypassCSP: true });
  const page = await context.newPage();
  await page.goto(pathToFileURL(file).href);
  const shown = await page.$$eval(
    'section.bucket',
    (sections) => sections.find((s) => s.querySelector('h2 code')?.textContent?.startsWith('outlier'))?.id,
  );
  await page.addStyleTag({ content: `section.bucket:not(#${shown}) { display: none; } details { display: none; }` });
  const out = `${root}docs/report-example.png`;
  await page.screenshot({ path: out, fullPage: true });
  process.stderr.write(`render-report-example: wrote ${out}\n`);
} finally {
  await browser.close();
  rmSync(dir, { recursive: true, force: true });
}
