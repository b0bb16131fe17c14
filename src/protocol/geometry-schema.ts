// The geometry op's wire shapes: a document, answered with each engine's dump of it (schema.ts).
import { Type, type Static } from '@sinclair/typebox';
import { AuthoredRequestSchema, AuthoredResponseSchema } from './authored-schema.js';
import { EngineErrors, EngineList, Id, PerEngine, strict } from './common.js';
import { RelayoutResultSchema } from './relayout-schema.js';
import { DumpSchema } from './schema.js';
import { MutationsSchema } from './mutations-schema.js';
import { ScrollbarsSchema, SiteSchema, WaitSchema } from './site-schema.js';

export const GeometryRequestSchema = Type.Object(
  {
    id: Id,
    html: Type.String({ description: 'The whole document, parsed as a top-level page.' }),
    engines: Type.Optional(EngineList),
    script: Type.Optional(Type.String({ description: 'Run after the document loads and before the dump walk.' })),
    mutations: Type.Optional(MutationsSchema),
    timing: Type.Optional(
      Type.Boolean({ description: 'Opt-in: the answer adds `timing`, the milliseconds each engine spent inside the page.' }),
    ),
    relayout: Type.Optional(
      Type.Boolean({
        description:
          'Opt-in: after the walk each engine lays the document out from scratch and walks it again; the answer adds `relayout`, each engine held to itself.',
      }),
    ),
    site: Type.Optional(SiteSchema),
    wait: Type.Optional(WaitSchema),
    authored: Type.Optional(AuthoredRequestSchema),
  },
  { ...strict, title: 'Geometry request' },
);

export const GeometryResponseSchema = Type.Object(
  {
    id: Id,
    dumps: PerEngine(DumpSchema),
    relayout: Type.Optional(
      PerEngine(RelayoutResultSchema, 'Per engine that walked: its walk held to its walk after a layout from scratch.'),
    ),
    authored: Type.Optional(AuthoredResponseSchema),
    errors: Type.Optional(EngineErrors),
    timing: Type.Optional(
      PerEngine(
        Type.Number({
          description: 'From the document arriving to the end of the walk (parse, style, layout, script, walk), measured in the page.',
        }),
      ),
    ),
    scrollbars: Type.Optional(ScrollbarsSchema),
  },
  { ...strict, title: 'Geometry response' },
);

export type GeometryRequest = Static<typeof GeometryRequestSchema>;
export type GeometryResponse = Static<typeof GeometryResponseSchema>;
