// `export`: a journal's findings as tests in another suite's own format (src/campaign/export,
// docs/results.md): a WPT check-layout test, Taffy's XML test, Yoga's fixture and generated test.
// Every file is made before any is written, and each is written whole. Exit status: 0 written
// (findings that cannot be written are named on stderr); 2 bad usage, or a --case or --bucket
// none of whose cases can be written.
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { EXPORT_FORMATS, exportFindings, writeFiles, type ExportFormat } from '../campaign/export/export.js';
import { journalFault } from '../campaign/journal/journal-schema.js';
import { Journal } from '../campaign/journal/journal.js';
import { log } from '../system/log.js';
import { visible, visibleToken } from '../system/visible-text.js';
import { printWhole } from '../system/stdout.js';
import { exitOnUsageError, usage, UsageError } from './usage.js';

interface ExportFlags {
  db: string;
  format: ExportFormat;
  out: string;
  case?: string;
  bucket?: string;
}

export function registerExportCommand(program: Command): void {
  const command = program
    .command('export')
    .summary("write a journal's findings as tests in another suite's format")
    .description(
      "Writes findings (each bucket's first case, or the one --case or --bucket names; the reduced case where `reduce` " +
        "stored one) as tests of another suite, with expectations from the vote's majority, never one engine: " +
        'wpt, a web-platform-tests check-layout test (data-expected-* on each element, checked by ' +
        "/resources/check-layout-th.js) that passes in the majority's engines and fails in the outlier; taffy, Taffy's " +
        'XML test (tests/xml); yoga, entries of a Yoga gentest fixture and its generated JavaScript test. Outlier and ' +
        'split cases are marked, with the browser builds. The paths written go to stdout. docs/results.md has the details.',
    )
    .requiredOption('--db <file>', 'the campaign journal')
    .addOption(new Option('--format <format>', 'the suite to write for').choices(EXPORT_FORMATS).makeOptionMandatory())
    .requiredOption('--out <dir>', 'the folder to write into (created when missing)')
    .addOption(new Option('--case <id>', 'export this case (every case of this id)').conflicts('bucket'))
    .option('--bucket <signature>', "export this bucket's first case (an engines' or the candidate's bucket)")
    .addHelpText(
      'after',
      '\nExit status: 0 written (cases that cannot be written are named on stderr); 2 bad usage, a --case or --bucket ' +
        'that matches nothing, or none of whose cases can be written.',
    );
  command.action(async (flags: ExportFlags) => {
    process.exitCode = await usage(command, async () => {
      if (resolve(flags.out) === resolve(flags.db)) throw new UsageError('--out names the journal itself; name a folder');
      const journal = Journal.open(flags.db, { readonly: true });
      let exported: Awaited<ReturnType<typeof exportFindings>>;
      try {
        const selection =
          flags.case !== undefined ? { case: flags.case } : flags.bucket !== undefined ? { bucket: flags.bucket } : 'findings';
        exported = await exportFindings(journal, flags.format, selection);
      } catch (error) {
        throw journalFault(error, `--db ${flags.db}`);
      } finally {
        journal.close();
      }
      const named = flags.case !== undefined ? `--case ${flags.case}` : flags.bucket !== undefined ? `--bucket ${flags.bucket}` : null;
      if (named && !exported.files.length) {
        const why = exported.refused.map((r) => r.why).join('; ');
        throw new UsageError(`${visible(named)}: not written as a ${flags.format} test: ${visible(why)}`);
      }
      for (const r of exported.refused) log.info(`export: ${visibleToken(r.id)} not written: ${visible(r.why)}`);
      const paths = writeFiles(flags.out, exported.files);
      await printWhole(paths.map((p) => `${p}\n`).join(''));
      log.info(`export: ${exported.written.length} case(s) in ${paths.length} file(s), ${exported.refused.length} not written`);
      return 0;
    });
  });
  exitOnUsageError(command);
}
