// The three-engine vote over one trace response, mirroring the geometry vote (vote.ts): every
// pair of usable engines is compared (trace-compare.ts) and the pairs that pass are clustered.
// The result, as JSON:
//
//   verdict, outlier, majority   as in vote.ts
//   engines   {chromium|firefox|webkit: {status}}: "usable", "error" (with `error`) or "absent"
//   pairs     {"chromium~firefox": {verdict, failures}}: each pair of usable engines, with its
//             trace-compare result
//   records   [{seq, labels, outlier, kinds}] in record order, for every record that fails in
//             some pair: labels are the distinct labels the usable engines recorded at that seq
//             (sorted; one when they agree on it), outlier is the engine the other two agree
//             against at that record (else null); a pair whose counts differ agrees at no record
import { ENGINE_NAMES, type EngineName } from '../protocol/schema.js';
import type { TraceResponse } from '../protocol/trace-schema.js';
import { cluster, type ClusterVerdict } from './cluster.js';
import { compareTraces, TRACE_FAILURE_KINDS, type TraceCompareResult } from './trace-compare.js';
import { pairKey, type EngineStatus } from './vote.js';

type TraceFailureKind = (typeof TRACE_FAILURE_KINDS)[number];

export interface RecordVote {
  seq: number;
  labels: string[];
  outlier: EngineName | null;
  kinds: TraceFailureKind[];
}

export interface TraceVoteResult {
  verdict: ClusterVerdict;
  outlier: EngineName | null;
  majority: EngineName[];
  engines: Record<EngineName, EngineStatus>;
  pairs: Record<string, TraceCompareResult>;
  records: RecordVote[];
}

export function voteTraces(response: Pick<TraceResponse, 'traces' | 'errors'>): TraceVoteResult {
  const engines = Object.fromEntries(ENGINE_NAMES.map((e) => [e, statusOf(e, response)])) as Record<EngineName, EngineStatus>;
  const usable = ENGINE_NAMES.filter((e) => engines[e].status === 'usable');
  const pairs: Record<string, TraceCompareResult> = {};
  for (let i = 0; i < usable.length; i++) {
    for (let j = i + 1; j < usable.length; j++) {
      pairs[pairKey(usable[i]!, usable[j]!)] = compareTraces(response.traces[usable[i]!]!, response.traces[usable[j]!]!);
    }
  }
  const { verdict, outlier, majority } = cluster(usable, (x, y) => pairs[pairKey(x, y)]!.verdict === 'pass');
  const labelsAt = (seq: number) => [...new Set(usable.flatMap((e) => response.traces[e]!.records[seq]?.label ?? []))].sort();
  return { verdict, outlier, majority, engines, pairs, records: recordVotes(usable, pairs, labelsAt) };
}

function statusOf(engine: EngineName, response: Pick<TraceResponse, 'traces' | 'errors'>): EngineStatus {
  const error = response.errors?.[engine];
  if (error !== undefined) return { status: 'error', error };
  return { status: response.traces[engine] === undefined ? 'absent' : 'usable' };
}

/** Re-votes every record that fails somewhere, with "agree" meaning "no failure at this record". */
function recordVotes(usable: EngineName[], pairs: Record<string, TraceCompareResult>, labelsAt: (seq: number) => string[]): RecordVote[] {
  const failing = new Map<number, { pairs: Set<string>; kinds: Set<TraceFailureKind> }>();
  for (const [key, { failures }] of Object.entries(pairs)) {
    for (const failure of failures) {
      if (!('seq' in failure)) continue;
      let record = failing.get(failure.seq);
      if (!record) failing.set(failure.seq, (record = { pairs: new Set(), kinds: new Set() }));
      record.pairs.add(key);
      record.kinds.add(failure.kind);
    }
  }
  return [...failing.keys()]
    .sort((x, y) => x - y)
    .map((seq) => {
      const { pairs: failed, kinds } = failing.get(seq)!;
      const agreeHere = (x: EngineName, y: EngineName) => {
        const key = pairKey(x, y);
        return pairs[key]!.verdict !== 'count_mismatch' && !failed.has(key);
      };
      return { seq, labels: labelsAt(seq), outlier: cluster(usable, agreeHere).outlier, kinds: TRACE_FAILURE_KINDS.filter((k) => kinds.has(k)) };
    });
}
