// The submitter: the oracle's interface (run a case, ping) with the cases run by the queue's
// workers. It keeps at most `outstanding` jobs in Redis (a case counts from being added until
// its result is collected), so a corpus of any size never sits in Redis at once. Every job
// carries the name of this submitter's own results queue, where the collector waits.
//
// Nothing is lost: an audit looks, now and then, for the cases whose job and result are both
// gone from Redis (Redis restarted without its data) and adds them again, and reports a case
// the queue gave up on (its worker died MAX_STALLS times) as an error of that case.
import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import PQueue from 'p-queue';
import type { Answered } from '../coordinator/oracle-service.js';
import { OracleError } from '../protocol/errors.js';
import { RESULT_FIELDS, type Answer, type AnswerFields, type CaseOp, type Request, type RequestOf } from '../protocol/ops.js';
import { plainJson, type WireValue } from '../protocol/wire.js';
import { log } from '../system/log.js';
import { Collector } from './collector.js';
import { CASES_QUEUE, connect, reachable, resultsQueue, shown } from './connection.js';
import type { CaseJob, CaseResult, WorkerInfo } from './jobs.js';
import { disagreement } from './setups.js';

export interface QueueOracleOptions {
  /** The most jobs in Redis at once. */
  outstanding: number;
  /** How often to look for lost cases; a case is looked for once it has waited this long. */
  auditMs?: number;
}

/** A case's job is tried this many times when its worker fails it (its engines stopped under it). */
const ATTEMPTS = 3;

interface Pending {
  job: CaseJob;
  since: number;
}

export class QueueOracle {
  private readonly session = randomBytes(6).toString('hex');
  private readonly slots: PQueue;
  private readonly pending = new Map<string, Pending>();
  private readonly connection;
  private readonly cases: Queue;
  private readonly results: Queue;
  private readonly collector: Collector;
  private readonly audit: NodeJS.Timeout;
  private auditing = false;
  private next = 0;
  private first: WorkerInfo | undefined;
  private disagreed = false;

  /** Connects to the queue at `url` once Redis answers; rejects with a ConfigError when it refuses this client. */
  static async open(url: URL, options: QueueOracleOptions): Promise<QueueOracle> {
    await reachable(url);
    return new QueueOracle(url, options);
  }

  private constructor(
    readonly url: URL,
    options: QueueOracleOptions,
  ) {
    this.slots = new PQueue({ concurrency: options.outstanding });
    this.connection = connect(url, 'submitter');
    this.cases = new Queue(CASES_QUEUE, { connection: this.connection });
    this.results = new Queue(resultsQueue(this.session), { connection: this.connection });
    for (const queue of [this.cases, this.results]) queue.on('error', (error) => log.debug(`submitter: ${error.message}`));
    this.collector = new Collector(url, resultsQueue(this.session), options.outstanding);
    const every = options.auditMs ?? 5_000;
    this.audit = setInterval(() => void this.findLost(every), every).unref();
  }

  /** Answers a case request through the queue; resolves with the answer as the worker's oracle gave it, the request's id restored, and that worker's builds. */
  async run<K extends CaseOp>(op: K, request: RequestOf<K>): Promise<Answered<K>> {
    const { answer, versions } = await this.slots.add(() => this.submit(op, request));
    return { answer: answer as Answer<K>, versions };
  }

  /** A ping answered by one worker's oracle: its engines, versions, profile and fonts (the id left out). */
  async ping(): Promise<AnswerFields<'ping'>> {
    const { answer } = await this.slots.add(() => this.submit('ping', { id: 'ping', op: 'ping' }));
    const { id: _, ...fields } = answer;
    return fields as AnswerFields<'ping'>;
  }

  /** The first worker that answered, once one has. */
  get worker(): WorkerInfo | undefined {
    return this.first;
  }

