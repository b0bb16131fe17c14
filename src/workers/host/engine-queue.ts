// One engine's queue of work in one worker. A free page takes the job at the head; when that is a
// script-free case, it takes up to min(maxBatch, ceil(queued / idle pages)) consecutive ones,
// written and walked in one driver call — batching what is queued, never waiting to fill a batch,
// so a lone case runs as soon as a page is free. Only the pages not running a batch share what is
// queued: a page whose siblings are busy takes all of it (dividing by every page split a burst
// geometrically, 14 7 4 2 1, and paid a driver call's fixed cost for each piece). A case that must run by itself (a re-run after its
// batch failed) ends a batch, as does any case that loads its own document.
import type { Job, WriteJob } from './jobs.js';

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

  constructor(private readonly maxBatch: number) {}

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
   * The next batch for a free page, or nothing when the queue is empty; `idlePages` (this one
   * included) share what is queued. `bidiPage`, for an engine
   * whose written documents keep bidi processing on: whether this page's has it on; the page
   * then takes the cases of its own kind among those at the head, and the others only when
   * there are none, so that pages seldom have to be made fresh (src/workers/script-free.ts).
   */
  next(idlePages: number, bidiPage?: boolean): Pending[] {
    const head = this.items[0];
    if (!head) return [];
    if (head.job.kind !== 'write' || head.alone) return this.items.splice(0, 1);
    const queued = this.items.filter((p) => p.job.kind === 'write' && !p.alone).length;
    const limit = Math.min(this.maxBatch, Math.ceil(queued / Math.max(1, idlePages)));
    let run = 1;
    while (run < this.items.length && this.items[run]!.job.kind === 'write' && !this.items[run]!.alone) run++;
    if (bidiPage === undefined) return this.items.splice(0, Math.min(run, limit));
    const kind = (p: Pending) => (p.job as WriteJob).bidi;
    const own = this.items.slice(0, run).filter((p) => kind(p) === bidiPage);
    const taken = (own.length ? own : this.items.slice(0, run)).slice(0, limit);
    for (const p of taken) this.items.splice(this.items.indexOf(p), 1);
    return taken;
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
