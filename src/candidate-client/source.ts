// The seam for dump sources that are not browsers: something that turns a case into what an
// engine under test made of it (a dump, `unsupported`, or an error). A candidate process speaking
// NDJSON (process-source.ts) is one; an in-process engine could be another. Sources are judged
// (src/comparator/candidate.ts), never voted.
import type { CandidateCase, CandidateDump, CandidateSupports } from '../protocol/candidate-schema.js';
import { CANDIDATE_SCROLLBARS, columnarFromDump, InvalidDumpError } from '../comparator/columnar.js';
import type { CandidateOutcome } from '../comparator/candidate.js';

/** What a source made of one case, as it came over the wire (checked against the candidate schema). */
export type SourceOutcome =
  | {
      kind: 'dump';
      dump: CandidateDump;
      roots?: number[];
      /** The roots were laid out alone (the elements under test of a check-layout page): their own offsets are not comparable. */
      placed?: false;
      /** A case with mutations: the mutated document laid out from scratch. */
      fresh?: CandidateDump;
      /** The dump's JSON as the source wrote it, its UTF-8 bytes, when it has it whole (else the journal writes the dump). */
      text?: Uint8Array;
    }
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
    const { dump, kind, fresh, ...where } = outcome;
    // Its styles are read only when it is held to its fresh layout (the self check compares them).
    return {
      kind,
      dump: columnarFromDump(dump, CANDIDATE_SCROLLBARS, { styles: fresh !== undefined }),
      ...where,
      ...(fresh ? { fresh: columnarFromDump(fresh, CANDIDATE_SCROLLBARS) } : {}),
    };
  } catch (error) {
    if (error instanceof InvalidDumpError)
      return { kind: 'error', message: `candidate_protocol: the dump is not a tree: ${error.message}` };
    throw error;
  }
}
