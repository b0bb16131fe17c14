// The `trace` op: run a script in a trace page on a real secure origin and answer with what
// the recorder observed, per engine.
import { TRACE_TIMEOUT, type TraceRequest } from '../protocol/trace-schema.js';
import type { WireValue } from '../protocol/wire.js';
import type { TraceResult } from '../farm/tasks.js';
import { errorsField, inEngineOrder, scheduleCase, type CaseContext } from './schedule.js';

export async function traceOp(request: TraceRequest, ctx: CaseContext): Promise<Record<string, WireValue | undefined>> {
  const completionMs = request.timeout_ms ?? TRACE_TIMEOUT.defaultMs;
  const page = { completionMs, files: request.files ?? {} };
  const { result, errors } = await scheduleCase<TraceResult>(ctx, request, 'trace', { kind: 'trace', completionMs }, page);
  return { id: request.id, traces: inEngineOrder(result?.traces ?? {}), errors: errorsField(errors) };
}
