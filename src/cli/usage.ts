// How the journal commands (campaign, summary, reduce, report) report a mistake in how they were
// called, or a journal they cannot use: one line on stderr and exit status 2, never a stack trace.
import type { Command } from 'commander';
import { CampaignError } from '../campaign/campaign-error.js';
import { journalDamage } from '../campaign/journal/journal-schema.js';

const BAD_USAGE = 2;

/** A mistake in how the command was called: one line, exit status 2. */
export class UsageError extends Error {}

/** Makes commander's own usage errors exit 2 in one line (help still exits 0). */
export function exitOnUsageError(command: Command): Command {
  return command.showSuggestionAfterError(false).exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : BAD_USAGE));
}

/** Runs `work`; a mistake the user can fix is reported in one line with exit status 2. */
export async function usage(command: Command, work: () => Promise<number>): Promise<number> {
  try {
    return await work();
  } catch (error) {
    // A journal found damaged once open (summary, report, reduce reading it): a file that cannot be used, as one that is no journal.
    const damage = journalDamage(error);
    if (damage) command.error(`${command.name()}: ${damage}`, { exitCode: BAD_USAGE });
    if (!(error instanceof UsageError || error instanceof CampaignError || error instanceof RangeError)) throw error;
    command.error(`${command.name()}: ${error.message}`, { exitCode: BAD_USAGE });
  }
}
