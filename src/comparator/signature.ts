// The bucket of a voted case: where and how its engines part ways, as a structure (`Bucket`,
// for matching known differences) and as one short line (`signatureOf`, for counting), so that a
// thousand cases showing one difference are one line of a campaign's summary. A pure function of
// the vote; docs/campaign.md gives the recipe. Shapes of the line:
//
//   geometry         <verdict> | <kind> | <tag> | <styles>      outlier firefox | size | P | height
//   relayout         self <engine> | relayout | <tag> | <styles>  self webkit | relayout | DIV | width
//   trace            trace <verdict> | <kind> | <label>         trace outlier firefox | value | fn
//   reflect          reflect <verdict> | <attr> | <idl>         reflect outlier chromium | preload | preload
//   insufficient     [trace |reflect ]insufficient | <engine> <why>, …    insufficient | firefox script_error
//   invalid corpus   invalid | <code>                           invalid | invalid_json
//
// <verdict> is `outlier <engine>` or `split`. A relayout finding is one engine against itself (the
// relayout check, relayout.ts): no vote of several engines can give it, so each engine that fails
// its check is a bucket of its own, beside the case's vote. Which node, record or observation is
// "first", and which kind a node gets when it fails several ways, is in `geometryFirst`,
// `relayoutFirst`, `traceFirst` and `reflectFirst`.
import { ENGINE_NAMES, type EngineName } from '../protocol/schema.js';
import type { ClusterVerdict, EngineStatus, FailureKind, VoteResult } from '../protocol/vote-schema.js';
import type { VoteKind, VoteResults } from '../protocol/ops.js';
import type { RelayoutResult } from '../protocol/relayout-schema.js';
import type { ReflectVoteResult } from './reflect-vote.js';
import { TRACE_FAILURE_KINDS } from '../protocol/trace-vote-schema.js';
import type { TraceVoteResult } from './trace-vote.js';

/** A case's vote, tagged with its vote's kind (src/protocol/ops.ts: a `vote` request's is geometry). */
export type VotedCase = { [K in VoteKind]: { op: K; vote: VoteResults[K] } }[VoteKind];

/** A geometry failure kind as a signature names it, most structural first. */
export const GEOMETRY_KINDS = ['shape', 'fragment_count', 'size', 'offset'] as const;

/** Where the engines first part ways: a node, a trace record (or the whole trace), an observation. */
interface FirstFailure {
  /** The node index, record seq or observation index; null for a failure of the whole trace. */
  index: number | null;
  /** Geometry: shape, fragment_count, size or offset; trace: a trace failure kind; reflect: null. */
  kind: string | null;
  /** Geometry: the node's tag (at a divergence, the tags either side); trace: the labels recorded there; reflect: the attribute. */
  subjects: string[];
  /** Geometry: the style properties that differ on the node; reflect: the IDL property; trace: none. */
  details: string[];
}

/** What a signature is made of, kept as a structure for the expectation rules. */
export interface Bucket {
  op: VotedCase['op'] | 'relayout';
  /** `self`: a relayout finding, `outlier` the engine that disagrees with itself. */
  verdict: Exclude<ClusterVerdict, 'unanimous'> | 'self';
  outlier: EngineName | null;
  /** Insufficient only: why each engine that did not vote did not (its error code, `discarded` or `absent`). */
  unusable: Partial<Record<EngineName, string>>;
  /** Null for insufficient. */
  first: FirstFailure | null;
  /** Geometry and relayout: the largest |delta| in any failing pair, in px; null after a parse divergence (geometry not compared) and for other ops. */
  maxDelta: number | null;
}

/** The bucket of a case, or null when its engines are unanimous (no finding). */
export function bucketOf(c: VotedCase): Bucket | null {
  const { verdict, outlier, engines } = c.vote;
  if (verdict === 'unanimous') return null;
  const bucket: Bucket = { op: c.op, verdict, outlier, unusable: {}, first: null, maxDelta: null };
  if (verdict === 'insufficient') return { ...bucket, unusable: unusableEngines(engines) };
  switch (c.op) {
    case 'geometry':
      return { ...bucket, ...geometryFirst(c.vote) };
    case 'trace':
      return { ...bucket, first: traceFirst(c.vote) };
    case 'reflect':
      return { ...bucket, first: reflectFirst(c.vote) };
  }
}

/** The one-line signature of a bucket. */
export function signatureOf(b: Bucket): string {
  // A relayout signature's kind field says relayout.
  const op = b.op === 'geometry' || b.op === 'relayout' ? '' : `${b.op} `;
  if (b.verdict === 'insufficient') {
    return `${op}insufficient | ${ENGINE_NAMES.filter((e) => b.unusable[e])
      .map((e) => `${e} ${b.unusable[e]}`)
      .join(', ')}`;
  }
  const fields = [`${op}${b.verdict === 'outlier' || b.verdict === 'self' ? `${b.verdict} ${b.outlier}` : b.verdict}`];
  const f = b.first;
  if (f) {
    if (b.op === 'reflect') fields.push(list(f.subjects, '/'), list(f.details, ','));
    else fields.push(f.kind ?? '-', list(f.subjects, '/'));
    if (b.op === 'geometry' || b.op === 'relayout') fields.push(list(f.details, ','));
  }
  return fields.join(' | ');
}

