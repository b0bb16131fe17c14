// The `reflect` op: read content attributes and the IDL properties reflecting them, per engine.
import type { ReflectRequest } from '../protocol/schema.js';
import type { ReflectResult } from '../workers/tasks.js';
import { errorsJson, perEngineJson, scheduleCase, type CaseContext } from './schedule.js';

const json = JSON.stringify;

export async function reflectOp(request: ReflectRequest, ctx: CaseContext): Promise<string> {
  const probes = request.probes.map(({ selector, attr, idl }) => ({ selector, attr, idl: idl ?? attr }));
  const { result, errors } = await scheduleCase<ReflectResult>(ctx, request, { kind: 'reflect', probes });
  return `{"id":${json(request.id)},"states":${perEngineJson(result?.states ?? {}, (s) => s)}${errorsJson(errors)}}`;
}
