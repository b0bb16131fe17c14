// How a batch or a case runs on a page, and what a failure costs whom. The rules:
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
//   - a trace's emulation is applied before its document loads; one that takes the whole browser
//     (engine.ts, browserWide) runs while no other case that can run script is in flight there, and
//     is undone before the next one starts.
import { setTimeout as sleep } from 'node:timers/promises';
import { Semaphore } from 'async-mutex';
import pTimeout, { TimeoutError } from 'p-timeout';
import { OracleError, firstLine } from '../../protocol/errors.js';
import {
  decodeBatchText,
  decodeReflectionText,
  decodeScreenshot,
  decodeSettledText,
  decodeTraceText,
  decodeWalk,
  decodeWalkText,
  type Detour,
  type RawWalk,
  type TraceOutcome,
  type WalkAnswer,
} from '../../protocol/page-output.js';
import type { EngineName } from '../../protocol/schema.js';
import { log } from '../../system/log.js';
import { discardingCompletion } from '../../page/sources.js';
import { RUN_TRACE_HOOK, RUN_TRACE_SOURCE } from '../../page/trace-recorder.js';
import { EngineGoneError, VIEWPORT, type Emulated, type EnginePage } from '../engine.js';
import type { BrowserSupervisor } from './browser-supervisor.js';
import type { EngineQueue, Pending } from './engine-queue.js';
import type { DocumentJob, WriteJob } from './jobs.js';
import { swapsCase } from '../script-free.js';
import type { EngineMemory } from './memory-watch.js';
import type { PagePool, Slot } from './page-pool.js';

/** What a trace job answers: the recorder's outcome, and what the driver made of the emulation (when it had one). */
export interface TraceRun {
  outcome: TraceOutcome;
  emulation: Emulated['outcomes'] | undefined;
}

/** The debug line of each fast-path driver call, before its number of cases. */
export const BATCH_LOG = 'cases in one call:';

/** How much longer than one case a batch may take, per further case in it; far above what a script-free case needs. */
const BATCH_ALLOWANCE_MS = 250;
/** How much later than the case's own timer a driver's bound on a navigation fires. */
const DRIVER_SLACK_MS = 1_000;

/** A page that is not in the state the oracle left it in: not on the case's document, not at the oracle's viewport, or answering what the trusted code cannot have made. */
class PageFault extends Error {
  override name = 'PageFault';
}

type Failure = 'crash' | 'page' | 'memory' | 'timeout' | 'final';

export class CaseRunner {
  /** One share per page for a case document, all of them for one whose emulation takes the whole browser. */
  private readonly browserShares: Semaphore;

  constructor(
    private readonly engine: EngineName,
    private readonly supervisor: BrowserSupervisor,
    private readonly pool: PagePool,
    private readonly queue: EngineQueue,
    private readonly timeoutMs: number,
    private readonly memory: EngineMemory,
    private readonly pages: number,
  ) {
    this.browserShares = new Semaphore(pages);
  }

  /** Runs `batch` (one or more script-free cases, or one case with its own document) on `slot`. */
  run(slot: Slot, batch: Pending[]): Promise<void> {
    return batch[0]!.job.kind === 'write' ? this.writeBatch(slot, batch) : this.document(slot, batch[0]!);
  }

