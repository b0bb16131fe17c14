// `report`: one self-contained HTML page of a campaign journal (src/report), with each bucket's
// example pictured by the screenshot op on an engine farm started in this process. The journal
// records the report written, so `summary` and `campaign` can say where it is. Exit status: 0
// written, 1 an engine did not launch, 2 bad usage.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { Journal } from '../campaign/journal/journal.js';
import { OracleService, type OracleOptions } from '../coordinator/oracle-service.js';
import { FONT_SET_NAMES } from '../protocol/font-sets.js';
import { renderReport } from '../report/render.js';
import { reportInput, type Shots } from '../report/from-journal.js';
import { log } from '../system/log.js';
import { defaultOptions } from '../api/oracle.js';
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

async function writeReport(journal: Journal, path: string, options: OracleOptions): Promise<number> {
  const buckets = journal.summary().buckets.length;
  // Nothing to picture: no engine needs to start.
  const oracle = buckets ? await OracleService.start(options) : undefined;
  try {
    const missing = oracle ? options.engines.filter((e) => !oracle.engines.includes(e)) : [];
    if (missing.length) {
      log.error(`report: ${missing.join(', ')} did not launch (the reason is above); nothing was written`);
      return 1;
    }
    log.info(`report: ${buckets} bucket(s); taking their examples' screenshots`);
    let shots = 0;
    const input = await reportInput(
      journal,
      async (request) => {
        // In process, the answer's images are still bytes: base64 is only for a line on stdout.
        const answer = (await oracle!.run('screenshot', request)) as unknown as Shots;
        shots += Object.keys(answer.images).length;
        return answer;
      },
      new Date().toISOString(),
      // A screenshot is never batched: one per page, and as many again waiting.
      oracle ? 2 * options.workers * options.pages : 1,
    );
    writeFileSync(path, renderReport(input));
    journal.addReport(path, buckets);
    log.info(`report: wrote ${path} (${buckets} bucket(s), ${shots} screenshot(s))`);
    process.stdout.write(`${path}\n`);
    return 0;
  } finally {
    await oracle?.close();
  }
}
