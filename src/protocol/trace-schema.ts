// The trace op's wire shapes: the request, a trace and its records, and the response.
import { Type, type Static } from '@sinclair/typebox';
import { EngineErrors, EngineList, EngineNameSchema, Id, opRequest, PerEngine, ProfileNameSchema, strict } from './common.js';
import { EmulateSchema, EmulationSchema } from './emulation-schema.js';
import { TraceVoteResultSchema } from './trace-vote-schema.js';
import { SiteSchema, TRACE_FILE_PATH } from './site-schema.js';

const recordBase = <K extends string>(kind: K, description: string) => ({
  seq: Type.Integer({ minimum: 0, description: 'Push order, from 0.' }),
  kind: Type.Literal(kind, { description }),
  label: Type.String(),
});

const CANONICAL = Type.Unknown({
  description:
    'A canonicalized value: JSON booleans, strings, finite numbers and null as-is; otherwise one of ' +
    '{$num}, {$undefined}, {$bigint}, {$symbol}, {$error, name}, {$buffer, elementType, length, base64}, ' +
    '{$imageData, width, height, elementType, length, base64}, {$audioBuffer, numberOfChannels, length, sampleRate, channels}, ' +
    '{$shape: "object"|"function", keys, props (first 64 keys)} / {$shape: "array", length, elements (first 64)} / {$shape: "cycle"}; ' +
    'below depth 4, {$shape: "object"|"function"} or {$shape: "array", length} alone. See docs/protocol.md, "Trace".',
});

/** The default completion timeout (the contract's), and the longest a request may ask for. */
export const TRACE_TIMEOUT = { defaultMs: 5_000, maxMs: 60_000 } as const;

/** The ways two traces' records are paired: in push order (the contract's), or by label. */
const TRACE_ALIGNMENTS = ['seq', 'label'] as const;
export type TraceAlignment = (typeof TRACE_ALIGNMENTS)[number];

export const TraceRequestSchema = opRequest(
  'trace',
  {
    script: Type.String({ description: 'Run in the served page after the recorder is installed and `html` has loaded.' }),
    html: Type.Optional(Type.String({ description: 'Body markup of the trace page; omitted means an empty body.' })),
    engines: Type.Optional(EngineList),
    emulate: Type.Optional(EmulateSchema),
    vote: Type.Optional(Type.Boolean({ description: 'Also answer with the three-way vote on the traces, taken beside the engines.' })),
    timeout_ms: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: TRACE_TIMEOUT.maxMs,
        description: `Milliseconds after its script is handed to the loaded page at which a trace that did not call trace.done() ends, timed out (default ${TRACE_TIMEOUT.defaultMs}).`,
      }),
    ),
    files: Type.Optional(
      Type.Record(Type.String({ pattern: TRACE_FILE_PATH }), Type.String(), {
        additionalProperties: false,
        description:
          'Files served beside the trace page (`resources/x.html` in the page resolves to the key "resources/x.html"), read-only, ' +
          'while the trace runs. Keys: relative paths whose segments use letters, digits and _~+,=@-. and do not start with a dot.',
      }),
    ),
    site: Type.Optional(SiteSchema),
    align: Type.Optional(
      Type.Union(
        TRACE_ALIGNMENTS.map((a) => Type.Literal(a)),
        {
          description:
            'How a vote pairs two traces\' records: "seq" (the default) record by record in push order; "label" by label ' +
            '(the n-th record of a label with the n-th of the same label), a label missing in one trace a difference of its own.',
        },
      ),
    ),
  },
  'Trace: run a script in a real origin and record what it observes',
);

const record = Type.Union([
  Type.Object({ ...recordBase('value', 'trace.value(label, v)'), value: CANONICAL }, strict),
  Type.Object(
    { ...recordBase('event', 'One firing of a trace.event listener; label names the listening target.'), type: Type.String() },
    strict,
  ),
  Type.Object(
    {
      ...recordBase('settle', 'trace.settle(label, promise)'),
      state: Type.Union([Type.Literal('fulfilled'), Type.Literal('rejected')]),
      value: CANONICAL,
    },
    strict,
  ),
  Type.Object(
    {
      ...recordBase('error', 'trace.error(label, err), or the request script throwing synchronously (label "script").'),
      name: Type.Union([Type.String(), Type.Null()], { description: "The error's name; null for a thrown value that is not an Error." }),
    },
    strict,
  ),
]);

export const TraceSchema = Type.Object(
  {
    engine: EngineNameSchema,
    engine_version: Type.String({ minLength: 1 }),
    profile: ProfileNameSchema,
    origin: Type.String({ description: 'The trace page origin, http://localhost:<port>.' }),
    is_secure_context: Type.Boolean(),
    timed_out: Type.Boolean({ description: 'The completion timeout (timeout_ms, 5000 by default) ended the trace, not trace.done().' }),
    records: Type.Array(record, { description: 'Every record in push order.' }),
    emulation: Type.Optional(EmulationSchema),
  },
  { ...strict, title: 'Trace' },
);

export const TraceResponseSchema = Type.Object(
  { id: Id, traces: PerEngine(TraceSchema), vote: Type.Optional(TraceVoteResultSchema), errors: Type.Optional(EngineErrors) },
  { ...strict, title: 'Trace response' },
);

export type TraceRequest = Static<typeof TraceRequestSchema>;
export type Trace = Static<typeof TraceSchema>;
export type TraceRecord = Trace['records'][number];
export type TraceResponse = Static<typeof TraceResponseSchema>;