  private async writeBatch(slot: Slot, given: Pending[]): Promise<void> {
    // Left-to-right cases first: one that may turn bidi on goes where it can touch no other.
    const isBidi = (p: Pending) => this.supervisor.writesKeepBidi && (p.job as WriteJob).bidi;
    const batch = [...given.filter((p) => !isBidi(p)), ...given.filter(isBidi)];
    const jobs = batch.map((p) => p.job as WriteJob);
    const { blankUrl, walk } = jobs[0]!;
    const generation = this.supervisor.generation;
    const memoryMark = this.memory.mark();
    let retired = false;
    const retire = () => {
      if (!retired) this.pool.retire(slot, false);
      retired = true;
    };
    try {
      if (!slot.clean || (slot.bidi && !isBidi(batch[0]!))) {
        try {
          await pTimeout(slot.page.load(blankUrl, this.timeoutMs + DRIVER_SLACK_MS), { milliseconds: this.timeoutMs });
        } catch (error) {
          // Not the cases' doing: they have not been written yet. A blank page that takes longer than a
          // case may (a loaded machine, a browser just restarted) has spent the case's time: case_timeout.
          if (error instanceof EngineGoneError || error instanceof TimeoutError) throw error;
          throw new PageFault(`the blank page did not load (${firstLine(error)})`);
        }
        slot.clean = true;
        slot.bidi = false;
      }
      if (batch.some(isBidi)) slot.bidi = true;
      // The bench reads these lines for its histogram of cases per driver call.
      log.debug(`${this.engine}: ${BATCH_LOG} ${batch.length}`);
      const call = slot.page.run({
        program: 'batch',
        args: {
          blankUrl,
          htmls: jobs.map((j) => j.html),
          relayout: jobs.map((j) => j.relayout),
          swap: jobs.map((j) => swapsCase(this.engine, j.bidi)),
          walk,
          budgetMs: this.timeoutMs / 2,
        },
      });
      const answer = decodeBatchText(await pTimeout(call, { milliseconds: this.timeoutMs + (batch.length - 1) * BATCH_ALLOWANCE_MS }));
      if ('elsewhere' in answer) throw new PageFault(`the blank page is at ${answer.elsewhere}`);
      const walks = answer.walks.map((w) => decodeWalk(w));
      // One walk measured in another viewport means the page is off (a download bar, say): all of them were.
      const off = walks.find((w) => 'walk' in w && !atViewport(w.walk));
      if (off && 'walk' in off) throw new PageFault(viewportText(this.engine, off.walk));
      for (const [i, answer] of walks.entries()) this.settleWalk(batch[i]!, answer, batch[i]!.job as WriteJob);
      const rest = batch.slice(walks.length);
      if (answer.failed !== undefined && rest.length) {
        // The case the page could not write or walk is suspect; its page is not trusted further.
        retire();
        this.fail(rest[0]!, 'page', new PageFault(`writing or walking the case failed in the page (${answer.failed})`));
        this.queue.requeue(rest.slice(1));
      } else this.queue.requeue(rest);
    } catch (caught) {
      retire();
      const error = this.memory.explain(caught, memoryMark);
      const failure = await this.classify(error, generation);
      if (batch.length === 1) this.fail(batch[0]!, failure, error);
      else this.queue.requeue(batch.map((p) => ({ ...p, alone: true })));
    } finally {
      if (!retired) this.pool.give(slot);
    }
  }

  private settleWalk(pending: Pending, answer: WalkAnswer, job: WriteJob): void {
    if ('tooLarge' in answer) pending.reject(tooLarge(answer.tooLarge));
    else if (!('walk' in answer)) this.fail(pending, 'page', new PageFault('the fast path answered for another document'));
    // The markup was script-capable after all (the page's CSP kept it from running): load it as its own document.
    else if (answer.walk.scriptCapable) this.queue.requeue([{ ...pending, job: job.fallback }]);
    else pending.resolve(answer.walk);
  }

