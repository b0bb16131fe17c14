// The human summaries behind every --pretty: comparisons, votes (geometry, reflection, trace)
// and candidate judgements. JSON output carries everything; these keep the first lines of each list.
import type { CompareResult, Failure } from '../../comparator/compare.js';
import type { CandidateResult } from '../../comparator/candidate.js';
import { describeObservation, type ReflectVoteResult } from '../../comparator/reflect-vote.js';
import type { TraceFailure } from '../../comparator/trace-compare.js';
import type { TraceVoteResult } from '../../comparator/trace-vote.js';
import type { EngineDumps } from '../../comparator/vote.js';
import { ENGINE_NAMES } from '../../protocol/common.js';
import type { VoteResult } from '../../protocol/vote-schema.js';

/** Failures and mismatches listed per comparison; the JSON has them all. */
const PRETTY_LIMIT = 20;

const num = (n: number) => String(Number(n.toFixed(4)));
const delta = (n: number) => (n > 0 ? '+' : '') + num(n);
/** What --pretty needs of a dump: its tags, in node order. */
type Tagged = { nodes: readonly { tag: string }[] };

const tagOf = (d: Tagged, index: number) => d.nodes[index]!.tag;

function describeFailure(f: Failure): string {
  switch (f.kind) {
    case 'size':
      return `size Δw ${delta(f.dw)} Δh ${delta(f.dh)}`;
    case 'fragment':
      return `fragment ${f.fragment} Δw ${delta(f.dw)} Δh ${delta(f.dh)}`;
    case 'fragment_count':
      return `fragment count ${f.a} → ${f.b}`;
    case 'offset':
      return `offset Δx ${delta(f.dx)} Δy ${delta(f.dy)}`;
  }
}

/** The first PRETTY_LIMIT lines, then how many were left out. */
function capped(lines: string[]): string[] {
  return lines.length > PRETTY_LIMIT ? [...lines.slice(0, PRETTY_LIMIT), `… and ${lines.length - PRETTY_LIMIT} more`] : lines;
}

/** `a` names the tags: nodes are listed only when both dumps have the same shape. */
export function prettyCompare(title: string, result: CompareResult, a: Tagged): string[] {
  const { summary: s, divergence } = result;
  const lines = [`${title}: ${result.verdict}`];
  if (result.verdict === 'discarded') lines.push('  a document overflowed its viewport, so nothing was compared');
  if (divergence) {
    const shape = (n: typeof divergence.a) => (n ? `${n.tag} (depth ${n.depth}, parent ${n.parent})` : 'the end of the document');
    lines.push(`  DOM shapes diverge at node ${divergence.index}: ${shape(divergence.a)} vs ${shape(divergence.b)}`);
  }
  if (s.nodes) {
    lines.push(
      `  ${s.nodes} nodes, ${s.compared} checks, ${s.failed} failed; |Δ| sum ${num(s.sum_abs_delta)} px, max ${num(s.max_abs_delta)} px`,
    );
  }
  lines.push(...capped(result.failures.map((f) => `  node ${f.index} ${tagOf(a, f.index)}: ${describeFailure(f)}`)));
  lines.push(
    ...capped(
      result.style_mismatches.map(
        (m) => `  style of node ${m.index} ${tagOf(a, m.index)}: ${m.property} ${JSON.stringify(m.a)} vs ${JSON.stringify(m.b)}`,
      ),
    ),
  );
  return lines;
}

function prettyEngines(statuses: VoteResult['engines']): string {
  return ENGINE_NAMES.map((e) => {
    const s = statuses[e];
    return s.status === 'error' ? `${e} error (${s.error})` : `${e} ${s.status}`;
  }).join(', ');
}

export function prettyVote(result: VoteResult): string[] {
  const lines = [`vote: ${result.verdict}${result.outlier ? ` (${result.outlier})` : ''}`, `  ${prettyEngines(result.engines)}`];
  for (const [pair, { verdict, summary: s, divergence }] of Object.entries(result.pairs)) {
    const detail = divergence
      ? `DOM shapes diverge at node ${divergence.index}`
      : `${s.failed} of ${s.compared} checks failed, max |Δ| ${num(s.max_abs_delta)} px`;
    lines.push(`  ${pair}: ${verdict} (${detail})`);
  }
  lines.push(
    ...capped(result.nodes.map((n) => `  node ${n.index} ${n.tag}: ${n.kinds.join(', ')}${n.outlier ? `, outlier ${n.outlier}` : ''}`)),
  );
  return lines;
}

export function prettyReflectVote(result: ReflectVoteResult): string[] {
  const lines = [`vote: ${result.verdict}${result.outlier ? ` (${result.outlier})` : ''}`, `  ${prettyEngines(result.engines)}`];
  return [...lines, ...capped(result.observations.map((o) => `  ${describeObservation(o)}`))];
}

export function prettyCandidate(name: string, result: CandidateResult, engines: EngineDumps<Tagged>): string[] {
  const against = result.majority.length ? `the majority (${result.majority.join(', ')})` : 'no majority';
  const lines = [
    `candidate ${name} against ${against}: ${result.verdict}`,
    `  engines' vote: ${result.vote}; ${prettyEngines(result.engines)}`,
  ];
  for (const e of ENGINE_NAMES) {
    const compared = result.compares[e];
    if (compared) lines.push(...prettyCompare(`${e} → ${name}`, compared, engines.dumps[e]!).map((line) => `  ${line}`));
  }
  return lines;
}

function describeTraceFailure(f: TraceFailure): string {
  switch (f.kind) {
    case 'count_mismatch':
    case 'timed_out':
    case 'secure_context':
      return `${f.kind}: ${JSON.stringify(f.a)} vs ${JSON.stringify(f.b)}`;
    case 'missing':
      return `record ${f.seq} ${JSON.stringify(f.label)}: only in ${f.a ? 'a' : 'b'}`;
    case 'record':
      return `record ${f.seq} ${f.field}: ${JSON.stringify(f.a)} vs ${JSON.stringify(f.b)}`;
    case 'value':
      return `record ${f.seq} ${f.path}: ${JSON.stringify(f.a)} vs ${JSON.stringify(f.b)}`.slice(0, 200);
    case 'buffer':
      return `record ${f.seq} ${f.path}: ${f.failed} sample(s) outside tolerance, max |Δ| ${f.max_abs_delta}`;
  }
}

export function prettyTraceVote(result: TraceVoteResult): string[] {
  const lines = [`trace vote: ${result.verdict}${result.outlier ? ` (${result.outlier})` : ''}`, `  ${prettyEngines(result.engines)}`];
  for (const [pair, { verdict, failures }] of Object.entries(result.pairs)) {
    lines.push(`  ${pair}: ${verdict}`, ...capped(failures.map((f) => `    ${describeTraceFailure(f)}`)));
  }
  return lines;
}
