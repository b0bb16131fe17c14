// Owns one engine's browser and its reusable pages inside one worker: hands a free page to
// each case, enforces the per-case timeout, replaces a page that hung or broke, and
// relaunches the browser (with backoff) when its process goes away.
import type { EngineName } from '../protocol/schema.js';
import { OracleError, firstLine } from '../protocol/errors.js';
import { writeThenCall } from './script-free.js';
import { EngineGoneError, VIEWPORT, type EngineBrowser, type EnginePage, type LaunchEngine } from './engine.js';
import type { LaunchOptions } from '../farm/launch.js';
import { log } from '../system/log.js';

const MAX_BACKOFF_MS = 30_000;
/** How long beyond its own timeout a case waits for a page while its engine relaunches. */
const PAGE_WAIT_MS = 90_000;
/** Page-level errors that leave the page usable for the next case. */
const PAGE_SURVIVES: ReadonlySet<string> = new Set(['script_error']);

/** What the host runs on one page: load a document, then call an in-page function. */
export interface PageJob {
  /** The case as a fresh top-level document (the navigation path). */
  url: string;
  /**
   * Set only for HTML that cannot run script (script-free.ts): it may then be written in place
   * into a clean page (the fast path), provided the function's result reports `scriptCapable`
   * false for the parsed document — otherwise the case is redone by navigation.
   */
  writable?: { html: string; blankUrl: string };
  /** An in-page function expression and its JSON arguments, called once the document has loaded. */
  fn: string;
  args: readonly unknown[];
  timeoutMs: number;
}

/** A reusable page and whether its global object is still untouched by page script. */
interface Slot {
  page: EnginePage;
  clean: boolean;
}

export class EngineHost {
  private browser: EngineBrowser | undefined;
  private launching: Promise<EngineBrowser> | undefined;
  private generation = 0;
  private launchedVersion = '';
  private readonly free: Slot[] = [];
  private readonly waiting: ((slot: Slot) => void)[] = [];
  private closing = false;

  constructor(
    readonly engine: EngineName,
    private readonly launchEngine: LaunchEngine,
    private readonly options: LaunchOptions,
    private readonly pageCount: number,
  ) {}

  /** The build this host runs, known from its first launch on (a relaunch runs the same binary). */
  get version(): string {
    return this.launchedVersion;
  }

  /** Launch and open every page; throws (with the reason) when the engine cannot serve. */
  async start(): Promise<void> {
    const browser = await this.ensureBrowser();
    const pages = await Promise.all(Array.from({ length: this.pageCount }, () => this.openVerifiedPage(browser)));
    for (const page of pages) this.give({ page, clean: false });
  }

