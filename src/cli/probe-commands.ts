// `browser-oracle probe`: runs the hand-written probes through every engine of an oracle in this
// process and votes each trace three ways (src/tools/probe/session.ts). One JSON line per probe,
// or a table with --pretty. The verdicts are findings, not failures: the exit status is 0
// whenever every probe was answered.
import type { Command } from 'commander';
import { defaultOptions } from '../api/oracle.js';
import { probeTable, runProbes } from '../tools/probe/session.js';
import { addEngineOptions, launchOptionsOf } from './engine-options.js';

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
    process.stdout.write(opts.pretty ? probeTable(lines) : lines.map((l) => JSON.stringify(l) + '\n').join(''));
  });
}
