// The candidate protocol: what the oracle sends an engine under test (a process of any language
// speaking NDJSON on stdio) and what that process answers. A candidate reads a subset of the
// geometry request and answers each line with a dump in the contract's format, with `unsupported`
// naming what it cannot lay out, or with an error. docs/candidate.md describes it in prose.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { AuthoredRequestSchema } from './authored-schema.js';
import { Id, strict } from './common.js';
import { GeometryRequestSchema } from './geometry-schema.js';
import { DumpSchema } from './schema.js';
import { SiteSchema } from './site-schema.js';

/** The candidates this package ships, runnable by name (`browser-oracle candidate <name>`). */
export const REFERENCE_CANDIDATES = ['taffy', 'yoga'] as const;
export type ReferenceCandidate = (typeof REFERENCE_CANDIDATES)[number];

/** Stable codes that lead the message of a candidate `error` the oracle records (the candidate's own errors keep theirs). */
const CANDIDATE_ERROR_CODES = {
  candidate_timeout: 'no answer within the per-case timeout; the candidate process was killed and is restarted',
  candidate_crashed: 'the candidate process exited during the case; it is restarted',
  candidate_start: 'the candidate process did not start or did not answer its ping',
  candidate_protocol: 'the candidate answered with a line that is not a candidate answer to the case',
} as const;
export type CandidateErrorCode = keyof typeof CANDIDATE_ERROR_CODES;

const CandidateCaseSchema = Type.Object(
  {
    id: Id,
    html: GeometryRequestSchema.properties.html,
    script: GeometryRequestSchema.properties.script,
    mutations: GeometryRequestSchema.properties.mutations,
    site: Type.Optional(
      Type.Object(SiteSchema.properties, {
        ...strict,
        description:
          "The case's own files, as the browsers are served them (a web-platform-tests page's style sheets, fonts, images): the page at " +
          '`path`, each file at `/<key>`, so `<link href>` and `@import` resolve against the page or the sheet they are in.',
      }),
    ),
    authored: Type.Optional(
      Type.Object(
        { scope: AuthoredRequestSchema.properties.scope },
        {
          ...strict,
          description:
            "The case is a check-layout page: its elements under test are `scope`'s matches (every element carrying an attribute when absent).",
        },
      ),
    ),
  },
  { ...strict, title: 'Candidate case: one document to lay out' },
);
export type CandidateCase = Static<typeof CandidateCaseSchema>;

const CandidatePingSchema = Type.Object({ id: Id, op: Type.Literal('ping') }, { ...strict, title: 'Candidate ping' });

/** A dump as the contract has it, except that `engine` is the candidate's own name. */
const CandidateDumpSchema = Type.Object(
  { ...DumpSchema.properties, engine: Type.String({ minLength: 1, description: "The candidate's own name." }) },
  { ...strict, title: 'Candidate dump' },
);
export type CandidateDump = Static<typeof CandidateDumpSchema>;

export const CandidateDumpAnswerSchema = Type.Object(
  {
    id: Id,
    dump: CandidateDumpSchema,
    roots: Type.Optional(
      Type.Array(Type.Integer({ minimum: 0 }), {
        minItems: 1,
        uniqueItems: true,
        description:
          'Indices of the dump nodes whose subtrees the candidate lays out. Geometry is judged only inside them, ' +
          "each root's offset taken against the viewport; the shape check stays whole-document. Omitted: the whole document.",
      }),
    ),
    fresh: Type.Optional(
      Type.Object(CandidateDumpSchema.properties, {
        ...strict,
        description:
          'A case with `mutations` only, and then required: the mutated document laid out from scratch (a new tree), where `dump` is ' +
          'the original laid out, mutated in the live tree and laid out again with whatever the engine kept. Its `roots` are `roots`.',
      }),
    ),
    placed: Type.Optional(
      Type.Literal(false, {
        description:
          'With `roots`: each root was laid out alone, away from the rest of the page (prose it cannot lay out), so its own offset ' +
          'is not comparable; only sizes and offsets inside its subtree are judged.',
      }),
    ),
  },
  { ...strict, title: 'Candidate answer: a dump' },
);

export const CandidateUnsupportedAnswerSchema = Type.Object(
  {
    id: Id,
    unsupported: Type.String({
      minLength: 1,
      description: 'What the candidate cannot lay out, as `<property>: <value>` where it is a declaration.',
    }),
  },
  { ...strict, title: 'Candidate answer: the case uses what the candidate does not support' },
);

export const CandidateErrorAnswerSchema = Type.Object(
  { id: Id, error: Type.String({ description: 'What went wrong; never a pass.' }) },
  { ...strict, title: 'Candidate answer: the candidate failed on the case' },
);

const CandidateSupportsSchema = Type.Object(
  {
    properties: Type.Record(Type.String(), Type.Array(Type.String()), {
      description:
        'Per CSS property (display included) the candidate maps, the value terms it accepts: keywords as themselves, ' +
        'value types as `<length>`, `<percentage>`, `<number>`, `<integer>`, `<flex>`, functions as `name()`. ' +
        'A property missing here makes a case unsupported.',
    }),
    text: Type.Array(Type.String(), {
      description: 'The font families whose text it measures ("*": every family, as under --fonts=square); empty: no text.',
    }),
    script: Type.Boolean({ description: "Whether it runs a case's `script`; false: a case with one is unsupported." }),
    mutations: Type.Optional(
      Type.Boolean({
        description:
          "Whether it applies a case's `mutations` and answers `fresh` beside `dump`; left out or false: a case with them is unsupported.",
      }),
    ),
    absolute: Type.Optional(
      Type.Union([Type.Literal('ancestor'), Type.Literal('parent')], {
        description:
          "Where an absolutely positioned box's containing block may be: `ancestor` (the nearest positioned ancestor, as CSS " +
          'has it; the default), or `parent` only (it is laid out in its parent box, which must then be positioned).',
      }),
    ),
  },
  { ...strict, description: 'What the candidate lays out, so that a generator can stay inside it.' },
);
export type CandidateSupports = Static<typeof CandidateSupportsSchema>;

export const CandidatePingAnswerSchema = Type.Object(
  {
    id: Id,
    ok: Type.Literal(true),
    name: Type.String({ minLength: 1, description: 'The engine name its dumps carry.' }),
    version: Type.String({ minLength: 1 }),
    supports: Type.Optional(CandidateSupportsSchema),
  },
  { ...strict, title: 'Candidate answer to a ping' },
);
export type CandidatePingAnswer = Static<typeof CandidatePingAnswerSchema>;

export const CandidateAnswerSchema = Type.Union([CandidateDumpAnswerSchema, CandidateUnsupportedAnswerSchema, CandidateErrorAnswerSchema], {
  title: 'Candidate answer to a case',
});
export type CandidateAnswer = Static<typeof CandidateAnswerSchema>;

/** Every candidate message, keyed by its role; the published schema names each `Candidate<Key>`. */
export const CANDIDATE_SCHEMAS = {
  Case: CandidateCaseSchema,
  Ping: CandidatePingSchema,
  Answer: CandidateAnswerSchema,
  PingAnswer: CandidatePingAnswerSchema,
} as const satisfies Record<string, TSchema>;
