// The geometry vote as it travels in a `vote` answer: the schema is the type the comparator
// returns (src/comparator/vote.ts), so the published schema says exactly what a client gets.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { ENGINE_NAMES, EngineNameSchema, keyed, literalUnion, STYLE_PROPERTIES, strict } from './common.js';

const CLUSTER_VERDICTS = ['unanimous', 'outlier', 'split', 'insufficient'] as const;
export type ClusterVerdict = (typeof CLUSTER_VERDICTS)[number];

const COMPARE_VERDICTS = ['pass', 'fail', 'parse_divergence', 'discarded'] as const;
export type CompareVerdict = (typeof COMPARE_VERDICTS)[number];

export const FAILURE_KINDS = ['size', 'fragment', 'fragment_count', 'offset'] as const;
export type FailureKind = (typeof FAILURE_KINDS)[number];

export const ClusterVerdictSchema = literalUnion(CLUSTER_VERDICTS, 'insufficient: fewer than three usable engines; never a pass.');

const EngineStatusSchema = Type.Union([
  Type.Object({ status: literalUnion(['usable', 'discarded', 'unemulated', 'absent'] as const) }, strict),
  Type.Object({ status: Type.Literal('error'), error: Type.String() }, strict),
]);
export type EngineStatus = Static<typeof EngineStatusSchema>;

/** The unordered pairs of `names`, each `a~b` with `a` earlier in the list. */
type PairsOf<T extends readonly string[]> = T extends readonly [infer A extends string, ...infer Rest extends readonly string[]]
  ? `${A}~${Rest[number]}` | PairsOf<Rest>
  : never;
/** The key of a pair of engines: "chromium~firefox", names in the engine list's (alphabetical) order. */
export type PairKey = PairsOf<typeof ENGINE_NAMES>;
/** Every pair key, in engine order: the pairs of a vote, when every engine is usable. */
export const PAIR_KEYS = ENGINE_NAMES.flatMap((a, i) => ENGINE_NAMES.slice(i + 1).map((b) => `${a}~${b}`)) as PairKey[];

export const EngineStatusesSchema = Type.Object(keyed(ENGINE_NAMES, EngineStatusSchema), {
  ...strict,
  description:
    'usable; discarded (the document overflowed); unemulated (a trace whose engine did not apply all of its emulate); error (with the message); absent (not in the response).',
});

export const SummarySchema = Type.Object(
  {
    nodes: Type.Integer({ minimum: 0, description: 'Nodes whose geometry was compared.' }),
    compared: Type.Integer({ minimum: 0, description: 'Individual checks: each width, height, dx, dy and fragment count.' }),
    failed: Type.Integer({ minimum: 0 }),
    sum_abs_delta: Type.Number({ description: 'Over every compared length, passing or not, in CSS px.' }),
    max_abs_delta: Type.Number(),
  },
  strict,
);
export type Summary = Static<typeof SummarySchema>;

const NodeShapeSchema = Type.Object({ tag: Type.String(), depth: Type.Integer(), parent: Type.Integer() }, strict);
export type NodeShape = Static<typeof NodeShapeSchema>;

export const DivergenceSchema = Type.Object(
  { index: Type.Integer({ minimum: 0 }), a: Type.Union([NodeShapeSchema, Type.Null()]), b: Type.Union([NodeShapeSchema, Type.Null()]) },
  { ...strict, description: 'The first index where (tag, depth, parent) differ; null past the end of a dump.' },
);

/** One `T` per pair of usable engines, keyed by pair ("chromium~firefox", names in engine order), closed. */
export const PerPair = <T extends TSchema>(value: T, description: string) =>
  Type.Object(keyed(PAIR_KEYS, Type.Optional(value)), { ...strict, description });

const PairResultSchema = Type.Object(
  { verdict: literalUnion(COMPARE_VERDICTS), summary: SummarySchema, divergence: Type.Optional(DivergenceSchema) },
  strict,
);
export type PairResult = Static<typeof PairResultSchema>;

/** A property of the contract's style subset. */
export type StyleProperty = (typeof STYLE_PROPERTIES)[number];

const NodeVoteSchema = Type.Object(
  {
    index: Type.Integer({ minimum: 0 }),
    tag: Type.String(),
    parent: Type.Integer({ minimum: -1, description: "The node's parent index, -1 for the root." }),
    outlier: Type.Union([EngineNameSchema, Type.Null()], { description: 'The engine the other two agree against at this node.' }),
    kinds: Type.Array(literalUnion(FAILURE_KINDS), { description: 'The failure kinds seen at this node in any pair.' }),
    styles: Type.Array(literalUnion(STYLE_PROPERTIES), {
      description:
        'The style properties whose computed values differ at this node in any pair, in contract order (px lengths within 1/60 px count as equal).',
    }),
  },
  strict,
);
export type NodeVote = Static<typeof NodeVoteSchema>;

/** A three-way vote's result: verdict, outlier, majority, each engine's status, the pairs, then the rows (nodes, records) that fail in some pair. */
export function clusterVoteSchema<P extends TSchema, R extends Record<string, TSchema>>(pairs: P, rows: R, description: string) {
  return Type.Object(
    {
      verdict: ClusterVerdictSchema,
      outlier: Type.Union([EngineNameSchema, Type.Null()]),
      majority: Type.Array(EngineNameSchema, { description: 'The agreeing engines, sorted; empty for split and insufficient.' }),
      engines: EngineStatusesSchema,
      pairs,
      ...rows,
    },
    { ...strict, description },
  );
}

export const VoteResultSchema = clusterVoteSchema(
  PerPair(PairResultSchema, 'Each pair of usable engines: its compare verdict and delta summary.'),
  { nodes: Type.Array(NodeVoteSchema, { description: 'Every node that fails in some pair, in node order.' }) },
  'See docs/protocol.md, "Vote".',
);
export type VoteResult = Static<typeof VoteResultSchema>;
