// The driver's side of a trace page (trace-recorder.ts): the main-world call the worker makes
// once the page has loaded, which hands the request's check and script to the recorder's hook
// and answers with the JSON text the recorder made.
import { HOOK_KEY } from './trace-recorder.js';

/**
 * The main-world call the driver makes once the trace page has loaded:
 * `(hookKey, check, script, reply?) => Promise<string>`, the hook's JSON text. Given `reply`
 * (WebKitGTK's driver hands one), it answers through it and returns it, with no promise on the
 * way: a promise's reactions go through the page's Promise.prototype.then, which the case may
 * have replaced.
 */
function runTraceInPage(
  hookKey: string,
  check: { url: string; nonce: string },
  script: string | null,
  reply?: (text: string) => void,
): Promise<string> | typeof reply {
  const run = (window as unknown as Record<string, (c: unknown, s: string | null, done: (text: string) => void) => void>)[hookKey];
  // No recorder: the page is not a trace page of the oracle's (the case navigated away).
  const answer = (done: (text: string) => void) =>
    typeof run === 'function' ? run(check, script, done) : done(JSON.stringify(['elsewhere', String(location.href)]));
  if (!reply) return new Promise(answer);
  answer(reply);
  return reply;
}

/** The in-page function the worker calls after load, and its arguments before the check and script. */
export const RUN_TRACE_SOURCE = `(${runTraceInPage.toString()})`;
export const RUN_TRACE_HOOK = HOOK_KEY;
