// Chromium and Firefox (and Playwright's own WebKit build, where installed) are driven
// through playwright-core. This module is the part they share; each engine's module
// supplies only how to launch it.
import type { Browser, BrowserContext, BrowserType, LaunchOptions as PwLaunchOptions, Page } from 'playwright-core';
import type { EngineName } from '../../protocol/schema.js';
import { OracleError } from '../../protocol/errors.js';
import { VIEWPORT, type EngineBrowser, type EnginePage } from '../engine.js';

const PAGE_CLOSE_GRACE_MS = 5_000;

export async function launchPlaywright(
  engine: EngineName,
  browserType: BrowserType,
  launchOptions: PwLaunchOptions,
  /** Granted to every page (a launch profile's, see profiles.ts). */
  permissions: string[] = [],
): Promise<EngineBrowser> {
  const browser = await browserType.launch({ headless: true, ...launchOptions });
  let context: BrowserContext;
  try {
    context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1, javaScriptEnabled: true });
    if (permissions.length) await context.grantPermissions(permissions);
  } catch (error) {
    await browser.close().catch(() => {});
    throw error;
  }
  return new PlaywrightBrowser(engine, browser, context);
}

class PlaywrightBrowser implements EngineBrowser {
  readonly version: string;
  readonly exited: Promise<void>;

  constructor(
    readonly engine: EngineName,
    private readonly browser: Browser,
    private readonly context: BrowserContext,
  ) {
    this.version = browser.version();
    this.exited = new Promise((resolve) => browser.once('disconnected', () => resolve()));
  }

  async newPage(): Promise<EnginePage> {
    return new PlaywrightPage(this.engine, await this.context.newPage());
  }

  async close(): Promise<void> {
    await this.browser.close().catch(() => {});
  }
}

class PlaywrightPage implements EnginePage {
  constructor(
    private readonly engine: EngineName,
    private readonly page: Page,
  ) {}

  async load(url: string, timeoutMs: number): Promise<void> {
    try {
      await this.page.goto(url, { waitUntil: 'load', timeout: timeoutMs });
    } catch (error) {
      throw new OracleError('navigation_failed', `${this.engine} could not load the case: ${firstLine(error)}`);
    }
  }

  async call<T>(functionSource: string, args: readonly unknown[]): Promise<T> {
    const call = `(${functionSource})(${args.map((a) => JSON.stringify(a)).join(', ')})`;
    try {
      return (await this.page.evaluate(call)) as T;
    } catch (error) {
      // A page or browser that went away under the call is a crash, not the case's exception.
      if (this.page.isClosed() || !this.page.context().browser()?.isConnected()) throw error;
      throw new OracleError('script_error', firstLine(error).replace(/^page\.evaluate: /, ''));
    }
  }

  async close(): Promise<void> {
    await Promise.race([
      this.page.close({ runBeforeUnload: false }).catch(() => {}),
      new Promise((resolve) => setTimeout(resolve, PAGE_CLOSE_GRACE_MS).unref()),
    ]);
  }
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
}
