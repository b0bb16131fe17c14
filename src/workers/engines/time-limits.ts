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

/**
 * How long one step of a browser's start (its first answer, its session) may take. A browser that
 * cannot start exits, and is told apart by its exit; this bounds only one that hangs, so it is
 * generous: on a loaded 2-core machine (load 27) a start took 45 s.
 */
export const START_LIMIT_MS = 120_000;

function noop(): void {}
