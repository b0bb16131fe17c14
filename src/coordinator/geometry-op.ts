// Geometry requests (no op) and the additive `vote` op, which runs the same case and answers
// with the three-way vote computed in the worker instead of (or besides) the dumps.
import type { GeometryRequest, VoteRequest } from '../protocol/schema.js';
import { encodeJson, type WireValue } from '../protocol/wire.js';
import type { GeometryResult } from '../farm/tasks.js';
import { voteColumnar } from '../comparator/vote.js';
import { errorsField, inEngineOrder, scheduleCase, type CaseContext } from './schedule.js';

export async function geometryOp(request: GeometryRequest, ctx: CaseContext): Promise<Record<string, WireValue | undefined>> {
  const { result, errors } = await scheduleCase<GeometryResult>(ctx, request, 'geometry', {
    kind: 'geometry',
    vote: false,
    keepDumps: true,
    relayout: request.relayout === true,
  });
  return {
    id: request.id,
    dumps: inEngineOrder(result?.dumps ?? {}),
    relayout: request.relayout ? inEngineOrder(result?.relayout ?? {}) : undefined,
    errors: errorsField(errors),
    timing: request.timing ? inEngineOrder(result?.inPageMs ?? {}) : undefined,
  };
}

export async function voteOp(request: VoteRequest, ctx: CaseContext): Promise<Record<string, WireValue | undefined>> {
  const keepDumps = request.dumps === true;
  const { result, errors } = await scheduleCase<GeometryResult>(ctx, request, 'geometry', {
    kind: 'geometry',
    vote: true,
    keepDumps,
    relayout: request.relayout === true,
  });
  return {
    id: request.id,
    // No engine ran: the vote over nothing is "insufficient", with each engine's error.
    vote: result?.vote ?? encodeJson(voteColumnar({ dumps: {}, errors })),
    relayout: request.relayout ? inEngineOrder(result?.relayout ?? {}) : undefined,
    dumps: keepDumps ? inEngineOrder(result?.dumps ?? {}) : undefined,
    errors: errorsField(errors),
    timing: request.timing ? inEngineOrder(result?.inPageMs ?? {}) : undefined,
  };
}
