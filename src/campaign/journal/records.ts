// What the journal's tables hold, as the rest of the program reads and writes it: a run, a case
// with its outcomes and self checks, a reduction. journal.ts keeps them in SQLite (and re-exports
// these types), and the tables beside it (findings.ts) read them without importing the journal.
import type { ClusterVerdict } from '../../protocol/vote-schema.js';
import type { EngineName } from '../../protocol/schema.js';
import type { CorpusOp } from '../../protocol/ops.js';
import type { AuthoredFinding, AuthoredRecord } from '../loop/authored-record.js';
import type { CandidateIdentity, CandidateRecord } from '../loop/candidate-record.js';

/** What a run records about itself when it starts. */
export interface RunInfo {
  command: string[];
  engines: EngineName[];
  versions: Partial<Record<EngineName, string>>;
  fonts: string | null;
  /** The engine under test the run judged, if any: how it was started, and what its ping said. */
  candidate?: RunCandidate | null;
}

/** An engine under test as a run records it: its command (a reference name or a command line), name and version. */
export interface RunCandidate extends CandidateIdentity {
  command: string;
}

/** A case's identity: its id in the corpus and the hash of its content (case-hash.ts). */
export interface CaseKey {
  id: string;
  hash: string;
}

/** One engine's part in a case: its result as JSON text, or its error. */
export interface EngineOutcome {
  engine: EngineName;
  version: string | null;
  result: string | null;
  error: string | null;
  ms: number | null;
  /** A check-layout page's reading of its attributes in this engine (src/protocol/authored-schema.ts), JSON; null or absent: none. */
  authored?: string | null;
  /** A site case: the room its viewport scrollbars took, JSON {x, y}; null or absent: not said. */
  scrollbars?: string | null;
}

/** An engine that failed the relayout check on a case: its own bucket, beside the vote's. */
export interface SelfCheck {
  engine: EngineName;
  signature: string;
  /** The check (src/protocol/relayout-schema.ts), JSON. */
  result: string;
}

/** Everything recorded about one case. Invalid corpus items have `invalid` set, op and verdict null, no outcomes. */
export interface CaseRecord extends CaseKey {
  op: CorpusOp | null;
  request: string;
  invalid: string | null;
  outcomes: EngineOutcome[];
  verdict: ClusterVerdict | null;
  outlier: EngineName | null;
  signature: string | null;
  expected: string | null;
  vote: string | null;
  /** The engines that failed the relayout check, when the request asked for it. */
  selfChecks?: SelfCheck[];
  /** Epoch milliseconds. */
  startedAt: number;
  elapsedMs: number;
  attempts: number;
  /** The engine under test's outcome, when one was asked (written in the case's transaction). */
  candidate?: CandidateRecord;
  /** A check-layout page's assertions per engine, and the finding when all three fail one alike. */
  authored?: { records: AuthoredRecord[]; finding: AuthoredFinding | null };
}

/** A reduced version of a recorded case, as a report shows it: the request, its signature, and what the engines made of it. */
export interface Reduction {
  request: string;
  signature: string | null;
  /** The reduced case's vote, JSON; null for a reduction stored without one. */
  vote: string | null;
  outcomes: EngineOutcome[];
  /** The candidate's outcome for the reduced case, when the reduction kept a candidate's finding. */
  candidate?: CandidateRecord;
}

/** A case's size as the reducer counts it: elements in its DOM, UTF-8 bytes of html plus script. */
export interface CaseSize {
  nodes: number;
  bytes: number;
}

/** Everything `reduce` stores beside a case: the reduced case, and how the reduction went. */
export interface ReductionRecord extends Reduction {
  before: CaseSize;
  after: CaseSize;
  /** Trials run on the engines. */
  tests: number;
  elapsedMs: number;
  /** Null at the fixpoint; else why it stopped early (max-tests, time-limit, aborted). */
  stopped: string | null;
  /** Removing any one element of the result loses the signature (the final check ran to the end). */
  oneMinimal: boolean;
}

/** A run as the journal holds it: what it ran with, and when (ISO 8601, UTC; endedAt null while running or once killed). */
export interface RunRecord extends RunInfo {
  startedAt: string;
  endedAt: string | null;
}

/** A row of `cases`, as SQLite gives it. */
export interface CaseRow {
  seq: number;
  id: string;
  hash: string;
  op: CaseRecord['op'];
  request: string;
  invalid: string | null;
  verdict: ClusterVerdict | null;
  outlier: EngineName | null;
  signature: string | null;
  expected: string | null;
  vote: string | null;
  started_at: string;
  elapsed_ms: number;
  attempts: number;
}

/** A row of `runs`, as SQLite gives it (its JSON columns as text). */
export interface RunRow {
  command: string;
  engines: string;
  versions: string;
  fonts: string | null;
  candidate: string | null;
  started_at: string;
  ended_at: string | null;
}

/** A run as the program reads it, from its row. */
export const runRecord = (r: RunRow): RunRecord => ({
  command: JSON.parse(r.command) as string[],
  engines: JSON.parse(r.engines) as EngineName[],
  versions: JSON.parse(r.versions) as Partial<Record<EngineName, string>>,
  fonts: r.fonts,
  candidate: r.candidate === null ? null : (JSON.parse(r.candidate) as RunCandidate),
  startedAt: r.started_at,
  endedAt: r.ended_at,
});
