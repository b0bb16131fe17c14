// The case `reduce` shrinks, read and checked before any engine starts: a request file, or a case
// a campaign recorded (its request under its recorded id, its signature, its fonts, and the
// candidate's finding with the command that may start the candidate again, which runs only with
// the user's consent: src/tools/recorded-candidate.ts). A case that cannot be reduced is a
// CampaignError, one line and exit status 2.
import { readFileSync } from 'node:fs';
import { CampaignError } from '../../campaign/campaign-error.js';
import type { CaseRequest } from '../../campaign/corpus/corpus.js';
import { Journal } from '../../campaign/journal/journal.js';
import { isLayoutCase } from '../../campaign/loop/candidate-record.js';
import { FONT_SET_NAMES } from '../../protocol/font-sets.js';
import { CORPUS_OPS, listOps } from '../../protocol/ops.js';
import { checkRequest, isCorpusRequest } from '../../protocol/validate.js';
import { log } from '../../system/log.js';
import { visible } from '../../system/visible-text.js';
import { type CandidateConsent, candidateCommand } from '../recorded-candidate.js';
import type { Source } from './session.js';

/** The request in the file at `path`. */
export function fileSource(path: string): Source {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CampaignError(`${path}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  return { request: caseRequest(text, path), signature: null };
}

/** How a recorded case is reduced: as its engines' disagreement alone, and what the user said about its candidate. */
export interface RecordedChoice {
  browsersOnly: boolean;
  consent: CandidateConsent;
}

/** The latest case recorded under `caseId` in the journal at `db`, which stays open in the Source. */
export function recordedSource(db: string, caseId: string, choice: RecordedChoice): Source {
  const { consent } = choice;
  const journal = Journal.open(db, { mustExist: true });
  try {
    const recorded = journal.casesWithId(caseId).at(-1);
    if (!recorded) throw new CampaignError(`--case ${caseId}: no such case in ${db}`);
    if (recorded.invalid !== null) throw new CampaignError(`--case ${caseId}: an invalid corpus item, never run (${recorded.invalid})`);
    const finding = choice.browsersOnly ? undefined : journal.candidateFinding(recorded);
    if (finding && !isLayoutCase(JSON.parse(recorded.request) as CaseRequest))
      throw new CampaignError(`--case ${caseId}: not a layout case`);
    // The recorded command is read here, and run only if the user says so.
    const started = finding && candidateCommand(finding.candidate.command, consent, `--case ${visible(caseId)}`);
    if (started && 'refusal' in started) throw new CampaignError(started.refusal);
    if (!finding && consent.given !== undefined)
      throw new CampaignError(
        `--candidate: --case ${visible(caseId)} holds no candidate's finding to reduce${choice.browsersOnly ? ' (--browsers-only)' : ''}`,
      );
    if (started) log.info(`reduce: the candidate is started with ${started.because}`);
    if (recorded.signature === null && !finding)
      throw new CampaignError(`--case ${caseId}: its engines agreed (unanimous) and no candidate's finding is recorded; nothing to reduce`);
    const given = JSON.parse(recorded.request) as object;
    const fonts = journal.runOf(recorded)?.fonts;
    return {
      // A corpus line without an id ran under its key.
      request: caseRequest(JSON.stringify({ ...given, id: recorded.id }), `--case ${caseId}`),
      signature: recorded.signature,
      journal: { journal, key: recorded, path: db },
      fonts: FONT_SET_NAMES.find((name) => name === fonts),
      // A self-disagreement after mutations first (the candidate's own, with no browser to doubt), else its verdict's finding.
      ...(finding && started
        ? { candidate: { command: started.command, signature: finding.record.fresh?.signature ?? finding.record.signature! } }
        : {}),
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
    throw new CampaignError(`${source}: not JSON (${(error as Error).message})`);
  }
  const parsed = checkRequest(value);
  if (!parsed.ok) throw new CampaignError(`${source}: ${parsed.error.wireText}`);
  if (!isCorpusRequest(parsed)) throw new CampaignError(`${source}: a ${parsed.op} request is not a case (${listOps(CORPUS_OPS, 'or')})`);
  return parsed.request;
}
