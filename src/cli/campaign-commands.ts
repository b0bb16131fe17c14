// `campaign` and `summary`: a corpus (or the generator) through the engine farm into a resumable
// journal, and the journal's summary. Usage is checked here, and the corpus opened
// (src/campaign/corpus/plan.ts), before any engine starts; running a campaign is
// src/tools/campaign/session.ts, printing generated cases (--emit) src/tools/campaign/emit.ts.
// Exit status: 0 the run completed (findings are results, not failures), 1 it stopped early (a
// signal, an error), 2 bad usage or input.
import { type Command, Option } from 'commander';
import { planCorpus } from '../campaign/corpus/plan.js';
import { writeLines } from '../campaign/generator/emit.js';
import { Expectations } from '../campaign/loop/expectations.js';
import { GENERATED_FONTS, type GenerateOptions } from '../campaign/generator/generator.js';
import { Journal } from '../campaign/journal/journal.js';
import { renderSummary } from '../campaign/journal/summary.js';
import { campaignSummary } from '../campaign/journal/triage-summary.js';
import { FONT_SETS, fontSetProblem } from '../fonts/font-sets.js';
import { admission, type OracleOptions } from '../coordinator/oracle-service.js';
import { type CaseEngines, runCampaignSession } from '../tools/campaign/session.js';
import { emitCases } from '../tools/campaign/emit.js';
import { queueOption, QUEUE_OUTSTANDING, refuseEngineFlags } from './queue-commands.js';
import { queueUrl } from '../queue/connection.js';
import { wholeNumber } from './arguments.js';
import { addEngineOptions, launchOptionsOf } from './engine-options.js';
import { defaultOptions } from '../api/oracle.js';
import { logs } from '../system/log.js';
import { printWhole, toStdout } from '../system/stdout.js';
import { ConfigError } from '../protocol/errors.js';
import { engineMemoryBytes } from '../protocol/launch-options.js';
import { exitOnUsageError, usage, UsageError } from './usage.js';
import { junitReport, wptReport } from '../campaign/results/from-journal.js';
import { journalFault } from '../campaign/journal/journal-schema.js';
import { ENGINE_NAMES, type EngineName } from '../protocol/schema.js';

interface CampaignFlags {
  db?: string;
  corpus?: string;
  generate?: number;
  seed?: number;
  text?: boolean;
  script?: boolean;
  mutations?: boolean;
  /** False with --no-relayout. */
  relayout?: boolean;
  emit?: boolean;
  expect?: string;
  stopAfter?: number;
  stopAfterFindings?: number;
  concurrency?: number;
  queue?: string;
  candidate?: string;
  candidateTimeoutMs?: number;
}

