// One `campaign` run: start the engine farm in this process, record a run in the journal, drive
// the campaign loop with progress on stderr, and end with the summary on stdout and one closing
// line on stderr. SIGINT and SIGTERM stop taking cases and let the ones in flight finish; a
// second signal abandons them. Either way the journal and every browser are closed, and the run
// can be resumed by running the same command again. With --queue the cases go to the queue's
// workers instead of an engine farm here; the loop, the journal and the summary are the same.
// With --candidate, an engine under test is started beside the engines (candidate-session.ts),
// with their fonts, and answers every layout case; the corpus is made once it has said what it
// supports (the generator keeps inside it).
import { CampaignError } from '../../campaign/campaign-error.js';
import { Checkpointer } from '../../campaign/journal/checkpointer.js';
import { terminalStderr } from '../../system/stderr-guard.js';
import { CampaignRunError, runCampaign, type CampaignOptions, type CampaignResult } from '../../campaign/loop/run-campaign.js';
import type { CorpusPlan } from '../../campaign/corpus/plan.js';
import type { Expectations } from '../../campaign/loop/expectations.js';
import type { Journal } from '../../campaign/journal/journal.js';
import { journalDamage } from '../../campaign/journal/journal-schema.js';
import { CampaignProgressBar } from '../../campaign/loop/progress.js';
import { renderSummary } from '../../campaign/journal/summary.js';
import { campaignSummary } from '../../campaign/journal/triage-summary.js';
import type { OracleOptions } from '../../coordinator/oracle-service.js';
import { ConfigError } from '../../protocol/errors.js';
import type { PingResponse } from '../../protocol/ping-schema.js';
import type { EngineName } from '../../protocol/schema.js';
import { shown } from '../../queue/connection.js';
import type { DumpSource } from '../../candidate-client/source.js';
import type { FontSetName } from '../../protocol/font-sets.js';
import { engineMemoryBytes } from '../../protocol/launch-options.js';
import { QueueOracle } from '../../queue/queue-oracle.js';
import { log } from '../../system/log.js';
import { type CandidateCommand, CandidateSession } from '../candidate-session.js';
import { visible } from '../../system/visible-text.js';
import { handlingSignals, withEngines } from '../engine-session.js';

/** What runs the cases: an engine farm in this process, or the workers of a queue, with at most `outstanding` jobs in Redis. */
export type CaseEngines = { local: OracleOptions } | { queue: URL; outstanding: number };

export interface SessionOptions {
  /** Open, and closed by the session. */
  journal: Journal;
  /** Where the journal is, for the checkpoint thread's own connection. */
  dbPath: string;
  /** The corpus, made once the candidate (if any) has said what it supports. */
  corpus: CorpusPlan;
  engines: CaseEngines;
  /** The engine under test to start, when there is one. */
  candidate: CandidateCommand | undefined;
  expectations: Expectations | undefined;
  concurrency: number;
  stopAfter: number | undefined;
  stopAfterFindings: number | undefined;
  quiet: boolean;
  /** The corpus is stdin: a stop closes it, so a read waiting on it ends. */
  stdinCorpus: boolean;
}

const RESUME = 'run the same command again to resume';

