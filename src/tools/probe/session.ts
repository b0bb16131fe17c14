// A `probe` session: the hand-written probes (probes.ts) through every engine of an oracle in this
// process, each trace voted three ways, one line per probe: JSON, or a table (--pretty).
import { voteTraces, type TraceVoteResult } from '../../comparator/trace-vote.js';
import type { OracleOptions } from '../../coordinator/oracle-service.js';
import { Oracle } from '../../api/oracle.js';
import { ENGINE_NAMES, type ProfileName } from '../../protocol/schema.js';
import type { TraceResponse } from '../../protocol/trace-schema.js';
import { PROBES, type TraceProbe } from './probes.js';

/** What one probe line reports: its vote's verdict, outlier and majority, and the rest below. */
export interface ProbeLine extends Pick<TraceVoteResult, 'verdict' | 'outlier' | 'majority'> {
  probe: string;
  profile: ProfileName;
  /** Per pair of engines that answered: its compare verdict. */
  pairs: Record<string, string>;
  /** Records on which some pair disagrees. */
  disagreeing_records: number[];
  errors: Record<string, string>;
  /** An emulated probe: the engines whose driver did not apply its emulation (shown, never compared). */
  unemulated?: string[];
  /** Why this result says little: the probe needs a profile this run does not have. */
  note?: string;
}

/** Runs every probe the profile allows on a fresh oracle, and gives one line per probe, in order. */
export async function runProbes(options: OracleOptions): Promise<ProbeLine[]> {
  const { profile } = options;
  const oracle = await Oracle.launch(options);
  try {
    const runs = PROBES.map((probe) => probe.needs !== 'devices' || profile === 'devices');
    const responses = await Promise.all(
      PROBES.map((probe, i) =>
        runs[i]
          ? oracle.trace({
              script: probe.script,
              ...(probe.html === undefined ? {} : { html: probe.html }),
              ...(probe.emulate === undefined ? {} : { emulate: probe.emulate }),
            })
          : null,
      ),
    );
    return PROBES.map((probe, i) => probeLine(probe, profile, responses[i] ?? { traces: {} }));
  } finally {
    await oracle.close();
  }
}

function probeLine(probe: TraceProbe, profile: ProfileName, response: Pick<TraceResponse, 'traces' | 'errors'>): ProbeLine {
  const vote = voteTraces(response);
  const line: ProbeLine = {
    probe: probe.name,
    profile,
    verdict: vote.verdict,
    outlier: vote.outlier,
    majority: vote.majority,
    pairs: Object.fromEntries(Object.entries(vote.pairs).map(([pair, { verdict }]) => [pair, verdict])),
    disagreeing_records: vote.records.map((r) => r.seq),
    errors: { ...response.errors },
  };
  if (probe.emulate) line.unemulated = ENGINE_NAMES.filter((e) => vote.engines[e].status === 'unemulated');
  if (probe.needs && probe.needs !== profile)
    line.note =
      probe.needs === 'devices'
        ? `needs --profile=devices; not run under ${profile}`
        : `needs --profile=${probe.needs}; under ${profile} it records the missing setup`;
  return line;
}

/** The lines as a table, one row per probe, for --pretty. */
export function probeTable(lines: ProbeLine[]): string {
  const rows = [
    ['probe', 'verdict', 'outlier', ...ENGINE_NAMES.map((e) => `${e} error`), 'note'],
    ...lines.map((l) => [l.probe, l.verdict, l.outlier ?? '-', ...ENGINE_NAMES.map((e) => l.errors[e] ?? '-'), l.note ?? '']),
  ];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return (
    rows
      .map((r) =>
        r
          .map((cell, c) => cell.padEnd(widths[c]!))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}
