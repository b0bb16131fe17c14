// Firefox: Debian's firefox-esr driven over WebDriver BiDi by the oracle's own small client (the
// research behind it: trusted programs in a BiDi sandbox the page cannot subvert, and no
// Playwright subscription that costs ~40 ms per written document).
import type { LaunchEngine } from '../../engine.js';
import { FirefoxBrowser } from './browser.js';
import { BidiConnection } from './connection.js';
import { Marionette } from './marionette.js';
import { SYSTEM_FIREFOX, startFirefox } from './process.js';
import { START_LIMIT_MS, withDeadline } from '../time-limits.js';

export const launchFirefox: LaunchEngine = async (options) => {
  const executable = options.paths.firefox ?? SYSTEM_FIREFOX;
  const firefox = await startFirefox(options, executable);
  try {
    return await withDeadline(
      (async () => {
        const connection = await BidiConnection.open(`${firefox.wsUrl}/session`);
        const marionette = options.profile === 'devices' ? await Marionette.open(firefox.profile) : undefined;
        return FirefoxBrowser.start(firefox, connection, { firefox: executable }, marionette);
      })(),
      START_LIMIT_MS,
      () => new Error(`firefox-esr did not start a WebDriver BiDi session within ${START_LIMIT_MS} ms`),
    );
  } catch (error) {
    firefox.kill();
    await firefox.exited;
    throw error;
  }
};
