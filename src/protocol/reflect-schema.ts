// The reflect op's wire shapes: a probe, the observation answering it, the request and the
// response, and the reflection vote on the observations as it travels in an answer that asked for
// it (`vote: true`), whose schema is the type the comparator returns (src/comparator/reflect-vote.ts).
import { Type, type Static } from '@sinclair/typebox';
import { EngineErrors, EngineList, EngineNameSchema, Id, opRequest, PerEngine, strict } from './common.js';
import { ClusterVerdictSchema, EngineStatusesSchema } from './vote-schema.js';

const Name = (description: string) => Type.String({ minLength: 1, description });

const ProbeSchema = Type.Object(
  {
    selector: Name('A CSS selector; the first element it matches is read. Known clients send a bare `#id`.'),
    attr: Name('The content attribute, read with getAttribute.'),
    idl: Type.Optional(Name('The IDL property reflecting it; defaults to `attr` (name it for `for`/`htmlFor`, `class`/`className` ...).')),
  },
  strict,
);
export type Probe = Static<typeof ProbeSchema>;

/**
 * An IDL property's value in a form JSON can carry and a vote can compare exactly. Values JSON
 * has no literal for are spelled out as the trace protocol spells them; a getter that throws
 * gives its error's name; anything non-scalar gives only its class (`[object X]`'s X), since a
 * reflected property is scalar and an object there (classList, style) is worth comparing by
 * kind, not by content.
 */
export const IdlValueSchema = Type.Union([
  Type.Boolean(),
  Type.String(),
  Type.Number(),
  Type.Null(),
  Type.Object({ $num: Type.Union([Type.Literal('NaN'), Type.Literal('Infinity'), Type.Literal('-Infinity'), Type.Literal('-0')]) }, strict),
  Type.Object({ $undefined: Type.Literal(true) }, { ...strict, description: 'The element has no such property.' }),
  Type.Object({ $error: Type.Literal(true), name: Type.String() }, { ...strict, description: 'Reading the property threw.' }),
  Type.Object({ $object: Type.String() }, { ...strict, description: 'A non-scalar value, by its class name.' }),
]);
export type IdlValue = Static<typeof IdlValueSchema>;

const ObservationSchema = Type.Object(
  {
    selector: Type.String(),
    attr: Type.String(),
    attr_value: Type.Union([Type.String(), Type.Null()], { description: 'null when the attribute is absent.' }),
    idl: Type.String(),
    idl_value: IdlValueSchema,
  },
  strict,
);
export type Observation = Static<typeof ObservationSchema>;

const Outlier = Type.Union([EngineNameSchema, Type.Null()]);
const Majority = Type.Array(EngineNameSchema, { description: 'The agreeing engines, sorted; empty for split and insufficient.' });

const ObservationVoteSchema = Type.Object(
  {
    index: Type.Integer({ minimum: 0, description: "The probe's place in the request." }),
    selector: Type.String(),
    attr: Type.String(),
    idl: Type.String(),
    verdict: ClusterVerdictSchema,
    outlier: Outlier,
    majority: Majority,
    values: PerEngine(
      Type.Object({ attr_value: ObservationSchema.properties.attr_value, idl_value: ObservationSchema.properties.idl_value }, strict),
      "Each usable engine's values here (none for an engine whose state has no such observation).",
    ),
  },
  strict,
);
export type ObservationVote = Static<typeof ObservationVoteSchema>;

export const ReflectVoteResultSchema = Type.Object(
  {
    verdict: ClusterVerdictSchema,
    outlier: Outlier,
    majority: Majority,
    engines: EngineStatusesSchema,
    observations: Type.Array(ObservationVoteSchema, { description: 'Every observation, agreeing or not, in probe order.' }),
  },
  { ...strict, description: 'See docs/protocol.md, "The reflection vote".' },
);
export type ReflectVoteResult = Static<typeof ReflectVoteResultSchema>;

export const ReflectRequestSchema = opRequest(
  'reflect',
  {
    html: Type.Optional(
      Type.String({ description: "Body markup of a standards-mode page, as a trace request's; omitted means an empty body." }),
    ),
    script: Type.Optional(Type.String({ description: 'Run after the document loads and before the probes are read.' })),
    probes: Type.Array(ProbeSchema, { minItems: 1, description: 'What to read, in the order the observations answer.' }),
    engines: Type.Optional(EngineList),
    vote: Type.Optional(Type.Boolean({ description: 'Also answer with the three-way vote on the states, taken beside the engines.' })),
  },
  'Reflect: content attributes and the IDL properties reflecting them',
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

export type ReflectRequest = Static<typeof ReflectRequestSchema>;
export type ReflectState = Static<typeof ReflectStateSchema>;
export type ReflectResponse = Static<typeof ReflectResponseSchema>;
