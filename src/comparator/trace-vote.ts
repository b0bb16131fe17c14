// The three-engine vote over one trace response, on the skeleton of three-way.ts: every pair of
// usable engines is compared (trace-compare.ts) and the pairs that pass are clustered.
// The result, as JSON:
//
//   verdict, outlier, majority   as in vote.ts
//   engines   {chromium|firefox|webkit: {status}}: "usable", "unemulated" (its trace says its driver did not
//             apply all of the request's emulate: shown, never compared, so fewer than three emulated
//             engines are insufficient while the emulated pairs are still compared record by
//             record), "error" (with `error`) or "absent"
//   pairs     {"chromium~firefox": {verdict, failures}}: each pair of usable engines, with its
//             trace-compare result
//   records   [{seq, labels, outlier, kinds}] in record order, for every record that fails in
//             some pair: labels are the distinct labels the usable engines recorded at that seq
//             (sorted), outlier is the engine the other two agree against at that record (else
//             null); a pair whose counts differ agrees at no record
//
// By label (a request's `"align": "label"`), the usable engines' records are aligned together
// (trace-compare.ts, `alignByLabel`), so every pair is compared on the same rows: a record's seq
// is its row, and its labels are that row's one label.
import { ENGINE_NAMES, type EngineName } from '../protocol/common.js';
import type { TraceAlignment, TraceResponse } from '../protocol/trace-schema.js';
import { TRACE_FAILURE_KINDS, type TraceCompareResult, type TraceVoteResult } from '../protocol/trace-vote-schema.js';
import { alignByLabel, compareAligned, compareTraces } from './trace-compare.js';
import { threeWay, voteItems } from './three-way.js';

export type { TraceVoteResult };
export type RecordVote = TraceVoteResult['records'][number];

export function voteTraces(response: Pick<TraceResponse, 'traces' | 'errors'>, align: TraceAlignment = 'seq'): TraceVoteResult {
  const { traces } = response;
  // The engines threeWay will find usable: a trace and no error.
  const usable = ENGINE_NAMES.filter((e) => traces[e] !== undefined && response.errors?.[e] === undefined);
  const aligned = align === 'label' ? alignByLabel(usable.map((e) => traces[e]!)) : undefined;
  const rowsOf = (e: EngineName) => aligned!.rows[usable.indexOf(e)]!;
  const vote = threeWay<TraceCompareResult>(
    (e) => (traces[e] === undefined ? undefined : traces[e].emulation?.applied === false ? 'unemulated' : 'usable'),
    response.errors,
    (x, y) =>
      aligned ? compareAligned(traces[x]!, traces[y]!, aligned.labels, rowsOf(x), rowsOf(y)) : compareTraces(traces[x]!, traces[y]!),
    (result) => result.verdict === 'pass',
  );
  const records = voteItems(
    vote,
    (result) => result.failures.flatMap((f) => ('seq' in f ? [{ at: f.seq, kind: f.kind }] : [])),
    (result) => result.verdict !== 'count_mismatch',
    TRACE_FAILURE_KINDS,
  ).map(({ at, outlier, kinds }) => ({
    seq: at,
    labels: aligned ? [aligned.labels[at]!] : [...new Set(vote.usable.flatMap((e) => traces[e]!.records[at]?.label ?? []))].sort(),
    outlier,
    kinds,
  }));
  const { verdict, outlier, majority, engines } = vote;
  return { verdict, outlier, majority, engines, pairs: Object.fromEntries(vote.pairs) as TraceVoteResult['pairs'], records };
}
