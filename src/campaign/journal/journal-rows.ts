// Read-only queries over a whole journal, one row per case, for what reads every case at once:
// `summary --cases`, `diff` (src/campaign/diff), and summary's JUnit and wptreport files
// (src/campaign/results). Rows come in recording order and are read as iterated, so a large
// journal is never held whole.
import type Database from 'better-sqlite3';
import type { CandidateVerdict } from '../../comparator/candidate.js';
import type { CorpusOp } from '../../protocol/ops.js';
import type { EngineName } from '../../protocol/schema.js';
import type { ClusterVerdict } from '../../protocol/vote-schema.js';
import type { CandidateIdentity } from '../loop/candidate-record.js';

/** One recorded case as these readers need it: its key, its vote and bucket, and one candidate's outcome. */
export interface CaseRow {
  /** Recording order. */
  seq: number;
  id: string;
  hash: string;
  op: CorpusOp | null;
  /** An invalid item's error (code: message); its op and verdict are null. */
  invalid: string | null;
  verdict: ClusterVerdict | null;
  outlier: EngineName | null;
  signature: string | null;
  /** The known difference it matched. */
  expected: string | null;
  elapsedMs: number;
  /** The candidate's outcome, when the candidate in question answered this case. */
  candidate: CandidateRowPart | null;
}

interface CandidateRowPart {
  verdict: CandidateVerdict;
  signature: string | null;
  unsupported: string | null;
  error: string | null;
  /** For a case with mutations: the candidate's incremental dump against its fresh one. */
  self: 'agrees' | 'differs' | null;
}

/** One engine's part in a case, as wptreport reads it. */
export interface EngineRow {
  version: string | null;
  error: string | null;
  /** The engine's trace (JSON), for a trace case; null for any other op. */
  trace: string | null;
  /** The vote (JSON), for an insufficient case (it says why each engine did not vote); null otherwise. */
  vote: string | null;
}

/** A row as SQLite gives it: the case's columns, then the candidate's, prefixed. */
type RawCaseRow = Omit<CaseRow, 'elapsedMs' | 'candidate'> & {
  elapsed_ms: number;
  candidate_verdict: CandidateVerdict | null;
  candidate_signature: string | null;
  candidate_unsupported: string | null;
  candidate_error: string | null;
  candidate_self: 'agrees' | 'differs' | null;
};

export class JournalRows {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      cases: db.prepare<[CandidateIdentity], RawCaseRow>(
        `SELECT c.seq, c.id, c.hash, c.op, c.invalid, c.verdict, c.outlier, c.signature, c.expected, c.elapsed_ms,
           co.verdict AS candidate_verdict, co.signature AS candidate_signature, co.unsupported AS candidate_unsupported,
           co.error AS candidate_error, cf.self AS candidate_self
         FROM cases c LEFT JOIN candidate_outcomes co ON co.case_seq = c.seq AND co.name = @name AND co.version = @version
         LEFT JOIN candidate_fresh cf ON cf.case_seq = c.seq AND cf.name = @name AND cf.version = @version ORDER BY c.seq`,
      ),
      builds: db.prepare<[], { seq: number; engine: EngineName; version: string }>(
        'SELECT case_seq AS seq, engine, version FROM outcomes WHERE version IS NOT NULL',
      ),
      engineBuilds: db.prepare<[], { engine: EngineName; version: string }>(
        'SELECT DISTINCT engine, version FROM outcomes WHERE version IS NOT NULL ORDER BY engine, version',
      ),
      engine: db.prepare<[string], EngineRow & { seq: number }>(
        `SELECT c.seq, o.version, o.error, CASE WHEN c.op = 'trace' THEN o.result END AS trace,
           CASE WHEN c.verdict = 'insufficient' THEN c.vote END AS vote
         FROM cases c JOIN outcomes o ON o.case_seq = c.seq AND o.engine = ?`,
      ),
      span: db.prepare<[], { start: string | null; end: string | null }>('SELECT MIN(started_at) AS start, MAX(ended_at) AS end FROM runs'),
    };
  }

  /** Every recorded case in recording order, with `who`'s outcome (none without a candidate). */
  *cases(who: CandidateIdentity | undefined): Generator<CaseRow> {
    for (const r of this.statements.cases.iterate({ name: who?.name ?? '', version: who?.version ?? '' })) {
      yield {
        seq: r.seq,
        id: r.id,
        hash: r.hash,
        op: r.op,
        invalid: r.invalid,
        verdict: r.verdict,
        outlier: r.outlier,
        signature: r.signature,
        expected: r.expected,
        elapsedMs: r.elapsed_ms,
        candidate:
          r.candidate_verdict === null
            ? null
            : {
                verdict: r.candidate_verdict,
                signature: r.candidate_signature,
                unsupported: r.candidate_unsupported,
                error: r.candidate_error,
                self: r.candidate_self,
              },
      };
    }
  }

  /** Per case (by seq), the build of each engine that answered it. */
  caseBuilds(): Map<number, Partial<Record<EngineName, string>>> {
    const builds = new Map<number, Partial<Record<EngineName, string>>>();
    for (const { seq, engine, version } of this.statements.builds.iterate()) {
      const of = builds.get(seq) ?? {};
      of[engine] = version;
      builds.set(seq, of);
    }
    return builds;
  }

  /** Every build of each engine that answered a case, in code-unit order. */
  engineBuilds(): Partial<Record<EngineName, string[]>> {
    const builds: Partial<Record<EngineName, string[]>> = {};
    for (const { engine, version } of this.statements.engineBuilds.iterate()) builds[engine] = [...(builds[engine] ?? []), version];
    return builds;
  }

  /** Per case (by seq), one engine's outcome; a case it was not asked is missing. */
  engineRows(engine: EngineName): Map<number, EngineRow> {
    const rows = new Map<number, EngineRow>();
    for (const { seq, ...row } of this.statements.engine.iterate(engine)) rows.set(seq, row);
    return rows;
  }

  /** When the first run started and the last one ended (ISO 8601; null when none did). */
  span(): { start: string | null; end: string | null } {
    return this.statements.span.get()!;
  }
}
