// A campaign's loop: corpus items are taken one at a time; an item the journal already holds is
// skipped (resume); the others run on the oracle with at most `concurrency` in flight, and each
// is recorded, whole, in one transaction once it is voted. Invalid items are recorded at once,
// never run. Stopping (a signal, --stop-after, --stop-after-findings, an error) means taking no
// new case; the cases in flight are finished and recorded, unless the run is abandoned, in which
// case none of them is recorded (a later run does them).
//
// With an engine under test (`candidate`), each layout case is given to it once the engines have
// answered (the other cases in flight keep both busy), judged against their vote, and recorded in
// the case's own transaction. A case recorded before without this candidate's answer (same name
// and version) is not run on the engines again: the candidate alone is asked, and judged against
// the engines' recorded dumps.
import { performance } from 'node:perf_hooks';
import PQueue from 'p-queue';
import type { CaseService } from '../../coordinator/stdio.js';
import type { DumpSource } from '../../candidate-client/source.js';
import { candidateCase, candidateRecord, isLayoutCase, received, type CandidateRecord } from './candidate-record.js';
import { invalidRecord, runSent, votedCase, votedRecord, wireRequest } from './case-record.js';
import { engineAuthored, readingsOf } from './authored-record.js';
import type { CorpusItem } from '../corpus/corpus.js';
import type { Expectations } from './expectations.js';
import type { CaseRecord, Journal } from '../journal/journal.js';

export interface CampaignOptions {
  /** What runs the cases: OracleService in process, or a queue (never rejects for a case's own failures). */
  oracle: Pick<CaseService, 'run'>;
  journal: Pick<Journal, 'has' | 'record' | 'hasCandidate' | 'recordCandidate' | 'outcomesOf'>;
  items: AsyncIterable<CorpusItem>;
  /** An engine under test, asked every layout case; it never votes. */
  candidate?: DumpSource;
  /** The most cases in flight at once. */
  concurrency: number;
  expectations?: Expectations;
  /** Take no new case once this many have been taken (recorded or in flight) by this run. */
  stopAfter?: number;
  /** Take no new case once this run has recorded this many findings (voted, not unanimous, not expected; or an engine that failed its relayout check). */
  stopAfterFindings?: number;
  /** Aborted: take no new case; the cases in flight are finished and recorded. */
  stop?: AbortSignal;
  /** Aborted: stop waiting for the cases in flight; none of them is recorded. */
  abandon?: AbortSignal;
  /** An item found already recorded (or already in flight: a repeated line). */
  onSkipped?: () => void;
  onRecorded?: (record: CaseRecord) => void;
  /** A candidate's answer recorded for a case recorded before. */
  onJudged?: (candidate: CandidateRecord) => void;
}

/** Why the loop ended: the corpus ran out, a limit was reached, it was stopped, or stopped and abandoned. */
type StopReason = 'done' | 'stop-after' | 'stop-after-findings' | 'stopped' | 'abandoned';

export interface CampaignResult {
  reason: StopReason;
  /** Cases this run recorded, invalid items included. */
  recorded: number;
  /** Items skipped as already recorded. */
  skipped: number;
  /** Cases recorded before whose candidate answer this run recorded. */
  judged: number;
  /** Cases this run recorded that are findings. */
  findings: number;
  /** Cases the engines ran and this run recorded … */
  ran: number;
  /** … and the seconds from sending the first to recording the last. */
  runSeconds: number;
}

