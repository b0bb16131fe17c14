// Firefox: Debian's firefox-esr driven over WebDriver BiDi by the oracle's own small client (the
// research behind it: trusted programs in a BiDi sandbox the page cannot subvert, and no
// Playwright subscription that costs ~40 ms per written document).
import type { LaunchEngine } from '../../engine.js';
import { FirefoxBrowser } from './browser.js';
import { BidiConnection } from './connection.js';
import { startFirefox } from './process.js';

export const launchFirefox: LaunchEngine = async (options) => {
  const firefox = await startFirefox(options);
  try {
    return await FirefoxBrowser.start(firefox, await BidiConnection.open(`${firefox.wsUrl}/session`));
  } catch (error) {
    firefox.kill();
    await firefox.exited;
    throw error;
  }
};