/** The signature of a corpus item the oracle would not accept, from its error's wire text. */
export const invalidSignature = (error: string): string => `invalid | ${errorCode(error)}`;

/** The stable code that leads an oracle error message (`case_timeout: …`), or `error` when there is none. */
export const errorCode = (message: string): string => /^([a-z_]+):/.exec(message)?.[1] ?? 'error';

function unusableEngines(engines: Record<EngineName, EngineStatus>): Bucket['unusable'] {
  const why: Bucket['unusable'] = {};
  for (const e of ENGINE_NAMES) {
    const s = engines[e];
    if (s.status !== 'usable') why[e] = s.status === 'error' ? errorCode(s.error) : s.status;
  }
  return why;
}

/**
 * Where a geometry vote's engines first part ways, and the largest failing delta (exported for the
 * report, which highlights this node; an insufficient vote's usable pair is read the same way).
 * A pair whose documents diverged is the first failure (kind shape, at the lowest divergence
 * index): the DOMs differ, so that pair's geometry was never compared. Otherwise a node that fails
 * without any failing child: a size difference travels up through every auto-sized ancestor, so
 * the lowest failing index is nearly always HTML; the innermost failing node is where it starts.
 * Among those, the first whose own size (or fragment count) differs, else the first: a size
 * difference also moves the siblings around it, earlier ones included (centred, reversed, end-
 * aligned), and a sibling that merely moved is not where the difference starts. Its kind is the
 * most structural it shows: fragment_count, then size (a fragment's size counts as size), then offset.
 */
export function geometryFirst(vote: VoteResult): Pick<Bucket, 'first' | 'maxDelta'> {
  const pairs = Object.values(vote.pairs);
  const diverged = pairs.flatMap((p) => p.divergence ?? []).sort((x, y) => x.index - y.index)[0];
  if (diverged) {
    const tags = [diverged.a?.tag ?? '(end)', diverged.b?.tag ?? '(end)'];
    return { first: { index: diverged.index, kind: 'shape', subjects: [...new Set(tags)].sort(), details: [] }, maxDelta: null };
  }
  const failing = pairs.filter((p) => p.verdict === 'fail');
  const maxDelta = failing.length ? Math.max(...failing.map((p) => p.summary.max_abs_delta)) : null;
  const node = startingNode(vote.nodes);
  if (!node) return { first: null, maxDelta };
  const has = (k: FailureKind) => node.kinds.includes(k);
  const kind: (typeof GEOMETRY_KINDS)[number] = has('fragment_count')
    ? 'fragment_count'
    : has('size') || has('fragment')
      ? 'size'
      : 'offset';
  return { first: { index: node.index, kind, subjects: [node.tag], details: node.styles }, maxDelta };
}

/** Of the failing nodes, the one where a difference starts (see geometryFirst). */
function startingNode<N extends { index: number; parent: number; kinds: readonly FailureKind[] }>(nodes: readonly N[]): N | undefined {
  const parents = new Set(nodes.map((n) => n.parent));
  const innermost = nodes.filter((n) => !parents.has(n.index));
  return innermost.find((n) => n.kinds.some((k) => k !== 'offset')) ?? innermost[0];
}

/**
 * The bucket of one engine's relayout check, or null when it passed: kind `relayout` at the node
 * where the difference starts (as geometryFirst finds it), `shape` when the two walks saw
 * different trees.
 */
export function relayoutBucket(engine: EngineName, result: RelayoutResult): Bucket | null {
  if (result.verdict === 'pass') return null;
  const bucket: Bucket = { op: 'relayout', verdict: 'self', outlier: engine, unusable: {}, first: null, maxDelta: null };
  const d = result.divergence;
  if (d)
    return {
      ...bucket,
      first: { index: d.index, kind: 'shape', subjects: [...new Set([d.a?.tag ?? '(end)', d.b?.tag ?? '(end)'])].sort(), details: [] },
    };
  const node = startingNode(result.nodes);
  const first = node ? { index: node.index, kind: 'relayout', subjects: [node.tag], details: node.styles.map((s) => s.property) } : null;
  return { ...bucket, first, maxDelta: result.summary.max_abs_delta };
}

/** A failure of the whole trace (count_mismatch, timed_out, secure_context, in that order) comes first; else the lowest failing record and its first kind. */
function traceFirst(vote: TraceVoteResult): FirstFailure | null {
  const failures = Object.values(vote.pairs).flatMap((p) => p.failures);
  const whole = TRACE_FAILURE_KINDS.find((k) => failures.some((f) => f.kind === k && !('seq' in f)));
  if (whole) return { index: null, kind: whole, subjects: [], details: [] };
  const record = vote.records[0];
  return record ? { index: record.seq, kind: record.kinds[0]!, subjects: record.labels, details: [] } : null;
}

/** The lowest observation the engines do not all agree on. */
function reflectFirst(vote: ReflectVoteResult): FirstFailure | null {
  const o = vote.observations.find((x) => x.verdict !== 'unanimous');
  return o ? { index: o.index, kind: null, subjects: [o.attr], details: [o.idl] } : null;
}

/** Client-chosen text (labels, attributes) made one short line: whitespace collapsed, at most 40 characters. */
export function clean(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  if (!one) return '""';
  return one.length > 40 ? `${one.slice(0, 39)}…` : one;
}

const list = (items: string[], separator: string) => (items.length ? items.map(clean).join(separator) : '-');
