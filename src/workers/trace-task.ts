// A trace on each engine: load the trace page (the recorder installs itself first), run the
// request's script through the recorder's hook, wait for the trace to end, and serialize it in
// the contract's key order (WebKitWebDriver does not keep key order, so the page hands back an
// array and the records as JSON text of its own making).
import { OracleError } from '../protocol/errors.js';
import type { EngineName, ProfileName } from '../protocol/schema.js';
import type { EngineHost } from './engine-host.js';
import { forEachEngine } from './for-each-engine.js';
import { RUN_TRACE_HOOK, RUN_TRACE_SOURCE, TRACE_COMPLETION_MS, type TraceOutcome } from './trace-recorder.js';
import type { TraceResult, TraceTask } from './tasks.js';

const json = JSON.stringify;

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
    const [origin, secure, timedOut, records] = value;
    if (typeof origin !== 'string' || typeof secure !== 'boolean' || typeof timedOut !== 'boolean' || !Array.isArray(JSON.parse(records))) {
      throw new OracleError('script_error', `${engine} returned a malformed trace; did the page replace the recorder?`);
    }
    result.traces[engine] =
      `{"engine":${json(engine)},"engine_version":${json(host.version)},"profile":${json(profile)},` +
      `"origin":${json(origin)},"is_secure_context":${secure},"timed_out":${timedOut},"records":${records}}`;
  });
  return result;
}
