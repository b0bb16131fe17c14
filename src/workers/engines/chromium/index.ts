// Chromium: Debian's binary (or Playwright's build, or the user's) driven over the DevTools
// protocol by the oracle's own small client on --remote-debugging-pipe: nothing a page logs or
// throws is sent to Node, and every message is bounded as it is read (the research behind it:
// Playwright's page session received, and kept, every console call in full).
import type { LaunchEngine } from '../../engine.js';
import { browserEnv } from '../env.js';
import { START_LIMIT_MS, withDeadline } from '../time-limits.js';
import { ChromiumBrowser } from './browser.js';
import { ConnectionClosedError } from './connection.js';
import { chromiumExecutable } from './executable.js';
import { startChromium } from './process.js';
import { chromiumArgs } from './switches.js';

export const launchChromium: LaunchEngine = async (options) => {
  const executable = await chromiumExecutable(options);
  const chromium = await startChromium(executable, chromiumArgs(options), browserEnv(options));
  try {
    const browser = await withDeadline(
      ChromiumBrowser.start(chromium, options, { chromium: executable }),
      START_LIMIT_MS,
      () => new Error(`chromium did not answer on its DevTools pipe within ${START_LIMIT_MS} ms`),
    );
    chromium.started();
    return browser;
  } catch (error) {
    if (error instanceof ConnectionClosedError) throw new Error(`chromium did not start: ${await chromium.failure()}`);
    chromium.kill();
    await chromium.exited;
    throw error;
  }
};
