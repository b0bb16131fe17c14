// What a failure costs whom, when a batch or a case runs on a page. What a case does on its page is
// its op's (src/workers/tasks/), how a batch is written is the fast path's (fast-path.ts); this is
// the policy around them. The rules:
//   - every case ends exactly once: with its result, or one error whose code says whose fault it is;
//   - a page that loaded a case's own document is retired afterwards, whatever happened;
//   - a crash, or a page that is not on the case's document or answers what the oracle's in-page
//     code cannot have made, is the page's fault: the case runs once more on a fresh page, and only
//     a second such failure is the case's (engine_crashed, page_tampered);
//   - a process of the engine killed for memory under a case (memory-watch.ts) is a crash we
//     caused, whatever it looked like: the case runs once more on a fresh page (the memory may
//     have been an earlier case's, or another page's in a shared process), and a second such
//     kill is the case's (memory_exceeded);
//   - a case that outlives its time is the case's (case_timeout): its page is fresh (every case that
//     ran script had a page of its own), so no earlier case's deferred work can have hung it;
//   - when a batch fails as a whole (a hang, a crash), nobody knows which case to blame: every case
//     of it runs again by itself, so only the guilty one ends in an error;
//   - a batch the page cut short (its time budget ran out) leaves the rest of its cases queued, first;
//   - a blank page for the fast path that outlives a case's time has spent it: a lone case is
//     case_timeout, a batch runs again case by case;
//   - a job's emulation is applied before its document loads and undone once its run settled; one
//     that takes the whole browser (engine.ts, browserWide) runs while no other case document is in
//     flight there, and is undone before the next one starts.
import { setTimeout as sleep } from 'node:timers/promises';
import { Semaphore } from 'async-mutex';
import pTimeout, { TimeoutError } from 'p-timeout';
import { OracleError, firstLine } from '../../protocol/errors.js';
import type { EngineName } from '../../protocol/schema.js';
import { EngineGoneError, type EnginePage } from '../engine.js';
import type { BrowserSupervisor } from './browser-supervisor.js';
import type { EngineQueue, Pending } from './engine-queue.js';
import type { FastPath } from './fast-path.js';
import { DRIVER_SLACK_MS, type DocumentJob } from './jobs.js';
import { PageFault } from '../page-answers.js';
import type { EngineMemory } from './memory-watch.js';
import { logStage, type PagePool, type Slot } from './page-pool.js';

type Failure = 'crash' | 'page' | 'memory' | 'timeout' | 'final';

export class CaseRunner {
  /** One share per page for a case document, all of them for one whose emulation takes the whole browser. */
  private readonly browserShares: Semaphore;

  constructor(
    private readonly engine: EngineName,
    private readonly supervisor: BrowserSupervisor,
    private readonly pool: PagePool,
    private readonly queue: EngineQueue,
    private readonly fastPath: FastPath,
    private readonly timeoutMs: number,
    private readonly memory: EngineMemory,
    private readonly pages: number,
  ) {
    this.browserShares = new Semaphore(pages);
  }

  /** Runs `batch` (one or more script-free cases, or one case with its own document) on `slot`. */
  run(slot: Slot, batch: Pending[]): Promise<void> {
    return batch[0]!.job.kind === 'write' ? this.written(slot, batch) : this.document(slot, batch[0]!);
  }

  private async written(slot: Slot, given: Pending[]): Promise<void> {
    const generation = this.supervisor.generation;
    const memoryMark = this.memory.mark();
    let retired = false;
    const retire = () => {
      if (!retired) this.pool.retire(slot, false);
      retired = true;
    };
    try {
      const { batch, outcomes, failed } = await this.fastPath.write(slot, given);
      for (const [i, outcome] of outcomes.entries()) {
        const pending = batch[i]!;
        if ('walk' in outcome) pending.resolve(outcome.walk);
        else if ('error' in outcome) pending.reject(outcome.error);
        else if ('fault' in outcome) this.fail(pending, 'page', outcome.fault);
        else this.queue.requeue([{ ...pending, job: outcome.instead }]);
      }
      const rest = batch.slice(outcomes.length);
      if (failed !== undefined && rest.length) {
        // The case the page could not write or walk is suspect; its page is not trusted further.
        retire();
        this.fail(rest[0]!, 'page', new PageFault(`writing or walking the case failed in the page (${failed})`));
        this.queue.requeue(rest.slice(1));
      } else this.queue.requeue(rest);
    } catch (caught) {
      retire();
      const error = this.memory.explain(caught, memoryMark);
      const failure = await this.classify(error, generation);
      if (given.length === 1) this.fail(given[0]!, failure, error);
      else this.queue.requeue(given.map((p) => ({ ...p, alone: true })));
    } finally {
      if (!retired) this.pool.give(slot);
    }
  }

