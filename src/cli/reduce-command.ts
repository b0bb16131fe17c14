// `reduce`: a disagreement made small on an engine farm started in this process. The case comes
// from a campaign's journal (--db --case) or from a request file; the reduction keeps its bucket
// signature (src/campaign/loop/reduce-case.ts). Progress and the before and after sizes go to stderr;
// the reduced request goes to stdout, or to the file -o names, and, from a journal, into the
// journal beside the original. A case's signature must hold in each of --runs runs, the original's
// and every kept candidate's: a case whose script draws random numbers is refused as not
// reproducible, with the counts, rather than reduced by chance. A recorded case with a candidate's
// finding (docs/candidate.md) is reduced as that finding, the candidate started again as its run
// started it, unless --browsers-only asks for the engines' own disagreement. Exit status: 0 reduced, 1 not
// reproducible or the engines failed, 2 bad usage.
import { readFileSync, writeFileSync } from 'node:fs';
import { terminalStderr } from '../system/stderr-guard.js';
import { type Command, Option } from 'commander';
import type { CaseRequest } from '../campaign/corpus/corpus.js';
import { Journal, type CaseKey } from '../campaign/journal/journal.js';
import { reduceCase, type ReducedCase } from '../campaign/loop/reduce-case.js';
import { caseSignature, wireRequest } from '../campaign/loop/case-record.js';
import { OracleService, type OracleOptions } from '../coordinator/oracle-service.js';
import { FONT_SET_NAMES, type FontSetName } from '../protocol/font-sets.js';
import { checkRequest } from '../protocol/validate.js';
import { NotReproducibleError } from '../reduce/index.js';
import { log, logs } from '../system/log.js';
import { defaultOptions } from '../api/oracle.js';
import { wholeNumber } from './arguments.js';
import { addEngineOptions, launchOptionsOf } from './engine-options.js';
import { ReduceProgress } from '../tools/reduce/progress-bar.js';
import { exitOnUsageError, usage, UsageError } from './usage.js';
import { CandidateProcess } from '../engine-under-test/process-source.js';
import { isLayoutCase } from '../campaign/loop/candidate-record.js';
import { ConfigError } from '../protocol/errors.js';

interface ReduceFlags {
  db?: string;
  case?: string;
  output?: string;
  parallel?: number;
  maxTests: number;
  timeLimit?: number;
  runs: number;
  browsersOnly?: boolean;
}

/** The case to reduce, and where it came from. */
interface Source {
  request: CaseRequest;
  /** The signature to keep: the recorded one, or null to take it from the first runs. */
  signature: string | null;
  /** The journal and the case's key in it, when the case is a recorded one. */
  journal?: { journal: Journal; key: CaseKey; path: string };
  /** The fonts the case was recorded with. */
  fonts?: FontSetName;
  /** The candidate finding to keep, and how to start the candidate that made it. */
  candidate?: { command: string; signature: string };
}

