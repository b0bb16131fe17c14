// The columns and rows of the two tables that hold what a candidate made of a case
// (candidate_outcomes, and reduction_candidates for a reduced case), and a CandidateRecord to and
// from them: journal.ts writes and reads both through these, and so do the tables beside it.
import { errorCode } from '../../comparator/signature.js';
import type { CandidateRecord } from '../loop/candidate-record.js';

/** A candidate_outcomes or reduction_candidates row. */
export interface CandidateRow {
  name: string;
  version: string;
  verdict: CandidateRecord['verdict'];
  signature: string | null;
  sides_with_outlier: number;
  subpixel: number;
  unsupported: string | null;
  error: string | null;
  dump: string | null;
  roots: string | null;
  placed: number | null;
  against: string;
  ms: number | null;
}

export const CANDIDATE_COLUMNS =
  'name, version, verdict, signature, sides_with_outlier, subpixel, unsupported, error_code, error, dump, roots, placed, against, ms';
// A dump's JSON comes as text or as its UTF-8 bytes (DumpJson): stored as text either way.
export const CANDIDATE_VALUES = CANDIDATE_COLUMNS.split(', ')
  .map((column) => (column === 'dump' ? 'CAST(? AS TEXT)' : '?'))
  .join(', ');

/** A candidate record as the values of CANDIDATE_COLUMNS, in order. */
export const candidateValues = (c: CandidateRecord): unknown[] => [
  c.name,
  c.version,
  c.verdict,
  c.signature,
  c.sidesWithOutlier ? 1 : 0,
  c.subpixel ? 1 : 0,
  c.unsupported,
  c.error === null ? null : errorCode(c.error),
  c.error,
  c.dump,
  c.roots === null ? null : JSON.stringify(c.roots),
  c.placed === false ? 0 : null,
  JSON.stringify(c.against),
  c.ms,
];

export const candidateOfRow = (r: CandidateRow): CandidateRecord => ({
  name: r.name,
  version: r.version,
  verdict: r.verdict,
  signature: r.signature,
  sidesWithOutlier: r.sides_with_outlier === 1,
  subpixel: r.subpixel === 1,
  unsupported: r.unsupported,
  error: r.error,
  dump: r.dump,
  roots: r.roots === null ? null : (JSON.parse(r.roots) as number[]),
  ...(r.placed === 0 ? { placed: false as const } : {}),
  against: JSON.parse(r.against) as CandidateRecord['against'],
  ms: r.ms,
});
