// `triage`'s command line: the journal, the budget and how cases are checked, and which candidate's
// findings may be triaged (one named again with --candidate, or the journal's own with
// --run-recorded-candidate: a command a journal recorded is never run unasked; a reference
// candidate's name runs this package's own program). Also a finding's vendor report (--bug-report)
// and marking a finding known (--mark-known). Triage itself is src/tools/triage/session.ts.
// Exit status: 0 done (or stopped by the budget), 1 stopped by a signal or an engine that did not
// launch, 2 bad usage.
import { resolve } from 'node:path';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { Journal } from '../campaign/journal/journal.js';
import { defaultOptions } from '../api/oracle.js';
import { REFERENCE_CANDIDATES } from '../protocol/candidate-schema.js';
import { FONT_SET_NAMES } from '../protocol/font-sets.js';
import { log } from '../system/log.js';
import type { CandidateCommand } from '../tools/candidate-session.js';
import { writeBugReport } from '../tools/triage/bug-report.js';
import { markKnown } from '../tools/triage/mark-known.js';
import { triageSession } from '../tools/triage/session.js';
import { wholeNumber } from './arguments.js';
import { addEngineOptions, launchOptionsOf } from './engine-options.js';
import { exitOnUsageError, usage, UsageError } from './usage.js';
import { visible } from '../system/visible-text.js';

interface TriageFlags {
  db: string;
  budget?: number;
  runs: number;
  parallel?: number;
  maxTests: number;
  candidate?: string;
  candidateTimeoutMs: number;
  runRecordedCandidate?: boolean;
  bugReport?: string;
  output?: string;
  markKnown?: string;
  expect?: string;
}

/** Runs of every case that must show a signature (the original, each trial kept, each template's instance). */
const DEFAULT_RUNS = 3;

const minutes = (value: string): number => {
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || !(n > 0)) throw new InvalidArgumentError('--budget must be a number of minutes above 0');
  return n;
};

