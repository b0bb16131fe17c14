// WebKit: Playwright's build where installed; otherwise WebKitGTK's own W3C WebDriver
// server driving MiniBrowser under X (Playwright cannot drive stock WebKit). A
// WebKitWebDriver serves one session, so each page is its own driver + MiniBrowser pair.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { webkit } from 'playwright-core';
import WebDriver from 'webdriver';
import logger from '@wdio/logger';
import { OracleError, firstLine } from '../../protocol/errors.js';
import { EngineGoneError, VIEWPORT, type EngineBrowser, type EnginePage, type LaunchEngine } from '../engine.js';
import type { LaunchOptions } from '../../farm/launch.js';
import { browserEnv, useBundled } from './bundled.js';
import { launchPlaywright } from './playwright-browser.js';
import { miniBrowserIsolationArgs } from './network-isolation.js';
import { PROFILES } from './profiles.js';
import { startXvfb, type Display } from '../../system/xvfb.js';

// @wdio's logger prints to stdout, which is the protocol channel.
logger.setLogLevelsConfig({}, 'silent');

export const WEBKIT_DRIVER = '/usr/bin/WebKitWebDriver';
export const MINIBROWSER =
  ['x86_64-linux-gnu', 'aarch64-linux-gnu'].map((arch) => `/usr/lib/${arch}/webkit2gtk-4.1/MiniBrowser`).find((path) => existsSync(path)) ??
  '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

// Chromium and Firefox use serif for text that names no family (or only unknown ones);
// WebKitGTK's default is sans-serif.
const MINIBROWSER_ARGS = ['--automation', '--default-font-family=serif'];
const DRIVER_START_TIMEOUT_MS = 15_000;
const SESSION_START_TIMEOUT_MS = 30_000;
const SESSION_CLOSE_GRACE_MS = 3_000;

type Client = Awaited<ReturnType<typeof WebDriver.newSession>>;

// Calls the function and always calls back, so an exception reaches Node as data. The
// function's source is part of the script text (no eval, which a case's own CSP may forbid).
const callBody = (functionSource: string) => `const done = arguments[arguments.length - 1];
Promise.resolve().then(() => (${functionSource})(...arguments[0])).then(
  (value) => done({ value }),
  (e) => done({ error: (e && e.name ? e.name + ': ' + e.message : String(e)) }));`;

export const launchWebKit: LaunchEngine = async (options) => {
  if (useBundled(webkit, options))
    return launchPlaywright('webkit', webkit, { env: browserEnv(options) }, PROFILES[options.profile].permissions);
  // MiniBrowser has no headless mode: without a display given, this browser brings its own.
  const display = options.display ? undefined : await startXvfb();
  try {
    const withDisplay = { ...options, display: options.display ?? display!.name };
    return new WebKitGtkBrowser(withDisplay, await WebKitGtkPage.open(withDisplay), display);
  } catch (error) {
    await display?.stop();
    throw error;
  }
};

class WebKitGtkBrowser implements EngineBrowser {
  readonly engine = 'webkit' as const;
  readonly version: string;
  // There is no single browser process: each page owns its own, and a dead page is replaced by the host.
  readonly exited = new Promise<void>(() => {});
  private spare: WebKitGtkPage | undefined;
  private readonly pages = new Set<WebKitGtkPage>();

  constructor(
    private readonly options: LaunchOptions,
    first: WebKitGtkPage,
    private readonly display: Display | undefined,
  ) {
    this.version = first.version;
    this.spare = first;
    this.pages.add(first);
  }

  async newPage(): Promise<EnginePage> {
    const page = this.spare ?? (await WebKitGtkPage.open(this.options));
    this.spare = undefined;
    this.pages.add(page);
    page.closed.then(() => this.pages.delete(page));
    return page;
  }

  async close(): Promise<void> {
    await Promise.all([...this.pages].map((p) => p.close()));
    await this.display?.stop();
  }
}

class WebKitGtkPage implements EnginePage {
  readonly closed: Promise<void>;

  private constructor(
    private readonly driver: ChildProcess,
    private readonly client: Client,
    readonly version: string,
  ) {
    this.closed = new Promise((resolve) => driver.once('exit', () => resolve()));
  }

