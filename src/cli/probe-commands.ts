// `browser-oracle probe`: runs the hand-written probes (probes.ts) through every engine of an
// oracle in this process and votes each trace three ways. One JSON line per probe, or a table
// with --pretty. The verdicts are findings, not failures: the exit status is 0 whenever every
// probe was answered.
import type { Command } from 'commander';
import { ENGINE_NAMES, type ProfileName } from '../protocol/schema.js';
import type { OracleOptions } from '../coordinator/oracle-service.js';
import type { TraceResponse } from '../protocol/trace-schema.js';
import { voteTraces } from '../comparator/trace-vote.js';
import { PROBES, type TraceProbe } from './probes.js';
import { Oracle, defaultOptions } from '../api/oracle.js';
import { addEngineOptions, launchOptionsOf } from './engine-options.js';

/** What one probe line reports. */
interface ProbeLine {
  probe: string;
  profile: ProfileName;
  verdict: string;
  outlier: string | null;
  majority: string[];
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

export function registerProbeCommands(program: Command): void {
  const command = program
    .command('probe')
    .summary('run the hand-written trace probes through every engine and vote on each')
    .description(
      'Starts an oracle, runs the trace probes (OfflineAudioContext rendering, canvas getImageData readback, DOM event ' +
        'bubble order, promise/microtask settlement order, the URL.prototype shape, fake-camera track settings, and one ' +
        'per family of device emulation: sensors, pressure, geolocation, locale and time zone, screen orientation, ' +
        'authenticator, Bluetooth) through every engine, and votes each: unanimous, outlier, split or insufficient. The ' +
        'fake-camera probe needs --profile=media; the authenticator and Bluetooth probes run only under --profile=devices.',
    )
    .option('--pretty', 'print a table instead of JSON lines');
  // One worker: a few small cases.
  const defaults = { ...defaultOptions(), workers: 1 };
  addEngineOptions(command, defaults);
  command.action(async (opts: { pretty?: boolean }) => {
    const lines = await runProbes(launchOptionsOf(command, defaults));
    process.stdout.write(opts.pretty ? table(lines) : lines.map((l) => JSON.stringify(l) + '\n').join(''));
  });
}

async function runProbes(options: OracleOptions): Promise<ProbeLine[]> {
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

function table(lines: ProbeLine[]): string {
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
