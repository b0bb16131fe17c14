// The one door to the predicate: every candidate goes through here, so results are cached by
// the candidate's text (the same candidate is never tested twice, even while its first test is
// still running) and the budget is counted in one place.
import type { CaseTexts, StopReason } from './types.js';

/** When the tester stops starting tests. */
export interface Budget {
  maxTests: number;
  /** Date.now() after which no test starts. */
  deadline: number;
  signal: AbortSignal | undefined;
}

/** Caches predicate results by candidate text and stops starting tests once the budget is spent. */
export class Tester {
  tested = 0;
  cacheHits = 0;
  stopped: StopReason | null = null;
  private readonly cache = new Map<string, Promise<boolean>>();

  constructor(
    private readonly predicate: (texts: CaseTexts) => Promise<boolean>,
    private readonly budget: Budget,
  ) {}

  /** True once no more tests may start. */
  halted(): boolean {
    if (this.stopped) return true;
    if (this.budget.signal?.aborted) this.stopped = 'aborted';
    else if (Date.now() >= this.budget.deadline) this.stopped = 'time-limit';
    else if (this.tested >= this.budget.maxTests) this.stopped = 'max-tests';
    return this.stopped !== null;
  }

  /** The predicate's answer for `texts`: cached, or false without testing once halted. */
  test(texts: CaseTexts): Promise<boolean> {
    const key = JSON.stringify([texts.html ?? null, texts.script ?? null]);
    const known = this.cache.get(key);
    if (known) {
      this.cacheHits++;
      return known;
    }
    if (this.halted()) return Promise.resolve(false);
    this.tested++;
    // Called at once, not on a later tick, so a predicate that aborts the run stops the very next start.
    let answer: Promise<boolean>;
    try {
      answer = Promise.resolve(this.predicate(texts)).then((holds) => holds === true);
    } catch (error) {
      answer = Promise.reject(error);
    }
    this.cache.set(key, answer);
    return answer;
  }
}
