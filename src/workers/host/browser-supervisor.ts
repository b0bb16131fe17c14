// One engine's browser inside one worker, for the worker's life: launched once, relaunched with
// backoff whenever its process goes away, and counted in generations so a failed call can tell
// whether the browser died under it.
import type { EngineLaunch } from '../../worker-contract/launch.js';
import type { Executables } from '../../protocol/launch-options.js';
import type { EngineName } from '../../protocol/schema.js';
import { log } from '../../system/log.js';
import type { EngineBrowser, EnginePage, EngineTraits, LaunchEngine } from '../engine.js';
import { backOff } from './backoff.js';

export class BrowserSupervisor {
  private browser: EngineBrowser | undefined;
  private launching: Promise<EngineBrowser> | undefined;
  private failures = 0;
  private closing = false;
  /** Bumped each time the browser is found gone; a call that started in an older generation lost its browser. */
  generation = 0;
  /** The build, known from the first launch on (a relaunch runs the same binary). */
  version = '';
  /** How the engine host runs cases on it (src/workers/engine.ts), from the first launch on; none of them before. */
  traits: EngineTraits = { guarded: false, writesKeepBidi: false, swapsWrites: false, browserWide: [], groupPerPage: false };
  /** The executables it runs, from the first launch on. */
  executables: Executables = {};

  constructor(
    readonly engine: EngineName,
    private readonly launchEngine: LaunchEngine,
    private readonly options: EngineLaunch,
    /** Told when a browser goes away, so the pages it held are replaced. */
    private readonly onLost: () => void,
  ) {}

  /** The running browser, launching it (after a backoff if the last launches failed) when there is none. */
  async current(): Promise<EngineBrowser> {
    if (this.browser) return this.browser;
    this.launching ??= this.launch().finally(() => {
      this.launching = undefined;
    });
    return this.launching;
  }

  /** A new page of the current browser. Two failures in a row mean the browser is as good as dead: it is replaced. */
  async newPage(freshStorage: boolean): Promise<EnginePage> {
    const browser = await this.current();
    try {
      const page = await browser.newPage({ freshStorage });
      this.failures = 0;
      return page;
    } catch (error) {
      if (++this.failures >= 2 && this.browser === browser) this.lose(browser, 'it could not open a page twice');
      throw error;
    }
  }

  /** The process groups of the running browser (none while it is being launched). */
  processGroups(): readonly number[] {
    return this.browser?.processGroups() ?? [];
  }

  /** Whether each of those groups is one page's own browser (src/workers/engine.ts). */
  get groupPerPage(): boolean {
    return this.traits.groupPerPage;
  }

  async close(): Promise<void> {
    this.closing = true;
    const browser = this.browser ?? (await this.launching?.catch(() => undefined));
    await browser?.close();
  }

  private async launch(): Promise<EngineBrowser> {
    await backOff(this.failures);
    try {
      const browser = await this.launchEngine(this.options);
      this.browser = browser;
      this.version = browser.version;
      this.traits = browser.traits;
      this.executables = browser.executables;
      void browser.exited.then(() => this.lose(browser, 'its process exited'));
      return browser;
    } catch (error) {
      this.failures++;
      throw error;
    }
  }

  private lose(browser: EngineBrowser, why: string): void {
    if (this.closing || this.browser !== browser) return;
    log.warn(`${this.engine}: browser lost (${why}); relaunching`);
    this.browser = undefined;
    this.generation++;
    void browser.close();
    this.onLost();
  }
}
