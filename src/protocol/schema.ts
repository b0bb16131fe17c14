// The wire contract, once: TypeBox schemas give both the TypeScript types and the
// runtime validators, and `npm run schema` publishes them as JSON Schema.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { ObservationSchema, ProbeSchema } from './reflect-schema.js';
import { traceSchemas, type TraceRequest } from './trace-schema.js';

export const ENGINE_NAMES = ['chromium', 'firefox', 'webkit'] as const;
export type EngineName = (typeof ENGINE_NAMES)[number];

export const PROFILE_NAMES = ['default', 'media'] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

/** The style subset, in the contract's order: every dump lists exactly these, in this order. */
export const STYLE_PROPERTIES = [
  'display', 'position', 'box-sizing', 'direction', 'writing-mode', 'float', 'clear',
  'width', 'height', 'min-width', 'max-width', 'min-height', 'max-height',
  'margin-top', 'margin-right', 'margin-bottom', 'margin-left',
  'padding-top', 'padding-right', 'padding-bottom', 'padding-left',
  'border-top-width', 'border-right-width', 'border-bottom-width', 'border-left-width',
  'overflow-x', 'overflow-y',
] as const;

const strict = { additionalProperties: false } as const;

const literalUnion = <T extends readonly string[]>(values: T, description: string) =>
  Type.Unsafe<T[number]>(Type.Union(values.map((v) => Type.Literal(v)), { description }));

export const EngineNameSchema = literalUnion(ENGINE_NAMES, 'A browser engine the oracle drives.');

const Id = Type.String({ description: 'Chosen by the client; echoed on the response that answers it.' });

const EngineList = Type.Array(EngineNameSchema, {
  minItems: 1,
  uniqueItems: true,
  description: 'Which engines run the case; omitted means every engine the oracle launched.',
});

export const GeometryRequestSchema = Type.Object(
  {
    id: Id,
    html: Type.String({ description: 'The whole document, parsed as a top-level page.' }),
    engines: Type.Optional(EngineList),
    script: Type.Optional(Type.String({ description: 'Run after the document loads and before the dump walk.' })),
    timing: Type.Optional(
      Type.Boolean({ description: 'Opt-in: the answer adds `timing`, the milliseconds each engine spent inside the page.' }),
    ),
  },
  { ...strict, $id: 'GeometryRequest', title: 'Geometry request' },
);

export const VoteRequestSchema = Type.Object(
  {
    id: Id,
    op: Type.Literal('vote'),
    html: GeometryRequestSchema.properties.html,
    engines: Type.Optional(EngineList),
    script: GeometryRequestSchema.properties.script,
    dumps: Type.Optional(Type.Boolean({ description: 'Also answer with the dumps the vote was taken on.' })),
  },
  { ...strict, $id: 'VoteRequest', title: 'Vote: run a geometry case and answer with the three-way vote' },
);

export const PingRequestSchema = Type.Object(
  { id: Id, op: Type.Literal('ping') },
  { ...strict, $id: 'PingRequest', title: 'Ping' },
);

export const ShutdownRequestSchema = Type.Object(
  { id: Id, op: Type.Literal('shutdown') },
  { ...strict, $id: 'ShutdownRequest', title: 'Shutdown' },
);

export const ReflectRequestSchema = Type.Object(
  {
    id: Id,
    op: Type.Literal('reflect'),
    html: Type.Optional(Type.String({ description: 'Body markup of a standards-mode page, as a trace request\'s; omitted means an empty body.' })),
    script: Type.Optional(Type.String({ description: 'Run after the document loads and before the probes are read.' })),
    probes: Type.Array(ProbeSchema, { minItems: 1, description: 'What to read, in the order the observations answer.' }),
    engines: Type.Optional(EngineList),
  },
  { ...strict, $id: 'ReflectRequest', title: 'Reflect: content attributes and the IDL properties reflecting them' },
);

export const { TraceRequestSchema, TraceSchema, TraceResponseSchema } = traceSchemas({
  id: Id,
  engines: Type.Optional(EngineList),
  engine: EngineNameSchema,
  engineNames: ENGINE_NAMES,
  profileNames: PROFILE_NAMES,
});

/** Every request kind, keyed by its `op` (the geometry request has none). */
export const REQUEST_SCHEMAS = {
  geometry: GeometryRequestSchema,
  vote: VoteRequestSchema,
  reflect: ReflectRequestSchema,
  trace: TraceRequestSchema,
  ping: PingRequestSchema,
  shutdown: ShutdownRequestSchema,
} as const satisfies Record<string, TSchema>;

