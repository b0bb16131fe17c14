// Debian's Chromium as the oracle launches it (src/workers/engines/chromium.ts), for the report's
// tests: screenshots of the recorded cases, and the report itself opened from a file:// URL.
import { chromium, type Browser } from 'playwright-core';
import { FONT_SETS } from '../../src/fonts/font-sets.js';
import { ownedEnv } from '../../src/system/processes.js';

const EXECUTABLE = '/usr/lib/chromium/chromium';

// The oracle's flags (chromium.ts keeps them private; keep the two lists alike).
const ARGS = [
  '--no-sandbox',
  '--force-device-scale-factor=1',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-site-isolation-trials',
  '--disable-features=IsolateSandboxedIframes,site-per-process,BackForwardCache,RenderDocument,ProactivelySwapBrowsingInstance',
];

/** Headless Chromium with the oracle's flags and its Liberation font set (the fixtures were recorded with it). */
export const launchReportChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: EXECUTABLE,
    headless: true,
    args: ARGS,
    env: { ...ownedEnv(), FONTCONFIG_FILE: FONT_SETS.liberation.fontconfigFile },
  });

/** A PNG of the 800×600 viewport after loading `html` and running `script` as a classic script (what it throws is the case's, left alone). */
export async function screenshotCase(browser: Browser, html: string, script?: string): Promise<Uint8Array> {
  const context = await browser.newContext({ viewport: { width: 800, height: 600 }, deviceScaleFactor: 1 });
  try {
    const page = await context.newPage();
    await page.setContent(html, { waitUntil: 'load' });
    if (script) await page.addScriptTag({ content: script });
    return await page.screenshot({ type: 'png' });
  } finally {
    await context.close();
  }
}
