// The judge of an engine under test: a candidate's outcome for a case (a dump, `unsupported`, or
// an error) against the engines of the same case's response. The result, as JSON:
//
//   verdict   the candidate against the majority of the engines' vote: "pass" when it passes
//             against every engine of the majority, else the worst of those comparisons ("fail" <
//             "parse_divergence" < "discarded"); "no_majority" when the engines split or are too
//             few to vote (no ground truth to match); "unsupported" and "error" when the candidate
//             gave no dump. Only "pass" is a pass
//   vote      the engines' own vote verdict; outlier: the engine it names; majority: the agreeing engines
//   engines   per-engine status, as in vote.ts
//   compares  {engine: CompareResult} for each engine that has a dump, with the engine as `a` and
//             the candidate as `b` (deltas are candidate − engine): the candidate against each engine,
//             by geometry (its styles are not compared: they never change a verdict, and nothing
//             reads a candidate's style mismatches)
//   sides_with_outlier  the candidate passes against the one engine the other two outvoted, and not
//             against the majority: a finding about the browsers, and a sign the candidate's own
//             reference was a single browser
//   subpixel  a "fail" whose every delta is under 1/32 px (Blink and WebKit lay out in 1/64 px,
//             Gecko in 1/60, and float engines drift past the 1/60 px tolerance); the verdict stays "fail"
//   unsupported, error  what the candidate said, for those verdicts
//   fresh     for a case with mutations: the candidate's layout from scratch of the mutated document
//             against the majority (its own verdict), and the candidate held to itself, with no
//             browser: "self" is "agrees" when its incremental dump has every box, fragment and
//             computed style of its fresh dump (the comparator's rules: the same tree, lengths
//             within 1/60 px), else "differs" — a cache that kept what it should have dropped
//
// A candidate may lay out only part of the document (`roots`: the node indices whose subtrees it
// lays out). Geometry is then compared only inside those subtrees, each root's offset against the
// viewport; the shape check stays whole-document.
import { ENGINE_NAMES, type EngineName } from '../protocol/schema.js';
import type { ClusterVerdict, CompareVerdict, EngineStatus, VoteResult } from '../protocol/vote-schema.js';
import type { ColumnarDump } from './columnar.js';
import { compare, compareOverflowed, type CompareResult } from './compare.js';
import { voteColumnar, type EngineDumps } from './vote.js';

/** Every verdict on a candidate, in the order a summary lists them. */
export const CANDIDATE_VERDICTS = ['pass', 'fail', 'parse_divergence', 'discarded', 'no_majority', 'unsupported', 'error'] as const;
export type CandidateVerdict = (typeof CANDIDATE_VERDICTS)[number];

/** What a candidate made of a case, its dump in columnar form. */
export type CandidateOutcome =
  | { kind: 'dump'; dump: ColumnarDump; roots?: readonly number[]; placed?: false; fresh?: ColumnarDump }
  | { kind: 'unsupported'; what: string }
  | { kind: 'error'; message: string };

export interface CandidateResult {
  verdict: CandidateVerdict;
  vote: ClusterVerdict;
  outlier: EngineName | null;
  majority: EngineName[];
  engines: Record<EngineName, EngineStatus>;
  compares: Partial<Record<EngineName, CompareResult>>;
  sides_with_outlier: boolean;
  subpixel: boolean;
  unsupported?: string;
  error?: string;
  fresh?: FreshResult;
}

/** A candidate's layout from scratch of a mutated case, judged against the majority and held against its incremental one. */
export interface FreshResult {
  verdict: CandidateVerdict;
  self: 'agrees' | 'differs';
  /** The fresh dump as `a`, the incremental one as `b`. */
  selfCompare: CompareResult;
}

/** A candidate is compared by its geometry alone. */
const GEOMETRY = { styles: false } as const;

/** Every delta of a subpixel failure is under this. */
const SUBPIXEL = 1 / 32;

const SEVERITY: readonly CompareVerdict[] = ['pass', 'fail', 'parse_divergence', 'discarded'];
const worst = (x: CompareVerdict, y: CompareVerdict) => (SEVERITY.indexOf(y) > SEVERITY.indexOf(x) ? y : x);

/** What the judge needs of the engines' own vote on a response. */
export type EnginesVote = Pick<VoteResult, 'verdict' | 'outlier' | 'majority' | 'engines'>;

/**
 * A candidate's outcome, of any kind, against a response's engines. `vote` is the engines' vote on
 * that same response when it was taken already (a campaign's worker takes it beside the engines):
 * the judge then does not take it again.
 */
export function judgeCandidate(outcome: CandidateOutcome, response: EngineDumps<ColumnarDump>, vote?: EnginesVote): CandidateResult {
  if (outcome.kind === 'dump') {
    const result = compareCandidate(outcome.dump, response, outcome.roots, vote);
    return outcome.fresh ? { ...result, fresh: judgeFresh(outcome.fresh, outcome.dump, response, outcome.roots, vote) } : result;
  }
  const { verdict, outlier, majority, engines } = vote ?? voteColumnar(response);
  const base = { vote: verdict, outlier, majority, engines, compares: {}, sides_with_outlier: false, subpixel: false };
  return outcome.kind === 'unsupported'
    ? { ...base, verdict: 'unsupported', unsupported: outcome.what }
    : { ...base, verdict: 'error', error: outcome.message };
}

