// The W3C WebDriver commands the WebKit adapter sends, over selenium-webdriver's wire pieces only:
// its HttpClient and Executor, and WebDriver.createSession for the new-session request. Never its
// Builder, which runs Selenium Manager (a binary that looks for, and downloads, drivers). Commands
// go to the executor as they are, so arguments and results stay plain JSON, as the driver sent them
// (WebDriver's own methods would turn element references in a result into WebElement objects).
import { Agent } from 'node:http';
import { Executor, HttpClient } from 'selenium-webdriver/http/index.js';
import { Capabilities } from 'selenium-webdriver/lib/capabilities.js';
import { Command, Name } from 'selenium-webdriver/lib/command.js';
import { WebDriverError, encodeError } from 'selenium-webdriver/lib/error.js';
import { WebDriver } from 'selenium-webdriver/lib/webdriver.js';

/** One WebDriver session on a W3C WebDriver server. */
export class WebDriverClient {
  private constructor(
    private readonly executor: Executor,
    private readonly agent: Agent,
    private readonly sessionId: string,
    /** What the server said of its browser: `browserVersion`, `browserName`... */
    readonly capabilities: Capabilities,
  ) {}

  /** Asks the server at `url` for a session with these capabilities (W3C `alwaysMatch`). */
  static async start(url: string, capabilities: Record<string, unknown>): Promise<WebDriverClient> {
    // One connection kept open per session, closed with it.
    const agent = new Agent({ keepAlive: true });
    const executor = new Executor(new HttpClient(url, agent));
    try {
      const session = await WebDriver.createSession(executor, new Capabilities(capabilities)).getSession();
      return new WebDriverClient(executor, agent, session.getId(), session.getCapabilities());
    } catch (error) {
      agent.destroy();
      throw error;
    }
  }

  navigateTo(url: string): Promise<unknown> {
    return this.send(Name.GET, { url });
  }

  executeScript(script: string, args: unknown[]): Promise<unknown> {
    return this.send(Name.EXECUTE_SCRIPT, { script, args });
  }

  executeAsyncScript(script: string, args: unknown[]): Promise<unknown> {
    return this.send(Name.EXECUTE_ASYNC_SCRIPT, { script, args });
  }

  /** The current window's viewport as a base64 PNG. */
  async takeScreenshot(): Promise<string> {
    return (await this.send(Name.SCREENSHOT)) as string;
  }

  setWindowSize(width: number, height: number): Promise<unknown> {
    return this.send(Name.SET_WINDOW_RECT, { width, height });
  }

  minimizeWindow(): Promise<unknown> {
    return this.send(Name.MINIMIZE_WINDOW);
  }

  async getWindowHandle(): Promise<string> {
    return (await this.send(Name.GET_CURRENT_WINDOW_HANDLE)) as string;
  }

  async getWindowHandles(): Promise<string[]> {
    return (await this.send(Name.GET_WINDOW_HANDLES)) as string[];
  }

  /** Opens a window (or tab) without switching to it, and gives its handle. */
  async createWindow(type: 'window' | 'tab'): Promise<string> {
    return ((await this.send(Name.SWITCH_TO_NEW_WINDOW, { type })) as { handle: string }).handle;
  }

  switchToWindow(handle: string): Promise<unknown> {
    return this.send(Name.SWITCH_TO_WINDOW, { handle });
  }

  closeWindow(): Promise<unknown> {
    return this.send(Name.CLOSE);
  }

  /** Ends the session; its connection goes with it. */
  async deleteSession(): Promise<void> {
    try {
      await this.send(Name.QUIT);
    } finally {
      this.agent.destroy();
    }
  }

  private send(name: string, parameters: Record<string, unknown> = {}): Promise<unknown> {
    return this.executor.execute(new Command(name).setParameters({ ...parameters, sessionId: this.sessionId }));
  }
}

/**
 * What went wrong, as W3C names it: the error code of a server's error answer (`javascript error`,
 * `no such window`, ...). A failure that is no answer (the server is unreachable) keeps its own
 * name, `Error`.
 */
export function errorCode(error: unknown): string {
  return error instanceof WebDriverError ? encodeError(error).error : error instanceof Error ? error.name : typeof error;
}
