// Chromium launched through playwright-core: Debian's binary (not its /usr/bin/chromium wrapper,
// which adds host-dependent switches and Google API keys), or Playwright's own build where one is
// installed. Every page gets a browser context of its own, so a page never shares storage or a
// renderer process with another, and closing it ends everything its case started.
import { chromium, type Browser, type LaunchOptions as PlaywrightLaunchOptions } from 'playwright-core';
import type { LaunchOptions } from '../../../farm/launch.js';
import type { Executables } from '../../../protocol/launch-options.js';
import { VIEWPORT, type EngineBrowser, type EnginePage, type LaunchEngine } from '../../engine.js';
import { browserEnv, useBundled } from '../bundled.js';
import { ChromiumPage } from './page.js';
import { PLAYWRIGHT_DISABLED_FEATURES, PROFILE_PERMISSIONS, chromiumArgs } from './switches.js';

export const SYSTEM_CHROMIUM = '/usr/lib/chromium/chromium';

/**
 * How Playwright launches the oracle's Chromium for `options`: the executable, the switches and
 * the environment. Exported so that whatever else must see pages as the oracle's Chromium does (a
 * test opening a report) launches it the same way.
 */
export function chromiumLaunchOptions(options: LaunchOptions): PlaywrightLaunchOptions & { executablePath: string } {
  // A given executable is launched whatever --browsers says; else Playwright's build, else Debian's.
  const executable = options.paths.chromium ?? (useBundled(chromium, options) ? chromium.executablePath() : SYSTEM_CHROMIUM);
  return {
    headless: true,
    executablePath: executable,
    args: chromiumArgs(options.proxyUrl, options.profile, options.extra.chromiumArgs),
    ignoreDefaultArgs: [`--disable-features=${PLAYWRIGHT_DISABLED_FEATURES.join(',')}`],
    env: browserEnv(options),
  };
}

export const launchChromium: LaunchEngine = async (options) => {
  const launch = chromiumLaunchOptions(options);
  return new ChromiumBrowser(await chromium.launch(launch), options, { chromium: launch.executablePath });
};

class ChromiumBrowser implements EngineBrowser {
  readonly engine = 'chromium' as const;
  readonly guarded = false;
  readonly version: string;
  readonly exited: Promise<void>;

  constructor(
    private readonly browser: Browser,
    private readonly options: LaunchOptions,
    readonly executables: Executables,
  ) {
    this.version = browser.version();
    this.exited = new Promise((resolve) => browser.once('disconnected', () => resolve()));
  }

  async newPage(): Promise<EnginePage> {
    const context = await this.browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1, acceptDownloads: false });
    try {
      const permissions = PROFILE_PERMISSIONS[this.options.profile];
      if (permissions.length) await context.grantPermissions(permissions);
      const page = await context.newPage();
      return new ChromiumPage(context, page, await context.newCDPSession(page));
    } catch (error) {
      await context.close().catch(() => {});
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.browser.close().catch(() => {});
  }
}
