// The command line's promise about stderr: every line starts with `browser-oracle: <level>: `.
// The oracle's own lines do (src/system/log.ts); a line anything else writes — a library in this
// thread, or one in a worker, whose stderr Node pipes through this thread's — gets the prefix at
// level warn instead of reaching the user bare (and is held back by --quiet like any warning).
import { StringDecoder } from 'node:string_decoder';
import { LOG_PREFIX, log } from './log.js';

type Write = (chunk: string | Uint8Array, ...rest: unknown[]) => boolean;

let unguarded: Write | undefined;

/**
 * stderr as it was before the guard, for output that owns a terminal line (a progress bar redrawn
 * in place with \r, never a whole line until it ends).
 */
export function terminalStderr(): NodeJS.WriteStream {
  const stream = Object.create(process.stderr) as NodeJS.WriteStream;
  if (unguarded) stream.write = unguarded as typeof stream.write;
  return stream;
}

/** Routes every unprefixed stderr line of this process through the log, whole lines at a time. */
export function guardStderr(): void {
  const stderr = process.stderr;
  const original = stderr.write.bind(stderr) as Write;
  unguarded = original;
  const decoder = new StringDecoder('utf8');
  let partial = '';
  let logging = false;
  const guarded: Write = (chunk, ...rest) => {
    if (logging) return original(chunk, ...rest);
    const text = partial + (typeof chunk === 'string' ? chunk : decoder.write(Buffer.from(chunk)));
    const end = text.lastIndexOf('\n') + 1;
    partial = text.slice(end);
    let ok = true;
    for (const line of text.slice(0, end).split('\n').slice(0, -1)) {
      if (line.startsWith(LOG_PREFIX)) ok = original(`${line}\n`) && ok;
      else if (line.trim()) {
        logging = true;
        log.warn(line);
        logging = false;
      }
    }
    const callback = rest.find((arg) => typeof arg === 'function') as (() => void) | undefined;
    if (callback) process.nextTick(callback);
    return ok;
  };
  stderr.write = guarded as typeof stderr.write;
}
