// One engine's queue of work in one worker. A free page takes the job at the head: a case that
// loads its own document, or that must run by itself (a re-run after its batch failed), alone;
// a script-free case, with those that follow it, as the fast path picks them (fast-path.ts) —
// batching what is queued, never waiting to fill a batch, so a lone case runs as soon as a page
// is free.
import type { Job } from './jobs.js';

/** A job in the queue, with how to settle it. */
export interface Pending {
  job: Job;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  /** 0 on the first run; a case that failed for its page's sake (a crash, a page not on its document) runs once more. */
  attempt: number;
  /** Runs by itself: its batch failed, so which case was to blame is not known yet. */
  alone: boolean;
  /** When it was queued, for the bound on waiting for a page. */
  since: number;
}

export class EngineQueue {
  private readonly items: Pending[] = [];
  private readonly waiting: (() => void)[] = [];

  get size(): number {
    return this.items.length;
  }

  /** Queues new work at the back. */
  push(pending: Pending): void {
    this.items.push(pending);
    this.signal();
  }

  /** Puts work back at the front, in the order given: re-runs and the rest of a cut-short batch go before new work. */
  requeue(pending: readonly Pending[]): void {
    this.items.unshift(...pending);
    if (pending.length) this.signal();
  }

  /**
   * The next batch for a free page, or nothing when the queue is empty: the head alone, unless it
   * is a script-free case; then those of the run of script-free cases at the head that `pick`
   * takes, told how many script-free cases are queued in all.
   */
  next(pick: (run: readonly Pending[], queued: number) => readonly Pending[]): Pending[] {
    const head = this.items[0];
    if (!head) return [];
    if (!batchable(head)) return this.items.splice(0, 1);
    let run = 1;
    while (run < this.items.length && batchable(this.items[run]!)) run++;
    const taken = pick(this.items.slice(0, run), this.items.filter(batchable).length);
    for (const p of taken) this.items.splice(this.items.indexOf(p), 1);
    return [...taken];
  }

  /** Removes and returns the jobs queued before `before` (milliseconds since the epoch). */
  expire(before: number): Pending[] {
    const expired = this.items.filter((p) => p.since < before);
    for (const p of expired) this.items.splice(this.items.indexOf(p), 1);
    return expired;
  }

  /** Resolves once there is work (at once if there is). */
  waitForWork(): Promise<void> {
    if (this.items.length) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Wakes every lane waiting for work (on close, so they can end). */
  wakeEveryone(): void {
    for (const wake of this.waiting.splice(0)) wake();
  }

  private signal(): void {
    // Every waiting lane looks: the work may be more than one page can take.
    this.wakeEveryone();
  }
}

/** A script-free case that may share a driver call with others. */
const batchable = (p: Pending) => p.job.kind === 'write' && !p.alone;
