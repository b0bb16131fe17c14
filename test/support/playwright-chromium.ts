// The oracle's Chromium launched by playwright-core instead of the adapter: the same executable,
// environment and command line (Playwright's defaults are off, since the adapter's switches
// already are Playwright's), for tests that open pages through Playwright's API.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import type { EngineLaunch } from '../../src/worker-contract/launch.js';
import { browserEnv } from '../../src/workers/engines/env.js';
import { chromiumExecutable } from '../../src/workers/engines/chromium/executable.js';
import { transportSwitches } from '../../src/workers/engines/chromium/process.js';
import { chromiumArgs } from '../../src/workers/engines/chromium/switches.js';

/** Chromium as the adapter starts it for `options`, driven by Playwright; closing it removes its profile too. */
export async function launchPlaywrightChromium(options: EngineLaunch): Promise<Browser> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'browser-oracle-playwright-'));
  try {
    const browser = await chromium.launch({
      headless: true,
      executablePath: await chromiumExecutable(options),
      ignoreDefaultArgs: true,
      args: [...chromiumArgs(options), ...transportSwitches(userDataDir)],
      env: browserEnv(options),
    });
    browser.once('disconnected', () => void rm(userDataDir, { recursive: true, force: true, maxRetries: 3 }));
    return browser;
  } catch (error) {
    await rm(userDataDir, { recursive: true, force: true });
    throw error;
  }
}
