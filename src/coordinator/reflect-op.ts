// The `reflect` op: read content attributes and the IDL properties reflecting them, per engine.
import type { ReflectRequest } from '../protocol/schema.js';
import type { WireValue } from '../protocol/wire.js';
import type { ReflectResult } from '../farm/tasks.js';
import { errorsField, inEngineOrder, scheduleCase, type CaseContext } from './schedule.js';

export async function reflectOp(request: ReflectRequest, ctx: CaseContext): Promise<Record<string, WireValue | undefined>> {
  const probes = request.probes.map(({ selector, attr, idl }) => ({ selector, attr, idl: idl ?? attr }));
  // `html` is body markup, as a trace's is: the page is a standards-mode document around it.
  const { result, errors } = await scheduleCase<ReflectResult>(ctx, request, 'reflect', { kind: 'reflect', probes });
  return { id: request.id, states: inEngineOrder(result?.states ?? {}), errors: errorsField(errors) };
}
