// `browser-oracle worker`: takes case jobs from the queue, has its own oracle answer each one
// (the engines of this machine, in a child process), and, once the job is completed, posts the
// answer line, with this machine's name and engine versions, to the submitter's results queue
// (docs/queue.md, "Exactly once over at least once", says why in that order). The engines start first:
// a worker whose engines do not launch never connects to the queue, so it takes no job.
//
// Exactly once over at-least-once: a worker that dies mid-case holds its jobs' locks no longer,
// BullMQ's stall check (run by every other worker) puts them back in the queue, and another
// worker runs them. A case may therefore be answered twice; its result job has the case job's
// id, so a second post is dropped while the first waits, and the collector takes one per job.
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { Queue, UnrecoverableError, Worker } from 'bullmq';
import type { OracleOptions } from '../coordinator/oracle-service.js';
import { log } from '../system/log.js';
import { CASES_QUEUE, connect, reachable, shown } from './connection.js';
import { type CaseReply, checkCaseJob, type WorkerInfo } from './jobs.js';
import { OracleChild } from './oracle-child.js';

/**
 * How BullMQ holds a case to the worker that took it: a lock the worker renews while it lives, so a
 * killed worker's cases go back to the queue within the lock and a check interval; a case whose
 * worker died this many times is failed (and reported by its submitter), not run again.
 */
const STALLS = { lockDuration: 10_000, stalledInterval: 5_000, maxStalledCount: 2 } as const;
/** How long a stopping worker waits to hand in the results of the cases it holds. */
const CLOSE_MS = 30_000;

export interface WorkerOptions {
  url: URL;
  oracle: OracleOptions;
  /** Cases taken at once: as many as the local oracle keeps in hand. */
  concurrency: number;
  /** Aborted: take no new job, finish those in hand, close the engines. */
  stop: AbortSignal;
}

/** Runs the worker until it is stopped (0) or its engines fail (1); what BullMQ still holds then is the caller's to end (process exit). */
export async function runWorker(o: WorkerOptions): Promise<number> {
  let started: Awaited<ReturnType<typeof OracleChild.start>>;
  try {
    started = await OracleChild.start(o.oracle);
  } catch (error) {
    log.error(`worker: the engines did not start (${(error as Error).message}; the reason is above): taking no jobs`);
    return 1;
  }
  const { child, setup } = started;
  const info: WorkerInfo = { host: hostname(), pid: process.pid, ...setup };
  let reached: boolean;
  try {
    reached = await reachable(o.url, o.stop);
  } catch (error) {
    await child.shutdown();
    throw error;
  }
  if (!reached) {
    await child.shutdown();
    return 0;
  }
  const connection = connect(o.url, 'worker');
  const replies = new Replies(connection);
  const name = `${info.host}:${info.pid}`;
  // A case's result is posted once its job is completed, not before. Posted first, a worker killed
  // between the two left its job to be run again by another, whose second result, posted once the
  // submitter had its first and had gone, stayed in Redis for good. Completed first, a worker killed
  // between the two leaves a case with neither job nor result, which the submitter's audit adds again.
  const answered = new Map<string, { reply: string; result: CaseReply }>();
  const posting = new Set<Promise<void>>();
  const worker = new Worker(
    CASES_QUEUE,
    async (job) => {
      const data = checkCaseJob(job.data);
      if (typeof data === 'string') throw new UnrecoverableError(data);
      answered.set(job.id!, { reply: data.reply, result: { worker: info, answer: await child.ask(data.request) } });
    },
    {
      connection,
      name,
      concurrency: o.concurrency,
      ...STALLS,
      removeOnComplete: { count: 0 },
      // Kept a day, so the submitter sees why (it removes the job once it has).
      removeOnFail: { age: 24 * 3600 },
    },
  );
  worker.on('completed', (job) => {
    const done = answered.get(job.id!);
    answered.delete(job.id!);
    if (!done) return;
    const post: Promise<void> = replies
      .post(done.reply, job.id!, done.result)
      .catch((error: Error) => log.warn(`worker: job ${job.id}: its result was not posted (${error.message}); the submitter adds it again`))
      .finally(() => posting.delete(post));
    posting.add(post);
  });
  // The connection logs an outage once; BullMQ repeats it here for every command.
  worker.on('error', (error) => log.debug(`worker: ${error.message}`));
  worker.on('failed', (job, error) => {
    if (job) answered.delete(job.id!);
    log.warn(`worker: job ${job?.id}: ${error.message}`);
  });
  log.info(
    `worker ${name}: taking cases from ${shown(o.url)}, ${o.concurrency} at a time; ` +
      `${setup.engines.map((e) => `${e} ${setup.versions[e]}`).join(', ')}; network: ${setup.network ?? 'proxy'}`,
  );

  const childDied = child.exited.then(() => 'died' as const);
  const stopped = new Promise<'stopped'>((resolve) => {
    if (o.stop.aborted) resolve('stopped');
    o.stop.addEventListener('abort', () => resolve('stopped'), { once: true });
  });
  const why = await Promise.race([childDied, stopped]);
  if (why === 'died') log.error('worker: the engines stopped; taking no more jobs (the cases in hand go back to the queue)');
  // Waits for the jobs in hand: answered by the child, or failed at once when it is gone. With
  // Redis away, their results cannot be posted: after a while they are left to the stall check,
  // which gives them to another worker once Redis is back.
  const closed = await Promise.race([worker.close().then(() => true), sleep(CLOSE_MS).then(() => false)]);
  if (!closed)
    log.warn(
      `worker: the queue did not close within ${CLOSE_MS / 1000} s (is Redis away?); the cases in hand, if any, go back to the queue`,
    );
  await child.shutdown();
  if (closed) {
    // The results of the jobs completed as it closed are posted before their queues close.
    await Promise.all(posting);
    await replies.close();
  }
  connection.disconnect();
  return why === 'died' ? 1 : 0;
}

/** The results queues this worker posts to, one per submitter, opened on first use and few at a time. */
class Replies {
  private readonly queues = new Map<string, Queue>();
  private static readonly KEPT = 16;

  constructor(private readonly connection: ReturnType<typeof connect>) {}

  /** Posts a result under its case job's id: a second post of the same case is dropped while the first waits. */
  async post(name: string, jobId: string, result: CaseReply): Promise<void> {
    let queue = this.queues.get(name);
    if (queue) this.queues.delete(name);
    else {
      queue = new Queue(name, { connection: this.connection });
      queue.on('error', (error) => log.debug(`worker: results queue ${name}: ${error.message}`));
    }
    // Most recently used last; the least recently used closed past a few.
    this.queues.set(name, queue);
    for (const [old, q] of this.queues) {
      if (this.queues.size <= Replies.KEPT) break;
      this.queues.delete(old);
      void q.close();
    }
    await queue.add('result', result, { jobId, removeOnComplete: true, removeOnFail: true });
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
  }
}
