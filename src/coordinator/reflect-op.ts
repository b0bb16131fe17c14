// The `reflect` op: read content attributes and the IDL properties reflecting them, per engine.
import type { ReflectRequest } from '../protocol/schema.js';
import type { ReflectResult } from '../workers/tasks.js';
import { errorsJson, perEngineJson, scheduleCase, type CaseContext } from './schedule.js';

const json = JSON.stringify;

export async function reflectOp(request: ReflectRequest, ctx: CaseContext): Promise<string> {
  const probes = request.probes.map(({ selector, attr, idl }) => ({ selector, attr, idl: idl ?? attr }));
  // `html` is body markup, as a trace's is: the page is a standards-mode document around it.
  const { result, errors } = await scheduleCase<ReflectResult>(ctx, request, { kind: 'reflect', probes }, (html) =>
    ctx.cases.publish(`<!doctype html>${html}`),
  );
  return `{"id":${json(request.id)},"states":${perEngineJson(result?.states ?? {}, (s) => s)}${errorsJson(errors)}}`;
}
