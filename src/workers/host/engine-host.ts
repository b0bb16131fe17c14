// One engine in one worker: its browser (BrowserSupervisor), its pages (PagePool), its queue of
// work (EngineQueue), the fast path (FastPath) and the rules a case runs by (CaseRunner). Each
// page is a lane that takes the next batch from the queue as soon as it is free, so engines run
// independently of each other and a lone case waits for nothing but a page.
import type { WorkerConfig } from '../../worker-contract/tasks.js';
import type { Executables } from '../../protocol/launch-options.js';
import { OracleError } from '../../protocol/errors.js';
import type { EngineName } from '../../protocol/schema.js';
import type { LaunchEngine } from '../engine.js';
import { BrowserSupervisor } from './browser-supervisor.js';
import { CaseRunner } from './case-runner.js';
import { EngineQueue } from './engine-queue.js';
import { FastPath } from './fast-path.js';
import type { RawWalk } from '../../protocol/page-output.js';
import type { DocumentJob, Job, WriteJob } from './jobs.js';
import type { MemoryWatcher } from './memory-watch.js';
import { PagePool, type Slot } from './page-pool.js';

/** How long beyond its own timeout a case waits for a page while its engine relaunches. */
const PAGE_WAIT_MS = 90_000;

/** The launch options an engine host runs by (src/protocol/launch-options.ts), and its engine's launch. */
export type HostSettings = Pick<WorkerConfig, 'pages' | 'maxBatch' | 'timeoutMs' | 'launch'>;

export class EngineHost {
  private readonly supervisor: BrowserSupervisor;
  private readonly pool: PagePool;
  private readonly queue: EngineQueue;
  private readonly fastPath: FastPath;
  private readonly runner: CaseRunner;
  private closing = false;
  private lanes: Promise<void>[] = [];
  /** Lanes running a batch or a case now: the others share what is queued. */
  private running = 0;

  constructor(
    readonly engine: EngineName,
    launchEngine: LaunchEngine,
    private readonly settings: HostSettings,
    memory: MemoryWatcher,
  ) {
    this.supervisor = new BrowserSupervisor(engine, launchEngine, settings.launch, () => this.pool.browserLost());
    this.pool = new PagePool(this.supervisor, settings.pages);
    this.queue = new EngineQueue();
    this.fastPath = new FastPath(engine, () => this.supervisor.traits, settings.maxBatch, settings.timeoutMs);
    const watched = memory.watch(engine, this.supervisor);
    this.runner = new CaseRunner(
      engine,
      this.supervisor,
      this.pool,
      this.queue,
      this.fastPath,
      settings.timeoutMs,
      watched,
      settings.pages,
    );
  }

  /** The build this host runs. */
  get version(): string {
    return this.supervisor.version;
  }

  /** Whether this engine's case documents must carry the guard (src/page/guard.ts). */
  get guarded(): boolean {
    return this.supervisor.traits.guarded;
  }

  /** The executables this host's browser runs. */
  get executables(): Executables {
    return this.supervisor.executables;
  }

  /** Launches the browser and opens every page; throws, with the reason, when the engine cannot serve. */
  async start(): Promise<void> {
    await this.supervisor.current();
    await this.pool.start();
    this.lanes = Array.from({ length: this.settings.pages }, () => this.lane());
  }

  /** Runs one job; resolves with its decoded result, or rejects with the error that ends the case. */
  submit<R>(job: DocumentJob<R>): Promise<R>;
  /** A script-free case for the fast path, or its own document, resolves with its walk. */
  submit(job: WriteJob | DocumentJob<RawWalk>): Promise<RawWalk>;
  submit(job: Job): Promise<unknown> {
    if (this.closing) return Promise.reject(new OracleError('engine_not_launched', `${this.engine} is closing`));
    return new Promise((resolve, reject) => {
      this.queue.push({ job, resolve: resolve as (value: unknown) => void, reject, attempt: 0, alone: false, since: Date.now() });
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    this.queue.wakeEveryone();
    await Promise.all(this.lanes);
    for (const pending of this.queue.expire(Number.POSITIVE_INFINITY))
      pending.reject(new OracleError('engine_not_launched', `${this.engine} closed before the case ran`));
    await this.pool.close();
    await this.supervisor.close();
  }

  /** One page's loop: wait for work, take a page, take the batch that is due, run it. */
  private async lane(): Promise<void> {
    while (!this.closing) {
      await this.queue.waitForWork();
      if (this.closing) break;
      let slot: Slot;
      try {
        slot = await this.pool.take(this.settings.timeoutMs + PAGE_WAIT_MS);
      } catch (error) {
        // No page came back in time: the cases that waited longest give up.
        for (const pending of this.queue.expire(Date.now() - this.settings.timeoutMs - PAGE_WAIT_MS)) pending.reject(error);
        continue;
      }
      const batch = this.queue.next((run, queued) => this.fastPath.pick(slot, run, queued, this.settings.pages - this.running));
      if (!batch.length) {
        this.pool.give(slot);
        continue;
      }
      this.running++;
      try {
        await this.runner.run(slot, batch);
      } finally {
        this.running--;
      }
    }
  }
}
