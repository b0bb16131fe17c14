// The trace vote as it travels in a trace answer that asked for it (`vote: true`): the schema is
// the type the comparator returns (src/comparator/trace-vote.ts, trace-compare.ts), so the
// published schema says exactly what a client gets.
import { Type, type Static } from '@sinclair/typebox';
import { EngineNameSchema, literalUnion, strict } from './common.js';
import { clusterVoteSchema, PerPair } from './vote-schema.js';

/** How two traces can differ, the whole trace's failures first. */
export const TRACE_FAILURE_KINDS = ['count_mismatch', 'timed_out', 'secure_context', 'missing', 'record', 'value', 'buffer'] as const;

const Seq = Type.Integer({ minimum: 0, description: 'The record where the traces differ (by label: the row of the aligned records).' });
const Either = Type.Unknown({ description: "The first trace's side (a), or the second's (b)." });
/** Where a record's failure is: its seq, and its label when the records are paired by label. */
const At = { seq: Seq, label: Type.Optional(Type.String({ description: 'By label only: the label of the row.' })) };

const TraceFailureSchema = Type.Union([
  Type.Object({ kind: Type.Literal('count_mismatch'), a: Type.Integer(), b: Type.Integer() }, strict),
  Type.Object({ kind: literalUnion(['timed_out', 'secure_context'] as const), a: Type.Boolean(), b: Type.Boolean() }, strict),
  Type.Object(
    {
      ...At,
      kind: Type.Literal('missing'),
      label: Type.String({ description: 'The label of the row.' }),
      a: Type.Boolean({ description: 'Whether the first trace has the record.' }),
      b: Type.Boolean({ description: 'Whether the second trace has the record.' }),
    },
    { ...strict, description: 'By label only: a record one trace has and the other does not.' },
  ),
  Type.Object(
    {
      ...At,
      kind: Type.Literal('record'),
      field: literalUnion(['kind', 'label', 'type', 'name', 'state'] as const),
      a: Either,
      b: Either,
    },
    strict,
  ),
  Type.Object(
    {
      ...At,
      kind: Type.Literal('value'),
      path: Type.String({ description: 'Where in the record, JSON-pointer-like.' }),
      a: Either,
      b: Either,
    },
    strict,
  ),
  Type.Object(
    {
      ...At,
      kind: Type.Literal('buffer'),
      path: Type.String(),
      failed: Type.Integer({ minimum: 1, description: 'Samples outside the buffer tolerance.' }),
      max_abs_delta: Type.Union([Type.Number(), Type.Null()], {
        description: 'In normalized units; null when a sample is NaN in one trace only (a difference without bound).',
      }),
    },
    strict,
  ),
]);
export type TraceFailure = Static<typeof TraceFailureSchema>;

const TraceCompareResultSchema = Type.Object(
  {
    verdict: literalUnion(
      ['pass', 'fail', 'count_mismatch'] as const,
      'count_mismatch: the record counts differ, and no record is compared (never by label).',
    ),
    failures: Type.Array(TraceFailureSchema, { description: 'One per failing check, in record order.' }),
  },
  strict,
);
export type TraceCompareResult = Static<typeof TraceCompareResultSchema>;

const RecordVoteSchema = Type.Object(
  {
    seq: Seq,
    labels: Type.Array(Type.String(), {
      description: "The distinct labels the usable engines recorded there, sorted (by label: the row's one label).",
    }),
    outlier: Type.Union([EngineNameSchema, Type.Null()], { description: 'The engine the other two agree against at this record.' }),
    kinds: Type.Array(literalUnion(TRACE_FAILURE_KINDS)),
  },
  strict,
);

export const TraceVoteResultSchema = clusterVoteSchema(
  PerPair(TraceCompareResultSchema, 'Each pair of usable engines, compared record by record (or by label).'),
  { records: Type.Array(RecordVoteSchema, { description: 'Every record that fails in some pair, in record order.' }) },
  'See docs/protocol.md, "The trace vote".',
);
export type TraceVoteResult = Static<typeof TraceVoteResultSchema>;
