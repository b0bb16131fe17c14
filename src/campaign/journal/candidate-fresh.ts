// The journal's candidate_fresh table (migration 7): a candidate's layout from scratch of a case
// with mutations, and its incremental layout held to it (docs/candidate.md, "Mutations"). A
// self-disagreement is a finding of the candidate's beside its answers' own signatures, so the
// candidate's buckets, their first cases and its summary are read over both here.
import type Database from 'better-sqlite3';
import { perDatabase } from './journal-schema.js';
import type { CandidateIdentity, CandidateRecord, FreshRecord } from '../loop/candidate-record.js';
import type { CaseRow } from './records.js';
import { summarizeCandidate, type CandidateSummary, type CandidateVerdictCount, type SummaryBucket } from './summary.js';

/** Each finding of a candidate (name, version): its answers' signatures and its self-disagreements', with the answer's id and case. */
const CANDIDATE_FINDINGS = `SELECT co.signature AS signature, c.id AS example, co.id AS answer, c.seq AS seq FROM candidate_outcomes co
  JOIN cases c ON c.seq = co.case_seq WHERE co.name = @name AND co.version = @version AND co.signature IS NOT NULL
  UNION ALL SELECT cf.signature, c.id, co.id, c.seq FROM candidate_fresh cf
  JOIN candidate_outcomes co ON co.case_seq = cf.case_seq AND co.name = cf.name AND co.version = cf.version
  JOIN cases c ON c.seq = cf.case_seq WHERE cf.name = @name AND cf.version = @version AND cf.signature IS NOT NULL`;

function prepared(db: Database.Database) {
  return {
    insertReduced: db.prepare('INSERT INTO reduction_candidate_fresh (case_seq, verdict, self, signature, dump) VALUES (?, ?, ?, ?, ?)'),
    dropReduced: db.prepare<[number]>('DELETE FROM reduction_candidate_fresh WHERE case_seq = ?'),
    ofReduced: db.prepare<[number], FreshRecord>('SELECT verdict, self, signature, dump FROM reduction_candidate_fresh WHERE case_seq = ?'),
    insert: db.prepare(
      'INSERT OR IGNORE INTO candidate_fresh (case_seq, name, version, verdict, self, signature, dump) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
    of: db.prepare<[number, string, string], FreshRecord>(
      'SELECT verdict, self, signature, dump FROM candidate_fresh WHERE case_seq = ? AND name = ? AND version = ?',
    ),
    selfCounts: db.prepare<[string, string], { self: 'agrees' | 'differs'; count: number }>(
      'SELECT self, COUNT(*) AS count FROM candidate_fresh WHERE name = ? AND version = ? GROUP BY self',
    ),
    verdicts: db.prepare<[string, string], CandidateVerdictCount>(
      `SELECT verdict, COUNT(*) AS count, SUM(sides_with_outlier) AS sidesWithOutlier, SUM(subpixel) AS subpixel
       FROM candidate_outcomes WHERE name = ? AND version = ? GROUP BY verdict`,
    ),
    // As for the engines' buckets: the bare example comes from the row with the MIN(answer), the bucket's first answer.
    buckets: db.prepare<[CandidateIdentity], SummaryBucket>(
      `SELECT signature, COUNT(*) AS count, example, MIN(answer) FROM (${CANDIDATE_FINDINGS}) GROUP BY signature`,
    ),
    firstInBucket: db.prepare<[CandidateIdentity & { signature: string }], CaseRow>(
      `SELECT c.* FROM (${CANDIDATE_FINDINGS}) f JOIN cases c ON c.seq = f.seq WHERE f.signature = @signature ORDER BY f.answer LIMIT 1`,
    ),
  };
}

const of = perDatabase(prepared);

/** Writes a candidate's fresh layout of the case `seq`, when it has one (inside the caller's transaction). */
export function insertFresh(db: Database.Database, seq: number, c: CandidateRecord): void {
  const f = c.fresh;
  if (f) of(db).insert.run(seq, c.name, c.version, f.verdict, f.self, f.signature, f.dump);
}

/** A candidate's record of the case `seq` with its fresh layout, when one was recorded. */
export function withFresh(db: Database.Database, seq: number, record: CandidateRecord): CandidateRecord {
  const fresh = of(db).of.get(seq, record.name, record.version);
  return fresh ? { ...record, fresh } : record;
}

/** Drops the fresh layout stored with the reduction of the case `seq`, then stores `c`'s when it has one (inside the caller's transaction). */
export function replaceReducedFresh(db: Database.Database, seq: number, c: CandidateRecord | undefined): void {
  of(db).dropReduced.run(seq);
  const f = c?.fresh;
  if (f) of(db).insertReduced.run(seq, f.verdict, f.self, f.signature, f.dump);
}

/** The candidate's record of the reduction of the case `seq`, with its fresh layout when one was stored. */
export function withReducedFresh(db: Database.Database, seq: number, record: CandidateRecord): CandidateRecord {
  const fresh = of(db).ofReduced.get(seq);
  return fresh ? { ...record, fresh } : record;
}

/** The summary of a candidate's answers: its verdicts, its buckets (its self-disagreements' among them) and its self checks. */
export function candidateSummary(db: Database.Database, who: CandidateIdentity): CandidateSummary {
  const s = of(db);
  const buckets = s.buckets
    .all({ name: who.name, version: who.version })
    .map(({ signature, count, example }) => ({ signature, count, example }));
  return summarizeCandidate(who, s.verdicts.all(who.name, who.version), buckets, s.selfCounts.all(who.name, who.version));
}

/** The first case judged in a bucket of a candidate's findings (the summary's example), if any. */
export const firstInCandidateBucket = (db: Database.Database, who: CandidateIdentity, signature: string): CaseRow | undefined =>
  of(db).firstInBucket.get({ name: who.name, version: who.version, signature });
