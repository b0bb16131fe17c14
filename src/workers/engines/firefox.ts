// Firefox: Playwright's Juggler build where installed; otherwise Debian's firefox-esr over
// WebDriver BiDi (stock Firefox has no Juggler). playwright-core is pinned for this path:
// see the note beside the pin in package.json.
import { firefox } from 'playwright-core';
import type { LaunchEngine } from '../engine.js';
import { browserEnv, useBundled } from './bundled.js';
import { launchPlaywright } from './playwright-browser.js';
import { firefoxIsolationPrefs } from './network-isolation.js';
import { PROFILES } from './profiles.js';

export const SYSTEM_FIREFOX = '/usr/bin/firefox-esr';

const PREFS = {
  'layout.css.devPixelsPerPx': '1.0',
  // A hung case is ended by the oracle's own timeout, not by a slow-script dialog.
  'dom.max_script_run_time': 0,
};

export const launchFirefox: LaunchEngine = (options) => {
  const bundled = useBundled(firefox, options);
  return launchPlaywright('firefox', firefox, {
    ...(bundled ? {} : { channel: 'moz-firefox', executablePath: SYSTEM_FIREFOX }),
    firefoxUserPrefs: { ...PREFS, ...firefoxIsolationPrefs(options.proxyUrl), ...PROFILES[options.profile].firefoxPrefs },
    env: browserEnv(options),
  });
};