  private async document(slot: Slot, pending: Pending): Promise<void> {
    const job = pending.job as DocumentJob;
    const limit = job.kind === 'trace' ? this.timeoutMs + job.completionMs : this.timeoutMs;
    // Waited for before the case's time starts; held until the run has settled, its undo included,
    // and its page is retired. A case that takes the whole browser also waits for the pages being
    // opened: a window opening under it would take the focus Firefox's WebAuthn needs.
    const wide = job.kind === 'trace' && this.supervisor.browserWide.some((f) => job.emulate?.[f] !== undefined);
    const [, release] = await this.browserShares.acquire(wide ? this.pages : 1);
    if (wide) await this.pool.replacementsOpened();
    const generation = this.supervisor.generation;
    const memoryMark = this.memory.mark();
    const run = this.runDocument(slot.page, job, pending.attempt, limit);
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

  private async runDocument(page: EnginePage, job: DocumentJob, attempt: number, limit: number): Promise<unknown> {
    // Each copy is served once: a run on a fresh page loads the second.
    const { url, nonce } = attempt === 0 ? job.document : job.document.retry;
    const check = { url, nonce };
    // Before the document loads, so the recorder and the script see it from their first line.
    const emulated = job.kind === 'trace' && job.emulate ? await page.emulate(job.emulate, new URL(url).origin) : undefined;
    try {
      // The driver's own bound is looser than the case's: the case's timer rules (case_timeout).
      await page.load(url, limit + DRIVER_SLACK_MS);
      return await this.runLoaded(page, job, check, emulated?.outcomes);
    } finally {
      await emulated?.undo();
    }
  }

  private async runLoaded(
    page: EnginePage,
    job: DocumentJob,
    check: { url: string; nonce: string },
    emulation: Emulated['outcomes'] | undefined,
  ): Promise<unknown> {
    switch (job.kind) {
      case 'walk': {
        const answer = decodeWalkText(
          await page.run({
            program: 'walk',
            args: { check, fresh: true, walk: job.walk, relayout: job.relayout },
            script: caseScript(job.script),
          }),
        );
        if ('tooLarge' in answer) throw tooLarge(answer.tooLarge);
        if (!('walk' in answer)) throw detourError(answer);
        const { walk } = answer;
        if (!atViewport(walk)) throw new PageFault(viewportText(this.engine, walk));
        return walk;
      }
      case 'reflect': {
        const answer = decodeReflectionText(
          await page.run({
            program: 'reflect',
            args: { check, fresh: true, probes: job.probes, maxBytes: job.maxBytes },
            script: caseScript(job.script),
          }),
          job.probes.length,
        );
        if ('elsewhere' in answer || 'scriptError' in answer) throw detourError(answer);
        if ('tooLarge' in answer) throw tooLarge(answer.tooLarge);
        if ('unresolved' in answer) {
          const selector = JSON.stringify(answer.unresolved);
          throw new OracleError(
            'selector_not_found',
            answer.invalid ? `${selector} is not a selector ${this.engine} accepts` : `no element matches ${selector}`,
          );
        }
        return answer.values;
      }
      case 'screenshot': {
        await settle(page, { check, fresh: true, painted: true }, caseScript(job.script));
        const shot = decodeScreenshot(await page.screenshot());
        if (shot.width !== VIEWPORT.width || shot.height !== VIEWPORT.height)
          throw new PageFault(`${this.engine} took a ${shot.width}×${shot.height} screenshot, not ${VIEWPORT.width}×${VIEWPORT.height}`);
        // The picture is the case's only if the case's document was in front of the page all along.
        await settle(page, { check }, null);
        return shot.png;
      }
      case 'trace': {
        let text = await page.callMain(RUN_TRACE_SOURCE, [RUN_TRACE_HOOK, check, job.script]);
        // A driver that gave up on the call (WebKitGTK's, each time the trace dismisses a dialog)
        // asks again, for the end alone, until it comes (the case's timer bounds this).
        while (text === null || text === undefined) text = await page.callMain(RUN_TRACE_SOURCE, [RUN_TRACE_HOOK, check, null]);
        const outcome = decodeTraceText(text);
        if ('elsewhere' in outcome) throw leftDocument(outcome.elsewhere);
        return { outcome, emulation } satisfies TraceRun;
      }
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

const caseScript = (script: string | null): string | null => (script === null ? null : discardingCompletion(script));

const atViewport = (walk: RawWalk) => walk.viewport[0] === VIEWPORT.width && walk.viewport[1] === VIEWPORT.height && walk.ratio === 1;

const viewportText = (engine: EngineName, walk: RawWalk) =>
  `${engine} measured the case in a ${walk.viewport[0]}×${walk.viewport[1]} viewport at device pixel ratio ${walk.ratio}, not ${VIEWPORT.width}×${VIEWPORT.height} at 1`;

const leftDocument = (href: string) => new PageFault(`the page is not on the case's document (it is at ${href.slice(0, 200)})`);

/** Why a program did not answer: the page left the case's document (the page's fault), or the case's script threw (the case's). */
const detourError = (detour: Detour) =>
  'elsewhere' in detour ? leftDocument(detour.elsewhere) : new OracleError('script_error', detour.scriptError);

/**
 * Settles the case's document (fonts), runs `script` after, waits for a paint when asked, and
 * throws unless the answer came from the case's own document.
 */
async function settle(
  page: EnginePage,
  args: { check: { url: string; nonce: string }; fresh?: boolean; painted?: boolean },
  script: string | null,
): Promise<void> {
  const detour = decodeSettledText(await page.run({ program: 'settle', args, script }));
  if (detour) throw detourError(detour);
}

function tooLarge(size: { nodes: number; fragments?: number; bytes?: number }): OracleError {
  const what =
    size.fragments !== undefined
      ? `${size.fragments} fragments`
      : size.bytes !== undefined
        ? `about ${size.bytes} bytes to answer`
        : `${size.nodes} elements`;
  return new OracleError('dump_too_large', `the document has ${what}, over the limit (--max-nodes, --max-answer-bytes)`);
}
