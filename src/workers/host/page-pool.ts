// The pages of one engine in one worker. A page is handed to one case (or one batch) at a time; a
// page that ran a case's script, or broke, or belongs to a browser that went away, is retired —
// closed in the background — and a new page is opened in its place, so nothing one case left
// behind (timers, workers, popups, history, storage, a deferred hang) reaches the next.
import { OracleError, firstLine } from '../../protocol/errors.js';
import { decodePageStateText } from '../../protocol/page-output.js';
import { log, logs } from '../../system/log.js';
import type { EnginePage } from '../engine.js';
import { checkViewport } from '../page-answers.js';
import { backOff } from './backoff.js';
import type { BrowserSupervisor } from './browser-supervisor.js';

/**
 * The debug line of each stage a page goes through (opened, a case document loaded and run on it,
 * closed), before the stage's name and its milliseconds: the bench reads these for where a case's
 * time goes (bench/wpt.ts).
 */
export const STAGE_LOG = 'stage ms:';

/** Logs how long `stage` took since `start` (performance.now()), at debug level. */
export function logStage(engine: string, stage: string, start: number): void {
  if (logs('debug')) log.debug(`${engine}: ${STAGE_LOG} ${stage} ${Math.round(performance.now() - start)}`);
}

/** A page and what the pool knows of it. */
export interface Slot {
  page: EnginePage;
  /**
   * Set by the fast path (fast-path.ts) once the page is on its blank page, which never runs page
   * script, with whether a case written there may have turned on its document's bidi processing;
   * null until then.
   */
  blank: { bidi: boolean } | null;
  /** The browser generation the page belongs to. */
  generation: number;
}

export class PagePool {
  private readonly free: Slot[] = [];
  private readonly waiting: ((slot: Slot) => void)[] = [];
  /** Replacements being opened: closing waits for them, so none outlives the pool. */
  private readonly opening = new Set<Promise<void>>();
  private closing = false;

  constructor(
    private readonly supervisor: BrowserSupervisor,
    private readonly size: number,
  ) {}

  /** Opens every page; throws, with the reason, when the engine cannot serve. */
  async start(): Promise<void> {
    const pages = await Promise.all(Array.from({ length: this.size }, () => this.open(false)));
    for (const slot of pages) this.give(slot);
  }

  /** A free page; while pages are being replaced, a case waits for one, for a bounded time. */
  take(limitMs: number): Promise<Slot> {
    const slot = this.free.shift();
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
            `no ${this.supervisor.engine} page became available within ${limitMs} ms; the engine keeps failing to relaunch (see stderr)`,
          ),
        );
      }, limitMs);
      this.waiting.push(waiter);
    });
  }

  /** Whether a case is waiting for a page. */
  get starved(): boolean {
    return this.waiting.length > 0;
  }

  /** Hands a page back for the next case. */
  give(slot: Slot): void {
    if (this.closing) {
      void slot.page.close();
      return;
    }
    if (slot.generation !== this.supervisor.generation) {
      this.retire(slot, false);
      return;
    }
    const waiter = this.waiting.shift();
    if (waiter) waiter(slot);
    else this.free.push(slot);
  }

  /** Closes `slot`'s page in the background and opens its successor; the successor's storage is fresh when asked. */
  retire(slot: Slot, freshStorage: boolean): void {
    const start = performance.now();
    void slot.page.close().then(() => logStage(this.supervisor.engine, 'close', start));
    if (this.closing) return;
    const replacing = this.replace(freshStorage).finally(() => this.opening.delete(replacing));
    this.opening.add(replacing);
  }

  /** Resolves once every page being opened now is open (or given up): none of them then opens under a case that started after. */
  async replacementsOpened(): Promise<void> {
    await Promise.all([...this.opening]);
  }

  /** The browser went away: its free pages went with it. */
  browserLost(): void {
    for (const slot of this.free.splice(0)) this.retire(slot, false);
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.all([...this.opening]);
    await Promise.all(this.free.splice(0).map((slot) => slot.page.close()));
  }

  private async replace(freshStorage: boolean): Promise<void> {
    for (let attempt = 0; !this.closing; attempt++) {
      try {
        const slot = await this.open(freshStorage);
        if (this.closing) return void slot.page.close();
        return this.give(slot);
      } catch (error) {
        if (this.closing) return;
        log.warn(`${this.supervisor.engine}: could not open a page (attempt ${attempt + 1}): ${firstLine(error)}`);
        await backOff(attempt + 1);
      }
    }
  }

  /** A new page, refused unless its viewport is the oracle's. */
  private async open(freshStorage: boolean): Promise<Slot> {
    const generation = this.supervisor.generation;
    const start = performance.now();
    const page = await this.supervisor.newPage(freshStorage);
    try {
      checkViewport(this.supervisor.engine, 'opened a page', decodePageStateText(await page.run({ program: 'pageState', args: {} })));
      logStage(this.supervisor.engine, 'open', start);
      return { page, blank: null, generation };
    } catch (error) {
      await page.close();
      throw error;
    }
  }
}