  private async document(slot: Slot, pending: Pending): Promise<void> {
    const job = pending.job as DocumentJob;
    const limit = this.timeoutMs + job.extraMs;
    // Waited for before the case's time starts; held until the run has settled, its undo included,
    // and its page is retired. A case that takes the whole browser also waits for the pages being
    // opened: a window opening under it would take the focus Firefox's WebAuthn needs.
    const wide = this.supervisor.traits.browserWide.some((f) => job.emulate?.[f] !== undefined);
    const [, release] = await this.browserShares.acquire(wide ? this.pages : 1);
    if (wide) await this.pool.replacementsOpened();
    const generation = this.supervisor.generation;
    const memoryMark = this.memory.mark();
    const run = this.attempt(slot.page, job, pending.attempt, limit);
    try {
      pending.resolve(await pTimeout(run, { milliseconds: limit }));
    } catch (caught) {
      const error = this.memory.explain(caught, memoryMark);
      this.fail(pending, await this.classify(error, generation), error);
    } finally {
      this.pool.retire(slot, job.document.freshStorage);
      void run.then(release, release);
    }
  }

  /** One run of a document job: its emulation, its document, the op's work, and the emulation undone. */
  private async attempt(page: EnginePage, job: DocumentJob, attempt: number, limit: number): Promise<unknown> {
    // Each copy is served once: a run on a fresh page loads the second.
    const { url, nonce } = attempt === 0 ? job.document : job.document.retry;
    // Before the document loads, so that the page's first line sees it.
    const emulated = job.emulate ? await page.emulate(job.emulate, new URL(url).origin) : undefined;
    try {
      // The driver's own bound is looser than the case's: the case's timer rules (case_timeout).
      const loading = performance.now();
      await page.load(url, limit + DRIVER_SLACK_MS);
      const running = performance.now();
      logStage(this.engine, 'load', loading);
      const result = await job.run(page, { url, nonce }, emulated?.outcomes);
      logStage(this.engine, 'run', running);
      return result;
    } finally {
      await emulated?.undo();
    }
  }

  /** Whose fault a failure is. A browser that went away under the call is a crash whatever the call said. */
  private async classify(error: unknown, generation: number): Promise<Failure> {
    // The watch killed a process of the engine under the case (memory-watch.ts), whatever its death looked like.
    if (error instanceof OracleError && error.code === 'memory_exceeded') return 'memory';
    if (error instanceof TimeoutError) return 'timeout';
    // The browser's exit can be reported just after the failed call it caused.
    await sleep(100);
    if (error instanceof EngineGoneError || generation !== this.supervisor.generation) return 'crash';
    if (error instanceof PageFault || (error instanceof OracleError && error.code === 'page_tampered')) return 'page';
    return 'final';
  }

  /** Ends a case that failed by itself (or sends it round once more, when its page was to blame for the first time). */
  private fail(pending: Pending, failure: Failure, error: unknown): void {
    if ((failure === 'crash' || failure === 'page' || failure === 'memory') && pending.attempt === 0)
      this.queue.requeue([{ ...pending, attempt: 1, alone: true }]);
    else pending.reject(this.finalError(failure, error));
  }

  private finalError(failure: Failure, error: unknown): unknown {
    switch (failure) {
      case 'crash':
        return new OracleError(
          'engine_crashed',
          `${this.engine} crashed on this case twice, the second time on a fresh page (${firstLine(error)})`,
        );
      case 'page':
        return error instanceof OracleError
          ? error
          : new OracleError('page_tampered', `${firstLine(error)}; twice, the second time on a fresh page`);
      case 'timeout':
        return new OracleError('case_timeout', `no answer from ${this.engine} within ${this.timeoutMs} ms`);
      case 'memory':
      case 'final':
        return error;
    }
  }
}
