// The authored expectations of a web-platform-tests check-layout page (`data-expected-width`,
// `data-offset-x`, … as /resources/check-layout-th.js reads them): what a geometry or vote request
// asks to be read (`authored`), and what each engine read in its page (the answer's `authored`),
// raw, judged in the comparator (src/comparator/authored.ts). docs/wpt.md, "Layout route".
import { Type, type Static } from '@sinclair/typebox';
import { keyed, PerEngine, strict } from './common.js';

/** Each check-layout attribute, in check-layout-th.js's order, with the DOM values it is held to (authored-rules in the comparator). */
export const AUTHORED_ATTRIBUTES = {
  'data-expected-width': ['offsetWidth'],
  'data-expected-height': ['offsetHeight'],
  'data-offset-x': ['offsetLeft'],
  'data-offset-y': ['offsetTop'],
  'data-expected-client-width': ['clientWidth'],
  'data-expected-client-height': ['clientHeight'],
  'data-expected-scroll-width': ['scrollWidth'],
  'data-expected-scroll-height': ['scrollHeight'],
  'data-expected-bounding-client-rect-width': ['bcrWidth'],
  'data-expected-bounding-client-rect-height': ['bcrHeight'],
  'data-total-x': ['clientLeft', 'offsetLeft'],
  'data-total-y': ['clientTop', 'offsetTop'],
  'data-expected-display': ['display'],
  'data-expected-padding-top': ['padding-top'],
  'data-expected-padding-bottom': ['padding-bottom'],
  'data-expected-padding-left': ['padding-left'],
  'data-expected-padding-right': ['padding-right'],
  'data-expected-margin-top': ['margin-top'],
  'data-expected-margin-bottom': ['margin-bottom'],
  'data-expected-margin-left': ['margin-left'],
  'data-expected-margin-right': ['margin-right'],
} as const satisfies Record<string, readonly (AuthoredNumber | AuthoredString)[]>;
export type AuthoredAttribute = keyof typeof AUTHORED_ATTRIBUTES;

/** data-* names check-layout-th.js accepts beside its attributes; any other not starting `data-test` fails its subtest. */
export const AUTHORED_OTHER_KEYS = ['data-anchor-polyfill'] as const;

/** The numeric DOM values an attribute may need; `totalX` is clientLeft + offsetLeft, `totalY` clientTop + offsetTop. */
export const AUTHORED_NUMBERS = [
  'offsetWidth',
  'offsetHeight',
  'offsetLeft',
  'offsetTop',
  'clientWidth',
  'clientHeight',
  'clientLeft',
  'clientTop',
  'scrollWidth',
  'scrollHeight',
  'bcrWidth',
  'bcrHeight',
] as const;
export type AuthoredNumber = (typeof AUTHORED_NUMBERS)[number];

/** The computed-style strings an attribute may need, as getComputedStyle gives them. */
export const AUTHORED_STRINGS = [
  'display',
  'padding-top',
  'padding-bottom',
  'padding-left',
  'padding-right',
  'margin-top',
  'margin-bottom',
  'margin-left',
  'margin-right',
] as const;
export type AuthoredString = (typeof AUTHORED_STRINGS)[number];

export const AuthoredRequestSchema = Type.Object(
  {
    scope: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), {
        minItems: 1,
        maxItems: 64,
        description:
          "The selectors of the page's checkLayout() calls: only their matches, the matches' subtrees and the matches' parents " +
          'are read, as check-layout-th.js checks them. Omitted: every element.',
      }),
    ),
  },
  {
    ...strict,
    description:
      "Opt-in: each engine reads the page's check-layout attributes (data-expected-width, data-offset-x, …) and the DOM values " +
      "they are held to, after the case's script; the answer adds `authored`.",
  },
);

const Index = Type.Integer({ minimum: 0, description: 'The element, by its index in the dump (document order).' });
const MaybeNumber = Type.Union([Type.Number(), Type.Null()], {
  description: 'null where the DOM gives undefined (offset* on an SVG element).',
});

const AuthoredElementSchema = Type.Object(
  {
    index: Index,
    attrs: Type.Record(Type.String(), Type.String(), {
      description: 'Its check-layout attributes with a non-empty value (an empty one is not checked), as written.',
    }),
    values: Type.Object(
      { ...keyed(AUTHORED_NUMBERS, Type.Optional(MaybeNumber)), ...keyed(AUTHORED_STRINGS, Type.Optional(Type.String())) },
      { ...strict, description: 'The DOM values its attributes need, and only those: bcr* is getBoundingClientRect().' },
    ),
    offset_parent: Type.Integer({ minimum: -1, description: 'Its offsetParent, by index; -1 for null.' }),
  },
  strict,
);

export const AuthoredReadingSchema = Type.Object(
  {
    elements: Type.Array(AuthoredElementSchema, {
      description: 'Every element read that carries a check-layout attribute, in document order.',
    }),
    unknown_keys: Type.Array(Type.Object({ index: Index, name: Type.String() }, strict), {
      description: 'data-* attributes check-layout-th.js does not know (and not data-test*) on the elements read: each fails its subtest.',
    }),
  },
  { ...strict, description: "One engine's reading of the check-layout attributes." },
);

export const AuthoredResponseSchema = PerEngine(
  AuthoredReadingSchema,
  'Per engine that read its page: the check-layout attributes and their DOM values.',
);

export type AuthoredRequest = Static<typeof AuthoredRequestSchema>;

export type AuthoredReading = Static<typeof AuthoredReadingSchema>;
