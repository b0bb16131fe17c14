// `report`'s command line: the journal, the HTML file to write and the engines that picture it; the
// report itself is src/tools/report/session.ts. Exit status: 0 written, 1 an engine did not
// launch, 2 bad usage.
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { Journal } from '../campaign/journal/journal.js';
import { FONT_SET_NAMES } from '../protocol/font-sets.js';
import { defaultOptions } from '../api/oracle.js';
import { writeReport } from '../tools/report/session.js';
import { addEngineOptions, launchOptionsOf } from './engine-options.js';
import { exitOnUsageError, usage, UsageError } from './usage.js';

export function registerReportCommand(program: Command): void {
  const defaults = defaultOptions();
  const command = addEngineOptions(
    program
      .command('report')
      .summary("write a campaign journal's findings as one self-contained HTML page")
      .description(
        "Writes one static HTML file: the journal's summary and bucket table, then for each bucket its example case " +
          "(reduced, when `reduce` stored a reduction) with the three engines' screenshots side by side, each engine's " +
          'boxes drawn over its screenshot from its dump, the failing node highlighted with its deltas, and the source ' +
          'with a button that copies the request. Images and data are inline; the page fetches nothing. The screenshots ' +
          'are taken now, by the screenshot op on an engine farm in this process, with the fonts of the last run unless ' +
          '--fonts says otherwise. The journal records the report, and `summary` prints where it is.',
      )
      .usage('--db FILE -o FILE [options]'),
    defaults,
  )
    .requiredOption('--db <file>', 'the campaign journal')
    .requiredOption('-o, --output <file>', 'the HTML file to write')
    .addHelpText('after', '\nExit status: 0 written; 1 an engine did not launch; 2 bad usage.');
  command.action(async (flags: { db: string; output: string }) => {
    process.exitCode = await usage(command, async () => {
      const journal = Journal.open(flags.db, { mustExist: true });
      try {
        const options = launchOptionsOf(command, defaults);
        const fonts = journal.runs().at(-1)?.fonts;
        const recorded = FONT_SET_NAMES.find((name) => name === fonts);
        if (recorded && command.getOptionValueSource('fonts') !== 'cli') options.fonts = recorded;
        const path = resolve(flags.output);
        if (path === resolve(flags.db)) throw new UsageError('-o names the journal itself; name the HTML file to write');
        return await writeReport(journal, path, options);
      } finally {
        journal.close();
      }
    });
  });
  exitOnUsageError(command);
}