/** Runs the campaign; resolves with the exit status (0 completed, 1 stopped by a signal or an error). */
export async function runCampaignSession(o: SessionOptions): Promise<number> {
  const stop = new AbortController();
  const abandon = new AbortController();
  let signalName: string | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (!stop.signal.aborted) {
      signalName = signal;
      log.info(`${signal}: taking no new case, finishing the cases in flight (${signal} again abandons them)`);
      stop.abort();
      if (o.stdinCorpus) process.stdin.destroy();
    } else if (!abandon.signal.aborted) {
      log.info(`${signal}: abandoning the cases in flight (they are not recorded)`);
      abandon.abort();
    }
  };
  // The engines' memory budget bounds the candidate too (its cgroup's limit); a queue's engines are elsewhere: the default.
  const memoryLimit = 'local' in o.engines ? engineMemoryBytes(o.engines.local.maxEngineMemory, '--max-engine-memory') : undefined;
  const candidates = new CandidateSession(o.candidate && { ...o.candidate, ...(memoryLimit ? { memoryLimit } : {}) });
  // Local engines' fonts are known now, so the candidate starts beside them; a queue's, once a worker answers.
  if ('local' in o.engines) candidates.start(o.engines.local.fonts);
  let checkpointer: Checkpointer | undefined;

  /** The run itself, on engines that are up; `oracle` is undefined when stopped before any worker answered. */
  const run = async (oracle: SessionOracle | undefined): Promise<number> => {
    try {
      return await runOn(oracle, oracle && (await candidates.start(oracle.fonts as FontSetName).started()));
    } finally {
      // However the run ends (a corpus refused for the candidate too), before the engines close.
      await candidates.close();
    }
  };
  const runOn = async (oracle: SessionOracle | undefined, candidate: DumpSource | undefined): Promise<number> => {
    if (!oracle || stop.signal.aborted) {
      closing(`stopped by ${signalName} before any case ran; ${RESUME}`);
      return 1;
    }
    const corpus = o.corpus(candidate);
    if (candidate)
      log.info(`candidate ${visible(candidate.name)} (${visible(candidate.version)}) answers every layout case beside the engines`);
    o.journal.startRun({
      // A --queue URL's password stays out of the journal.
      command: ['browser-oracle', ...process.argv.slice(2).map((arg) => arg.replace(/(rediss?:\/\/)[^@/\s]*@/g, '$1***@'))],
      engines: oracle.engines,
      versions: oracle.versions,
      fonts: oracle.fonts,
      candidate: candidate && o.candidate ? { command: o.candidate.command, name: candidate.name, version: candidate.version } : null,
    });
    o.journal.autoCheckpoint(false);
    checkpointer = new Checkpointer(o.dbPath, () => o.journal.autoCheckpoint(true));
    const progress = o.quiet
      ? undefined
      : new CampaignProgressBar({ total: await corpus.count(), stream: process.stderr.isTTY ? terminalStderr() : process.stderr });
    let result: CampaignResult;
    let failure: string | undefined;
    try {
      result = await runCampaign({
        oracle,
        journal: o.journal,
        items: corpus.items(),
        candidate,
        concurrency: o.concurrency,
        expectations: o.expectations,
        stopAfter: o.stopAfter,
        stopAfterFindings: o.stopAfterFindings,
        stop: stop.signal,
        abandon: abandon.signal,
        onSkipped: () => progress?.skipped(),
        onRecorded: (record) => progress?.recorded(record),
        onJudged: (judged) => progress?.judged(judged),
      });
    } catch (error) {
      if (!(error instanceof CampaignRunError)) throw error;
      // A damaged journal is no failure of this run's to resume from: said once, below.
      if (journalDamage(error.cause)) throw error.cause;
      result = error.result;
      failure = error.message;
    } finally {
      progress?.stop();
      await candidates.close();
    }
    o.journal.endRun();
    process.stdout.write(renderSummary(campaignSummary(o.journal, o.dbPath), o.journal.lastReport()));
    return closingLine(result, failure, signalName, o);
  };

  try {
    if ('local' in o.engines)
      return await withEngines({ tool: 'campaign', options: o.engines.local, notDone: 'nothing was run', onSignal }, run);
    const { queue, outstanding } = o.engines;
    return await handlingSignals(onSignal, async () => {
      const oracle = await openQueue(queue, outstanding, stop.signal, abandon.signal);
      try {
        return await run(oracle);
      } finally {
        await oracle?.close();
      }
    });
  } catch (error) {
    // A setting that cannot work (a bad executable, a password Redis refuses), or a damaged journal, is not cured by running again.
    const damage = journalDamage(error);
    if (damage) closing(`error: --db ${o.dbPath}: ${damage}`);
    // A setting or an input the user must change (ConfigError, CampaignError) is not cured by running again either.
    else if (error instanceof ConfigError || error instanceof CampaignError) {
      closing(`error: ${error.message}`);
      return 2;
    } else closing(`error: ${(error as Error).message}; ${RESUME}`);
    return 1;
  } finally {
    await checkpointer?.stop();
    o.journal.close();
    await candidates.close();
  }
}

