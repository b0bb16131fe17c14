// A `reduce` session: a disagreement made small on an engine farm started in this process
// (src/campaign/loop/reduce-case.ts keeps its bucket signature, and a candidate's finding with the
// candidate started again). Progress and the before and after sizes go to stderr; the reduced
// request goes to stdout, or to the file -o names, and, for a recorded case, into the journal
// beside the original. A case whose signature does not hold in each of its runs is refused as not
// reproducible, with the counts.
import { writeFileSync } from 'node:fs';
import type { CaseRequest } from '../../campaign/corpus/corpus.js';
import type { CaseKey, Journal } from '../../campaign/journal/journal.js';
import { reduceCase, type ReducedCase } from '../../campaign/loop/reduce-case.js';
import { caseSignature, runSent, wireRequest } from '../../campaign/loop/case-record.js';
import type { OracleOptions, OracleService } from '../../coordinator/oracle-service.js';
import type { DumpSource } from '../../candidate-client/source.js';
import type { FontSetName } from '../../protocol/font-sets.js';
import { NotReproducibleError } from '../../reduce/index.js';
import { log, logs } from '../../system/log.js';
import { visible } from '../../system/visible-text.js';
import { terminalStderr } from '../../system/stderr-guard.js';
import { withEnginesAndCandidate } from '../candidate-session.js';
import { ReductionProgressBar } from './progress-bar.js';

/** The case to reduce, and where it came from. */
export interface Source {
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

/** How the reduction runs, as the command line set it. */
export interface ReduceSettings {
  /** Where the reduced case goes: stdout when undefined. */
  output?: string;
  parallel?: number;
  maxTests: number;
  /** Seconds. */
  timeLimit?: number;
  runs: number;
}

/** Reduces the case; resolves with the exit status (0 reduced, 1 not reproducible or an engine did not launch). */
export async function reduceSession(source: Source, flags: ReduceSettings, options: OracleOptions): Promise<number> {
  const stop = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (!stop.signal.aborted) say(`${signal}: starting no more trials; keeping the smallest case found so far`);
    stop.abort();
  };
  let progress: ReductionProgressBar | undefined;
  const reduceWith = async (oracle: OracleService, candidate: DumpSource | undefined): Promise<number> => {
    let signature = source.signature;
    // A recorded case's signatures are the journal's; a request file's are found here.
    if (!source.journal) {
      // A request file's signature is the one its first run shows, if every run shows it.
      const runs = await Promise.all(
        Array.from({ length: flags.runs }, (_, i) =>
          runSent(oracle, wireRequest({ ...source.request, id: `${source.request.id}~run-${i + 1}` }, { dumps: false })),
        ),
      );
      const signatures = runs.map((answered) => caseSignature(source.request, answered));
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
    progress = logs('info') ? new ReductionProgressBar(process.stderr.isTTY ? terminalStderr() : process.stderr) : undefined;
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
  };
  try {
    return await withEnginesAndCandidate(
      { tool: 'reduce', options, notDone: 'nothing was run', onSignal },
      source.candidate && { command: source.candidate.command },
      reduceWith,
    );
  } finally {
    progress?.stop();
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
      `${r.tests} trials in ${(r.elapsedMs / 1000).toFixed(1)} s; ${how}`,
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

/** A line of the command's own on stderr, at `level`: one line, whatever signatures, ids or paths it quotes (made visible). */
function say(line: string, level: 'info' | 'warn' | 'error' = 'info'): void {
  log[level](`reduce: ${visible(line)}`);
}
