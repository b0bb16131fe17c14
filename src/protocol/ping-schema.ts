// The ping op's wire shapes: a control op, answered by the oracle itself with how it was launched.
import { Type, type Static } from '@sinclair/typebox';
import { EngineNameSchema, Id, literalUnion, opRequest, PerEngine, ProfileNameSchema, strict } from './common.js';
import { FONT_SET_NAMES } from './font-sets.js';
import { ExecutablesSchema } from './launch-options.js';

export const PingRequestSchema = opRequest('ping', {}, 'Ping');

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

export type PingRequest = Static<typeof PingRequestSchema>;
export type PingResponse = Static<typeof PingResponseSchema>;
