// One WebKitWebDriver and the MiniBrowser it drives: a WebDriver session serves one browser, so
// each is a pair, in a process group of its own (a hung pair dies together), with a HOME of its
// own that is removed with it (MiniBrowser saves downloads and website data under HOME).
import { spawn, type ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import pTimeout from 'p-timeout';
import type { EngineLaunch } from '../../../worker-contract/launch.js';
import { groupGone } from '../../../system/processes.js';
import { ownedFolder } from '../../../system/scratch.js';
import { killGroup } from '../browser-process.js';
import { browserEnv } from '../env.js';
import { START_LIMIT_MS, withGrace } from '../time-limits.js';
import { WebDriverClient } from './client.js';
import { FIRST_GUESS, fitViewport, type WindowSize } from './viewport-fit.js';
import { miniBrowserArgs, webkitExecutables } from './minibrowser.js';

const SESSION_CLOSE_GRACE_MS = 3_000;

export class WebKitSession {
  readonly closed: Promise<void>;
  /** The window size that last gave a VIEWPORT-sized viewport (every window of a session has the same toolbar). */
  private windowSize: WindowSize = FIRST_GUESS;

  private constructor(
    private readonly driver: ChildProcess,
    readonly client: WebDriverClient,
    readonly version: string,
    private readonly home: string,
  ) {
    // MiniBrowser and its web and network processes are in the driver's group, and outlive a driver
    // that dies on its own; a SIGKILL lands when the kernel gets to it. The session is closed once
    // no process of its group is left (a loaded CI machine saw one there after the driver's exit).
    this.closed = new Promise((resolve) =>
      driver.once('exit', () => {
        killGroup(driver.pid);
        void groupGone(driver.pid ?? -1).then(resolve, resolve);
      }),
    );
  }

  static async start(options: EngineLaunch): Promise<WebKitSession> {
    const port = await freePort();
    const home = ownedFolder('webkit');
    const env = {
      ...browserEnv(options),
      HOME: home,
      XDG_CONFIG_HOME: `${home}/.config`,
      XDG_DATA_HOME: `${home}/.local/share`,
      XDG_CACHE_HOME: `${home}/.cache`,
      // GStreamer scans its plugins in-process instead of forking a scanner that can outlive the session.
      GST_REGISTRY_FORK: 'no',
    };
    const { webkitDriver, miniBrowser } = webkitExecutables(options.paths);
    const driver = spawn(webkitDriver, [`--port=${port}`, '--host=127.0.0.1'], { detached: true, env, stdio: 'ignore' });
    try {
      // A MiniBrowser that cannot start (no display yet, say) leaves the session request hanging.
      const client = await pTimeout(
        newSession(port, miniBrowser, miniBrowserArgs(options.proxyUrl, options.profile, options.extra.miniBrowserArgs)),
        {
          milliseconds: START_LIMIT_MS,
          message: `WebKitWebDriver did not start a MiniBrowser session within ${START_LIMIT_MS} ms`,
        },
      );
      const version = client.capabilities.get('browserVersion');
      // Ground truth without the exact build is what engine_version exists to rule out.
      if (!version) throw new Error('WebKitWebDriver reported no browserVersion for MiniBrowser');
      return new WebKitSession(driver, client, String(version), home);
    } catch (error) {
      killGroup(driver.pid);
      await rm(home, { recursive: true, force: true });
      throw error;
    }
  }

  /** The process group of the driver, its MiniBrowser and MiniBrowser's web and network processes. */
  get group(): number {
    return this.driver.pid ?? -1;
  }

  get alive(): boolean {
    return this.driver.exitCode === null && this.driver.signalCode === null;
  }

  /** Sizes the current window so its viewport is VIEWPORT (viewport-fit.ts), from the size that fitted last. */
  async sizeViewport(): Promise<void> {
    this.windowSize = await fitViewport(this.client, this.windowSize);
  }

  async close(): Promise<void> {
    if (this.alive) {
      await withGrace(this.client.deleteSession(), SESSION_CLOSE_GRACE_MS);
      killGroup(this.driver.pid);
    }
    await this.closed;
    // Off the worker's thread: a browser's data folder takes a while to remove, and the thread serves other pages meanwhile.
    await rm(this.home, { recursive: true, force: true });
  }
}

async function newSession(port: number, binary: string, args: string[]): Promise<WebDriverClient> {
  const deadline = Date.now() + START_LIMIT_MS;
  for (;;) {
    try {
      return await WebDriverClient.start(`http://127.0.0.1:${port}/`, {
        'webkitgtk:browserOptions': { binary, args },
        pageLoadStrategy: 'normal',
        // alert(), confirm() and prompt() are dismissed, and the case goes on.
        unhandledPromptBehavior: 'dismiss',
      });
    } catch (error) {
      // The driver is not listening yet.
      const refused = /ECONNREFUSED/.test(String((error as Error).message));
      if (!refused || Date.now() > deadline) throw error;
      await sleep(50);
    }
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
