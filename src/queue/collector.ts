// The collector: takes results off one submitter's results queue and hands each to the case
// waiting for it. Delivery is at least once (a case whose worker died is run again, and both
// runs may post), so it takes the first result for each job and drops the rest; a campaign's
// journal then records each case once by its id and content hash. A result is removed from
// Redis when its handler returns, after the case waiting for it has been given it.
import { Worker } from 'bullmq';
import { log } from '../system/log.js';
import { connect } from './connection.js';
import { type CaseResult, checkCaseResult } from './jobs.js';

export class Collector {
  private readonly waiting = new Map<string, { resolve: (result: CaseResult) => void; reject: (error: Error) => void }>();
  private readonly worker: Worker;
  private readonly connection;

  constructor(url: URL, queue: string, concurrency: number) {
    this.connection = connect(url, 'collector');
    this.worker = new Worker(queue, async (job) => this.deliver(job.id!, job.data), {
      connection: this.connection,
      concurrency,
      removeOnComplete: { count: 0 },
      removeOnFail: { count: 0 },
    });
    this.worker.on('error', (error) => log.debug(`collector: ${error.message}`));
  }

  /** The result of job `id`, when it comes. */
  expect(id: string): Promise<CaseResult> {
    return new Promise((resolve, reject) => this.waiting.set(id, { resolve, reject }));
  }

  /** Whether job `id` still waits for its result. */
  awaits(id: string): boolean {
    return this.waiting.has(id);
  }

  /** Job `id` fails with `error` (the queue gave up on it); a result that comes later is dropped. */
  fail(id: string, error: Error): void {
    this.waiting.get(id)?.reject(error);
    this.waiting.delete(id);
  }

  private deliver(id: string, data: unknown): void {
    const waiter = this.waiting.get(id);
    if (!waiter) {
      log.debug(`collector: dropped a second result for job ${id}`);
      return;
    }
    const result = checkCaseResult(data);
    if (typeof result === 'string') {
      // Not a worker's result: the job waits on, and the submitter's audit sends it again.
      log.warn(`collector: job ${id}: ${result}; dropped`);
      return;
    }
    this.waiting.delete(id);
    waiter.resolve(result);
  }

  /**
   * Stops collecting; the cases still waiting are rejected with `error`. Forced: a result taken
   * but not yet removed goes with the results queue, and nothing waits for Redis.
   */
  async close(error: Error): Promise<void> {
    for (const id of [...this.waiting.keys()]) this.fail(id, error);
    await this.worker.close(true);
    this.connection.disconnect();
  }
}
