// The wire contract's shapes that belong to no one op (each op's are in a module of its own, which
// the registry, ops.ts, names): the dump every geometry and vote answer and every candidate answer
// carries, and the answer to a line the oracle could not accept; and, for every part of the
// oracle, the names the contract is built on. TypeBox schemas give both the TypeScript types and
// the runtime validators, and `npm run schema` publishes them as JSON Schema.
import { Type, type Static } from '@sinclair/typebox';
import { EngineNameSchema, Id, Rect, STYLE_PROPERTIES, strict } from './common.js';

export { ENGINE_NAMES, PROFILE_NAMES, STYLE_PROPERTIES, type EngineName, type ProfileName } from './common.js';

const Style = Type.Object(Object.fromEntries(STYLE_PROPERTIES.map((p) => [p, Type.String()])), {
  ...strict,
  description: 'getComputedStyle values, keys in the contract order.',
});

const DumpNodeSchema = Type.Object(
  {
    index: Type.Integer({ minimum: 0 }),
    parent: Type.Integer({ minimum: -1 }),
    tag: Type.String(),
    depth: Type.Integer({ minimum: 0 }),
    bounding: Rect,
    rects: Type.Array(Rect),
    style: Style,
  },
  strict,
);

export const DumpSchema = Type.Object(
  {
    engine: EngineNameSchema,
    engine_version: Type.String({ minLength: 1 }),
    viewport: Type.Object({ width: Type.Number(), height: Type.Number() }, strict),
    overflowed: Type.Boolean(),
    nodes: Type.Array(DumpNodeSchema),
  },
  { ...strict, title: 'Dump' },
);
export type Dump = Static<typeof DumpSchema>;

export const ErrorResponseSchema = Type.Object(
  {
    id: Type.Union([Id, Type.Null()], { description: 'null when no string id could be read from the line.' }),
    error: Type.String({ description: 'A stable code, a colon, then what went wrong and what to do.' }),
  },
  { ...strict, title: 'Error response (a line the oracle could not accept)' },
);

export type ErrorResponse = Static<typeof ErrorResponseSchema>;
