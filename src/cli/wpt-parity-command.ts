// `wpt-parity`: the layout route's authored verdicts against WPT's own harness, per (file, engine),
// from two campaign journals (src/tools/parity, docs/wpt.md "Measuring parity with the harness").
import { InvalidArgumentError, Option, type Command } from 'commander';
import { runParity } from '../tools/parity/session.js';
import { exitOnUsageError, usage } from './usage.js';

/** A share between 0 and 1. */
const share = (value: string): number => {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1)
    throw new InvalidArgumentError('--min must be a number from 0 to 1, such as 0.95');
  return n;
};

export function registerWptParityCommand(program: Command): void {
  const command = program
    .command('wpt-parity')
    .summary("compare check-layout tests' authored verdicts with WPT's own harness, per file and engine")
    .description(
      "Reads two campaign journals of the same check-layout tests: one of `wpt-import --layout` (each engine's " +
        "authored assertions) and one of `wpt-import` without it (the trace route: WPT's testharness.js and " +
        'check-layout-th.js in each engine, one subtest per element). A file pairs with the trace of the same id ' +
        '(its path in the checkout). Per engine, the harness passes when its status is OK with at least one subtest, ' +
        'all PASS; the authored verdict passes when no assertion failed and at least one held; the two agree when ' +
        'both pass or both do not. Prints the pairs, the agreeing ones and their share (overall, per directory, per ' +
        "engine), the pairs skipped by reason (an engine's error or no result on either side, a refused case, no " +
        "trace), and each disagreement with the harness's failing subtests, the failing assertions (element, " +
        'attribute, expected, actual) and a cause tag (harness-error, out-of-scope, multi-call, before-load, other). ' +
        'Both journals must come from one oracle configuration: the same engines, builds and fonts in their runs. ' +
        'docs/wpt.md, "Measuring parity with the harness", has the details.',
    )
    .usage('--layout FILE --harness FILE [--json] [--min SHARE]')
    .requiredOption('--layout <file>', 'the journal of the layout route (wpt-import --layout)')
    .requiredOption('--harness <file>', 'the journal of the trace route (wpt-import), the same files')
    .option('--json', 'print the result as one JSON object: every figure and every disagreement')
    .addOption(new Option('--min <share>', 'exit 1 when the agreeing share of the pairs is below this (0 to 1)').argParser(share))
    .addHelpText(
      'after',
      '\nExit status: 0; 1 below --min (or no pair at all with --min); 2 bad usage: a file that is missing or not a ' +
        'journal, or two journals of different configurations (the difference is named).',
    );
  command.action(async (flags: { layout: string; harness: string; json?: boolean; min?: number }) => {
    process.exitCode = await usage(command, () =>
      runParity({ layout: flags.layout, harness: flags.harness, json: flags.json === true, min: flags.min }),
    );
  });
  exitOnUsageError(command);
}
