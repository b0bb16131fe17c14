// The screenshot op's wire shapes: a geometry case, answered with a picture of each engine's
// viewport instead of a dump.
import { Type, type Static } from '@sinclair/typebox';
import { EngineErrors, EngineList, Id, opRequest, PerEngine, strict } from './common.js';
import { SiteSchema, WaitSchema } from './site-schema.js';

export const ScreenshotRequestSchema = opRequest(
  'screenshot',
  {
    html: Type.String({ description: 'The whole document, parsed as a top-level page, as in a geometry request.' }),
    script: Type.Optional(Type.String({ description: 'Run after the document loads and its fonts settle, before the picture is taken.' })),
    engines: Type.Optional(EngineList),
    site: Type.Optional(SiteSchema),
    wait: Type.Optional(WaitSchema),
  },
  "Screenshot: a geometry case's 800×600 viewport as each engine painted it",
);

const Png = Type.String({
  contentEncoding: 'base64',
  contentMediaType: 'image/png',
  description: 'A PNG of the 800×600 viewport (checked to be 800×600 before it is sent), base64.',
});

export const ScreenshotResponseSchema = Type.Object(
  { id: Id, images: PerEngine(Png), errors: Type.Optional(EngineErrors) },
  { ...strict, title: 'Screenshot response' },
);

export type ScreenshotRequest = Static<typeof ScreenshotRequestSchema>;
export type ScreenshotResponse = Static<typeof ScreenshotResponseSchema>;
