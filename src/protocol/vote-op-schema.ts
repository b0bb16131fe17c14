// The vote op's wire shapes: a geometry case, answered with the three-way vote on its dumps. The
// vote itself is vote-schema.ts's, a module apart: the relayout check a geometry answer carries
// reuses its shapes, and this module reuses the geometry op's.
import { Type, type Static } from '@sinclair/typebox';
import { EngineErrors, EngineList, Id, opRequest, PerEngine, strict } from './common.js';
import { GeometryRequestSchema, GeometryResponseSchema } from './geometry-schema.js';
import { DumpSchema } from './schema.js';
import { VoteResultSchema } from './vote-schema.js';

export const VoteRequestSchema = opRequest(
  'vote',
  {
    html: GeometryRequestSchema.properties.html,
    engines: Type.Optional(EngineList),
    script: GeometryRequestSchema.properties.script,
    mutations: GeometryRequestSchema.properties.mutations,
    dumps: Type.Optional(Type.Boolean({ description: 'Also answer with the dumps the vote was taken on.' })),
    timing: GeometryRequestSchema.properties.timing,
    relayout: GeometryRequestSchema.properties.relayout,
    site: GeometryRequestSchema.properties.site,
    wait: GeometryRequestSchema.properties.wait,
    authored: GeometryRequestSchema.properties.authored,
  },
  'Vote: run a geometry case and answer with the three-way vote',
);

export const VoteResponseSchema = Type.Object(
  {
    id: Id,
    vote: VoteResultSchema,
    relayout: GeometryResponseSchema.properties.relayout,
    dumps: Type.Optional(PerEngine(DumpSchema)),
    authored: GeometryResponseSchema.properties.authored,
    errors: Type.Optional(EngineErrors),
    timing: GeometryResponseSchema.properties.timing,
    scrollbars: GeometryResponseSchema.properties.scrollbars,
  },
  { ...strict, title: 'Vote response' },
);

export type VoteRequest = Static<typeof VoteRequestSchema>;
export type VoteResponse = Static<typeof VoteResponseSchema>;
