// A trace on each engine: load the trace page (the recorder installs itself first), run the
// request's script through the recorder's hook, wait for the trace to end, and serialize it in
// the contract's key order (WebKitWebDriver does not keep key order, so the page hands back an
// array and the records as JSON text of its own making).
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { Type } from '@sinclair/typebox';
import { OracleError } from '../protocol/errors.js';
import type { EngineName, ProfileName } from '../protocol/schema.js';
import { TraceSchema } from '../protocol/trace-schema.js';
import { encodeJson, UnencodableError, type WireValue } from '../protocol/wire.js';
import type { EngineHost } from './engine-host.js';
import { forEachEngine } from './for-each-engine.js';
import { RUN_TRACE_HOOK, RUN_TRACE_SOURCE, TRACE_COMPLETION_MS, type TraceOutcome } from '../page/trace-recorder.js';
import type { TraceResult, TraceTask } from '../farm/tasks.js';

// The page hands back its records as JSON text: decoded and checked against the record schema
// here, then encoded again, so nothing of the page's text reaches an answer as it was sent.
const checkRecords = TypeCompiler.Compile(Type.Array(TraceSchema.properties.records.items));

export async function runTrace(task: TraceTask, hosts: Map<EngineName, EngineHost>, profile: ProfileName): Promise<TraceResult> {
  const result: TraceResult = { traces: {}, errors: {} };
  await forEachEngine(task.engines, hosts, result.errors, async (engine, host) => {
    const value = await host.run<TraceOutcome>({
      url: task.url,
      fn: RUN_TRACE_SOURCE,
      args: [RUN_TRACE_HOOK, task.script!],
      // The per-case budget applies on top of the trace's own completion window.
      timeoutMs: task.timeoutMs + TRACE_COMPLETION_MS,
    });
    const [origin, secure, timedOut, text] = value;
    const records = typeof text === 'string' ? parseJson(text) : undefined;
    if (typeof origin !== 'string' || typeof secure !== 'boolean' || typeof timedOut !== 'boolean' || !checkRecords.Check(records)) {
      throw new OracleError('script_error', `${engine} returned a malformed trace; did the page replace the recorder?`);
    }
    try {
      result.traces[engine] = encodeJson({
        engine,
        engine_version: host.version,
        profile,
        origin,
        is_secure_context: secure,
        timed_out: timedOut,
        records: records as WireValue,
      });
    } catch (error) {
      if (error instanceof UnencodableError)
        throw new OracleError('script_error', `${engine} returned a trace value JSON cannot carry: ${error.message}`);
      throw error;
    }
  });
  return result;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
