// Which command starts the candidate of a finding read from a journal. A journal is a file anyone
// can hand over, and the command line its run recorded is theirs: opening a journal never runs it.
// It is run only when the user says so — by naming a command (`--candidate`), or by asking for
// the recorded one (`--run-recorded-candidate`) — except a reference candidate's name, which runs
// this package's own program and nothing of the journal's.
import { REFERENCE_CANDIDATES } from '../protocol/candidate-schema.js';
import { visible } from '../system/visible-text.js';

export interface CandidateConsent {
  /** A command the user named, for the recorded one or in its place. */
  given?: string;
  /** The user asks for the recorded command to be run. */
  runRecorded?: boolean;
}

/** A recorded command as a person reads it: quoted, and visible. */
const shownCommand = (command: string) => visible(JSON.stringify(command));

/**
 * The command to start the candidate with, and why it may run; or, when the user has not said
 * so, the refusal to show them (the recorded command included), for `what` (the case, say).
 */
export function candidateCommand(
  recorded: string,
  consent: CandidateConsent,
  what: string,
): { command: string; because: string } | { refusal: string } {
  if (consent.given !== undefined)
    return {
      command: consent.given,
      because: `the command given (${shownCommand(consent.given)}; the journal recorded ${shownCommand(recorded)})`,
    };
  if ((REFERENCE_CANDIDATES as readonly string[]).includes(recorded))
    return { command: recorded, because: `the reference candidate ${recorded}, as the journal recorded` };
  if (consent.runRecorded) return { command: recorded, because: `the command the journal recorded (${shownCommand(recorded)}), as asked` };
  return {
    refusal:
      `${what} holds a candidate's finding, and the journal recorded the command ${shownCommand(recorded)} for that candidate; ` +
      'a command read from a journal is not run unless you say so: --run-recorded-candidate runs it, --candidate COMMAND names ' +
      "the one to run instead, --browsers-only reduces the engines' disagreement alone",
  };
}
