// Geometry requests (no op) and the additive `vote` op, which runs the same case and answers
// with the three-way vote computed in the worker instead of (or besides) the dumps.
import type { GeometryRequest, VoteRequest } from '../protocol/schema.js';
import type { GeometryResult } from '../workers/tasks.js';
import { voteColumnar } from '../comparator/vote.js';
import { errorsJson, perEngineJson, scheduleCase, type CaseContext } from './schedule.js';

const json = JSON.stringify;

export async function geometryOp(request: GeometryRequest, ctx: CaseContext): Promise<string> {
  const { result, errors } = await scheduleCase<GeometryResult>(ctx, request, { kind: 'geometry', vote: false, keepDumps: true });
  const timing = request.timing ? `,"timing":${perEngineJson(result?.inPageMs ?? {})}` : '';
  return `{"id":${json(request.id)},"dumps":${perEngineJson(result?.dumps ?? {}, (d) => d)}${errorsJson(errors)}${timing}}`;
}

export async function voteOp(request: VoteRequest, ctx: CaseContext): Promise<string> {
  const keepDumps = request.dumps === true;
  const { result, errors } = await scheduleCase<GeometryResult>(ctx, request, { kind: 'geometry', vote: true, keepDumps });
  // No engine ran: the vote over nothing is "insufficient", with each engine's error.
  const vote = result?.vote ?? json(voteColumnar({ dumps: {}, errors }));
  const dumps = keepDumps ? `,"dumps":${perEngineJson(result?.dumps ?? {}, (d) => d)}` : '';
  return `{"id":${json(request.id)},"vote":${vote}${dumps}${errorsJson(errors)}}`;
}
