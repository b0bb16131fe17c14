// Chromium and Firefox (and Playwright's own WebKit build, where installed) are driven
// through playwright-core. This module is the part they share; each engine's module
// supplies only how to launch it.
import type { Browser, BrowserContext, BrowserType, LaunchOptions as PwLaunchOptions, Page } from 'playwright-core';
import type { EngineName } from '../../protocol/schema.js';
import { OracleError, firstLine } from '../../protocol/errors.js';
import { EngineGoneError, VIEWPORT, type EngineBrowser, type EnginePage } from '../engine.js';

const PAGE_CLOSE_GRACE_MS = 5_000;
/** How playwright-core words a call whose page, context or browser went away under it. */
const TARGET_GONE = /Target page, context or browser has been closed|Target crashed|Browser has been closed|Connection closed/i;

export async function launchPlaywright(
  engine: EngineName,
  browserType: BrowserType,
  launchOptions: PwLaunchOptions,
  /** Granted to every page (a launch profile's, see profiles.ts). */
  permissions: string[] = [],
): Promise<EngineBrowser> {
  const browser = await browserType.launch({ headless: true, ...launchOptions });
  const launched = new PlaywrightBrowser(engine, browser, permissions);
  try {
    // Fail the launch here, not on the first case, if the browser cannot give a context.
    await (await launched.newPage()).close();
  } catch (error) {
    await browser.close().catch(() => {});
    throw error;
  }
  return launched;
}

class PlaywrightBrowser implements EngineBrowser {
  readonly version: string;
  readonly exited: Promise<void>;

  constructor(
    readonly engine: EngineName,
    private readonly browser: Browser,
    private readonly permissions: string[],
  ) {
    this.version = browser.version();
    this.exited = new Promise((resolve) => browser.once('disconnected', () => resolve()));
  }

  /**
   * Every page gets a context of its own: pages run cases side by side, and a trace page's
   * origin (localhost) is shared by every trace, so a shared context would let two running
   * traces see each other's storage, cookies and broadcast messages.
   */
  async newPage(): Promise<EnginePage> {
    const context = await this.browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1 });
    if (this.permissions.length) await context.grantPermissions(this.permissions);
    return new PlaywrightPage(this.engine, context, await context.newPage());
  }

  async close(): Promise<void> {
    await this.browser.close().catch(() => {});
  }
}

class PlaywrightPage implements EnginePage {
  private crashed = false;

  constructor(
    private readonly engine: EngineName,
    private readonly context: BrowserContext,
    private readonly page: Page,
  ) {
    page.once('crash', () => (this.crashed = true));
  }

  async load(url: string, timeoutMs: number): Promise<void> {
    try {
      await this.page.goto(url, { waitUntil: 'load', timeout: timeoutMs });
    } catch (error) {
      this.throwIfGone(error);
      throw new OracleError('navigation_failed', `${this.engine} could not load the case: ${firstLine(error)}`);
    }
  }

  async call<T>(functionSource: string, args: readonly unknown[]): Promise<T> {
    const call = `(${functionSource})(${args.map((a) => JSON.stringify(a)).join(', ')})`;
    try {
      return (await this.page.evaluate(call)) as T;
    } catch (error) {
      this.throwIfGone(error);
      throw new OracleError('script_error', firstLine(error).replace(/^page\.evaluate: /, ''));
    }
  }

  /** A page, renderer or browser that went away under a call is a crash, not the case's error. */
  private throwIfGone(error: unknown): void {
    // The call can fail before the page's or browser's own close event arrives: trust its words too.
    const gone = this.crashed || this.page.isClosed() || !this.context.browser()?.isConnected() || TARGET_GONE.test(firstLine(error));
    if (gone) {
      throw new EngineGoneError(`${this.engine}: ${firstLine(error)}`);
    }
  }

  async close(): Promise<void> {
    await Promise.race([this.context.close().catch(() => {}), new Promise((resolve) => setTimeout(resolve, PAGE_CLOSE_GRACE_MS).unref())]);
  }
}
