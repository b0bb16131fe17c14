// Waiting on a browser for a bounded time: a hung or dead browser must not hang its owner.

/** Resolves when `promise` settles or after `ms`, whichever comes first; never rejects. */
export function withGrace(promise: Promise<unknown>, ms: number): Promise<void> {
  return bounded(promise.then(noop, noop), ms, () => undefined);
}

/** `promise`, or a rejection with `late()` once `ms` have passed without it settling. */
export function withDeadline<T>(promise: Promise<T>, ms: number, late: () => Error): Promise<T> {
  return bounded(promise, ms, () => {
    throw late();
  });
}

function bounded<T>(promise: Promise<T>, ms: number, onTimeout: () => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<T>((resolve, reject) => {
    timer = setTimeout(() => {
      try {
        resolve(onTimeout());
      } catch (error) {
        reject(error);
      }
    }, ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function noop(): void {}
