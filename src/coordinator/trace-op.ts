// The `trace` op: run a script in a trace page on a real secure origin and answer with what
// the recorder observed, per engine. An emulation the oracle cannot take (a time zone no engine
// knows, a device feature without the launch profile `devices`) is refused before any engine runs.
import { OracleError } from '../protocol/errors.js';
import { emulateProblem } from '../protocol/emulation-schema.js';
import { TRACE_TIMEOUT, type TraceRequest } from '../protocol/trace-schema.js';
import type { WireValue } from '../protocol/wire.js';
import type { TraceResult } from '../farm/tasks.js';
import { errorsField, inEngineOrder, scheduleCase, type CaseContext } from './schedule.js';

export async function traceOp(request: TraceRequest, ctx: CaseContext): Promise<Record<string, WireValue | undefined>> {
  const problem = request.emulate && emulateProblem(request.emulate, ctx.profile);
  if (problem) throw new OracleError('invalid_request', problem);
  const completionMs = request.timeout_ms ?? TRACE_TIMEOUT.defaultMs;
  const page = { completionMs, files: request.files ?? {} };
  const task = { kind: 'trace', completionMs, emulate: request.emulate } as const;
  const { result, errors } = await scheduleCase<TraceResult>(ctx, request, 'trace', task, page);
  return { id: request.id, traces: inEngineOrder(result?.traces ?? {}), errors: errorsField(errors) };
}
