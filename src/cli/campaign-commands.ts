// `campaign` and `summary`: a corpus (or the generator) through the engine farm into a resumable
// journal, and the journal's summary. Usage is checked here, before any engine starts; running
// a campaign is src/tools/campaign/session.ts. Exit status: 0 the run completed (findings are results, not
// failures), 1 it stopped early (a signal, an error), 2 bad usage or input.
import { type Command, Option } from 'commander';
import { openCorpus, type Corpus } from '../campaign/corpus/corpus.js';
import { emitNdjson, writeLines } from '../campaign/generator/emit.js';
import { Expectations } from '../campaign/loop/expectations.js';
import { generatedCorpus } from '../campaign/corpus/generated-corpus.js';
import { generateCases, type GenerateOptions } from '../campaign/generator/generator.js';
import { Journal } from '../campaign/journal/journal.js';
import { renderSummary } from '../campaign/journal/summary.js';
import { FONT_SETS, fontSetProblem } from '../fonts/font-sets.js';
import { admission, type OracleOptions } from '../coordinator/oracle-service.js';
import { type CaseEngines, runCampaignSession } from '../tools/campaign/session.js';
import { queueOption, QUEUE_OUTSTANDING, refuseEngineFlags } from './queue-commands.js';
import { queueUrl } from '../queue/connection.js';
import { wholeNumber } from './arguments.js';
import { addEngineOptions, launchOptionsOf } from './engine-options.js';
import { defaultOptions } from '../api/oracle.js';
import { logs } from '../system/log.js';
import { ConfigError } from '../protocol/errors.js';
import { engineMemoryBytes } from '../protocol/launch-options.js';
import { exitOnUsageError, usage, UsageError } from './usage.js';
import { CandidateProcess } from '../candidate-client/process-source.js';
import type { DumpSource } from '../candidate-client/source.js';

