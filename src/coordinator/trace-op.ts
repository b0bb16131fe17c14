// The `trace` op: run a script in a trace page on a real secure origin and answer with what
// the recorder observed, per engine.
import type { TraceRequest } from '../protocol/trace-schema.js';
import type { TraceResult } from '../workers/tasks.js';
import { tracePage } from '../workers/trace-recorder.js';
import { errorsJson, perEngineJson, scheduleCase, type CaseContext } from './schedule.js';

const json = JSON.stringify;

export async function traceOp(request: TraceRequest, ctx: CaseContext): Promise<string> {
  const { result, errors } = await scheduleCase<TraceResult>(ctx, request, { kind: 'trace' }, (html) => ctx.cases.publishTrace(tracePage(html)));
  return `{"id":${json(request.id)},"traces":${perEngineJson(result?.traces ?? {}, (t) => t)}${errorsJson(errors)}}`;
}
