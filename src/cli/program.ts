// The `browser-oracle` command line: with no command, the stdio oracle; the commands judge its
// answers (compare, vote) and run the built-in reflection corpus and probes. Built by a function,
// so a test or an embedding program gets a fresh program without parsing anything at import.
import { availableParallelism } from 'node:os';
import { Command, InvalidArgumentError, Option } from 'commander';
import { ENGINE_NAMES, PROFILE_NAMES, type EngineName } from '../protocol/schema.js';
import { serve, type StdioOptions } from '../coordinator/stdio.js';
import { registerCompareCommands } from './compare-commands.js';
import { registerProbeCommands } from './probe-commands.js';
import { registerReflectCommands } from './reflect-commands.js';

const positiveInt = (name: string) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`${name} must be a whole number ≥ 1`);
  return n;
};

const engineList = (value: string): EngineName[] => {
  const names = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !(ENGINE_NAMES as readonly string[]).includes(n));
  if (unknown.length || !names.length) {
    throw new InvalidArgumentError(`expected a comma-separated list of ${ENGINE_NAMES.join(', ')}; got "${value}"`);
  }
  return [...new Set(names)] as EngineName[];
};

export function buildProgram(): Command {
  const program = new Command()
    .name('browser-oracle')
    .description(
      'Ground-truth layout oracle. With no command: reads one JSON request per line on stdin and answers ' +
        'one JSON line per request on stdout, in completion order, each with its id; diagnostics go to stderr. ' +
        'Protocol: docs/protocol.md; JSON Schema: schema/protocol.schema.json.',
    )
    .addOption(new Option('--engines <list>', 'engines to launch').default([...ENGINE_NAMES], ENGINE_NAMES.join(',')).argParser(engineList))
    .addOption(new Option('--profile <name>', 'launch profile for every engine').choices(PROFILE_NAMES).default('default'))
    .addOption(
      // One worker per two cores: measured on 2 cores, one worker with two pages per engine
      // (19.8 cases/s) beats two workers (17.0): the browsers, not the workers, use the CPU.
      new Option('--workers <n>', 'worker threads, each with its own browser per engine')
        .default(Math.max(1, Math.floor(availableParallelism() / 2)))
        .argParser(positiveInt('--workers')),
    )
    .addOption(
      new Option('--pages <n>', 'pages per engine in each worker (cases each worker runs at once)')
        .default(2)
        .argParser(positiveInt('--pages')),
    )
    .addOption(new Option('--timeout-ms <ms>', 'per-case, per-engine time limit').default(30_000).argParser(positiveInt('--timeout-ms')))
    .addOption(
      new Option('--max-line-bytes <n>', 'longest request line accepted')
        .default(64 * 1024 * 1024, '64 MiB')
        .argParser(positiveInt('--max-line-bytes')),
    )
    .addOption(
      new Option('--browsers <which>', "system packages, Playwright's own builds, or auto (bundled when installed)")
        .choices(['auto', 'system', 'bundled'])
        .default('auto'),
    )
    .addOption(new Option('--display <name>', 'X display for WebKitGTK (default: start a private Xvfb)'))
    .action(async (opts: Omit<StdioOptions, 'display'> & { display?: string }) => {
      process.exitCode = await serve({ ...opts, display: opts.display });
    });
  // The stdio oracle's options belong to it alone: `probe --profile=media` is the probe's.
  program.enablePositionalOptions();
  registerCompareCommands(program);
  registerReflectCommands(program);
  registerProbeCommands(program);
  return program;
}
