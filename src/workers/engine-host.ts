// Owns one engine's browser and its reusable pages inside one worker: hands a free page to
// each case, enforces the per-case timeout, replaces a page that hung or broke, and
// relaunches the browser (with backoff) when its process goes away.
import type { EngineName } from '../protocol/schema.js';
import { OracleError } from '../protocol/errors.js';
import { VIEWPORT, type EngineBrowser, type EnginePage, type LaunchEngine, type LaunchOptions } from './engine.js';
import { log } from './log.js';

const MAX_BACKOFF_MS = 30_000;
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

export interface JobResult<T> {
  value: T;
  /** True when the fast path served the case. */
  written: boolean;
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
  private readonly free: Slot[] = [];
  private readonly waiting: ((slot: Slot) => void)[] = [];
  private closing = false;

  constructor(
    readonly engine: EngineName,
    private readonly launchEngine: LaunchEngine,
    private readonly options: LaunchOptions,
    private readonly pageCount: number,
  ) {}

  get version(): string {
    return this.browser?.version ?? '';
  }

  /** Launch and open every page; throws (with the reason) when the engine cannot serve. */
  async start(): Promise<void> {
    const browser = await this.ensureBrowser();
    const pages = await Promise.all(Array.from({ length: this.pageCount }, () => this.openVerifiedPage(browser)));
    for (const page of pages) this.give({ page, clean: false });
  }

  async run<T>(job: PageJob): Promise<JobResult<T>> {
    const { timeoutMs } = job;
    const slot = await this.take();
    const generation = this.generation;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new OracleError('case_timeout', `no answer from ${this.engine} within ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    try {
      const output = await Promise.race([this.runOn<T>(slot, job), timeout]);
      this.give(slot);
      return output;
    } catch (error) {
      const code = error instanceof OracleError ? error.code : undefined;
      if (code && PAGE_SURVIVES.has(code)) this.give(slot);
      else this.replace(slot);
      if (generation !== this.generation) {
        throw new OracleError('engine_crashed', `${this.engine} exited during the case; it is being relaunched`);
      }
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    const browser = this.browser ?? (await this.launching?.catch(() => undefined));
    await Promise.all(this.free.splice(0).map((slot) => slot.page.close()));
    await browser?.close();
  }

  private async runOn<T>(slot: Slot, job: PageJob): Promise<JobResult<T>> {
    const slack = job.timeoutMs + 1_000; // the host's own timer fires first
    if (job.writable) {
      if (!slot.clean) {
        await slot.page.load(job.writable.blankUrl, slack);
        slot.clean = true;
      }
      await slot.page.write(job.writable.html);
      const value = await slot.page.call<T & { scriptCapable?: boolean }>(job.fn, job.args);
      if (value.scriptCapable === false) return { value, written: true };
    }
    slot.clean = false;
    await slot.page.load(job.url, slack);
    return { value: await slot.page.call<T>(job.fn, job.args), written: false };
  }

  private take(): Promise<Slot> {
    const slot = this.free.pop();
    return slot ? Promise.resolve(slot) : new Promise((resolve) => this.waiting.push(resolve));
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
        log(`${this.engine}: could not open a page (attempt ${attempt + 1}): ${(error as Error).message}`);
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
    log(`${this.engine}: browser process exited; relaunching`);
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