  private async submit(
    op: CaseJob['op'],
    request: Request,
  ): Promise<{ answer: Record<string, WireValue | undefined>; versions: WorkerInfo['versions'] }> {
    const id = `${this.session}-${this.next++}`;
    const job: CaseJob = { op, request: request as Record<string, unknown>, reply: this.results.name };
    const result = this.collector.expect(id);
    this.pending.set(id, { job, since: Date.now() });
    try {
      await this.add(id, job);
      const collected = await result;
      return { answer: this.answerOf(request, collected), versions: collected.worker.versions };
    } finally {
      this.pending.delete(id);
    }
  }

  private add(id: string, job: CaseJob): Promise<unknown> {
    return this.cases.add(job.op, job, {
      jobId: id,
      attempts: ATTEMPTS,
      removeOnComplete: true,
      // Kept until the audit has read why (then removed), or for a day when no one reads it.
      removeOnFail: { age: 24 * 3600 },
    });
  }

  private answerOf(request: Request, result: CaseResult): Record<string, WireValue | undefined> {
    this.note(result.worker);
    const answer: Record<string, WireValue | undefined> = { id: request.id };
    for (const [key, value] of Object.entries(result.answer)) {
      if (key === 'id') continue;
      // The bulky members go back to JSON text, per engine where the answer has one each: written
      // natively now, so neither the journal nor stdout walks them value by value.
      if (key === 'vote') answer[key] = plainJson(value);
      else if (RESULT_FIELDS.has(key) && typeof value === 'object' && value !== null)
        answer[key] = Object.fromEntries(Object.entries(value).map(([engine, v]) => [engine, plainJson(v)]));
      else answer[key] = value as WireValue;
    }
    return answer;
  }

  /** Warns once when workers run different engine builds, fonts or profiles: each case records the versions it ran with. */
  private note(worker: WorkerInfo): void {
    this.first ??= worker;
    const differs = this.disagreed ? undefined : disagreement(this.first, worker);
    if (!differs) return;
    this.disagreed = true;
    log.warn(`queue: workers disagree: ${differs}. Each case records the engine versions it ran with`);
  }

  /** Adds again the cases lost from Redis, and fails those the queue gave up on. */
  private async findLost(olderThan: number): Promise<void> {
    if (this.auditing) return;
    this.auditing = true;
    let lost = 0;
    try {
      const now = Date.now();
      for (const [id, p] of this.pending) {
        if (now - p.since < olderThan) continue;
        const state = await this.cases.getJobState(id);
        if (state === 'failed') {
          const job = await this.cases.getJob(id);
          this.collector.fail(id, new OracleError('internal_error', `the queue gave up on this case: ${job?.failedReason ?? 'failed'}`));
          await job?.remove();
        } else if (state === 'unknown' && (await this.results.getJobState(id)) === 'unknown' && this.collector.awaits(id)) {
          // Neither the job nor its result is in Redis, and no result was collected: lost.
          p.since = Date.now();
          await this.add(id, p.job);
          lost++;
        }
      }
    } catch (error) {
      log.debug(`submitter: audit: ${(error as Error).message}`);
    } finally {
      this.auditing = false;
    }
    if (lost) log.warn(`queue: ${lost} case(s) were lost from ${shown(this.url)} (did Redis restart?): added again`);
  }

  /** Stops: the cases still waiting are failed, this submitter's jobs still waiting and its results queue removed. */
  async close(): Promise<void> {
    clearInterval(this.audit);
    this.slots.clear();
    const left = [...this.pending.keys()];
    await this.collector.close(new OracleError('internal_error', 'the oracle is closing'));
    // A job a worker holds cannot be removed; its result goes to a queue removed below.
    await Promise.all(left.map((id) => this.cases.remove(id).catch(() => 0)));
    await this.results.obliterate({ force: true }).catch((error: Error) => log.debug(`submitter: ${error.message}`));
    await this.cases.close();
    await this.results.close();
    this.connection.disconnect();
  }
}