/** A candidate dump against a response's engines (and their vote, when taken already); `roots` limits geometry to those subtrees. */
export function compareCandidate(
  candidate: ColumnarDump,
  response: EngineDumps<ColumnarDump>,
  roots?: readonly number[],
  given?: EnginesVote,
): CandidateResult {
  const { verdict: vote, outlier, majority, engines } = given ?? voteColumnar(response);
  const badRoot = roots?.find((r) => !Number.isInteger(r) || r < 0 || r >= candidate.count);
  if (badRoot !== undefined) {
    const error = `roots: node ${badRoot} is not in the candidate's dump of ${candidate.count} nodes`;
    return { verdict: 'error', vote, outlier, majority, engines, compares: {}, sides_with_outlier: false, subpixel: false, error };
  }
  // Geometry inside the roots alone, compared in place (no scoped copy of each dump).
  const options = roots ? { ...GEOMETRY, scope: scopeOf(candidate, roots) } : GEOMETRY;
  const compares: Partial<Record<EngineName, CompareResult>> = {};
  for (const e of ENGINE_NAMES) {
    const dump = response.dumps[e];
    if (dump) compares[e] = compare(dump, candidate, options);
  }
  const verdict: CandidateVerdict = majority.length ? majority.map((e) => compares[e]!.verdict).reduce(worst) : 'no_majority';
  const againstMajority = majority.map((e) => compares[e]!);
  const subpixel =
    verdict === 'fail' &&
    againstMajority.every((c) => c.summary.max_abs_delta < SUBPIXEL && c.failures.every((f) => f.kind !== 'fragment_count'));
  const sidesWithOutlier = vote === 'outlier' && verdict !== 'pass' && compares[outlier!]?.verdict === 'pass';
  return { verdict, vote, outlier, majority, engines, compares, sides_with_outlier: sidesWithOutlier, subpixel };
}

/**
 * The fresh dump against the majority, and the incremental dump held to it over the whole document
 * (both are the candidate's, so no part of either is out of scope): a box, fragment or computed
 * style that differs, or another tree, is a self-disagreement. Both are one engine's walks, so an
 * overflowed document is compared too.
 */
function judgeFresh(
  fresh: ColumnarDump,
  dump: ColumnarDump,
  response: EngineDumps<ColumnarDump>,
  roots: readonly number[] | undefined,
  vote: EnginesVote | undefined,
): FreshResult {
  const selfCompare = compareOverflowed(fresh, dump);
  const agrees = selfCompare.verdict === 'pass' && selfCompare.style_mismatches.length === 0;
  return { verdict: compareCandidate(fresh, response, roots, vote).verdict, self: agrees ? 'agrees' : 'differs', selfCompare };
}

/** Per node: whether it is one of `roots` or below one (a parent precedes its children). */
export function scopeOf(d: ColumnarDump, roots: readonly number[]): Uint8Array {
  const inScope = new Uint8Array(d.count);
  for (const r of roots) inScope[r] = 1;
  for (let i = 0; i < d.count; i++) if (d.parents[i]! >= 0 && inScope[d.parents[i]!]) inScope[i] = 1;
  return inScope;
}

/**
 * A copy of `d` whose nodes outside the scope have no box: their geometry then compares equal on
 * both sides, and a root, with no boxed ancestor left, is measured from the viewport. Tags, depths
 * and parents are kept, so the shape check still sees the whole document; styles, not compared
 * for a candidate, are kept as they are.
 */
export function scoped(d: ColumnarDump, inScope: Uint8Array): ColumnarDump {
  const within = (i: number) => i < inScope.length && inScope[i] === 1;
  let kept = 0;
  for (let i = 0; i < d.count; i++) if (within(i)) kept += d.fragmentStart[i + 1]! - d.fragmentStart[i]!;
  const bounding = new Float64Array(d.count * 4);
  const fragmentStart = new Int32Array(d.count + 1);
  const fragments = new Float64Array(kept * 4);
  let f = 0;
  // Copied value by value: a subarray per node to set() from cost more than the copy (a view is an object of its own).
  for (let i = 0; i < d.count; i++) {
    fragmentStart[i] = f;
    if (!within(i)) continue;
    for (let k = i * 4; k < i * 4 + 4; k++) bounding[k] = d.bounding[k]!;
    for (let k = d.fragmentStart[i]! * 4; k < d.fragmentStart[i + 1]! * 4; k++)
      fragments[f * 4 + k - d.fragmentStart[i]! * 4] = d.fragments[k]!;
    f += d.fragmentStart[i + 1]! - d.fragmentStart[i]!;
  }
  fragmentStart[d.count] = f;
  const anchors = new Int32Array(d.count);
  for (let i = 0; i < d.count; i++) {
    const p = d.parents[i]!;
    anchors[i] = p < 0 ? -1 : fragmentStart[p + 1]! > fragmentStart[p]! ? p : anchors[p]!;
  }
  return { ...d, bounding, fragmentStart, fragments, anchors };
}
