// The one door to the predicate: every trial goes through here, so results are cached by
// the trial's text (the same trial is never tested twice, even while its first test is
// still running) and the budget is counted in one place. A predicate that runs real engines may
// not answer the same way every time (a case's script can draw random numbers): with `runs`
// above one, a trial holds only if it holds in each of that many runs, so that no step of a
// reduction is taken on a pass that came by chance.
import type { CaseTexts, StopReason } from './types.js';

/** When the tester stops starting tests. */
export interface Budget {
  /** Trials, not runs: the runs of a trial already started are all made. */
  maxTests: number;
  /** The clock's time after which no run starts. */
  deadline: number;
  signal: AbortSignal | undefined;
}

/** Caches predicate results by trial text and stops starting tests once the budget is spent. */
export class Tester {
  /** Trials whose test started. */
  tested = 0;
  /** Predicate calls. */
  runs = 0;
  cacheHits = 0;
  stopped: StopReason | null = null;
  private readonly cache = new Map<string, Promise<boolean>>();

  /** `runs`: how many times a trial must hold; `clock`: what the deadline is read on. */
  constructor(
    private readonly predicate: (texts: CaseTexts) => Promise<boolean>,
    private readonly budget: Budget,
    private readonly runsEach = 1,
    private readonly clock: () => number = Date.now,
  ) {}

  /** True once no more tests may start. */
  halted(): boolean {
    this.stopped ??= this.timeUp() ?? (this.tested >= this.budget.maxTests ? 'max-tests' : null);
    return this.stopped !== null;
  }

  /** The predicate's answer for `texts`: cached, or false without testing once halted. */
  test(texts: CaseTexts): Promise<boolean> {
    const key = keyOf(texts);
    const known = this.cache.get(key);
    if (known) {
      this.cacheHits++;
      return known;
    }
    if (this.halted()) return Promise.resolve(false);
    this.tested++;
    const answer = this.holdsEachTime(texts);
    this.cache.set(key, answer);
    return answer;
  }

  /**
   * Every run of `texts` (the original case), at most `parallel` at once, counted: how many held
   * of how many ran (fewer than `runs` only when the time limit or an abort came first). The
   * case then holds for the cache only if it held in every run.
   */
  count(texts: CaseTexts, parallel: number): Promise<{ held: number; ran: number }> {
    this.tested++;
    let started = 0;
    let held = 0;
    let ran = 0;
    const worker = async (): Promise<void> => {
      while (started < this.runsEach && !this.cutShort()) {
        started++;
        const holds = await this.run(texts);
        ran++;
        if (holds) held++;
      }
    };
    const counted = Promise.all(Array.from({ length: Math.min(parallel, this.runsEach) }, worker)).then(() => ({ held, ran }));
    this.cache.set(
      keyOf(texts),
      counted.then((c) => c.ran === this.runsEach && c.held === c.ran),
    );
    return counted;
  }

  /** Runs `texts` until a run fails or it has held `runs` times; a run the budget cut off is a failure. */
  private async holdsEachTime(texts: CaseTexts): Promise<boolean> {
    for (let i = 0; i < this.runsEach; i++) {
      if (i > 0 && this.cutShort()) return false;
      if (!(await this.run(texts))) return false;
    }
    return true;
  }

  private run(texts: CaseTexts): Promise<boolean> {
    this.runs++;
    // Called at once, not on a later tick, so a predicate that aborts the run stops the very next start.
    try {
      return Promise.resolve(this.predicate(texts)).then((holds) => holds === true);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Why no run may start now, if the time limit has passed or the run was aborted. */
  private timeUp(): StopReason | null {
    if (this.budget.signal?.aborted) return 'aborted';
    return this.clock() >= this.budget.deadline ? 'time-limit' : null;
  }

  /** True, and the reason kept, when the runs of a trial already started must stop. */
  private cutShort(): boolean {
    const reason = this.timeUp();
    this.stopped ??= reason;
    return reason !== null;
  }
}

/** A trial's identity: every text it sends (a mutation trial differs from the case only in its mutations). */
function keyOf(texts: CaseTexts): string {
  return JSON.stringify([texts.html ?? null, texts.script ?? null, texts.mutations ?? null]);
}
