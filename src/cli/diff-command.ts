// `diff`: two campaign journals compared case by case (src/campaign/diff, docs/results.md). Both are
// read whole, read-only, before anything is printed. Exit status: 0, or 1 when --fail-on finds
// what it names; 2 bad usage (a file that is not a journal of this schema, missing, cut short).
import { Option, type Command } from 'commander';
import { failsOn } from '../campaign/diff/diff.js';
import { diffJournals } from '../campaign/diff/read.js';
import { renderDiff } from '../campaign/diff/render.js';
import { log } from '../system/log.js';
import { printWhole } from '../system/stdout.js';
import { exitOnUsageError, usage } from './usage.js';

const FAIL_ON = ['new-failures', 'changes'] as const;

export function registerDiffCommand(program: Command): void {
  const command = program
    .command('diff')
    .summary('compare two campaign journals case by case')
    .description(
      'Pairs the cases of two journals by id (cases of one id: same content first, then in recording order) and lists ' +
        "every case whose vote (verdict or outlier), bucket signature, or candidate's verdict or signature changed, and " +
        'the cases only one journal has: newly_failing (the candidate went from pass to fail or parse_divergence), ' +
        'newly_passing (the reverse), added, removed, changed. A vote that flipped between different browser builds ' +
        "names them. Each journal's candidate is its latest one, as in `summary`. docs/results.md has the details.",
    )
    .argument('<base>', 'the journal to compare against (e.g. the main branch’s)')
    .argument('<head>', 'the journal of the run under review')
    .option('--json', 'print {"base", "head", "cases": [{"id", "change", "base", "head", "builds"?}], "counts"} instead of a table')
    .addOption(new Option('--fail-on <what>', 'exit 1 when there are new failures, or any change').choices(FAIL_ON))
    .addHelpText(
      'after',
      '\nExit status: 0; 1 with --fail-on when the diff holds what it names; 2 bad usage (a file that is missing, ' +
        'not a journal, of another journal schema, or cut short).',
    );
  command.action(async (base: string, head: string, flags: { json?: boolean; failOn?: (typeof FAIL_ON)[number] }) => {
    process.exitCode = await usage(command, async () => {
      const result = diffJournals(base, head);
      await printWhole(flags.json ? `${JSON.stringify(result)}\n` : renderDiff(result));
      if (flags.failOn && failsOn(result, flags.failOn)) {
        const what = flags.failOn === 'new-failures' ? `${result.counts.newly_failing} newly failing` : `${result.cases.length} changed`;
        log.info(`diff: ${what} case(s) (--fail-on ${flags.failOn})`);
        return 1;
      }
      return 0;
    });
  });
  exitOnUsageError(command);
}