  static async open(options: LaunchOptions): Promise<WebKitGtkPage> {
    const port = await freePort();
    // Own process group, so a hung page's driver, MiniBrowser and web processes die together.
    const driver = spawn(WEBKIT_DRIVER, [`--port=${port}`, '--host=127.0.0.1'], {
      detached: true,
      env: browserEnv(options),
      stdio: 'ignore',
    });
    try {
      // A MiniBrowser that cannot start (no display yet, say) leaves the session request hanging.
      const client = await withDeadline(
        newSession(port, [
          ...MINIBROWSER_ARGS,
          ...miniBrowserIsolationArgs(options.proxyUrl),
          ...PROFILES[options.profile].miniBrowserArgs,
        ]),
        SESSION_START_TIMEOUT_MS,
        'WebKitWebDriver did not start a MiniBrowser session',
      );
      const version = client.capabilities.browserVersion;
      // Ground truth without the exact build is what engine_version exists to rule out.
      if (!version) throw new Error('WebKitWebDriver reported no browserVersion for MiniBrowser');
      const page = new WebKitGtkPage(driver, client, String(version));
      await page.sizeViewport();
      return page;
    } catch (error) {
      killGroup(driver);
      throw error;
    }
  }

  /** MiniBrowser's toolbar takes part of the window: size the window so the viewport is exact. */
  private async sizeViewport(): Promise<void> {
    await this.client.setWindowRect(null, null, VIEWPORT.width, VIEWPORT.height);
    const [w, h] = (await this.client.executeScript('return [innerWidth, innerHeight]', [])) as [number, number];
    await this.client.setWindowRect(null, null, 2 * VIEWPORT.width - w, 2 * VIEWPORT.height - h);
  }

  async load(url: string, _timeoutMs: number): Promise<void> {
    try {
      await this.client.navigateTo(url);
    } catch (error) {
      // A page's own load errors do not fail a navigation: this failure is the driver's.
      throw new EngineGoneError(`webkit: ${firstLine(error)}`);
    }
  }

  async call<T>(functionSource: string, args: readonly unknown[]): Promise<T> {
    let result: { value: T } | { error: string };
    try {
      result = (await this.client.executeAsyncScript(callBody(functionSource), [args as unknown[]])) as typeof result;
    } catch (error) {
      // On a served page WebKit reports an exception from the case's script as the command's
      // own error, putting the exception itself ("TypeError: …", or whatever was thrown) where
      // W3C has "javascript error". The driver's own failures (a dead MiniBrowser, a lost
      // session) keep their W3C codes: those are crashes, not the case's.
      // A request that got no response at all (the driver itself died) is a crash too.
      const name = (error as Error).name;
      const answered = !('statusCode' in (error as object));
      if (!answered || (name !== 'javascript error' && /^[a-z ]+$/.test(name))) {
        throw new EngineGoneError(`webkit: ${name}: ${firstLine(error)}`);
      }
      const thrown = /^(?:WebDriverError: )?(.*?)(?: when running "execute\/async".*)?$/s.exec((error as Error).message)!;
      throw new OracleError('script_error', thrown[1]!);
    }
    if ('error' in result) throw new OracleError('script_error', result.error);
    return result.value;
  }

  async close(): Promise<void> {
    if (this.driver.exitCode !== null || this.driver.signalCode !== null) return;
    await Promise.race([
      this.client.deleteSession().catch(() => {}),
      new Promise((resolve) => setTimeout(resolve, SESSION_CLOSE_GRACE_MS).unref()),
    ]);
    killGroup(this.driver);
    await this.closed;
  }
}

async function newSession(port: number, args: string[]): Promise<Client> {
  const deadline = Date.now() + DRIVER_START_TIMEOUT_MS;
  for (;;) {
    try {
      return await WebDriver.newSession({
        hostname: '127.0.0.1',
        port,
        path: '/',
        logLevel: 'silent',
        connectionRetryCount: 0,
        connectionRetryTimeout: 10 * 60_000,
        capabilities: {
          'webkitgtk:browserOptions': { binary: MINIBROWSER, args },
          pageLoadStrategy: 'normal',
        } as WebdriverIO.Capabilities,
      });
    } catch (error) {
      const refused = /ECONNREFUSED|fetch failed|Unable to connect/i.test(String((error as Error).message));
      if (!refused || Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

function killGroup(child: ChildProcess): void {
  try {
    if (child.pid) process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