/** A campaign's oracle, with what the run records about its engines. */
interface SessionOracle extends Pick<CampaignOptions['oracle'], 'run'> {
  engines: EngineName[];
  versions: Partial<Record<EngineName, string>>;
  fonts: string;
  close(): Promise<void>;
}

/**
 * The queue's workers, once one has answered a ping (its engines, versions and fonts are the
 * run's; a worker that differs is warned about and its cases record their own); undefined when
 * stopped before any worker answered. Closing it does not wait for a Redis that is away once
 * `abandon` is aborted (a second signal).
 */
async function openQueue(url: URL, outstanding: number, stop: AbortSignal, abandon: AbortSignal): Promise<SessionOracle | undefined> {
  const queue = await QueueOracle.open(url, { outstanding }, stop);
  if (!queue) return undefined;
  log.info(`cases go to the workers of ${shown(url)}, at most ${outstanding} at a time; waiting for a worker to answer`);
  const stopped = new Promise<undefined>((resolve) => {
    if (stop.aborted) resolve(undefined);
    stop.addEventListener('abort', () => resolve(undefined), { once: true });
  });
  let pong: PingResponse | undefined;
  try {
    pong = (await Promise.race([queue.ping(), stopped])) as PingResponse | undefined;
  } catch (error) {
    await queue.close(abandon);
    throw error;
  }
  if (!pong) {
    await queue.close(abandon);
    return undefined;
  }
  log.info(`a worker answered: ${pong.engines.map((e) => `${e} ${pong.versions[e]}`).join(', ')}; fonts ${pong.fonts}`);
  return {
    run: queue.run.bind(queue),
    engines: pong.engines,
    versions: pong.versions,
    fonts: pong.fonts,
    close: () => queue.close(abandon),
  };
}

/** Says how the run ended, in one line, and gives the exit status. */
function closingLine(r: CampaignResult, failure: string | undefined, signal: string | undefined, o: SessionOptions): number {
  const judged = r.judged ? `, ${r.judged} recorded before given to the candidate` : '';
  const counts = `${r.recorded} case(s) recorded in this run, ${r.skipped} skipped as already recorded${judged}`;
  if (failure !== undefined) {
    closing(`error: ${failure}; ${counts}; ${RESUME}`);
    return 1;
  }
  switch (r.reason) {
    case 'done':
      closing(
        `done: ${counts}${r.ran ? `; ${r.ran} run in ${r.runSeconds.toFixed(1)} s (${(r.ran / r.runSeconds).toFixed(2)} cases/s)` : ''}`,
      );
      return 0;
    case 'stop-after':
      closing(`stopped after ${r.recorded + r.judged} case(s) (--stop-after ${o.stopAfter})${judged}; run the same command again to go on`);
      return 0;
    case 'stop-after-findings':
      closing(`stopped after ${r.findings} finding(s) (--stop-after-findings ${o.stopAfterFindings}); ${counts}`);
      return 0;
    case 'stopped':
      closing(`stopped by ${signal}: ${counts}; ${RESUME}`);
      return 1;
    case 'abandoned':
      closing(`stopped by ${signal}, the cases in flight abandoned: ${counts}; ${RESUME}`);
      return 1;
  }
}

/** The run's last line, one line whatever an error quotes: at info, or at error when the run failed. */
function closing(line: string): void {
  if (line.startsWith('error: ')) log.error(`campaign: ${visible(line.slice('error: '.length))}`);
  else log.info(`campaign: ${visible(line)}`);
}