interface CampaignFlags {
  db?: string;
  corpus?: string;
  generate?: number;
  seed?: number;
  text?: boolean;
  script?: boolean;
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
        '--db FILE (--corpus FILE|DIR|- | --generate N --seed S [--text] [--script]) [options]\n       --generate N --seed S [--text] [--script] --emit',
      ),
    defaults,
  )
    .option('--db <file>', 'the journal (SQLite; created when missing)')
    .option('--corpus <path>', 'an NDJSON file of requests, a folder of .html files, or - for NDJSON on stdin')
    .addOption(new Option('--generate <n>', 'run n generated layout cases instead of a corpus').argParser(wholeNumber('--generate', 0)))
    .addOption(new Option('--seed <s>', "the generator's seed (with --generate)").argParser(wholeNumber('--seed', 0)))
    .option('--text', 'generated cases hold text and text properties')
    .option('--script', 'generated cases have a script that changes the tree after a first layout')
    .option('--no-relayout', 'generated --script cases go without the relayout check (each engine held to its own layout from scratch)')
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
  campaign.action(async (flags: CampaignFlags) => {
    process.exitCode = await usage(campaign, () => campaignCommand(flags, enginesOf(campaign, flags, defaults)));
  });

  const summary = program
    .command('summary')
    .summary("print a campaign journal's summary")
    .description(
      'Counts every case in the journal by its vote, and lists the findings (cases neither unanimous nor expected) ' +
        'grouped by bucket signature, with the first case of each. --json prints it as one JSON object.',
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
    .addHelpText('after', '\nExit status: 0, or 2 when the file is not a journal.');
  summary.action(async (flags: { db: string; json?: boolean; cases?: boolean }) => {
    process.exitCode = await usage(summary, async () => {
      const journal = Journal.open(flags.db, { mustExist: true });
      try {
        if (flags.cases) {
          await toStdout((out) => writeLines(journal.caseLines(), (c) => JSON.stringify(c), out));
          return 0;
        }
        const s = journal.summary();
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

/** The engines flags name: this machine's, or (--queue) the workers'; engine flags beside --queue are refused. */
function enginesOf(campaign: Command, flags: CampaignFlags, defaults: OracleOptions): CaseEngines {
  if (flags.queue === undefined) return { local: launchOptionsOf(campaign, defaults) };
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
  if (flags.emit) {
    if (!generate) throw new UsageError('--emit prints generated cases: give --generate N --seed S');
    if (flags.corpus !== undefined || flags.db !== undefined) throw new UsageError('--emit runs nothing: leave out --corpus and --db');
    await emit(flags.candidate === undefined ? generate : await insideCandidate(generate, flags, engines));
    return 0;
  }
  if (flags.db === undefined) throw new UsageError('give --db FILE, the journal');
  if ((flags.corpus === undefined) === (generate === undefined)) throw new UsageError('give either --corpus PATH or --generate N --seed S');
  const opened = generate ? generatedCorpus(generate) : await openCorpus(flags.corpus!);
  const corpus = (candidate: DumpSource | undefined): Corpus =>
    generate && candidate ? generatedCorpus(inside(generate, candidate)) : opened;
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
    candidate: flags.candidate === undefined ? undefined : { command: flags.candidate, timeoutMs: flags.candidateTimeoutMs },
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
    const stray = (['seed', 'text', 'script'] as const).find((f) => flags[f] !== undefined);
    if (stray) throw new UsageError(`--${stray} goes with --generate`);
    if (flags.relayout === false) throw new UsageError('--no-relayout goes with --generate');
    return undefined;
  }
  if (flags.seed === undefined) throw new UsageError('--generate needs --seed S (any whole number), so the cases can be made again');
  const script = flags.script === true;
  return { count: flags.generate, seed: flags.seed, text: flags.text === true, script, relayout: script && flags.relayout !== false };
}

/**
 * The generator's options kept inside what a candidate supports: its `supports` (when its ping
 * gave them), and no text or script it would refuse whole. A usage error names the flag.
 */
function inside(options: GenerateOptions, candidate: DumpSource): GenerateOptions {
  const { supports, name } = candidate;
  if (!supports) return options;
  if (options.script && !supports.script) throw new UsageError(`--script: candidate ${name} runs no script`);
  if (options.text && !supports.text.includes('*')) {
    const families = supports.text.length ? `only in ${supports.text.join(', ')}` : 'no text';
    throw new UsageError(`--text: candidate ${name} measures ${families} (a reference candidate measures any family under --fonts=square)`);
  }
  return { ...options, supports };
}

/** For --emit: the candidate started for its ping alone, and the generator's options kept inside it. */
async function insideCandidate(options: GenerateOptions, flags: CampaignFlags, engines: CaseEngines): Promise<GenerateOptions> {
  const fonts = 'local' in engines ? engines.local.fonts : 'liberation';
  const memoryLimit = 'local' in engines ? { memoryLimit: engineMemoryBytes(engines.local.maxEngineMemory, '--max-engine-memory') } : {};
  let candidate: CandidateProcess;
  try {
    candidate = await CandidateProcess.start({ command: flags.candidate!, fonts, timeoutMs: flags.candidateTimeoutMs, ...memoryLimit });
  } catch (error) {
    throw error instanceof ConfigError ? new UsageError(error.message) : error;
  }
  try {
    return inside(options, candidate);
  } finally {
    await candidate.close();
  }
}

/** Writes the generated cases to stdout; a reader that goes away (`| head`) ends it quietly. */
async function emit(options: GenerateOptions): Promise<void> {
  await toStdout((out) => emitNdjson(generateCases(options), out));
}

/** Runs `write` on stdout; a reader that goes away (`| head`) ends it quietly. */
async function toStdout(write: (out: NodeJS.WriteStream) => Promise<void>): Promise<void> {
  const gone = new Promise<void>((resolve, reject) =>
    process.stdout.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' ? resolve() : reject(error))),
  );
  await Promise.race([write(process.stdout), gone]);
}
