// A `triage` session (docs/triage.md): one engine farm started in this process for the whole run,
// the engines' disagreements triaged first, then the candidate's findings when a candidate is
// started (only one the command line names, or the journal's with --run-recorded-candidate: a
// command a journal recorded is never run unasked). Progress goes to stderr, the summary with its
// findings to stdout, and one closing line to stderr. A budget, or SIGINT and SIGTERM, stop taking
// work; the reduction under way keeps what it has, and the same command goes on from there.
import type { Journal } from '../../campaign/journal/journal.js';
import { renderSummary } from '../../campaign/journal/summary.js';
import { campaignSummary } from '../../campaign/journal/triage-summary.js';
import type { Subject } from '../../campaign/journal/findings.js';
import { triage, type TriageResult } from '../../campaign/triage/triage.js';
import type { DumpSource } from '../../candidate-client/source.js';
import type { OracleOptions, OracleService } from '../../coordinator/oracle-service.js';
import { log, logs } from '../../system/log.js';
import { terminalStderr } from '../../system/stderr-guard.js';
import { type CandidateCommand, withEnginesAndCandidate } from '../candidate-session.js';
import { TriageProgressBar } from './progress-bar.js';
import { visible } from '../../system/visible-text.js';

export interface TriageSettings {
  /** Minutes after which no work starts. */
  budget?: number;
  runs: number;
  parallel?: number;
  maxTests: number;
}

/** The journal to triage, where it is, and the candidate to start for its findings, if any. */
export interface TriageSource {
  journal: Journal;
  path: string;
  candidate?: CandidateCommand;
}

const GO_ON = 'run the same command again to go on';

/** Triages the journal; resolves with the exit status (0 done or stopped by the budget, 1 stopped by a signal or an engine that did not launch). */
export async function triageSession(source: TriageSource, settings: TriageSettings, options: OracleOptions): Promise<number> {
  const stop = new AbortController();
  let signalName: string | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (!stop.signal.aborted) say(`${signal}: starting no more work; the reduction under way keeps the smallest case it found`);
    signalName ??= signal;
    stop.abort();
  };
  const started = Date.now();
  const deadline = settings.budget === undefined ? undefined : started + settings.budget * 60_000;
  let progress: TriageProgressBar | undefined;
  const triageOn = async (oracle: OracleService, candidate: DumpSource | undefined): Promise<number> => {
    const { journal } = source;
    const findings = journal.findings();
    const subjects: Subject[] = ['engines', ...(candidate ? [{ name: candidate.name, version: candidate.version }] : [])];
    if (candidate)
      say(
        `the findings of candidate ${visible(candidate.name)} (${visible(candidate.version)}) are triaged after the engines' disagreements`,
      );
    progress = logs('info')
      ? new TriageProgressBar(findings.list().length, deadline, process.stderr.isTTY ? terminalStderr() : process.stderr)
      : undefined;
    const totals: Omit<TriageResult, 'stopped'> = { created: 0, placed: 0, gaveUp: 0, open: 0 };
    let stopped: TriageResult['stopped'] = null;
    for (const subject of subjects) {
      const result = await triage({
        oracle,
        journal,
        findings,
        subject,
        ...(subject === 'engines' ? {} : { candidate }),
        parallel: settings.parallel ?? 4 * options.workers * options.pages,
        runs: settings.runs,
        maxTests: settings.maxTests,
        fonts: options.fonts,
        deadline,
        signal: stop.signal,
        onEvent: (event) => progress?.update(event),
      });
      for (const key of ['created', 'placed', 'gaveUp', 'open'] as const) totals[key] += result[key];
      stopped ??= result.stopped;
    }
    progress?.stop();
    process.stdout.write(renderSummary(campaignSummary(journal, source.path), journal.lastReport()));
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    const counts =
      `${totals.placed} case(s) placed, ${totals.created} new finding(s), ${totals.gaveUp} given up` +
      `${totals.open ? `, ${totals.open} left open` : ''}; ${seconds} s`;
    if (stopped === 'signal') {
      say(`stopped by ${signalName}: ${counts}; ${GO_ON}`);
      return 1;
    }
    say(stopped === 'budget' ? `stopped by the budget (${settings.budget} min): ${counts}; ${GO_ON}` : `done: ${counts}`);
    return 0;
  };
  try {
    return await withEnginesAndCandidate({ tool: 'triage', options, notDone: 'nothing was triaged', onSignal }, source.candidate, triageOn);
  } finally {
    progress?.stop();
  }
}

/** A line of the command's own on stderr. */
function say(line: string): void {
  log.info(`triage: ${line}`);
}
