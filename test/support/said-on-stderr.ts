// Waiting for a child process to say something on stderr, for the two process wrappers of the tests.
import type { Readable } from 'node:stream';

/** What a wrapper gives: its child's stderr stream, all of stderr so far, and when the child ends. */
export interface StderrSource {
  stream: Readable;
  text: () => string;
  ended: Promise<unknown>;
}

/**
 * Resolves once stderr matches `pattern`, as it arrives; rejects, with stderr, if the child ends
 * first, or `withinMs` (when given) passes.
 */
export function saidOnStderr(source: StderrSource, pattern: RegExp, withinMs?: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = (error?: Error) => {
      source.stream.off('data', check);
      clearTimeout(timer);
      if (error) reject(error);
      else resolve();
    };
    const check = () => {
      if (pattern.test(source.text())) settle();
    };
    const timer =
      withinMs === undefined
        ? undefined
        : setTimeout(
            () => settle(new Error(`not said on stderr within ${withinMs} ms: ${pattern}\n${source.text().slice(-3000)}`)),
            withinMs,
          );
    source.stream.on('data', check);
    check();
    void source.ended.then(() => {
      if (pattern.test(source.text())) settle();
      else settle(new Error(`exited before saying ${pattern} on stderr:\n${source.text().slice(-3000)}`));
    });
  });
}
