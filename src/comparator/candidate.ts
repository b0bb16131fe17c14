// A candidate dump (the engine under test) against the engines of one response. The result,
// as JSON:
//
//   verdict   the candidate against the majority: "pass" when it passes against every engine
//             of the majority, else the worst of those comparisons ("fail" <
//             "parse_divergence" < "discarded"); "no_majority" when the engines themselves
//             split or are too few to vote, since then there is no ground truth to match
//   vote      the engines' own vote verdict; majority: the engines of the agreeing cluster
//   engines   per-engine status, as in vote.ts
//   compares  {engine: CompareResult} for each engine that has a dump, with the engine as
//             `a` and the candidate as `b` (deltas are candidate − engine)
import { ENGINE_NAMES, type EngineName } from '../protocol/schema.js';
import type { ColumnarDump } from './columnar.js';
import type { ClusterVerdict, CompareVerdict, EngineStatus } from '../protocol/vote-schema.js';
import { compare, type CompareResult } from './compare.js';
import { voteColumnar, type EngineDumps } from './vote.js';

export interface CandidateResult {
  verdict: CompareVerdict | 'no_majority';
  vote: ClusterVerdict;
  majority: EngineName[];
  engines: Record<EngineName, EngineStatus>;
  compares: Partial<Record<EngineName, CompareResult>>;
}

const SEVERITY: readonly CompareVerdict[] = ['pass', 'fail', 'parse_divergence', 'discarded'];

export function compareCandidate(candidate: ColumnarDump, response: EngineDumps<ColumnarDump>): CandidateResult {
  const { verdict: vote, majority, engines } = voteColumnar(response);
  const compares: Partial<Record<EngineName, CompareResult>> = {};
  for (const e of ENGINE_NAMES) {
    const dump = response.dumps[e];
    if (dump) compares[e] = compare(dump, candidate);
  }
  const worst = (x: CompareVerdict, y: CompareVerdict) => (SEVERITY.indexOf(y) > SEVERITY.indexOf(x) ? y : x);
  const verdict = majority.length ? majority.map((e) => compares[e]!.verdict).reduce(worst) : 'no_majority';
  return { verdict, vote, majority, engines, compares };
}
