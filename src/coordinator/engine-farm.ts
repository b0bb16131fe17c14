// The pool of worker threads that own the browsers. Piscina schedules tasks onto workers; a
// BroadcastChannel carries what Piscina cannot (each worker's launch status, "close your
// browsers" and each worker's "closed"). An engine is served only when every worker launched the
// same build of it, since a case may go to any worker.
import { BroadcastChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { ENGINE_NAMES, type EngineName } from '../protocol/schema.js';
import type { Executables, OracleOptions } from '../protocol/launch-options.js';
import { unpackResult } from '../protocol/wire.js';
import { CONTROL_CHANNEL, type ControlMessage, type WorkerConfig, type WorkerTask } from '../worker-contract/tasks.js';
import { CASE_WORKER } from '../system/paths.js';
import { log } from '../system/log.js';

/** What every worker is started with, and how many workers hold how many cases each. */
export type FarmOptions = WorkerConfig & Pick<OracleOptions, 'workers' | 'window'>;

// Each engine bounds each step of its start at two minutes (START_LIMIT_MS); Firefox has two steps.
const START_TIMEOUT_MS = 300_000;
const CLOSE_TIMEOUT_MS = 20_000;

export class EngineFarm {
  private constructor(
    private readonly pool: Piscina,
    private readonly control: BroadcastChannel,
    private readonly workerCount: number,
    /** Engine → version, for every engine that launched. */
    readonly versions: Partial<Record<EngineName, string>>,
    /** The engines whose case documents carry the guard (src/page/guard.ts). */
    readonly guarded: ReadonlySet<EngineName>,
    /** Why each engine that did not launch did not (a worker's first reason). */
    readonly failures: Partial<Record<EngineName, string>>,
    /** The executables the workers reported running (every worker runs the same ones). */
    readonly executables: Executables,
  ) {}

  get engines(): EngineName[] {
    return ENGINE_NAMES.filter((e) => this.versions[e] !== undefined);
  }

  static async start(options: FarmOptions): Promise<EngineFarm> {
    const { workers, window, ...config } = options;
    const control = new BroadcastChannel(CONTROL_CHANNEL);
    const statuses: Extract<ControlMessage, { type: 'status' }>[] = [];
    const allReported = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`workers did not report within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
      control.onmessage = (event) => {
        const message = (event as { data: ControlMessage }).data;
        if (message.type !== 'status') return;
        statuses.push(message);
        if (statuses.length === workers) {
          clearTimeout(timer);
          resolve();
        }
      };
    });
    const pool = new Piscina({
      filename: CASE_WORKER,
      minThreads: workers,
      maxThreads: workers,
      // Enough cases at hand that every engine's queue fills batches while the slowest engine
      // finishes the cases the others are done with: a worker's engine hosts batch what is queued.
      concurrentTasksPerWorker: window,
      idleTimeout: Number.POSITIVE_INFINITY,
      // Workers wait on the browsers' sockets between tasks; Atomics.wait would block them.
      atomics: 'disabled',
      workerData: config satisfies WorkerConfig,
    });
    try {
      await allReported;
    } catch (error) {
      control.close();
      await pool.destroy();
      throw error;
    }
    // An engine is served only if every worker has it: Piscina may send a case to any worker.
    const versions: Partial<Record<EngineName, string>> = {};
    for (const engine of options.engines) {
      const version = statuses[0]?.versions[engine];
      if (version && statuses.every((status) => status.versions[engine] === version)) versions[engine] = version;
    }
    const failures: Partial<Record<EngineName, string>> = {};
    for (const status of statuses) {
      for (const [engine, reason] of Object.entries(status.failures) as [EngineName, string][]) failures[engine] ??= reason;
    }
    const guarded = new Set(options.engines.filter((e) => versions[e] !== undefined && statuses.every((s) => s.guarded.includes(e))));
    return new EngineFarm(pool, control, workers, versions, guarded, failures, statuses[0]?.executables ?? {});
  }

  /** Run a task on some worker; its result arrives as msgpack in a transferred buffer. */
  async run<R>(task: WorkerTask): Promise<R> {
    const packed = (await this.pool.run(task)) as Uint8Array;
    return unpackResult<R>(packed);
  }

  /** Ask every worker to close its browsers, then stop the pool. */
  async close(): Promise<void> {
    let closed = 0;
    const allClosed = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, CLOSE_TIMEOUT_MS);
      this.control.onmessage = (event) => {
        if ((event as { data: ControlMessage }).data.type === 'closed' && ++closed === this.workerCount) {
          clearTimeout(timer);
          resolve();
        }
      };
    });
    this.control.postMessage({ type: 'close' } satisfies ControlMessage);
    await allClosed;
    if (closed < this.workerCount) log.warn(`${this.workerCount - closed} worker(s) did not close their browsers in time`);
    this.control.close();
    await this.pool.destroy();
  }
}
