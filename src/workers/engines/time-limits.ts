// Waiting on an engine for a bounded time: a hung or dead browser must not hang its owner. One
// pair of helpers for the three adapters, on p-timeout (each adapter used to race its own timer).
import pTimeout from 'p-timeout';

/** Resolves when `promise` settles or after `ms`, whichever comes first; never rejects. */
export function withGrace(promise: Promise<unknown>, ms: number): Promise<void> {
  return pTimeout(promise.then(noop, noop), { milliseconds: ms, fallback: noop });
}

/** `promise`, or a rejection with `late()` once `ms` have passed without it settling. */
export function withDeadline<T>(promise: Promise<T>, ms: number, late: () => Error): Promise<T> {
  return pTimeout(promise, {
    milliseconds: ms,
    fallback: () => {
      throw late();
    },
  });
}

function noop(): void {}
