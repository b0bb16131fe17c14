// The human summary of a trace vote (`vote --pretty` on a trace response).
import { ENGINE_NAMES } from '../protocol/schema.js';
import type { TraceFailure } from '../comparator/trace-compare.js';
import type { TraceVoteResult } from '../comparator/trace-vote.js';

const PRETTY_LIMIT = 20;

function describe(f: TraceFailure): string {
  switch (f.kind) {
    case 'count_mismatch':
    case 'timed_out':
    case 'secure_context':
      return `${f.kind}: ${JSON.stringify(f.a)} vs ${JSON.stringify(f.b)}`;
    case 'record':
      return `record ${f.seq} ${f.field}: ${JSON.stringify(f.a)} vs ${JSON.stringify(f.b)}`;
    case 'value':
      return `record ${f.seq} ${f.path}: ${JSON.stringify(f.a)} vs ${JSON.stringify(f.b)}`.slice(0, 200);
    case 'buffer':
      return `record ${f.seq} ${f.path}: ${f.failed} sample(s) outside tolerance, max |Δ| ${f.max_abs_delta}`;
  }
}

export function prettyTraceVote(result: TraceVoteResult): string[] {
  const engines = ENGINE_NAMES.map((e) => {
    const s = result.engines[e];
    return s.status === 'error' ? `${e} error (${s.error})` : `${e} ${s.status}`;
  });
  const lines = [`trace vote: ${result.verdict}${result.outlier ? ` (${result.outlier})` : ''}`, `  ${engines.join(', ')}`];
  for (const [pair, { verdict, failures }] of Object.entries(result.pairs)) {
    lines.push(`  ${pair}: ${verdict}`, ...failures.slice(0, PRETTY_LIMIT).map((f) => `    ${describe(f)}`));
    if (failures.length > PRETTY_LIMIT) lines.push(`    … and ${failures.length - PRETTY_LIMIT} more`);
  }
  return lines;
}