export function registerTriageCommand(program: Command): void {
  const defaults = defaultOptions();
  const command = addEngineOptions(
    program
      .command('triage')
      .summary("group a journal's disagreements into findings, each a reduced case and its template")
      .description(
        "Reduces the example of each bucket of the journal's disagreements (the largest bucket first), derives a template from " +
          'the reduced case (its elements, display types and declarations, values generalized to their kind), and puts every ' +
          "other disagreeing case under the finding whose template's instance in it shows its signature, reducing only the " +
          'cases no template explains. Each case that must show a signature is run --runs times, on one engine farm in this ' +
          "process, with the fonts of the journal's last run unless --fonts says otherwise. Findings are kept in the journal: " +
          "run it again to go on; `summary` and `report` show them. A candidate's findings are triaged too when its command is " +
          'named again (--candidate) or --run-recorded-candidate allows the one the journal recorded. --bug-report writes a ' +
          "finding's report for a browser's tracker; --mark-known adds a finding to a known-differences file. docs/triage.md " +
          'has the details.',
      )
      .usage(
        '--db FILE [--budget MINUTES] [options]\n       --db FILE --bug-report FINDING [-o FILE]\n       --db FILE --mark-known FINDING --expect FILE',
      ),
    defaults,
  )
    .requiredOption('--db <file>', 'the campaign journal')
    .addOption(
      new Option('--budget <minutes>', 'start no work after this many minutes (a reduction under way stops too)').argParser(minutes),
    )
    .addOption(
      new Option('--runs <n>', 'runs of every case that must show a signature: it must show it in each')
        .default(DEFAULT_RUNS)
        .argParser(wholeNumber('--runs')),
    )
    .addOption(
      new Option('--parallel <n>', 'trials and checks on the engines at once (default: 4 × workers × pages)').argParser(
        wholeNumber('--parallel'),
      ),
    )
    .addOption(new Option('--max-tests <n>', 'trials one reduction runs at most').default(3000).argParser(wholeNumber('--max-tests')))
    .option(
      '--candidate <command>',
      'an engine under test to triage the findings of: a reference candidate (taffy, yoga) or a command line',
    )
    .addOption(
      new Option('--candidate-timeout-ms <n>', "the candidate's time for one case")
        .default(30_000)
        .argParser(wholeNumber('--candidate-timeout-ms')),
    )
    .option('--run-recorded-candidate', "triage the journal's candidate's findings by running the command its run recorded")
    .option('--bug-report <finding>', "write a finding's report for a browser's tracker (F3, or 3) instead of triaging")
    .option('-o, --output <file>', 'with --bug-report: the HTML file to write (default: stdout)')
    .option('--mark-known <finding>', 'add a finding to the known-differences file --expect names, and count it apart from now on')
    .option('--expect <file>', 'with --mark-known: the known-differences file (created when missing; campaign --expect reads it)')
    .addHelpText(
      'after',
      '\nExit status: 0 done, or stopped by --budget; 1 stopped by a signal, or an engine did not launch; 2 bad usage.',
    );
  command.action(async (flags: TriageFlags) => {
    process.exitCode = await usage(command, async () => {
      if (flags.bugReport !== undefined && flags.markKnown !== undefined)
        throw new UsageError('give --bug-report or --mark-known, not both');
      if (flags.output !== undefined && flags.bugReport === undefined) throw new UsageError('-o goes with --bug-report');
      if ((flags.expect !== undefined) !== (flags.markKnown !== undefined))
        throw new UsageError('--mark-known FINDING needs --expect FILE, the known-differences file, and --expect goes with it');
      const journal = Journal.open(flags.db, { mustExist: true });
      try {
        if (flags.bugReport !== undefined) {
          if (flags.output !== undefined && resolve(flags.output) === resolve(flags.db))
            throw new UsageError('-o names the journal itself; name the HTML file to write');
          return writeBugReport(journal, findingId(flags.bugReport), flags.output);
        }
        if (flags.markKnown !== undefined) return markKnown(journal, findingId(flags.markKnown), flags.expect!, flags.db);
        const options = launchOptionsOf(command, defaults);
        // The cases run with the fonts they were recorded with, unless the command line says otherwise.
        const fonts = FONT_SET_NAMES.find((name) => name === journal.runs().at(-1)?.fonts);
        if (fonts && command.getOptionValueSource('fonts') !== 'cli') options.fonts = fonts;
        const candidate = candidateOf(journal, flags);
        return await triageSession({ journal, path: flags.db, ...(candidate ? { candidate } : {}) }, flags, options);
      } finally {
        journal.close();
      }
    });
  });
  exitOnUsageError(command);
}

/** A finding named on the command line: `F3`, `f3` or `3`. */
function findingId(text: string): number {
  const id = /^[Ff]?(\d+)$/.exec(text.trim())?.[1];
  if (id === undefined) throw new UsageError(`"${text}" names no finding: give its id, as summary lists it (F3)`);
  return Number(id);
}

/** The candidate whose findings are triaged: the one named again, or the journal's latest with consent (or a reference candidate). */
function candidateOf(journal: Journal, flags: TriageFlags): CandidateCommand | undefined {
  const timeoutMs = flags.candidateTimeoutMs;
  if (flags.candidate !== undefined) return { command: flags.candidate, timeoutMs };
  const latest = journal.latestCandidate();
  const recorded =
    latest &&
    journal
      .runs()
      .reverse()
      .find((r) => r.candidate?.name === latest.name && r.candidate.version === latest.version)?.candidate;
  if (!recorded) return undefined;
  if (flags.runRecordedCandidate || (REFERENCE_CANDIDATES as readonly string[]).includes(recorded.command))
    return { command: recorded.command, timeoutMs };
  log.info(
    `triage: the findings of candidate ${visible(recorded.name)} (${visible(recorded.version)}) stay untriaged: name its command again ` +
      `(--candidate COMMAND), or give --run-recorded-candidate to run the one this journal recorded, ${visible(JSON.stringify(recorded.command))}`,
  );
  return undefined;
}
