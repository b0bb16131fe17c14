// The seam for dump sources that are not browsers: something that turns a case into what an
// engine under test made of it (a dump, `unsupported`, or an error). A candidate process speaking
// NDJSON (process-source.ts) is one; an in-process engine could be another. Sources are judged
// (src/comparator/candidate.ts), never voted.
import type { CandidateCase, CandidateDump, CandidateSupports } from '../protocol/candidate-schema.js';
import { columnarFromDump, InvalidDumpError } from '../comparator/columnar.js';
import type { CandidateOutcome } from '../comparator/candidate.js';

/** What a source made of one case, as it came over the wire (checked against the candidate schema). */
export type SourceOutcome =
  | { kind: 'dump'; dump: CandidateDump; roots?: number[]; fresh?: CandidateDump }
  | { kind: 'unsupported'; what: string }
  | { kind: 'error'; message: string };

export interface DumpSource {
  /** The engine name its dumps carry. */
  readonly name: string;
  readonly version: string;
  /** What it declares it lays out, when it does. */
  readonly supports: CandidateSupports | undefined;
  /** What it makes of one case; never rejects (a failure is an `error` outcome). */
  run(request: CandidateCase): Promise<SourceOutcome>;
  close(): Promise<void>;
}

/** An outcome as the judge takes it: the dump in columnar form, a dump that contradicts itself an error. */
export function judgedOutcome(outcome: SourceOutcome): CandidateOutcome {
  if (outcome.kind !== 'dump') return outcome;
  try {
    return {
      kind: 'dump',
      dump: columnarFromDump(outcome.dump),
      ...(outcome.roots ? { roots: outcome.roots } : {}),
      ...(outcome.fresh ? { fresh: columnarFromDump(outcome.fresh) } : {}),
    };
  } catch (error) {
    if (error instanceof InvalidDumpError)
      return { kind: 'error', message: `candidate_protocol: the dump is not a tree: ${error.message}` };
    throw error;
  }
}
