// Checkpoints a campaign's journal from a thread of its own. A WAL checkpoint copies committed
// pages into the database file and fsyncs it; on the thread that records cases it stalled the
// event loop for up to ~300 ms (measured: p99 54 ms per commit that triggered one), and with it
// the farm's results. With SQLite's automatic checkpoints off on the recording connection
// (Journal.autoCheckpoint), this second connection checkpoints every `intervalMs` instead; a
// PASSIVE checkpoint never blocks the writer, and commits themselves wait for no fsync.
import { Worker } from 'node:worker_threads';
import { log } from '../../system/log.js';

/** Messages from the checkpoint thread. */
export type CheckpointerMessage = { type: 'error'; message: string };

export class Checkpointer {
  private stopping = false;
  private failed = false;
  private readonly worker: Worker;
  private readonly exited: Promise<void>;

  /** Starts checkpointing the journal at `path`; `onFailure` runs (once, never after `stop`) if the thread cannot go on. */
  constructor(path: string, onFailure: () => void, intervalMs = 1000) {
    this.worker = new Worker(new URL('./checkpoint-worker.js', import.meta.url), { workerData: { path, intervalMs } });
    const fail = (message: string) => {
      if (this.failed || this.stopping) return;
      this.failed = true;
      log.warn(`journal checkpoints: ${message}; the recording thread checkpoints again`);
      onFailure();
    };
    this.worker.on('message', (m: CheckpointerMessage) => m.type === 'error' && fail(m.message));
    // A thread that failed to start may throw something that is not an Error.
    this.worker.on('error', (e: unknown) => fail((e as { message?: string }).message ?? String(e)));
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()));
  }

  /** Stops the thread after its current checkpoint, with its connection closed. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.worker.postMessage('close');
    await this.exited;
  }
}