export type GeometryRequest = Static<typeof GeometryRequestSchema>;
export type VoteRequest = Static<typeof VoteRequestSchema>;
export type ReflectRequest = Static<typeof ReflectRequestSchema>;
export type PingRequest = Static<typeof PingRequestSchema>;
export type ShutdownRequest = Static<typeof ShutdownRequestSchema>;
export type Request = GeometryRequest | VoteRequest | ReflectRequest | TraceRequest | PingRequest | ShutdownRequest;

const Rect = Type.Object(
  { x: Type.Number(), y: Type.Number(), w: Type.Number(), h: Type.Number() },
  { ...strict, description: 'Viewport-relative CSS pixels.' },
);

const Style = Type.Object(
  Object.fromEntries(STYLE_PROPERTIES.map((p) => [p, Type.String()])),
  { ...strict, description: 'getComputedStyle values, keys in the contract order.' },
);

export const DumpNodeSchema = Type.Object(
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
  { ...strict, $id: 'Dump', title: 'Dump' },
);
export type Dump = Static<typeof DumpSchema>;

const PerEngine = <T extends TSchema>(value: T) =>
  Type.Object({ chromium: Type.Optional(value), firefox: Type.Optional(value), webkit: Type.Optional(value) }, strict);

export const GeometryResponseSchema = Type.Object(
  {
    id: Id,
    dumps: PerEngine(DumpSchema),
    errors: Type.Optional(PerEngine(Type.String())),
    timing: Type.Optional(
      PerEngine(Type.Number({ description: 'From the document arriving to the end of the walk (parse, style, layout, script, walk), measured in the page.' })),
    ),
  },
  { ...strict, $id: 'GeometryResponse', title: 'Geometry response' },
);

const Verdict = literalUnion(['unanimous', 'outlier', 'split', 'insufficient'] as const, 'insufficient: fewer than three usable engines; never a pass.');

export const VoteResponseSchema = Type.Object(
  {
    id: Id,
    vote: Type.Object(
      {
        verdict: Verdict,
        outlier: Type.Union([EngineNameSchema, Type.Null()]),
        majority: Type.Array(EngineNameSchema),
        engines: Type.Record(Type.String(), Type.Object({ status: Type.String(), error: Type.Optional(Type.String()) })),
        pairs: Type.Record(Type.String(), Type.Unknown(), { description: 'Per pair of usable engines: its compare verdict and summary.' }),
        nodes: Type.Array(Type.Unknown(), { description: 'Per node whose geometry disagrees: index, tag, parent, the outlier engine there, failure kinds, differing style properties.' }),
      },
      { description: 'See docs/protocol.md, "The vote".' },
    ),
    dumps: Type.Optional(PerEngine(DumpSchema)),
    errors: Type.Optional(PerEngine(Type.String())),
  },
  { ...strict, $id: 'VoteResponse', title: 'Vote response' },
);

export const ReflectStateSchema = Type.Object(
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
    errors: Type.Optional(PerEngine(Type.String())),
  },
  { ...strict, $id: 'ReflectResponse', title: 'Reflect response' },
);

export const PingResponseSchema = Type.Object(
  {
    id: Id,
    ok: Type.Literal(true),
    engines: Type.Array(EngineNameSchema),
    versions: PerEngine(Type.String()),
    profile: literalUnion(PROFILE_NAMES, 'The launch profile of this process.'),
  },
  { ...strict, $id: 'PingResponse', title: 'Ping response' },
);

export const ErrorResponseSchema = Type.Object(
  {
    id: Type.Union([Id, Type.Null()], { description: 'null when no string id could be read from the line.' }),
    error: Type.String({ description: 'A stable code, a colon, then what went wrong and what to do.' }),
  },
  { ...strict, $id: 'ErrorResponse', title: 'Error response (a line the oracle could not accept)' },
);

export const RESPONSE_SCHEMAS = {
  geometry: GeometryResponseSchema,
  vote: VoteResponseSchema,
  reflect: ReflectResponseSchema,
  trace: TraceResponseSchema,
  ping: PingResponseSchema,
  error: ErrorResponseSchema,
} as const satisfies Record<string, TSchema>;

export type ReflectState = Static<typeof ReflectStateSchema>;
export type ReflectResponse = Static<typeof ReflectResponseSchema>;
