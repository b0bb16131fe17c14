// The pieces every part of the wire contract shares: engine and profile names, the request id and
// envelope, the optional engine list and the per-engine map. Kept apart from the ops' modules, so
// that each of them imports this one.
import { Type, type TProperties, type TSchema } from '@sinclair/typebox';

/**
 * The engine list: every per-engine shape, pair key and report column is derived from it. In
 * alphabetical order, which is the order of every per-engine map on the wire and of the names in
 * a pair key.
 */
export const ENGINE_NAMES = ['chromium', 'firefox', 'webkit'] as const;
export type EngineName = (typeof ENGINE_NAMES)[number];

export const PROFILE_NAMES = ['default', 'media', 'devices'] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

/** The style subset, in the contract's order: every dump lists exactly these, in this order. */
export const STYLE_PROPERTIES = [
  'display',
  'position',
  'box-sizing',
  'direction',
  'writing-mode',
  'float',
  'clear',
  'width',
  'height',
  'min-width',
  'max-width',
  'min-height',
  'max-height',
  'margin-top',
  'margin-right',
  'margin-bottom',
  'margin-left',
  'padding-top',
  'padding-right',
  'padding-bottom',
  'padding-left',
  'border-top-width',
  'border-right-width',
  'border-bottom-width',
  'border-left-width',
  'overflow-x',
  'overflow-y',
] as const;

/** Every object on the wire is closed: an unknown field is an error, not ignored. */
export const strict = { additionalProperties: false } as const;

/** A string enum, typed as the union of its values. */
export const literalUnion = <T extends readonly string[]>(values: T, description?: string) =>
  Type.Unsafe<T[number]>(
    Type.Union(
      values.map((v) => Type.Literal(v)),
      description ? { description } : {},
    ),
  );

export const EngineNameSchema = literalUnion(ENGINE_NAMES, 'A browser engine the oracle drives.');
export const ProfileNameSchema = literalUnion(PROFILE_NAMES, 'A launch profile (docs/protocol.md, "Launch profiles").');

export const Id = Type.String({
  description:
    'Chosen by the client; echoed on the response that answers it. Well-formed Unicode: an id holding a lone surrogate is refused.',
});

/** A request that names its op: `id` first, `op` the op's name, then `fields` in their order. */
export const opRequest = <Op extends string, Fields extends TProperties>(op: Op, fields: Fields, title: string) =>
  Type.Object({ id: Id, op: Type.Literal(op), ...fields }, { ...strict, title });

export const EngineList = Type.Array(EngineNameSchema, {
  minItems: 1,
  uniqueItems: true,
  description: 'Which engines run the case; omitted means every engine the oracle launched.',
});

/** The properties of an object with one key per name, in the names' order, each holding `value`. */
export const keyed = <K extends string, T extends TSchema>(names: readonly K[], value: T) =>
  Object.fromEntries(names.map((name) => [name, value])) as { [N in K]: T };

/** One optional field per engine (`{chromium?, firefox?, webkit?}`), closed. */
export const PerEngine = <T extends TSchema>(value: T, description?: string) =>
  Type.Object(keyed(ENGINE_NAMES, Type.Optional(value)), { ...strict, ...(description ? { description } : {}) });

/** The viewport every engine lays a case out in and every dump names, in CSS pixels, at device pixel ratio 1. */
export const VIEWPORT = { width: 800, height: 600 } as const;

/** A box: viewport-relative CSS pixels. */
export const Rect = Type.Object(
  { x: Type.Number(), y: Type.Number(), w: Type.Number(), h: Type.Number() },
  { ...strict, description: 'Viewport-relative CSS pixels.' },
);

/** Each engine's error text, where an engine failed; the contract leaves it out when empty. */
export const EngineErrors = PerEngine(Type.String(), 'Per engine that failed: a stable code, a colon, then the message.');
