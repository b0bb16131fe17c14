// Waiting on Firefox for a bounded time: a hung or dead browser must not hang its owner.

/** Resolves when `promise` settles or after `ms`, whichever comes first; never rejects. */
export function withGrace(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return Promise.race([promise.then(noop, noop), late]).finally(() => clearTimeout(timer));
}

function noop(): void {}
