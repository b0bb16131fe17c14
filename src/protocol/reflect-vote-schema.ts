// The reflection vote as it travels in a reflect answer that asked for it (`vote: true`): the
// schema is the type the comparator returns (src/comparator/reflect-vote.ts).
import { Type, type Static } from '@sinclair/typebox';
import { EngineNameSchema, PerEngine, strict } from './common.js';
import { ObservationSchema } from './reflect-schema.js';
import { ClusterVerdictSchema, EngineStatusesSchema } from './vote-schema.js';

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
