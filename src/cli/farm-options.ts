// The engine farm's options, shared by every command that starts one (the stdio oracle and
// `campaign`), so both take the same flags with the same defaults and checks.
import { InvalidArgumentError, Option, type Command } from 'commander';
import { ENGINE_NAMES, PROFILE_NAMES, type EngineName } from '../protocol/schema.js';
import { FONT_SET_NAMES } from '../protocol/font-sets.js';
import type { OracleOptions } from '../coordinator/oracle-service.js';
import { defaultOptions } from '../api/oracle.js';

/** A commander parser for a whole number ≥ `min`, naming the flag in its error. */
export const wholeNumber =
  (name: string, min = 1) =>
  (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || n < min) throw new InvalidArgumentError(`${name} must be a whole number ≥ ${min}`);
    if (!Number.isSafeInteger(n)) throw new InvalidArgumentError(`${name} must be at most ${Number.MAX_SAFE_INTEGER}`);
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

/** The farm options as commander hands them over (`display` absent when not given). */
export type FarmFlags = Omit<OracleOptions, 'display'> & { display?: string };

/** Adds the farm's flags to `command`, with the library's defaults (src/api/oracle.ts). */
export function addFarmOptions(command: Command): Command {
  const defaults = defaultOptions();
  return command
    .addOption(new Option('--engines <list>', 'engines to launch').default(defaults.engines, ENGINE_NAMES.join(',')).argParser(engineList))
    .addOption(new Option('--profile <name>', 'launch profile for every engine').choices(PROFILE_NAMES).default(defaults.profile))
    .addOption(
      new Option('--fonts <set>', 'fonts every engine sees: Liberation, or the generated one-em-square font (docs/campaign.md)')
        .choices(FONT_SET_NAMES)
        .default(defaults.fonts),
    )
    .addOption(
      new Option('--workers <n>', 'worker threads, each with its own browser per engine')
        .default(defaults.workers)
        .argParser(wholeNumber('--workers')),
    )
    .addOption(
      new Option('--pages <n>', 'pages per engine in each worker (cases each worker runs at once)')
        .default(defaults.pages)
        .argParser(wholeNumber('--pages')),
    )
    .addOption(
      new Option('--timeout-ms <ms>', 'per-case, per-engine time limit').default(defaults.timeoutMs).argParser(wholeNumber('--timeout-ms')),
    )
    .addOption(
      new Option('--browsers <which>', "system packages, Playwright's own builds, or auto (bundled when installed)")
        .choices(['auto', 'system', 'bundled'])
        .default(defaults.browsers),
    )
    .addOption(new Option('--display <name>', 'X display for WebKitGTK (default: start a private Xvfb)'));
}

/** The oracle's options from the parsed flags. */
export function farmOptions(flags: FarmFlags): OracleOptions {
  const { engines, profile, fonts, workers, pages, timeoutMs, browsers, display } = flags;
  return { engines, profile, fonts, workers, pages, timeoutMs, browsers, display };
}
