// `campaign --emit`: the generated cases as NDJSON on stdout, run on no engine. With a candidate,
// it is started for its ping alone, and the generator keeps inside what it supports, as a
// campaign with that candidate would (src/campaign/corpus/plan.ts).
import { insideCandidate } from '../../campaign/corpus/plan.js';
import { emitNdjson } from '../../campaign/generator/emit.js';
import { generateCases, type GenerateOptions } from '../../campaign/generator/generator.js';
import type { FontSetName } from '../../protocol/font-sets.js';
import { toStdout } from '../../system/stdout.js';
import { type CandidateCommand, withCandidate } from '../candidate-session.js';

/** The candidate the cases are kept inside, and the fonts it would run with. */
export interface EmitCandidate {
  command: CandidateCommand;
  fonts: FontSetName;
}

/** Writes the generated cases to stdout; a reader that goes away (`| head`) ends it quietly. */
export async function emitCases(options: GenerateOptions, candidate: EmitCandidate | undefined): Promise<void> {
  const kept = candidate ? await withCandidate(candidate.command, candidate.fonts, (c) => insideCandidate(options, c)) : options;
  await toStdout((out) => emitNdjson(generateCases(kept), out));
}