export function registerCampaignCommands(program: Command): void {
  const defaults = defaultOptions();
  const campaign = addEngineOptions(
    program
      .command('campaign')
      .summary('run a corpus or generated cases through the engines into a resumable journal')
      .description(
        'Runs every case of a corpus (NDJSON requests as on stdio, a folder of .html files, or NDJSON on stdin) or of the ' +
          'generator through one engine farm in this process, votes each, and records it in an SQLite journal once voted. ' +
          'With --queue URL the cases run on the workers of that queue instead (`browser-oracle worker` on each machine), ' +
          'into the same journal. Cases the journal already holds are skipped, so running the same command again resumes. ' +
          'Progress goes to stderr, the summary to stdout (ending with where the last report is, when one exists). ' +
          'Ctrl-C (or SIGTERM) stops taking cases and finishes the ones in flight; a ' +
          'second Ctrl-C abandons them (they are not recorded). docs/campaign.md has the details.',
      )
      .usage(
        '--db FILE (--corpus FILE|DIR|- | --generate N --seed S [--text] [--script|--mutations]) [options]\n       --generate N --seed S [--text] [--script|--mutations] --emit',
      ),
    defaults,
  )
    .option('--db <file>', 'the journal (SQLite; created when missing)')
    .option('--corpus <path>', 'an NDJSON file of requests, a folder of .html files, or - for NDJSON on stdin')
    .addOption(new Option('--generate <n>', 'run n generated layout cases instead of a corpus').argParser(wholeNumber('--generate', 0)))
    .addOption(new Option('--seed <s>', "the generator's seed (with --generate)").argParser(wholeNumber('--seed', 0)))
    .option('--text', 'generated cases hold text and text properties')
    .option('--script', 'generated cases have a script that changes the tree after a first layout')
    .option(
      '--mutations',
      'generated cases have 1 to 5 mutations (docs/protocol.md, "Mutations") that change the tree after a first layout: what an ' +
        'engine under test applies to its live tree, judged against the vote and against its own layout from scratch (docs/candidate.md)',
    )
    .option(
      '--no-relayout',
      'generated --script or --mutations cases go without the relayout check (each engine held to its own layout from scratch)',
    )
    .option('--emit', 'print the generated cases as NDJSON on stdout and run nothing')
    .option('--expect <file>', 'known differences: matching cases are recorded as expected, apart from findings')
    .addOption(new Option('--stop-after <n>', 'take no more than n new cases in this run').argParser(wholeNumber('--stop-after')))
    .addOption(
      new Option('--stop-after-findings <n>', 'stop taking cases once this run has recorded n findings').argParser(
        wholeNumber('--stop-after-findings'),
      ),
    )
    .addOption(
      new Option(
        '--concurrency <n>',
        `cases in flight at once (default: as many as the oracle on stdio keeps, 2 × workers × window; with --queue, the most jobs in Redis at once, ${QUEUE_OUTSTANDING})`,
      ).argParser(wholeNumber('--concurrency')),
    )
    .addOption(queueOption("run the cases on the workers of a queue instead of this machine's engines (see `worker`)"))
    .option(
      '--candidate <command>',
      'an engine under test: a reference candidate (taffy, yoga) or a command line; it answers every layout case beside the ' +
        'engines and is judged against their vote, never voting (docs/candidate.md). With --generate, cases stay inside what it supports',
    )
    .addOption(
      new Option('--candidate-timeout-ms <n>', "the candidate's time for one case; one that takes longer is killed and restarted")
        .default(30_000)
        .argParser(wholeNumber('--candidate-timeout-ms')),
    )
    .addHelpText(
      'after',
      '\nExit status: 0 the run completed, or stopped at --stop-after(-findings); 1 stopped by a signal or an error ' +
        '(run the same command again to resume); 2 bad usage or input.',
    );
  // --help says which fonts generated cases get when --fonts is not given.
  campaign.options
    .find((o) => o.attributeName() === 'fonts')
    ?.default(defaults.fonts, `${defaults.fonts}; ${GENERATED_FONTS} with --generate`);
  campaign.action(async (flags: CampaignFlags) => {
    process.exitCode = await usage(campaign, () => campaignCommand(flags, enginesOf(campaign, flags, defaults)));
  });

  const summary = program
    .command('summary')
    .summary("print a campaign journal's summary")
    .description(
      "Counts every case in the journal by its vote, says which fonts its runs used, lists triage's findings (`triage`) " +
        'and the disagreeing cases in none, then the findings (cases neither unanimous nor expected) grouped by bucket ' +
        'signature, with the first case of each. --json prints it as one JSON object; --cases, --junit ' +
        'and --wptreport print every case instead, as JSON lines, a JUnit report or a wptreport.json.',
    )
    .requiredOption('--db <file>', 'the journal')
    .option('--json', 'print JSON instead of a table')
    .addOption(
      new Option(
        '--cases',
        'print one JSON line per recorded case instead, in recording order: {"id", "vote", "outlier", "signature", ' +
          '"candidate": {"verdict", "signature", "unsupported"?} or null}, the latest candidate\'s',
      ).conflicts('json'),
    )
    .addOption(
      new Option(
        '--junit',
        "print a JUnit XML report instead: one testcase per case, a failure where the candidate's verdict is fail or " +
          'parse_divergence (without a candidate: where the vote is neither unanimous nor expected), skipped where it is ' +
          'unsupported, no_majority or discarded (docs/results.md)',
      ).conflicts(['json', 'cases']),
    )
    .addOption(
      new Option(
        '--wptreport <who>',
        "print the engine's (or the candidate's) results as a wptreport.json, the file WPT's tooling reads (docs/results.md)",
      )
        .choices([...ENGINE_NAMES, 'candidate'])
        .conflicts(['json', 'cases', 'junit']),
    )
    .addHelpText('after', '\nExit status: 0, or 2 when the file is not a journal (or, for --wptreport, the journal has no such side).');
  summary.action(async (flags: SummaryFlags) => {
    process.exitCode = await usage(summary, async () => {
      const journal = Journal.open(flags.db, { mustExist: true });
      try {
        if (flags.cases) {
          await toStdout((out) => writeLines(journal.caseLines(), (c) => JSON.stringify(c), out));
          return 0;
        }
        if (flags.junit || flags.wptreport) {
          await printWhole(resultFile(journal, flags));
          return 0;
        }
        const s = campaignSummary(journal, flags.db);
        process.stdout.write(flags.json ? `${JSON.stringify(s)}\n` : renderSummary(s, journal.lastReport()));
      } finally {
        journal.close();
      }
      return 0;
    });
  });

  // A usage error commander finds is bad usage too, in one line; help (exit code 0) stays 0.
  for (const command of [campaign, summary]) exitOnUsageError(command);
}

