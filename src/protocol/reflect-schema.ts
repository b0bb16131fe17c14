// The reflect op's own shapes: a probe, and the observation answering it. schema.ts wraps them
// in the request and response envelopes.
import { Type, type Static } from '@sinclair/typebox';
import { strict } from './common.js';

const Name = (description: string) => Type.String({ minLength: 1, description });

export const ProbeSchema = Type.Object(
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

export const ObservationSchema = Type.Object(
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
