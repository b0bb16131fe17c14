// Triage's tables in the journal (migration 5; docs/triage.md): findings, the cases grouped under
// them, the templates tried on a case in vain, and the cases triage gave up on. A finding is a
// reduced case and its template, of the engines' disagreements or of one candidate's findings (its
// subject); every other disagreeing case of that subject is a member of at most one finding.
//
//   findings          one row per finding: subject, template, signature, outlier, the case it was
//                     reduced from, the reduced request with its vote and outcomes, builds, fonts, size,
//                     the known difference it was marked as
//   finding_members   one row per subject and case: the finding it belongs to, and how
//   triage_tries      a finding's template tried on a case without showing its signature
//   triage_untriaged  a case triage will not try again, and why
//
// Each write is its own statement (a finding and its first member one transaction), so a triage
// stopped at any point is resumed from what it recorded.
import type Database from 'better-sqlite3';
import { dumpJsonText, type CandidateIdentity, type CandidateRecord } from '../loop/candidate-record.js';
import { CANDIDATE_COLUMNS, candidateOfRow, type CandidateRow } from './candidate-rows.js';
import type { CaseRecord, EngineOutcome } from './records.js';

/** Whose disagreements a finding is about: the engines' (their vote), or one candidate's (judged against it). */
export type Subject = 'engines' | CandidateIdentity;

/** A subject as the tables key it. */
export const subjectKey = (s: Subject): string => (s === 'engines' ? 'engines' : JSON.stringify({ name: s.name, version: s.version }));

/** What a new finding records. */
export interface NewFinding {
  subject: Subject;
  template: string;
  signature: string;
  enginesSignature: string | null;
  outlier: string | null;
  /** The case it was reduced from: it is its first member. */
  caseSeq: number;
  reduced: string;
  vote: string | null;
  outcomes: EngineOutcome[];
  candidate: CandidateRecord | null;
  versions: Record<string, string>;
  fonts: string | null;
  elements: number;
}

/** A finding as the journal holds it, with its members' ids in recording order. */
export interface FindingRecord extends Omit<NewFinding, 'subject' | 'caseSeq'> {
  id: number;
  subject: Subject;
  /** The id of the case it was reduced from. */
  caseId: string;
  known: string | null;
  members: string[];
}

/** A disagreeing case triage may take: the engines' (signature) or a candidate's (its record's signature, the engines' beside it). */
export interface TriageCase {
  seq: number;
  record: CaseRecord;
  /** The signature triage keeps: the engines', or the candidate's. */
  signature: string;
  /** A candidate's finding: its outcome. */
  candidate: CandidateRecord | null;
}

interface FindingRow {
  id: number;
  subject: string;
  template: string;
  signature: string;
  engines_signature: string | null;
  outlier: string | null;
  case_id: string;
  reduced: string;
  vote: string | null;
  outcomes: string;
  candidate: string | null;
  versions: string;
  fonts: string | null;
  elements: number;
  known: string | null;
}

/** Cases of the engines' buckets that triage reduces: layout cases where some engine is outvoted or all three part. */
const ENGINE_CASES = `c.signature IS NOT NULL AND c.expected IS NULL AND c.verdict IN ('outlier', 'split') AND c.op IN ('geometry', 'vote')`;
/** A candidate's findings that triage reduces: those with a dump that differs (its other verdicts are no layout). */
const CANDIDATE_CASES = `co.name = ? AND co.version = ? AND co.signature IS NOT NULL AND co.verdict IN ('fail', 'parse_divergence')`;
/** Not yet a member, nor given up on. */
const OPEN = (subject: string) =>
  `NOT EXISTS (SELECT 1 FROM finding_members m WHERE m.subject = ${subject} AND m.case_seq = c.seq)
   AND NOT EXISTS (SELECT 1 FROM triage_untriaged u WHERE u.subject = ${subject} AND u.case_seq = c.seq)`;

export class Findings {
  private readonly statements;

