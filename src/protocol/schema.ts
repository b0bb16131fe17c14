// The wire contract, once: TypeBox schemas give both the TypeScript types and the
// runtime validators, and `npm run schema` publishes them as JSON Schema.
import { Type, type Static } from '@sinclair/typebox';
import {
  EngineErrors,
  EngineList,
  EngineNameSchema,
  Id,
  literalUnion,
  PerEngine,
  ProfileNameSchema,
  Rect,
  STYLE_PROPERTIES,
  strict,
} from './common.js';
import { ObservationSchema, ProbeSchema } from './reflect-schema.js';
import { VoteResultSchema } from './vote-schema.js';
import { ReflectVoteResultSchema } from './reflect-vote-schema.js';
import { RelayoutResultSchema } from './relayout-schema.js';
import { FONT_SET_NAMES } from './font-sets.js';
import { ExecutablesSchema } from './launch-options.js';

export { ENGINE_NAMES, PROFILE_NAMES, STYLE_PROPERTIES, type EngineName, type ProfileName } from './common.js';

export const GeometryRequestSchema = Type.Object(
  {
    id: Id,
    html: Type.String({ description: 'The whole document, parsed as a top-level page.' }),
    engines: Type.Optional(EngineList),
    script: Type.Optional(Type.String({ description: 'Run after the document loads and before the dump walk.' })),
    timing: Type.Optional(
      Type.Boolean({ description: 'Opt-in: the answer adds `timing`, the milliseconds each engine spent inside the page.' }),
    ),
    relayout: Type.Optional(
      Type.Boolean({
        description:
          'Opt-in: after the walk each engine lays the document out from scratch and walks it again; the answer adds `relayout`, each engine held to itself.',
      }),
    ),
  },
  { ...strict, title: 'Geometry request' },
);

export const VoteRequestSchema = Type.Object(
  {
    id: Id,
    op: Type.Literal('vote'),
    html: GeometryRequestSchema.properties.html,
    engines: Type.Optional(EngineList),
    script: GeometryRequestSchema.properties.script,
    dumps: Type.Optional(Type.Boolean({ description: 'Also answer with the dumps the vote was taken on.' })),
    timing: GeometryRequestSchema.properties.timing,
    relayout: GeometryRequestSchema.properties.relayout,
  },
  { ...strict, title: 'Vote: run a geometry case and answer with the three-way vote' },
);

export const PingRequestSchema = Type.Object({ id: Id, op: Type.Literal('ping') }, { ...strict, title: 'Ping' });

export const ShutdownRequestSchema = Type.Object({ id: Id, op: Type.Literal('shutdown') }, { ...strict, title: 'Shutdown' });

export const ReflectRequestSchema = Type.Object(
  {
    id: Id,
    op: Type.Literal('reflect'),
    html: Type.Optional(
      Type.String({ description: "Body markup of a standards-mode page, as a trace request's; omitted means an empty body." }),
    ),
    script: Type.Optional(Type.String({ description: 'Run after the document loads and before the probes are read.' })),
    probes: Type.Array(ProbeSchema, { minItems: 1, description: 'What to read, in the order the observations answer.' }),
    engines: Type.Optional(EngineList),
    vote: Type.Optional(Type.Boolean({ description: 'Also answer with the three-way vote on the states, taken beside the engines.' })),
  },
  { ...strict, title: 'Reflect: content attributes and the IDL properties reflecting them' },
);

export type GeometryRequest = Static<typeof GeometryRequestSchema>;
export type VoteRequest = Static<typeof VoteRequestSchema>;
export type ReflectRequest = Static<typeof ReflectRequestSchema>;
export type PingRequest = Static<typeof PingRequestSchema>;
export type ShutdownRequest = Static<typeof ShutdownRequestSchema>;

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

export const GeometryResponseSchema = Type.Object(
  {
    id: Id,
    dumps: PerEngine(DumpSchema),
    relayout: Type.Optional(
      PerEngine(RelayoutResultSchema, 'Per engine that walked: its walk held to its walk after a layout from scratch.'),
    ),
    errors: Type.Optional(EngineErrors),
    timing: Type.Optional(
      PerEngine(
        Type.Number({
          description: 'From the document arriving to the end of the walk (parse, style, layout, script, walk), measured in the page.',
        }),
      ),
    ),
  },
  { ...strict, title: 'Geometry response' },
);

export const VoteResponseSchema = Type.Object(
  {
    id: Id,
    vote: VoteResultSchema,
    relayout: GeometryResponseSchema.properties.relayout,
    dumps: Type.Optional(PerEngine(DumpSchema)),
    errors: Type.Optional(EngineErrors),
    timing: GeometryResponseSchema.properties.timing,
  },
  { ...strict, title: 'Vote response' },
);

const ReflectStateSchema = Type.Object(
  {
    engine: EngineNameSchema,
    engine_version: Type.String({ minLength: 1 }),
    observations: Type.Array(ObservationSchema, { description: 'One per probe, in the request order.' }),
  },
  strict,
);

export const ReflectResponseSchema = Type.Object(
  {
    id: Id,
    states: PerEngine(ReflectStateSchema),
    vote: Type.Optional(ReflectVoteResultSchema),
    errors: Type.Optional(EngineErrors),
  },
  { ...strict, title: 'Reflect response' },
);

export const PingResponseSchema = Type.Object(
  {
    id: Id,
    ok: Type.Literal(true),
    engines: Type.Array(EngineNameSchema),
    versions: PerEngine(Type.String()),
    profile: ProfileNameSchema,
    fonts: literalUnion(FONT_SET_NAMES, 'The font set every engine was started with (docs/protocol.md, "Fonts").'),
    locale: Type.Optional(
      Type.String({ description: 'The language every engine was started in: navigator.language and Intl (--locale).' }),
    ),
    timezone: Type.Optional(Type.String({ description: 'The time zone every engine was started in (--timezone).' })),
    network: Type.Optional(
      Type.Union([Type.Literal('namespace'), Type.Literal('proxy')], {
        description:
          "How the engines are kept off the network: 'namespace', a network namespace with loopback alone; 'proxy', the oracle's refusing proxy alone.",
      }),
    ),
    paths: Type.Optional(
      Type.Object(ExecutablesSchema.properties, {
        ...strict,
        description:
          'The executables the launched engines run: each one given by flag or config file, and each one the engine reported launching.',
      }),
    ),
  },
  { ...strict, title: 'Ping response' },
);

export const ErrorResponseSchema = Type.Object(
  {
    id: Type.Union([Id, Type.Null()], { description: 'null when no string id could be read from the line.' }),
    error: Type.String({ description: 'A stable code, a colon, then what went wrong and what to do.' }),
  },
  { ...strict, title: 'Error response (a line the oracle could not accept)' },
);

export const ShutdownResponseSchema = Type.Object(
  { id: Id, ok: Type.Literal(true) },
  { ...strict, title: 'Shutdown response (sent once every case in flight is answered, before the oracle exits)' },
);

export type GeometryResponse = Static<typeof GeometryResponseSchema>;
export type VoteResponse = Static<typeof VoteResponseSchema>;
export type ReflectState = Static<typeof ReflectStateSchema>;
export type ReflectResponse = Static<typeof ReflectResponseSchema>;
export type PingResponse = Static<typeof PingResponseSchema>;
export type ShutdownResponse = Static<typeof ShutdownResponseSchema>;
export type ErrorResponse = Static<typeof ErrorResponseSchema>;