  /**
   * Run one case on a free page. A crash is retried once on a fresh page (and browser, if it
   * died); a second crash is the case's own finding and is reported, not retried again.
   */
  async run<T>(job: PageJob, attempt = 0): Promise<T> {
    const { timeoutMs } = job;
    const slot = await this.take(timeoutMs + PAGE_WAIT_MS);
    const generation = this.generation;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new OracleError('case_timeout', `no answer from ${this.engine} within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      const output = await Promise.race([this.runOn<T>(slot, job), timeout]);
      this.give(slot);
      return output;
    } catch (error) {
      const code = error instanceof OracleError ? error.code : undefined;
      if (code && PAGE_SURVIVES.has(code)) this.give(slot);
      else this.replace(slot);
      if (code === 'case_timeout' || code === 'script_error' || !(await this.crashed(error, generation))) throw error;
      if (attempt === 0) {
        log.warn(`${this.engine}: crashed during a case (${firstLine(error)}); retrying it once on a fresh page`);
        return this.run<T>(job, 1);
      }
      throw new OracleError(
        'engine_crashed',
        `${this.engine} crashed on this case twice, the second time on a fresh page (${firstLine(error)})`,
      );
    } finally {
      clearTimeout(timer);
    }
  }

  /** Did the page or its browser die (rather than the case failing in a live page)? */
  private async crashed(error: unknown, generation: number): Promise<boolean> {
    // The browser's exit can be reported just after the failed call it caused.
    await sleep(100);
    if (generation !== this.generation) return true;
    return error instanceof EngineGoneError;
  }

  async close(): Promise<void> {
    this.closing = true;
    const browser = this.browser ?? (await this.launching?.catch(() => undefined));
    await Promise.all(this.free.splice(0).map((slot) => slot.page.close()));
    await browser?.close();
  }

  private async runOn<T>(slot: Slot, job: PageJob): Promise<T> {
    const slack = job.timeoutMs + 1_000; // the host's own timer fires first
    if (job.writable) {
      if (!slot.clean) {
        await slot.page.load(job.writable.blankUrl, slack);
        slot.clean = true;
      }
      const value = await slot.page.call<T & { scriptCapable?: boolean }>(writeThenCall(job.fn), [job.writable.html, ...job.args]);
      if (value.scriptCapable === false) return value;
    }
    slot.clean = false;
    await slot.page.load(job.url, slack);
    return slot.page.call<T>(job.fn, job.args);
  }

  /** A free page; while the engine relaunches, cases wait for one — for a bounded time. */
  private take(limitMs: number): Promise<Slot> {
    const slot = this.free.pop();
    if (slot) return Promise.resolve(slot);
    return new Promise((resolve, reject) => {
      const waiter = (slot: Slot) => {
        clearTimeout(timer);
        resolve(slot);
      };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(waiter), 1);
        reject(
          new OracleError(
            'engine_crashed',
            `no ${this.engine} page became available within ${limitMs} ms; the engine keeps failing to relaunch (see stderr)`,
          ),
        );
      }, limitMs);
      this.waiting.push(waiter);
    });
  }

  private give(slot: Slot): void {
    const waiter = this.waiting.shift();
    if (waiter) waiter(slot);
    else this.free.push(slot);
  }

  /** Close a page that hung or broke, in the background, and open its successor. */
  private replace(slot: Slot): void {
    void slot.page.close();
    void this.addPage();
  }

  private async addPage(): Promise<void> {
    for (let attempt = 0; !this.closing; attempt++) {
      try {
        const browser = await this.ensureBrowser();
        this.give({ page: await this.openVerifiedPage(browser), clean: false });
        return;
      } catch (error) {
        log.warn(`${this.engine}: could not open a page (attempt ${attempt + 1}): ${(error as Error).message}`);
        if (attempt >= 1 && this.browser) {
          // A browser that cannot open pages is as good as dead.
          const stale = this.browser;
          this.browser = undefined;
          this.generation++;
          void stale.close();
        }
        await sleep(Math.min(MAX_BACKOFF_MS, 500 * 2 ** attempt));
      }
    }
  }

  private ensureBrowser(): Promise<EngineBrowser> {
    if (this.browser) return Promise.resolve(this.browser);
    this.launching ??= this.launchEngine(this.options).then(
      (browser) => {
        this.browser = browser;
        this.launchedVersion = browser.version;
        this.launching = undefined;
        void browser.exited.then(() => this.onExit(browser));
        return browser;
      },
      (error: unknown) => {
        this.launching = undefined;
        throw error;
      },
    );
    return this.launching;
  }

  private onExit(browser: EngineBrowser): void {
    if (this.closing || this.browser !== browser) return;
    log.warn(`${this.engine}: browser process exited; relaunching`);
    this.browser = undefined;
    this.generation++;
    // Free pages died with it; busy ones are replaced as their cases fail.
    for (const _ of this.free.splice(0)) void this.addPage();
  }

  private async openVerifiedPage(browser: EngineBrowser): Promise<EnginePage> {
    const page = await browser.newPage();
    try {
      await page.load('about:blank', 30_000);
      const [width, height, ratio] = await page.call<number[]>('() => [innerWidth, innerHeight, devicePixelRatio]', []);
      if (width !== VIEWPORT.width || height !== VIEWPORT.height || ratio !== 1) {
        throw new Error(
          `${this.engine} viewport is ${width}×${height} at device pixel ratio ${ratio}; ` +
            `the oracle serves only ${VIEWPORT.width}×${VIEWPORT.height} at 1`,
        );
      }
      return page;
    } catch (error) {
      await page.close();
      throw error;
    }
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
