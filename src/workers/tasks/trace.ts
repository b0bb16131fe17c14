// The `trace` op: on each engine, its trace page (the recorder installs itself first, after the
// request's emulation is applied to the page), the request's script run through the recorder's
// hook, the trace decoded and checked once it ends, serialized in the contract's key order with
// the record of what the driver applied when the request asked for emulation (the worker's own,
// never the page's), and voted when asked. The page is then retired with its storage: every trace
// page shares one real origin.
import { emulationRecord } from '../../protocol/emulation-schema.js';
import { OracleError } from '../../protocol/errors.js';
import { inAnswerOrder } from '../../protocol/ops.js';
import { decodeTraceText, type TraceOutcome } from '../../protocol/page-output.js';
import { TRACE_TIMEOUT, type Trace } from '../../protocol/trace-schema.js';
import { encodeJson, plainJson, UnencodableError, type JsonText, type WireValue } from '../../protocol/wire.js';
import { voteTraces } from '../../comparator/trace-vote.js';
import type { CaseCheck } from '../../page/programs.js';
import { RUN_TRACE_HOOK, RUN_TRACE_SOURCE } from '../../page/trace-run.js';
import type { EnginePage } from '../engine.js';
import { leftDocument } from '../page-answers.js';
import { eachEngine, errorsField, perEngine, type Task } from './task.js';

export const trace: Task<'trace'> = async (task, ctx) => {
  const { results, errors } = await eachEngine(task, ctx, async (engine, host) => {
    const { outcome, emulation } = await host.submit({
      kind: 'document',
      document: { ...task.documents[engine]!, freshStorage: true },
      // The recorder ends a trace that never calls trace.done() by itself, that much later (the
      // case server serves the page with the same timeout).
      extraMs: task.request.timeout_ms ?? TRACE_TIMEOUT.defaultMs,
      ...(task.request.emulate ? { emulate: task.request.emulate } : {}),
      run: async (page, check, emulation) => ({ outcome: await runTrace(page, check, task.request.script), emulation }),
    });
    const { origin, secure, timedOut, records } = outcome;
    if (records === null)
      throw new OracleError('dump_too_large', `the trace recorded more than ${ctx.walk.maxBytes} bytes (--max-answer-bytes)`);
    const trace: Trace = {
      engine,
      engine_version: host.version,
      profile: ctx.config.launch.profile,
      origin,
      is_secure_context: secure,
      timed_out: timedOut,
      records,
      emulation: emulation && emulationRecord(emulation),
    };
    try {
      return { trace, text: encodeJson(trace as WireValue) as JsonText<Trace> };
    } catch (error) {
      if (error instanceof UnencodableError)
        throw new OracleError('page_tampered', `${engine} recorded a value JSON cannot carry (${error.message})`);
      throw error;
    }
  });
  return inAnswerOrder('trace', {
    traces: perEngine(results, (r) => r.text),
    vote: task.request.vote ? plainJson(voteTraces({ traces: perEngine(results, (r) => r.trace), errors }, task.request.align)) : undefined,
    errors: errorsField(errors),
  });
};

/**
 * Runs the script through the recorder's hook and resolves with the recorder's answer, decoded,
 * once the trace ends: decoded here, on the page, so that a tampered answer is the page's fault
 * (the case runner retries it).
 */
async function runTrace(page: EnginePage, check: CaseCheck, script: string): Promise<TraceOutcome> {
  let text = await page.callMain(RUN_TRACE_SOURCE, [RUN_TRACE_HOOK, check, script]);
  // A driver that gave up on the call (WebKitGTK's, each time the trace dismisses a dialog)
  // asks again, for the end alone, until it comes (the case's timer bounds this).
  while (text === null || text === undefined) text = await page.callMain(RUN_TRACE_SOURCE, [RUN_TRACE_HOOK, check, null]);
  const outcome = decodeTraceText(text);
  if ('elsewhere' in outcome) throw leftDocument(outcome.elsewhere);
  return outcome;
}
