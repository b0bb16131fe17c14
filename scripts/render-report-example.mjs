#!/usr/bin/env node
// Renders docs/report-example.png, the picture of a report in README.md, from a real report
// (`browser-oracle report`): opened in the oracle's own headless Chromium, launched as its adapter
// launches it, showing the summary, the first rows of the bucket table and the first bucket whose
// example is shown reduced (else the first outlier bucket); the rest is hidden, not changed.
//
//   npm run build && node scripts/render-report-example.mjs report.html
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const report = process.argv[2];
const launcher = `${root}dist/test/support/playwright-chromium.js`;
if (!report || !existsSync(report)) {
  process.stderr.write('render-report-example: give the report to picture: node scripts/render-report-example.mjs REPORT.html\n');
  process.exit(2);
}
if (!existsSync(launcher)) {
  process.stderr.write(`render-report-example: ${launcher} is missing; build first with \`npm run build\`\n`);
  process.exit(2);
}
const { launchPlaywrightChromium } = await import(launcher);
const { launchOptions } = await import(`${root}dist/test/support/direct-engines.js`);

// Nothing listens at the proxy's address: the report needs no network, and gets none.
const browser = await launchPlaywrightChromium(launchOptions('http://127.0.0.1:9'));
try {
  // bypassCSP: the picture hides the other buckets with a style of its own, which the report's policy refuses.
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 }, deviceScaleFactor: 1, bypassCSP: true });
  const page = await context.newPage();
  await page.goto(pathToFileURL(resolve(report)).href);
  const shown = await page.$$eval('section.bucket', (sections) => {
    const reduced = sections.find((s) => s.querySelector('h3 .tag')?.textContent === 'reduced');
    return (reduced ?? sections.find((s) => s.querySelector('h2 code')?.textContent?.startsWith('outlier')) ?? sections[0])?.id;
  });
  await page.addStyleTag({
    content: `section.bucket:not(#${shown}), details, table.buckets tr:nth-child(n+10) { display: none; }`,
  });
  const out = `${root}docs/report-example.png`;
  await page.screenshot({ path: out, fullPage: true });
  process.stderr.write(`render-report-example: wrote ${out}\n`);
} finally {
  await browser.close();
}
