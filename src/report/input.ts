// What a report is drawn from: the campaign's summary, its runs, and for each bucket its example
// case as the engines saw it. `browser-oracle report` fills this from the journal and the
// screenshot op; the renderer reads nothing else.
import type { CaseRecord, Reduction, RunInfo } from '../campaign/journal/journal.js';
import type { Summary } from '../campaign/journal/summary.js';
import type { AuthoredFailures } from '../campaign/journal/authored-rows.js';
import type { Dump, EngineName } from '../protocol/schema.js';
import type { VoteResult } from '../protocol/vote-schema.js';
import type { CandidateRecord } from '../campaign/loop/candidate-record.js';
import type { Failure } from '../comparator/compare.js';
import type { CandidateDump } from '../protocol/candidate-schema.js';
import type { RelayoutResult } from '../protocol/relayout-schema.js';
import type { ScreenshotRequest } from '../protocol/screenshot-schema.js';

/** The engine under test's part in the shown request: its answer, and where it fails. */
export interface ReportCandidate extends Pick<CandidateRecord, 'name' | 'version' | 'verdict' | 'signature' | 'unsupported' | 'error'> {
  dump?: CandidateDump;
  /** The engine whose screenshot its boxes are drawn over: the first of the majority. */
  over: EngineName | null;
  /** The node its signature names, with its failures there against each engine it was compared with (none where it matches). */
  node: { index: number; tag: string; against: { engine: EngineName; failures: Failure[] }[] } | null;
  /** For a case with mutations: its layout from scratch, drawn beside its incremental `dump`, and whether the two agree. */
  fresh?: { dump: CandidateDump; self: 'agrees' | 'differs'; signature: string | null };
}

/** One run of the journal (its `runs` row): what it ran with, and when. */
export interface ReportRun extends RunInfo {
  /** ISO 8601, UTC. */
  startedAt: string;
  /** Null while running, or when the run was killed. */
  endedAt: string | null;
}

/** One engine's part in the shown request (the reduced one when there is one). */
export interface ReportEngine {
  /** Its dump (geometry and vote cases), absent when it failed or was not asked. */
  dump?: Dump;
  /** The oracle's error for it (code first), when it failed. */
  error?: string;
  /** Its PNG of the 800×600 viewport from the screenshot op, null when there is none. */
  screenshot: Uint8Array | null;
  /** The screenshot op's error for it, when it gave no image. */
  screenshotError?: string;
}

/** A bucket's example case. */
export interface ReportCase {
  /** Its key in the corpus. */
  id: string;
  op: CaseRecord['op'];
  /** The request as the corpus gave it (the journal's text; an invalid item's may not be JSON). */
  request: string;
  /** The reduced request and its signature, when the case was reduced; it is then the one shown. */
  reduced: Pick<Reduction, 'request' | 'signature'> | null;
  /** An invalid item's error (code: message). */
  invalid: string | null;
  /** The geometry vote on the shown request; null for trace, reflect and invalid items. */
  vote: VoteResult | null;
  /** A relayout bucket's example: the engine that failed its relayout check, and the check. */
  relayout?: { engine: EngineName; check: RelayoutResult };
  /** Per engine that was asked: its results for the shown request. */
  engines: Partial<Record<EngineName, ReportEngine>>;
  /** The latest candidate's answer to the shown request, when it gave one. */
  candidate?: ReportCandidate;
  /** A check-layout page's assertions per engine and candidate (the original request's, never a reduction's). */
  authored?: AuthoredFailures[];
}

/** The screenshot op's answer, bytes as bytes. */
export interface Shots {
  images: Partial<Record<EngineName, Uint8Array>>;
  errors?: Partial<Record<EngineName, string>>;
}

/** Takes a case's pictures; the caller decides where (a farm in this process, for the command). */
export type Shoot = (request: ScreenshotRequest) => Promise<Shots>;

/** Everything a report shows. */
export interface ReportInput {
  summary: Summary;
  runs: ReportRun[];
  /** Each bucket's example, by the bucket's signature; a bucket without one gets its section with a note. */
  examples: ReadonlyMap<string, ReportCase>;
  /** Each triage finding's reduced case, by the finding's id (F1), shown above the buckets. */
  findings?: ReadonlyMap<string, ReportCase>;
  /** When the report was made (ISO 8601), shown in its header; given, so rendering stays a pure function. */
  generatedAt: string;
}