  constructor(
    private readonly db: Database.Database,
    /** A recorded case from its row (journal.ts), outcomes included. */
    private readonly caseOf: (row: { seq: number }) => CaseRecord,
  ) {
    this.statements = {
      insert: db
        .prepare<unknown[], number>(
          `INSERT INTO findings (subject, template, signature, engines_signature, outlier, case_seq, reduced, vote, outcomes,
             candidate, versions, fonts, elements, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
        )
        .pluck(),
      withTemplate: db
        .prepare<[string, string, string | null], number>('SELECT id FROM findings WHERE subject = ? AND template = ? AND outlier IS ?')
        .pluck(),
      addMember: db.prepare('INSERT OR IGNORE INTO finding_members (subject, case_seq, finding, how, instance) VALUES (?, ?, ?, ?, ?)'),
      addTry: db.prepare('INSERT OR IGNORE INTO triage_tries (finding, case_seq) VALUES (?, ?)'),
      tried: db.prepare<[number, number], 1>('SELECT 1 FROM triage_tries WHERE finding = ? AND case_seq = ?').pluck(),
      giveUp: db.prepare('INSERT OR REPLACE INTO triage_untriaged (subject, case_seq, reason) VALUES (?, ?, ?)'),
      list: db.prepare<[], FindingRow>(
        `SELECT f.*, c.id AS case_id FROM findings f JOIN cases c ON c.seq = f.case_seq
         ORDER BY (SELECT COUNT(*) FROM finding_members m WHERE m.finding = f.id) DESC, f.id`,
      ),
      members: db
        .prepare<[number], string>(
          'SELECT c.id FROM finding_members m JOIN cases c ON c.seq = m.case_seq WHERE m.finding = ? ORDER BY c.seq',
        )
        .pluck(),
      markKnown: db.prepare<[string, number]>('UPDATE findings SET known = ? WHERE id = ?'),
      engineCases: db.prepare<[], { seq: number }>(
        `SELECT c.seq FROM cases c WHERE ${ENGINE_CASES} AND ${OPEN("'engines'")}
         ORDER BY (SELECT COUNT(*) FROM cases b WHERE b.signature = c.signature AND b.expected IS NULL) DESC, c.signature, c.seq`,
      ),
      candidateCases: db.prepare<[string, string, string, string], { seq: number } & CandidateRow>(
        `SELECT c.seq, ${CANDIDATE_COLUMNS.split(', ')
          .map((column) => `co.${column}`)
          .join(', ')} FROM candidate_outcomes co JOIN cases c ON c.seq = co.case_seq
         WHERE ${CANDIDATE_CASES} AND ${OPEN('?')}
         ORDER BY (SELECT COUNT(*) FROM candidate_outcomes b WHERE b.name = co.name AND b.version = co.version
           AND b.signature = co.signature) DESC, co.signature, c.seq`,
      ),
      caseRow: db.prepare<[number], { seq: number }>('SELECT * FROM cases WHERE seq = ?'),
      disagreements: db.prepare<[], { outlier: string | null; vote: string }>(
        `SELECT c.outlier, c.vote FROM cases c WHERE ${ENGINE_CASES}`,
      ),
      // Every case of the summary's buckets (its own and self checks) but the invalid, which never ran, and the latest
      // candidate's findings, not in a finding.
      untriaged: db
        .prepare<[string, string, string], string>(
          `SELECT c.id FROM cases c WHERE
             (((c.signature IS NOT NULL AND c.expected IS NULL AND c.invalid IS NULL) OR EXISTS (SELECT 1 FROM self_checks s WHERE s.case_seq = c.seq))
               AND NOT EXISTS (SELECT 1 FROM finding_members m WHERE m.subject = 'engines' AND m.case_seq = c.seq))
             OR EXISTS (SELECT 1 FROM candidate_outcomes co WHERE co.case_seq = c.seq AND co.name = ? AND co.version = ?
               AND co.signature IS NOT NULL
               AND NOT EXISTS (SELECT 1 FROM finding_members m WHERE m.subject = ? AND m.case_seq = c.seq))
           ORDER BY c.seq`,
        )
        .pluck(),
    };
  }

  /** Records a new finding with the case it was reduced from as its first member; its id. */
  add(f: NewFinding, now = Date.now()): number {
    return this.db.transaction(() => {
      const id = this.statements.insert.get(
        subjectKey(f.subject),
        f.template,
        f.signature,
        f.enginesSignature,
        f.outlier,
        f.caseSeq,
        f.reduced,
        f.vote,
        JSON.stringify(f.outcomes),
        f.candidate && JSON.stringify({ ...f.candidate, dump: f.candidate.dump && dumpJsonText(f.candidate.dump) }),
        JSON.stringify(f.versions),
        f.fonts,
        f.elements,
        new Date(now).toISOString(),
      )!;
      this.addMember(id, f.subject, f.caseSeq, 'reduced');
      return id;
    })();
  }

  /** The finding of a subject with this template and outlier, if one is recorded. */
  withTemplate(subject: Subject, template: string, outlier: string | null): number | undefined {
    return this.statements.withTemplate.get(subjectKey(subject), template, outlier);
  }

  /** Puts a case under a finding (once per subject): `reduced`, its own reduction has the finding's template; `instance`, the template's instance in it showed its signature. */
  addMember(finding: number, subject: Subject, caseSeq: number, how: 'reduced' | 'instance', instance?: string): void {
    this.statements.addMember.run(subjectKey(subject), caseSeq, finding, how, instance ?? null);
  }

  /** Records that a finding's template was tried on a case and did not show its signature. */
  addTry(finding: number, caseSeq: number): void {
    this.statements.addTry.run(finding, caseSeq);
  }

  /** Whether a finding's template was tried on a case in vain. */
  tried(finding: number, caseSeq: number): boolean {
    return this.statements.tried.get(finding, caseSeq) !== undefined;
  }

  /** Records that triage gave up on a case, and why; a later triage does not take it again. */
  giveUp(subject: Subject, caseSeq: number, reason: string): void {
    this.statements.giveUp.run(subjectKey(subject), caseSeq, reason);
  }

  /** Marks a finding as a known difference (its id in the known-differences file). */
  markKnown(finding: number, known: string): void {
    this.statements.markKnown.run(known, finding);
  }

  /** Every finding, the largest first. */
  list(): FindingRecord[] {
    return this.statements.list.all().map((r) => ({
      id: r.id,
      subject: r.subject === 'engines' ? 'engines' : (JSON.parse(r.subject) as CandidateIdentity),
      template: r.template,
      signature: r.signature,
      enginesSignature: r.engines_signature,
      outlier: r.outlier,
      caseId: r.case_id,
      reduced: r.reduced,
      vote: r.vote,
      outcomes: JSON.parse(r.outcomes) as EngineOutcome[],
      candidate: r.candidate === null ? null : (JSON.parse(r.candidate) as CandidateRecord),
      versions: JSON.parse(r.versions) as Record<string, string>,
      fonts: r.fonts,
      elements: r.elements,
      known: r.known,
      members: this.statements.members.all(r.id),
    }));
  }

  /** The cases of a subject triage has still to place, the largest bucket's first, each bucket in recording order. */
  *open(subject: Subject): Generator<TriageCase> {
    if (subject === 'engines') {
      for (const { seq } of this.statements.engineCases.all()) {
        const record = this.caseOf(this.statements.caseRow.get(seq)!);
        yield { seq, record, signature: record.signature!, candidate: null };
      }
      return;
    }
    const key = subjectKey(subject);
    for (const row of this.statements.candidateCases.all(subject.name, subject.version, key, key)) {
      const candidate = candidateOfRow(row);
      yield { seq: row.seq, record: this.caseOf(this.statements.caseRow.get(row.seq)!), signature: candidate.signature!, candidate };
    }
  }

  /** The outlier and vote of every case of the engines' buckets that triage takes. */
  disagreements(): { outlier: string | null; vote: string }[] {
    return this.statements.disagreements.all();
  }

  /** The ids of every disagreeing case in no finding: the summary's buckets' cases, and the candidate's findings. */
  untriaged(candidate: CandidateIdentity | undefined): string[] {
    return [...new Set(this.statements.untriaged.all(candidate?.name ?? '', candidate?.version ?? '', subjectKey(candidate ?? 'engines')))];
  }
}
