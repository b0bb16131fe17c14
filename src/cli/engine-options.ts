// The options of every command that runs the engines (the stdio oracle, campaigns, reduction,
// reports): one definition, with the library's defaults (src/api/oracle.ts defaultOptions).
import { type Command, Option } from 'commander';
import { defaultOptions } from '../api/oracle.js';
import type { OracleOptions } from '../coordinator/oracle-service.js';
import { FONT_SET_NAMES } from '../protocol/font-sets.js';
import { PROFILE_NAMES } from '../protocol/schema.js';
import { engineList, wholeNumber } from './arguments.js';

const MIB = 1024 * 1024;

/** Adds the engine farm's options to `command`; its action then receives them as OracleOptions. */
export function addEngineOptions(command: Command): Command {
  const d = defaultOptions();
  return command
    .addOption(new Option('--engines <list>', 'engines to launch').default(d.engines, d.engines.join(',')).argParser(engineList))
    .addOption(new Option('--profile <name>', 'launch profile for every engine').choices(PROFILE_NAMES).default(d.profile))
    .addOption(
      new Option('--fonts <set>', 'fonts every engine sees: Liberation, or the generated one-em-square font (docs/campaign.md)')
        .choices(FONT_SET_NAMES)
        .default(d.fonts),
    )
    .addOption(
      // One worker per two cores: measured on 2 cores, one worker with two pages per engine beats
      // two workers: the browsers, not the worker threads, use the CPU.
      new Option('--workers <n>', 'worker threads, each with its own browser per engine')
        .default(d.workers)
        .argParser(wholeNumber('--workers')),
    )
    .addOption(new Option('--pages <n>', 'pages per engine in each worker').default(d.pages).argParser(wholeNumber('--pages')))
    .addOption(
      new Option('--max-batch <n>', 'most script-free cases written and walked in one driver call')
        .default(d.maxBatch)
        .argParser(wholeNumber('--max-batch')),
    )
    .addOption(
      new Option('--timeout-ms <ms>', 'per-case, per-engine time limit').default(d.timeoutMs).argParser(wholeNumber('--timeout-ms')),
    )
    .addOption(
      new Option('--max-nodes <n>', 'most elements in a dump; a larger document is answered dump_too_large')
        .default(d.maxNodes)
        .argParser(wholeNumber('--max-nodes')),
    )
    .addOption(
      new Option('--max-answer-bytes <n>', "most bytes of one answer's dumps (shared by its engines)")
        .default(d.maxAnswerBytes, `${d.maxAnswerBytes / MIB} MiB`)
        .argParser(wholeNumber('--max-answer-bytes')),
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

/** The engine options as commander hands them over (`display` absent when not given). */
export type EngineFlags = Omit<OracleOptions, 'display'> & { display?: string };

/** The oracle's options from the parsed flags, without the command's own. */
export function oracleOptions(flags: EngineFlags): OracleOptions {
  const { engines, profile, fonts, workers, pages, maxBatch, timeoutMs, maxNodes, maxAnswerBytes, browsers, display, allowMissingEngines } =
    flags;
  return { engines, profile, fonts, workers, pages, maxBatch, timeoutMs, maxNodes, maxAnswerBytes, browsers, display, allowMissingEngines };
}
