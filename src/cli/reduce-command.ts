// `reduce`'s command line: the case to reduce, from a campaign's journal (--db --case) or a request
// file, checked before any engine starts, and how the reduction runs; the reduction itself is
// src/tools/reduce/session.ts. A recorded case with a candidate's finding (docs/candidate.md) is
// reduced as that finding unless --browsers-only asks for the engines' own disagreement. Exit
// status: 0 reduced, 1 not reproducible or the engines failed, 2 bad usage.
import { type Command, Option } from 'commander';
import { defaultOptions } from '../api/oracle.js';
import { CORPUS_OPS, listOps } from '../protocol/ops.js';
import { reduceSession, type Source } from '../tools/reduce/session.js';
import { fileSource, recordedSource } from '../tools/reduce/source.js';
import { wholeNumber } from './arguments.js';
import { addEngineOptions, launchOptionsOf } from './engine-options.js';
import { exitOnUsageError, usage, UsageError } from './usage.js';

interface ReduceFlags {
  db?: string;
  case?: string;
  output?: string;
  parallel?: number;
  maxTests: number;
  timeLimit?: number;
  runs: number;
  browsersOnly?: boolean;
  candidate?: string;
  runRecordedCandidate?: boolean;
}

/**
 * Runs of the original and of each passing trial. A nondeterministic case (one whose script
 * draws random numbers, say) that shows its signature in half its runs passes all five with a
 * chance of 1 in 32; a case that shows it every time costs four more runs per step kept.
 */
const DEFAULT_RUNS = 5;

export function registerReduceCommand(program: Command): void {
  const defaults = defaultOptions();
  const command = addEngineOptions(
    program
      .command('reduce')
      .summary('make a disagreement small, keeping its bucket signature')
      .description(
        'Deletes what it can from a case — subtrees and single elements, attributes, CSS rules and declarations, text, ' +
          "statements of its script — while the engines still disagree the same way (the case's bucket signature, as a " +
          'campaign records it). The trials (smaller versions of the case) run on an engine farm in this process, many at once. The case is a ' +
          'recorded one (--db FILE --case ID: the reduced case is stored in the journal beside it, and the case is run ' +
          `with the fonts it was recorded with unless --fonts says otherwise) or a request file (${listOps(CORPUS_OPS, 'or')}, ` +
          'as on stdio). Progress and the sizes before and after go to stderr; the reduced request goes to ' +
          'stdout as one JSON line, or to the file -o names. Ctrl-C stops early with the smallest case found so far. ' +
          'docs/reduce.md has the details.',
      )
      .usage('(--db FILE --case ID | REQUEST.json) [-o FILE] [options]')
      .argument('[request]', 'a request file: one JSON request, as on stdio'),
    defaults,
  )
    .option('--db <file>', 'the campaign journal holding the case')
    .option('--case <id>', 'the id of the recorded case to reduce (with --db)')
    .option(
      '-o, --output <file>',
      'write the reduced case here instead of stdout: its html, or the whole request for a name ending in .json',
    )
    .addOption(
      new Option('--parallel <n>', 'trials on the engines at once (default: 4 × workers × pages)').argParser(wholeNumber('--parallel')),
    )
    .addOption(new Option('--max-tests <n>', 'run at most n trials').default(3000).argParser(wholeNumber('--max-tests')))
    .addOption(new Option('--time-limit <seconds>', 'start no trial after this many seconds').argParser(wholeNumber('--time-limit')))
    .addOption(
      new Option('--runs <n>', 'run the original, and every trial that passes, n times: the signature must hold in each run')
        .default(DEFAULT_RUNS)
        .argParser(wholeNumber('--runs')),
    )
    .option(
      '--browsers-only',
      "with --db, reduce the engines' disagreement even when the case holds a candidate's finding (which is reduced by default)",
    )
    .option(
      '--candidate <command>',
      "with --db, the candidate to start for a candidate's finding: a reference candidate (taffy, yoga) or a command line, " +
        'in place of the one the journal recorded (which is never run unless you say so, see --run-recorded-candidate)',
    )
    .option(
      '--run-recorded-candidate',
      "with --db, start a candidate's finding's candidate with the command the journal recorded. A journal is a file " +
        'anyone can hand over: without this flag (or --candidate), a recorded command line is shown and refused; a ' +
        "reference candidate's name is run as recorded",
    )
    .addHelpText('after', '\nExit status: 0 reduced; 1 the case no longer shows its signature, or an engine did not launch; 2 bad usage.');
  command.action(async (path: string | undefined, flags: ReduceFlags) => {
    process.exitCode = await usage(command, async () => {
      const source = openSource(path, flags);
      try {
        const options = launchOptionsOf(command, defaults);
        // A recorded case runs with the fonts it was recorded with, unless the command line says otherwise.
        if (source.fonts && command.getOptionValueSource('fonts') !== 'cli') options.fonts = source.fonts;
        return await reduceSession(source, flags, options);
      } finally {
        source.journal?.journal.close();
      }
    });
  });
  exitOnUsageError(command);
}

/** The case named on the command line, checked before any engine starts. */
function openSource(path: string | undefined, flags: ReduceFlags): Source {
  if ((path === undefined) === (flags.db === undefined)) throw new UsageError('give either --db FILE --case ID or a request file');
  if (path !== undefined) {
    if (flags.case !== undefined) throw new UsageError('--case goes with --db');
    const stray = flags.candidate !== undefined ? '--candidate' : flags.runRecordedCandidate ? '--run-recorded-candidate' : undefined;
    if (stray) throw new UsageError(`${stray} goes with --db`);
    return fileSource(path);
  }
  if (flags.case === undefined) throw new UsageError('--db needs --case ID, the case to reduce');
  return recordedSource(flags.db!, flags.case, {
    browsersOnly: flags.browsersOnly === true,
    consent: { given: flags.candidate, runRecorded: flags.runRecordedCandidate === true },
  });
}
