// A trace on each engine: its trace page (the recorder installs itself first), the request's
// script run through the recorder's hook, the trace decoded and checked once it ends, and
// serialized in the contract's key order. The page is then retired with its storage.
import { OracleError } from '../protocol/errors.js';
import type { TraceOutcome } from '../protocol/page-output.js';
import { encodeJson, UnencodableError, type WireValue } from '../protocol/wire.js';
import type { TraceResult, TraceTask } from '../farm/tasks.js';
import { forEachEngine } from './for-each-engine.js';
import type { WorkerContext } from './worker-context.js';

export async function runTrace(task: TraceTask, ctx: WorkerContext): Promise<TraceResult> {
  const result: TraceResult = { traces: {}, errors: {} };
  await forEachEngine(task.engines, ctx.hosts, result.errors, async (engine, host) => {
    // Every trace page shares one real origin: a new page with fresh storage follows each.
    const outcome = await host.submit({
      kind: 'trace',
      document: { ...task.documents[engine]!, freshStorage: true },
      script: task.script!,
      completionMs: task.completionMs,
    });
    // Decoded by the case runner, as it came from the page.
    const { origin, secure, timedOut, records } = outcome as TraceOutcome;
    if (records === null)
      throw new OracleError('dump_too_large', `the trace recorded more than ${ctx.walk.maxBytes} bytes (--max-answer-bytes)`);
    try {
      result.traces[engine] = encodeJson({
        engine,
        engine_version: host.version,
        profile: ctx.config.launch.profile,
        origin,
        is_secure_context: secure,
        timed_out: timedOut,
        records: records as WireValue,
      });
    } catch (error) {
      if (error instanceof UnencodableError)
        throw new OracleError('page_tampered', `${engine} recorded a value JSON cannot carry (${error.message})`);
      throw error;
    }
  });
  return result;
}