/** Thrown when a case could not be run or recorded; the cases recorded before it stay recorded. */
export class CampaignRunError extends Error {
  override name = 'CampaignRunError';
  constructor(
    readonly cause: unknown,
    readonly result: CampaignResult,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

const STOP: unique symbol = Symbol('stop');

type Case = Extract<CorpusItem, { ok: true }>;

/** Runs the items; resolves when the loop ends, rejects with a CampaignRunError on a failure. */
export function runCampaign(o: CampaignOptions): Promise<CampaignResult> {
  return new CampaignRun(o).run();
}

/**
 * One run of the loop. `run` reads top to bottom: take items while taking is allowed, each one
 * in a free slot; then wait for the cases in flight (or stop waiting once abandoned); then say
 * why it ended. The bound is a p-queue whose tasks are the cases in flight; abandoning aborts
 * their wait, not their work, which finds the run abandoned and records nothing.
 */
class CampaignRun {
  private readonly counts = { recorded: 0, skipped: 0, judged: 0, findings: 0, ran: 0 };
  private readonly slots: PQueue;
  /** The keys (id and hash) of the items in flight, to skip a repeated line while its first is running. */
  private readonly inFlight = new Set<string>();
  /** Items taken (recorded, judged or in flight), for --stop-after. */
  private taken = 0;
  private limit: 'stop-after' | 'stop-after-findings' | undefined;
  private failure: { cause: unknown } | undefined;
  private firstSent: number | undefined;
  private lastRecorded: number | undefined;

  constructor(private readonly o: CampaignOptions) {
    this.slots = new PQueue({ concurrency: o.concurrency });
  }

  async run(): Promise<CampaignResult> {
    const items = this.o.items[Symbol.asyncIterator]();
    const exhausted = await this.takeAll(items);
    if (!exhausted) void items.return?.(undefined)?.catch(() => {});
    // Every case in flight finished, or (abandoned) none waited for: an aborted task leaves the queue at once.
    await this.slots.onIdle();
    const result = this.result(exhausted);
    if (this.failure) throw new CampaignRunError(this.failure.cause, result);
    return result;
  }

  /** Takes items, each once a slot is free, until taking stops; true when the corpus ran out. */
  private async takeAll(items: AsyncIterator<CorpusItem>): Promise<boolean> {
    const stop = aborted(this.o.stop);
    while (this.taking()) {
      const next = await this.read(items, stop);
      if (next === STOP) return false;
      if (next.done) return true;
      this.take(next.value);
      await this.freeSlot();
    }
    return false;
  }

  /** Taking goes on until a stop, a limit or a failure. */
  private taking(): boolean {
    return !this.stopped() && !this.limit && !this.failure;
  }

  /** Stopped, or abandoned (which stops too). */
  private stopped(): boolean {
    return this.o.stop?.aborted === true || this.o.abandon?.aborted === true;
  }

  /** The next item, or STOP when stopped (or the corpus failed) before it came. */
  private async read(items: AsyncIterator<CorpusItem>, stopped: Promise<void>): Promise<IteratorResult<CorpusItem> | typeof STOP> {
    const reading = items.next();
    try {
      const next = await Promise.race([reading, stopped.then((): typeof STOP => STOP)]);
      // The read may never end (stdin): let it settle on its own.
      if (next === STOP) reading.catch(() => {});
      return next;
    } catch (cause) {
      this.failure ??= { cause };
      return STOP;
    }
  }

  /** An item: skipped when recorded (or in flight) already, recorded at once when invalid, else run or judged. */
  private take(item: CorpusItem): void {
    const key = `${item.id}\0${item.hash}`;
    // Recorded already: skipped, unless the candidate has yet to answer it (it alone is asked then).
    const recorded = this.inFlight.has(key) || this.o.journal.has(item);
    const { candidate } = this.o;
    const unjudged =
      recorded &&
      !this.inFlight.has(key) &&
      item.ok &&
      isLayoutCase(item.request) &&
      candidate &&
      !this.o.journal.hasCandidate(item, candidate);
    if (recorded && !unjudged) {
      this.skipped();
      return;
    }
    this.taken++;
    if (!item.ok) {
      try {
        this.record(invalidRecord(item, Date.now()));
      } catch (cause) {
        this.failure ??= { cause };
      }
    } else this.track(key, unjudged ? () => this.judge(item) : () => this.send(item));
    if (this.o.stopAfter !== undefined && this.taken >= this.o.stopAfter) this.limit ??= 'stop-after';
  }

  /** Runs `work` in a slot (one is free: it starts now); its failure stops the loop. Abandoning stops waiting for it. */
  private track(key: string, work: () => Promise<void>): void {
    const task = async () => {
      this.inFlight.add(key);
      try {
        await work();
      } catch (cause) {
        this.failure ??= { cause };
      } finally {
        this.inFlight.delete(key);
      }
    };
    this.slots.add(task, { signal: this.o.abandon }).catch(() => {}); // rejected once abandoned
  }

  /** Resolves once fewer than `concurrency` cases are in flight. */
  private async freeSlot(): Promise<void> {
    if (this.slots.pending < this.slots.concurrency) return;
    await new Promise((resolve) => this.slots.once('next', resolve));
  }

  /** A case run on the engines, then on the candidate when there is one. */
  private async send(item: Case): Promise<void> {
    const { candidate } = this.o;
    const startedAt = Date.now();
    const sent = performance.now();
    this.firstSent ??= sent;
    // With a candidate, the engines' walks come in columns too, to judge it on.
    const answer = await runSent(this.o.oracle, wireRequest(item.request), {
      columns: candidate !== undefined && isLayoutCase(item.request),
    });
    // The candidate is asked once the engines have answered, as the other cases in flight keep both
    // busy: asked beside them, a candidate faster than the engines held its answer through their
    // whole part of the case (the cases queued before it included), long enough to be promoted.
    const answered = performance.now();
    if (this.o.abandon?.aborted) return; // not recorded: the candidate is not asked either
    const asked = await this.ask(item);
    if (this.o.abandon?.aborted) return;
    const voted = votedCase(item.request, answer);
    const r = votedRecord(item, answer, { startedAt, elapsedMs: answered - sent, attempts: 1 }, this.o.expectations, voted);
    const readings = readingsOf(r.outcomes);
    if (readings) r.authored = engineAuthored(readings, r.outcomes);
    // All three agree with each other and not with the test: a finding of its own where the vote found none.
    if (r.authored?.finding && r.signature === null) r.signature = r.authored.finding.signature;
    // Judged on the worker's own vote of these walks (a candidate is asked layout cases only, voted by geometry).
    if (asked)
      r.candidate = candidateRecord(candidate!, asked.outcome, r.outcomes, {
        ms: asked.ms,
        columns: answer.columns,
        ...(voted.op === 'geometry' ? { vote: voted.vote } : {}),
      });
    this.record(r);
    this.counts.ran++;
    this.lastRecorded = performance.now();
  }

  /** A layout case recorded before, given to the candidate alone and judged against the engines' recorded outcomes. */
  private async judge(item: Case): Promise<void> {
    const asked = (await this.ask(item))!;
    if (this.o.abandon?.aborted) return;
    const candidate = candidateRecord(this.o.candidate!, asked.outcome, this.o.journal.outcomesOf(item), { ms: asked.ms });
    // False: recorded meanwhile by another process on the same journal.
    if (!this.o.journal.recordCandidate(item, candidate)) {
      this.skipped();
      return;
    }
    this.counts.judged++;
    this.o.onJudged?.(candidate);
  }

  /** The candidate's outcome for a case, when there is a candidate and the case is a layout. */
  private async ask(item: Case) {
    const { candidate } = this.o;
    if (!candidate || !isLayoutCase(item.request)) return undefined;
    const sent = performance.now();
    const outcome = await candidate.run(candidateCase(item.request));
    return { outcome: received(outcome), ms: performance.now() - sent };
  }

  /** Records a case, counts it, and reaches --stop-after-findings. */
  private record(r: CaseRecord): void {
    // False: recorded meanwhile by someone else (another process on the same journal).
    if (!this.o.journal.record(r)) {
      this.skipped();
      return;
    }
    this.counts.recorded++;
    if ((r.verdict !== null && r.verdict !== 'unanimous' && r.expected === null) || r.selfChecks?.length) this.counts.findings++;
    this.o.onRecorded?.(r);
    if (this.o.stopAfterFindings !== undefined && this.counts.findings >= this.o.stopAfterFindings) this.limit ??= 'stop-after-findings';
  }

  private skipped(): void {
    this.counts.skipped++;
    this.o.onSkipped?.();
  }

  /** Why the loop ended, and its counts. */
  private result(exhausted: boolean): CampaignResult {
    const { firstSent, lastRecorded } = this;
    return {
      reason: this.inFlight.size > 0 ? 'abandoned' : exhausted ? 'done' : this.stopped() ? 'stopped' : (this.limit ?? 'done'),
      ...this.counts,
      runSeconds: firstSent === undefined || lastRecorded === undefined ? 0 : (lastRecorded - firstSent) / 1000,
    };
  }
}

/** Resolves when `signal` is aborted; never without one. */
function aborted(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) resolve();
    else signal?.addEventListener('abort', () => resolve(), { once: true });
  });
}
