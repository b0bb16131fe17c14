// The options of every command that runs the engines (the stdio oracle, campaigns, reduction,
// reports): one definition, with the library's defaults (src/api/oracle.ts defaultOptions).
import { type Command, InvalidArgumentError, Option } from 'commander';
import { defaultOptions } from '../api/oracle.js';
import type { OracleOptions } from '../coordinator/oracle-service.js';
import { ENGINE_NAMES, PROFILE_NAMES, type EngineName } from '../protocol/schema.js';

export const positiveInt = (name: string) => (value: string) => {
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

const MIB = 1024 * 1024;

/** Adds the engine farm's options to `command`; its action then receives them as OracleOptions. */
export function addEngineOptions(command: Command): Command {
  const d = defaultOptions();
  return command
    .addOption(new Option('--engines <list>', 'engines to launch').default(d.engines, d.engines.join(',')).argParser(engineList))
    .addOption(new Option('--profile <name>', 'launch profile for every engine').choices(PROFILE_NAMES).default(d.profile))
    .addOption(
      // One worker per two cores: measured on 2 cores, one worker with two pages per engine beats
      // two workers: the browsers, not the worker threads, use the CPU.
      new Option('--workers <n>', 'worker threads, each with its own browser per engine')
        .default(d.workers)
        .argParser(positiveInt('--workers')),
    )
    .addOption(new Option('--pages <n>', 'pages per engine in each worker').default(d.pages).argParser(positiveInt('--pages')))
    .addOption(
      new Option('--max-batch <n>', 'most script-free cases written and walked in one driver call')
        .default(d.maxBatch)
        .argParser(positiveInt('--max-batch')),
    )
    .addOption(
      new Option('--timeout-ms <ms>', 'per-case, per-engine time limit').default(d.timeoutMs).argParser(positiveInt('--timeout-ms')),
    )
    .addOption(
      new Option('--max-nodes <n>', 'most elements in a dump; a larger document is answered dump_too_large')
        .default(d.maxNodes)
        .argParser(positiveInt('--max-nodes')),
    )
    .addOption(
      new Option('--max-answer-bytes <n>', "most bytes of one answer's dumps (shared by its engines)")
        .default(d.maxAnswerBytes, `${d.maxAnswerBytes / MIB} MiB`)
        .argParser(positiveInt('--max-answer-bytes')),
    )
    .addOption(
      new Option('--browsers <which>', "system packages, Playwright's own builds, or auto (bundled when installed)")
        .choices(['auto', 'system', 'bundled'])
        .default(d.browsers),
    )
    .addOption(new Option('--display <name>', 'X display for WebKitGTK (default: a private Xvfb)'))
    .addOption(
      new Option('--allow-missing-engines', 'serve with the engines that launched when some did not (default: exit 1)').default(false),
    );
}

/** The options commander parsed, as the oracle takes them. */
export const oracleOptions = (opts: OracleOptions & { display?: string }): OracleOptions => ({ ...opts, display: opts.display });
