// The engine under test as every tool starts it (campaign, campaign --emit, reduce, triage), beside the
// engines' session (engine-session.ts): from the command the tool gives it (which command may be
// run is the tool's to decide), with the engines' fonts, begun beside the engines and awaited once
// they are up, and closed before them however the tool's work ends: the engines' close ends every
// process the oracle left running, and a candidate still open would be killed as one, with a
// warning, rather than end with its input.
import { CampaignError } from '../campaign/campaign-error.js';
import { CandidateProcess, type CandidateProcessOptions } from '../candidate-client/process-source.js';
import { ConfigError } from '../protocol/errors.js';
import type { FontSetName } from '../protocol/font-sets.js';
import { engineMemoryBytes } from '../protocol/launch-options.js';
import type { OracleService } from '../coordinator/oracle-service.js';
import { type EngineSession, withEngines } from './engine-session.js';

/** How to start a candidate, but for the fonts, which are the engines'. */
export type CandidateCommand = Omit<CandidateProcessOptions, 'fonts'>;

/** A tool's candidate: none without a command; started once, with the fonts of the first `start`. */
export class CandidateSession {
  private starting: Promise<CandidateProcess> | undefined;

  constructor(private readonly command: CandidateCommand | undefined) {}

  /** Begins starting the candidate, unless there is none or it is begun; a failure waits for `started`. */
  start(fonts: FontSetName): this {
    if (this.command && !this.starting) {
      this.starting = CandidateProcess.start({ ...this.command, fonts });
      this.starting.catch(() => {}); // awaited in `started`
    }
    return this;
  }

  /** The candidate once it answered its ping; undefined when there is none or it was never begun. */
  async started(): Promise<CandidateProcess | undefined> {
    return this.starting;
  }

  /** Closes the candidate, if it started; again is harmless. */
  async close(): Promise<void> {
    await (await this.starting?.catch(() => undefined))?.close();
  }
}

/**
 * Runs `work` on a candidate started alone, for what its ping says, and closes it however `work`
 * ends; a candidate that does not start is the user's to fix, in one line (`userFault`).
 */
export async function withCandidate<T>(
  command: CandidateCommand,
  fonts: FontSetName,
  work: (candidate: CandidateProcess) => T,
): Promise<T> {
  const session = new CandidateSession(command).start(fonts);
  try {
    return work((await session.started().catch(userFault))!);
  } finally {
    await session.close();
  }
}

/**
 * Runs `work` on an engine farm (engine-session.ts) and the candidate `command` names (undefined
 * when none), begun beside the engines with their fonts and memory limit and awaited once they are
 * up, and closed before them however `work` ends.
 */
export async function withEnginesAndCandidate(
  session: EngineSession,
  command: CandidateCommand | undefined,
  work: (oracle: OracleService, candidate: CandidateProcess | undefined) => Promise<number>,
): Promise<number> {
  const { options } = session;
  const memoryLimit = engineMemoryBytes(options.maxEngineMemory, '--max-engine-memory');
  const candidates = new CandidateSession(command && { ...command, memoryLimit }).start(options.fonts);
  try {
    return await withEngines(session, async (oracle) => {
      try {
        return await work(oracle, await candidates.started().catch(userFault));
      } finally {
        await candidates.close(); // before the engines close
      }
    });
  } finally {
    await candidates.close();
  }
}

/** A candidate that did not start (a bad command, no answer to its ping) as a one-line CampaignError: exit status 2, no stack. */
function userFault(error: unknown): never {
  throw error instanceof ConfigError ? new CampaignError(error.message) : error;
}
