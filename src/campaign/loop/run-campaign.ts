// A campaign's loop: corpus items are taken one at a time; an item the journal already holds is
// skipped (resume); the others run on the oracle with at most `concurrency` in flight, and each
// is recorded, whole, in one transaction once it is voted. Invalid items are recorded at once,
// never run. Stopping (a signal, --stop-after, --stop-after-findings, an error) means taking no
// new case; the cases in flight are finished and recorded, unless the run is abandoned, in which
// case none of them is recorded (a later run does them).
//
// With an engine under test (`candidate`), each layout case is given to it beside the engines,
// judged against their vote, and recorded in the case's own transaction. A case recorded before
// without this candidate's answer (same name and version) is not run on the engines again: the
// candidate alone is asked, and judged against the engines' recorded dumps.
import { performance } from 'node:perf_hooks';
import type { CaseService } from '../../coordinator/stdio.js';
import type { DumpSource } from '../../candidate-client/source.js';
import { candidateCase, candidateRecord, isLayoutCase, type CandidateRecord } from './candidate-record.js';
import { invalidRecord, runSent, votedCase, votedRecord, wireRequest } from './case-record.js';
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

/** Runs the items; resolves when the loop ends, rejects with a CampaignRunError on a failure. */
export async function runCampaign(o: CampaignOptions): Promise<CampaignResult> {
  const counts = { recorded: 0, skipped: 0, judged: 0, findings: 0, ran: 0 };
  const inFlight = new Map<string, Promise<void>>();
  let limit: 'stop-after' | 'stop-after-findings' | undefined;
  let failure: { cause: unknown } | undefined;
  let firstSent: number | undefined;
  let lastRecorded: number | undefined;
  let taken = 0;
  const stopped = aborted(o.stop);
  const abandoned = aborted(o.abandon);

  const record = (r: CaseRecord) => {
    if (!o.journal.record(r)) {
      // Recorded meanwhile by someone else (another process on the same journal).
      counts.skipped++;
      o.onSkipped?.();
      return;
    }
    counts.recorded++;
    if ((r.verdict !== null && r.verdict !== 'unanimous' && r.expected === null) || r.selfChecks?.length) counts.findings++;
    o.onRecorded?.(r);
    if (o.stopAfterFindings !== undefined && counts.findings >= o.stopAfterFindings) limit ??= 'stop-after-findings';
  };

  /** The candidate's outcome for a case, when there is a candidate and the case is a layout. */
  const ask = async (item: Extract<CorpusItem, { ok: true }>) => {
    if (!o.candidate || !isLayoutCase(item.request)) return undefined;
    const sent = performance.now();
    const outcome = await o.candidate.run(candidateCase(item.request));
    return { outcome, ms: performance.now() - sent };
  };

  const track = (key: string, work: Promise<void>) => {
    inFlight.set(
      key,
      work
        .catch((cause: unknown) => {
          failure ??= { cause };
        })
        .finally(() => inFlight.delete(key)),
    );
  };

  const send = (item: Extract<CorpusItem, { ok: true }>, key: string) => {
    const startedAt = Date.now();
    const sent = performance.now();
    firstSent ??= sent;
    track(
      key,
      // With a candidate, the engines' walks come in columns too, to judge it on.
      Promise.all([
        runSent(o.oracle, wireRequest(item.request), { columns: o.candidate !== undefined && isLayoutCase(item.request) }),
        ask(item),
      ]).then(([answer, candidate]) => {
        if (o.abandon?.aborted) return;
        const now = performance.now();
        const voted = votedCase(item.request, answer);
        const r = votedRecord(item, answer, { startedAt, elapsedMs: now - sent, attempts: 1 }, o.expectations, voted);
        // Judged on the worker's own vote of these walks (a candidate is asked layout cases only, voted by geometry).
        if (candidate)
          r.candidate = candidateRecord(o.candidate!, candidate.outcome, r.outcomes, {
            ms: candidate.ms,
            columns: answer.columns,
            ...(voted.op === 'geometry' ? { vote: voted.vote } : {}),
          });
        record(r);
        counts.ran++;
        lastRecorded = now;
      }),
    );
  };

  /** A layout case recorded before, given to the candidate alone and judged against the engines' recorded outcomes. */
  const judge = (item: Extract<CorpusItem, { ok: true }>, key: string) => {
    track(
      key,
      ask(item).then((asked) => {
        if (o.abandon?.aborted) return;
        const candidate = candidateRecord(o.candidate!, asked!.outcome, o.journal.outcomesOf(item), { ms: asked!.ms });
        if (!o.journal.recordCandidate(item, candidate)) {
          // Recorded meanwhile by another process on the same journal.
          counts.skipped++;
          o.onSkipped?.();
          return;
        }
        counts.judged++;
        o.onJudged?.(candidate);
      }),
    );
  };

  const taking = () => !o.stop?.aborted && !limit && !failure;
  const items = o.items[Symbol.asyncIterator]();
  let exhausted = false;
  while (taking()) {
    const reading = items.next();
    let next: IteratorResult<CorpusItem> | typeof STOP;
    try {
      next = await Promise.race([reading, stopped.then((): typeof STOP => STOP)]);
    } catch (cause) {
      failure ??= { cause };
      break;
    }
    if (next === STOP) {
      // The read may never end (stdin): let it settle on its own.
      reading.catch(() => {});
      break;
    }
    if (next.done) {
      exhausted = true;
      break;
    }
    const item = next.value;
    const key = `${item.id}\0${item.hash}`;
    // Recorded already: skipped, unless the candidate has yet to answer it (it alone is asked then).
    const recorded = inFlight.has(key) || o.journal.has(item);
    const unjudged =
      recorded && !inFlight.has(key) && item.ok && isLayoutCase(item.request) && o.candidate && !o.journal.hasCandidate(item, o.candidate);
    if (recorded && !unjudged) {
      counts.skipped++;
      o.onSkipped?.();
      continue;
    }
    taken++;
    if (!item.ok) {
      try {
        record(invalidRecord(item, Date.now()));
      } catch (cause) {
        failure ??= { cause };
      }
    } else if (unjudged) judge(item, key);
    else send(item, key);
    if (o.stopAfter !== undefined && taken >= o.stopAfter) limit ??= 'stop-after';
    while (inFlight.size >= o.concurrency && !o.abandon?.aborted) await Promise.race([...inFlight.values(), abandoned]);
  }
  if (!exhausted) void items.return?.(undefined)?.catch(() => {});
  await Promise.race([Promise.all(inFlight.values()), abandoned]);
  const dropped = inFlight.size > 0;

  const result: CampaignResult = {
    reason: dropped ? 'abandoned' : exhausted ? 'done' : o.stop?.aborted ? 'stopped' : (limit ?? 'done'),
    ...counts,
    runSeconds: firstSent === undefined || lastRecorded === undefined ? 0 : (lastRecorded - firstSent) / 1000,
  };
  if (failure) throw new CampaignRunError(failure.cause, result);
  return result;
}

/** Resolves when `signal` is aborted; never without one. */
function aborted(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) resolve();
    else signal?.addEventListener('abort', () => resolve(), { once: true });
  });
}