interface SummaryFlags {
  db: string;
  json?: boolean;
  cases?: boolean;
  junit?: boolean;
  wptreport?: EngineName | 'candidate';
}

/** summary's --junit or --wptreport file, made whole (a journal found damaged while it is read is one line, exit 2). */
function resultFile(journal: Journal, flags: SummaryFlags): string {
  try {
    return flags.junit ? junitReport(journal) : `${JSON.stringify(wptReport(journal, flags.wptreport!))}\n`;
  } catch (e) {
    throw journalFault(e, `--db ${flags.db}`);
  }
}

/** The engines flags name: this machine's, or (--queue) the workers'; engine flags beside --queue are refused. */
function enginesOf(campaign: Command, flags: CampaignFlags, defaults: OracleOptions): CaseEngines {
  // Generated cases are judged in fonts that make the engines comparable; --fonts (or a config file) still wins.
  if (flags.queue === undefined)
    return { local: launchOptionsOf(campaign, flags.generate === undefined ? defaults : { ...defaults, fonts: GENERATED_FONTS }) };
  try {
    const queue = queueUrl(flags.queue);
    refuseEngineFlags(campaign);
    return { queue, outstanding: flags.concurrency ?? QUEUE_OUTSTANDING };
  } catch (error) {
    throw error instanceof ConfigError ? new UsageError(error.message) : error;
  }
}

async function campaignCommand(flags: CampaignFlags, engines: CaseEngines): Promise<number> {
  const generate = generatorOptions(flags);
  const candidate = flags.candidate === undefined ? undefined : { command: flags.candidate, timeoutMs: flags.candidateTimeoutMs };
  if (flags.emit) {
    if (!generate) throw new UsageError('--emit prints generated cases: give --generate N --seed S');
    if (flags.corpus !== undefined || flags.db !== undefined) throw new UsageError('--emit runs nothing: leave out --corpus and --db');
    const memoryLimit = 'local' in engines ? { memoryLimit: engineMemoryBytes(engines.local.maxEngineMemory, '--max-engine-memory') } : {};
    await emitCases(
      generate,
      candidate && { command: { ...candidate, ...memoryLimit }, fonts: 'local' in engines ? engines.local.fonts : 'liberation' },
    );
    return 0;
  }
  if (flags.db === undefined) throw new UsageError('give --db FILE, the journal');
  if ((flags.corpus === undefined) === (generate === undefined)) throw new UsageError('give either --corpus PATH or --generate N --seed S');
  const corpus = await planCorpus(generate ? { generate } : { path: flags.corpus! });
  const expectations = flags.expect === undefined ? undefined : Expectations.load(flags.expect);
  const fontProblem = 'local' in engines ? fontSetProblem(FONT_SETS[engines.local.fonts]) : undefined;
  if (fontProblem) throw new UsageError(fontProblem);
  const journal = Journal.open(flags.db);
  return runCampaignSession({
    journal,
    dbPath: flags.db,
    corpus,
    engines,
    expectations,
    candidate,
    concurrency: 'local' in engines ? (flags.concurrency ?? admission(engines.local)) : engines.outstanding,
    stopAfter: flags.stopAfter,
    stopAfterFindings: flags.stopAfterFindings,
    // Progress is information: --quiet (or --log-level=warn and above) hides it.
    quiet: !logs('info'),
    stdinCorpus: flags.corpus === '-',
  });
}

/** The generator's options, or undefined without --generate; generator flags without it are a mistake. */
function generatorOptions(flags: CampaignFlags): GenerateOptions | undefined {
  if (flags.generate === undefined) {
    const stray = (['seed', 'text', 'script', 'mutations'] as const).find((f) => flags[f] !== undefined);
    if (stray) throw new UsageError(`--${stray} goes with --generate`);
    if (flags.relayout === false) throw new UsageError('--no-relayout goes with --generate');
    return undefined;
  }
  if (flags.seed === undefined) throw new UsageError('--generate needs --seed S (any whole number), so the cases can be made again');
  const script = flags.script === true;
  const mutations = flags.mutations === true;
  if (script && mutations) throw new UsageError('--script and --mutations: a generated case has one or the other');
  return {
    count: flags.generate,
    seed: flags.seed,
    text: flags.text === true,
    script,
    mutations,
    relayout: (script || mutations) && flags.relayout !== false,
  };
}