/**
 * Runs of the original and of each passing candidate. A nondeterministic case (one whose script
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
          'campaign records it). The candidates run on an engine farm in this process, many at once. The case is a ' +
          'recorded one (--db FILE --case ID: the reduced case is stored in the journal beside it, and the case is run ' +
          'with the fonts it was recorded with unless --fonts says otherwise) or a request file (geometry, vote, reflect ' +
          'or trace, as on stdio). Progress and the sizes before and after go to stderr; the reduced request goes to ' +
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
      new Option('--parallel <n>', 'candidates on the engines at once (default: 4 × workers × pages)').argParser(wholeNumber('--parallel')),
    )
    .addOption(new Option('--max-tests <n>', 'run at most n candidates').default(3000).argParser(wholeNumber('--max-tests')))
    .addOption(new Option('--time-limit <seconds>', 'start no candidate after this many seconds').argParser(wholeNumber('--time-limit')))
    .addOption(
      new Option('--runs <n>', 'run the original, and every candidate that passes, n times: the signature must hold in each run')
        .default(DEFAULT_RUNS)
        .argParser(wholeNumber('--runs')),
    )
    .option(
      '--browsers-only',
      "with --db, reduce the engines' disagreement even when the case holds a candidate's finding (which is reduced by default)",
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
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      throw new UsageError(`${path}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
    return { request: caseRequest(text, path), signature: null };
  }
  if (flags.case === undefined) throw new UsageError('--db needs --case ID, the case to reduce');
  const journal = Journal.open(flags.db!, { mustExist: true });
  try {
    const recorded = journal.casesWithId(flags.case).at(-1);
    if (!recorded) throw new UsageError(`--case ${flags.case}: no such case in ${flags.db}`);
    if (recorded.invalid !== null) throw new UsageError(`--case ${flags.case}: an invalid corpus item, never run (${recorded.invalid})`);
    const finding = flags.browsersOnly ? undefined : journal.candidateFinding(recorded);
    if (finding && !isLayoutCase(JSON.parse(recorded.request) as CaseRequest))
      throw new UsageError(`--case ${flags.case}: not a layout case`);
    if (recorded.signature === null && !finding)
      throw new UsageError(
        `--case ${flags.case}: its engines agreed (unanimous) and no candidate's finding is recorded; nothing to reduce`,
      );
    const given = JSON.parse(recorded.request) as object;
    const fonts = journal.runOf(recorded)?.fonts;
    return {
      // A corpus line without an id ran under its key.
      request: caseRequest(JSON.stringify({ ...given, id: recorded.id }), `--case ${flags.case}`),
      signature: recorded.signature,
      journal: { journal, key: recorded, path: flags.db! },
      fonts: FONT_SET_NAMES.find((name) => name === fonts),
      ...(finding ? { candidate: { command: finding.candidate.command, signature: finding.record.signature! } } : {}),
    };
  } catch (error) {
    journal.close();
    throw error;
  }
}

/** A request a campaign could run, from its JSON text; `source` names it in a refusal. */
function caseRequest(text: string, source: string): CaseRequest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${source}: not JSON (${(error as Error).message})`);
  }
  const parsed = checkRequest(value);
  if (!parsed.ok) throw new UsageError(`${source}: ${parsed.error.wireText}`);
  if (parsed.op === 'ping' || parsed.op === 'shutdown' || parsed.op === 'screenshot')
    throw new UsageError(`${source}: a ${parsed.op} request is not a case (geometry, vote, reflect or trace)`);
  return parsed.request as CaseRequest;
}

async function reduceSession(source: Source, flags: ReduceFlags, options: OracleOptions): Promise<number> {
  const stop = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (!stop.signal.aborted) say(`${signal}: starting no more candidates; keeping the smallest case found so far`);
    stop.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const [oracle, candidate] = await Promise.all([
    OracleService.start(options),
    source.candidate && startCandidate(source.candidate.command, options.fonts),
  ]);
  let progress: ReduceProgress | undefined;
  try {
    const missing = options.engines.filter((e) => !oracle.engines.includes(e));
    if (missing.length) {
      say(`${missing.join(', ')} did not launch (the reason is above); nothing was run`, 'error');
      return 1;
    }
    let signature = source.signature;
    // A recorded case's signatures are the journal's; a request file's are found here.
    if (!source.journal) {
      // A request file's signature is the one its first run shows, if every run shows it.
      const { op, request } = wireRequest(source.request, { dumps: false });
      const runs = await Promise.all(
        Array.from({ length: flags.runs }, (_, i) => oracle.run(op, { ...request, id: `${request.id}~run-${i + 1}` })),
      );
      const signatures = runs.map((answer) => caseSignature(source.request, answer));
      signature = signatures[0]!;
      const held = signatures.filter((s) => s === signature).length;
      if (held < flags.runs) {
        say(notReproducible(signature, held, flags.runs), 'error');
        return 1;
      }
      if (signature === null) {
        say('the engines agree on this case (unanimous): nothing to reduce', 'error');
        return 1;
      }
    }
    if (candidate && source.candidate)
      say(`keeping the candidate's signature ${source.candidate.signature}, with the engines' ${signature ?? 'agreement'}`);
    else say(`keeping the signature ${signature}`);
    if (flags.runs > 1) say(`each case is run ${flags.runs} times: the signature must hold in every run`);
    progress = logs('info') ? new ReduceProgress(process.stderr.isTTY ? terminalStderr() : process.stderr) : undefined;
    let result: ReducedCase;
    try {
      result = await reduceCase({
        oracle,
        request: source.request,
        signature,
        ...(candidate && source.candidate ? { candidate: { source: candidate, signature: source.candidate.signature } } : {}),
        parallel: flags.parallel ?? 4 * options.workers * options.pages,
        maxTests: flags.maxTests,
        runs: flags.runs,
        timeLimitMs: flags.timeLimit === undefined ? undefined : flags.timeLimit * 1000,
        signal: stop.signal,
        onProgress: (p) => progress?.update(p),
      });
    } catch (error) {
      if (!(error instanceof NotReproducibleError)) throw error;
      progress?.stop();
      say(notReproducible(signature, error.held, error.runs), 'error');
      return 1;
    }
    progress?.stop();
    report(result, signature, source.candidate?.signature);
    if (source.journal) {
      source.journal.journal.addReduction(source.journal.key, result);
      say(`stored beside ${source.journal.key.id} in ${source.journal.path}`);
    }
    writeResult(result, flags.output);
    return 0;
  } finally {
    progress?.stop();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await Promise.all([oracle.close(), candidate?.close()]);
  }
}

/** The candidate of a recorded finding, started again with the run's fonts; a start that fails is a usage error's one line. */
async function startCandidate(command: string, fonts: FontSetName): Promise<CandidateProcess> {
  try {
    return await CandidateProcess.start({ command, fonts });
  } catch (error) {
    throw error instanceof ConfigError ? new UsageError(error.message) : error;
  }
}

/** The refusal of a case whose signature (null: agreement) did not hold in every run. */
function notReproducible(signature: string | null, held: number, runs: number): string {
  const what = signature === null ? 'the engines agreed' : `the signature ${signature} held`;
  return `not reproducible: ${what} in ${held} of ${runs} runs; nothing was stored`;
}

/** The before and after sizes, and how the reduction went, in one line. */
function report(r: ReducedCase, signature: string | null, candidate: string | undefined): void {
  const how = r.stopped ? `stopped early (${r.stopped})` : r.oneMinimal ? 'no single element can go' : 'html kept verbatim';
  say(
    `${r.before.nodes} → ${r.after.nodes} elements, ${r.before.bytes} → ${r.after.bytes} bytes; ` +
      `${r.tests} candidates in ${(r.elapsedMs / 1000).toFixed(1)} s; ${how}`,
  );
  if (r.signature !== signature) say(`run once more, the reduced case showed ${r.signature ?? 'no disagreement'}`, 'warn');
  if (candidate !== undefined && r.candidate?.signature !== candidate)
    say(`run once more, the reduced case showed the candidate's ${r.candidate?.signature ?? 'pass'}`, 'warn');
}

/** The reduced request on stdout, or in `path`: the whole request for a .json name, else its html. */
function writeResult(r: ReducedCase, path: string | undefined): void {
  if (path === undefined) {
    process.stdout.write(`${r.request}\n`);
    return;
  }
  if (path.endsWith('.json')) writeFileSync(path, `${r.request}\n`);
  else {
    writeFileSync(path, 'html' in r.reduced ? (r.reduced.html ?? '') : '');
    if ('script' in r.reduced && r.reduced.script !== undefined)
      say(`${path} has the html alone; the case's script is in the request (-o FILE.json, or stdout without -o)`, 'warn');
  }
  say(`wrote ${path}`);
}

/** A line of the command's own on stderr, at `level`. */
function say(line: string, level: 'info' | 'warn' | 'error' = 'info'): void {
  log[level](`reduce: ${line}`);
}
