// The shutdown op's wire shapes: a control op, answered once every case in flight is.
import { Type, type Static } from '@sinclair/typebox';
import { Id, opRequest, strict } from './common.js';

export const ShutdownRequestSchema = opRequest('shutdown', {}, 'Shutdown');

export const ShutdownResponseSchema = Type.Object(
  { id: Id, ok: Type.Literal(true) },
  { ...strict, title: 'Shutdown response (sent once every case in flight is answered, before the oracle exits)' },
);

export type ShutdownRequest = Static<typeof ShutdownRequestSchema>;
export type ShutdownResponse = Static<typeof ShutdownResponseSchema>;
