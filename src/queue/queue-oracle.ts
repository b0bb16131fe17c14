// The submitter: the oracle's interface (run a case, ping) with the cases run by the queue's
// workers. It keeps at most `outstanding` cases in Redis (a case counts from being added until
// its result is collected; the job and result of a case just collected stay until the worker and
// the collector remove them), so a corpus of any size never sits in Redis at once. Every job
// carries the name of this submitter's own results queue, where the collector waits.
//
// Nothing is lost: an audit looks, now and then, for the cases whose job and result are both
// gone from Redis (Redis restarted without its data) and adds them again, and reports a case
// the queue gave up on (its worker died MAX_STALLS times) as an error of that case.
import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import PQueue from 'p-queue';
import pTimeout from 'p-timeout';
import type { Answered } from '../coordinator/oracle-service.js';
import { OracleError } from '../protocol/errors.js';
import type { Answer, AnswerFields, CaseOp, Request, RequestOf } from '../protocol/ops.js';
import type { WireValue } from '../protocol/wire.js';
import { log } from '../system/log.js';
import { answerOf, pingFields } from './answers.js';
import { Collector } from './collector.js';
import { CASES_QUEUE, connect, reachable, resultsQueue, shown } from './connection.js';
import type { CaseJob, WorkerInfo } from './jobs.js';
import { disagreement } from './setups.js';

export interface QueueOracleOptions {
  /** The most cases in Redis at once whose results are not collected. */
  outstanding: number;
  /** How often to look for lost cases; a case is looked for once it has waited this long. */
  auditMs?: number;
}

/** A case's job is tried this many times when its worker fails it (its engines stopped under it). */
const ATTEMPTS = 3;

/** How long closing waits for Redis to take this submitter's jobs and results queue away. */
const TIDY_MS = 10_000;

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

  /**
   * Connects to the queue at `url` once Redis answers; undefined when `stop` is aborted first.
   * Rejects with a ConfigError when Redis refuses this client.
   */
  static async open(url: URL, options: QueueOracleOptions, stop?: AbortSignal): Promise<QueueOracle | undefined> {
    return (await reachable(url, stop)) ? new QueueOracle(url, options) : undefined;
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
    return pingFields(answer);
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
      // Awaited together: the result may fail (the oracle closing) while the job is still being added.
      const [, { worker, answer }] = await Promise.all([this.add(id, job), result]);
      this.note(worker);
      return { answer: answerOf(request.id, answer), versions: worker.versions };
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

  /**
   * Stops: the cases still waiting are failed, and this submitter's jobs still waiting and its
   * results queue are removed from Redis. Every Redis command waits while Redis is away (BullMQ's
   * own close too), so that part is done only while Redis answers, within TIDY_MS, and is given
   * up once `hurry` is aborted: closing never waits for Redis.
   */
  async close(hurry?: AbortSignal): Promise<void> {
    clearInterval(this.audit);
    this.slots.clear();
    const left = [...this.pending.keys()];
    await this.collector.close(new OracleError('internal_error', 'the oracle is closing'));
    const tidied =
      this.connection.status === 'ready' &&
      (await pTimeout(this.tidy(left), { milliseconds: TIDY_MS, fallback: () => false, signal: hurry }).catch(() => false));
    if (!tidied) log.warn(`queue: Redis at ${shown(this.url)} did not answer in time: this submitter's jobs and results may be left in it`);
    this.connection.disconnect();
  }

  /** Takes this submitter's waiting jobs and its results queue out of Redis; true once done. */
  private async tidy(left: string[]): Promise<boolean> {
    // A job a worker holds cannot be removed; its result goes to a queue removed below.
    await Promise.all(left.map((id) => this.cases.remove(id).catch(() => 0)));
    await this.results.obliterate({ force: true });
    await this.cases.close();
    await this.results.close();
    return true;
  }
}
