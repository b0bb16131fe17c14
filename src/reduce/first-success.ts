// The parallel step of ddmin: test trials concurrently and take the first success in list
// order, never the first to finish, so the outcome does not depend on timing. Trials start
// in order; once trial i has succeeded nothing after i is started, and the answer is known
// when everything before i has finished failing.

/**
 * The index of the first trial, in list order, for which `test` holds (-1 when none does),
 * running up to `parallel` tests at a time. Stops starting tests once `halted()` is true.
 * If a test throws, no further tests start, the running ones are awaited, and the error is rethrown.
 */
export async function firstSuccess<C>(
  trials: readonly C[],
  test: (trial: C) => Promise<boolean>,
  parallel: number,
  halted: () => boolean,
): Promise<number> {
  let next = 0;
  let best = -1;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    for (;;) {
      const i = next++;
      if (i >= trials.length || (best >= 0 && i > best) || failure || halted()) return;
      try {
        if (await test(trials[i]!)) best = best < 0 ? i : Math.min(best, i);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  const workers = Math.max(1, Math.min(parallel, trials.length));
  await Promise.all(Array.from({ length: workers }, worker));
  if (failure) throw failure.error;
  return best;
}
