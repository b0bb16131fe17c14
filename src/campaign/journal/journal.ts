// The campaign journal: one SQLite file (better-sqlite3) holding every case a campaign ran, so a
// run can be resumed, summarized and triaged later. Its tables are journal-schema.ts's migrations
// (runs, cases, outcomes, reductions, reports, self checks, the candidate's outcomes, triage's
// findings, check-layout assertions), described in docs/campaign.md, "The journal"; this class
// reads and writes the core ones, beside findings.ts, authored-rows.ts and journal-rows.ts.
//
// A case's rows (its candidate's included) are written in one transaction once it has been voted, so a process killed at
// any point loses only the cases in flight, and a case is never half recorded. WAL mode with
// synchronous=NORMAL: a commit is in the WAL (the OS's page cache) when `record` returns, which
// survives a kill -9 of this process; only an OS crash or power loss can drop the last commits
// (never corrupting the file), and no commit waits for an fsync.
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { errorCode } from '../../comparator/signature.js';
import { CampaignError } from '../campaign-error.js';
import type { CandidateIdentity, CandidateRecord } from '../loop/candidate-record.js';
import {
  candidateSummary,
  firstInCandidateBucket,
  insertFresh,
  replaceReducedFresh,
  withFresh,
  withReducedFresh,
} from './candidate-fresh.js';
import { journalDamage, prepare, refuseTruncated } from './journal-schema.js';
import { authoredFailures, caseAuthored, insertAuthored, wptSummary, type AuthoredFailures } from './authored-rows.js';
import { JournalRows } from './journal-rows.js';
import {
  type CaseKey,
  type CaseRecord,
  type CaseRow,
  type EngineOutcome,
  type Reduction,
  type ReductionRecord,
  type RunCandidate,
  type RunInfo,
  type RunRecord,
  runRecord,
  type RunRow,
  type SelfCheck,
} from './records.js';
import { CANDIDATE_COLUMNS, CANDIDATE_VALUES, candidateOfRow, candidateValues, type CandidateRow } from './candidate-rows.js';
import { Findings } from './findings.js';
import { summarize, tallyOf, type CaseLine, type Summary, type SummaryBucket, type Tally, type VerdictCount } from './summary.js';

export type {
  CaseKey,
  CaseRecord,
  CaseSize,
  EngineOutcome,
  Reduction,
  ReductionRecord,
  RunCandidate,
  RunInfo,
  RunRecord,
  SelfCheck,
} from './records.js';

const OUTCOME_COLUMNS = 'engine, version, result, error, ms, authored, scrollbars';
const RUN_COLUMNS = 'r.command, r.engines, r.versions, r.fonts, r.candidate, r.started_at, r.ended_at';

export class Journal {
  private run: number | null = null;
  private findingsTables: Findings | undefined;
  private journalRows: JournalRows | undefined;
  private readonly statements;

  private constructor(private readonly db: Database.Database) {
    this.statements = {
      has: db.prepare<[string, string], 1>('SELECT 1 FROM cases WHERE id = ? AND hash = ?').pluck(),
      insertCase: db
        .prepare<unknown[], number>(
          `INSERT OR IGNORE INTO cases (id, hash, run, op, request, invalid, verdict, outlier, signature, expected, vote, started_at, elapsed_ms, attempts)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING seq`,
        )
        .pluck(),
      insertOutcome: db.prepare(
        'INSERT INTO outcomes (case_seq, engine, version, result, error_code, error, ms, authored, scrollbars) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      verdicts: db.prepare<[], VerdictCount>('SELECT verdict, outlier, COUNT(*) AS count FROM cases GROUP BY verdict, outlier'),
      expected: db.prepare<[], number>('SELECT COUNT(*) FROM cases WHERE expected IS NOT NULL').pluck(),
      // SQLite gives the bare column `id` from the row that has the MIN(seq): the bucket's first case.
      buckets: db.prepare<[], SummaryBucket>(
        `SELECT signature, COUNT(*) AS count, id AS example, MIN(seq) FROM (
           SELECT signature, id, seq FROM cases WHERE signature IS NOT NULL AND expected IS NULL
           UNION ALL SELECT s.signature, c.id, c.seq FROM self_checks s JOIN cases c ON c.seq = s.case_seq
         ) GROUP BY signature`,
      ),
      insertSelfCheck: db.prepare('INSERT INTO self_checks (case_seq, engine, signature, result) VALUES (?, ?, ?, ?)'),
      selfChecks: db.prepare<[number], SelfCheck>('SELECT engine, signature, result FROM self_checks WHERE case_seq = ? ORDER BY engine'),
      firstSelfInBucket: db.prepare<[string], CaseRow>(
        'SELECT c.* FROM self_checks s JOIN cases c ON c.seq = s.case_seq WHERE s.signature = ? ORDER BY c.seq LIMIT 1',
      ),
      seqOf: db.prepare<[string, string], number>('SELECT seq FROM cases WHERE id = ? AND hash = ?').pluck(),
      casesWithId: db.prepare<[string], CaseRow>('SELECT * FROM cases WHERE id = ? ORDER BY seq'),
      firstInBucket: db.prepare<[string], CaseRow>('SELECT * FROM cases WHERE signature = ? AND expected IS NULL ORDER BY seq LIMIT 1'),
      outcomes: db.prepare<[number], EngineOutcome>(`SELECT ${OUTCOME_COLUMNS} FROM outcomes WHERE case_seq = ? ORDER BY engine`),
      dropReducedOutcomes: db.prepare<[number]>('DELETE FROM reduction_outcomes WHERE case_seq = ?'),
      reduce: db.prepare(
        `INSERT OR REPLACE INTO reductions (case_seq, request, signature, reduced_at, vote, before_nodes, after_nodes,
           before_bytes, after_bytes, tests, elapsed_ms, stopped, one_minimal) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      insertReducedOutcome: db.prepare(
        `INSERT INTO reduction_outcomes (case_seq, engine, version, result, error_code, error, ms, authored, scrollbars)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      reduction: db.prepare<[number], Omit<Reduction, 'outcomes'>>('SELECT request, signature, vote FROM reductions WHERE case_seq = ?'),
      reducedOutcomes: db.prepare<[number], EngineOutcome>(
        `SELECT ${OUTCOME_COLUMNS} FROM reduction_outcomes WHERE case_seq = ? ORDER BY engine`,
      ),
      runs: db.prepare<[], RunRow>(`SELECT ${RUN_COLUMNS} FROM runs r ORDER BY id`),
      runOf: db.prepare<[string, string], RunRow>(
        `SELECT ${RUN_COLUMNS} FROM runs r JOIN cases c ON c.run = r.id WHERE c.id = ? AND c.hash = ?`,
      ),
      addReport: db.prepare('INSERT INTO reports (path, written_at, buckets) VALUES (?, ?, ?)'),
      lastReport: db.prepare<[], string>('SELECT path FROM reports ORDER BY id DESC LIMIT 1').pluck(),
      insertCandidate: db.prepare(
        `INSERT OR IGNORE INTO candidate_outcomes (case_seq, run, ${CANDIDATE_COLUMNS}) VALUES (?, ?, ${CANDIDATE_VALUES})`,
      ),
      candidateOf: db.prepare<[number, string, string], CandidateRow>(
        `SELECT ${CANDIDATE_COLUMNS} FROM candidate_outcomes WHERE case_seq = ? AND name = ? AND version = ?`,
      ),
      // The candidate a summary is of: the one whose answer was recorded last.
      latestCandidate: db.prepare<[], CandidateIdentity>('SELECT name, version FROM candidate_outcomes ORDER BY id DESC LIMIT 1'),
      candidateFinding: db.prepare<[number], CandidateRow & { run_candidate: string | null }>(
        `SELECT ${CANDIDATE_COLUMNS.split(', ')
          .map((c) => `co.${c}`)
          .join(', ')}, r.candidate AS run_candidate FROM candidate_outcomes co JOIN runs r ON r.id = co.run
         LEFT JOIN candidate_fresh cf ON cf.case_seq = co.case_seq AND cf.name = co.name AND cf.version = co.version
         WHERE co.case_seq = ? AND (co.signature IS NOT NULL OR cf.signature IS NOT NULL) ORDER BY co.id DESC LIMIT 1`,
      ),
      dropReducedCandidate: db.prepare<[number]>('DELETE FROM reduction_candidates WHERE case_seq = ?'),
      insertReducedCandidate: db.prepare(
        `INSERT INTO reduction_candidates (case_seq, ${CANDIDATE_COLUMNS}) VALUES (?, ${CANDIDATE_VALUES})`,
      ),
      reducedCandidate: db.prepare<[number], CandidateRow>(`SELECT ${CANDIDATE_COLUMNS} FROM reduction_candidates WHERE case_seq = ?`),
    };
  }

  /**
   * Opens the journal at `path`, creating it when the file does not exist or is empty (unless
   * `mustExist`: then only a journal is opened) and bringing an older schema up to date. With
   * `readonly`, only an existing journal of this schema is opened, and nothing is written to it.
   * Throws a CampaignError, its message starting with `label` (`--db PATH` unless given), for a
   * file that is not a journal, is cut short, or was written by a newer browser-oracle.
   */
  static open(path: string, { mustExist = false, readonly = false, label = `--db ${path}` } = {}): Journal {
    if ((mustExist || readonly) && !existsSync(path)) throw new CampaignError(`${label}: no such journal`);
    if (mustExist || readonly) refuseTruncated(path, label);
    let db: Database.Database;
    try {
      db = new Database(path, readonly ? { readonly: true, fileMustExist: true } : {});
    } catch (e) {
      throw new CampaignError(`${label}: cannot open it (${(e as Error).message})`);
    }
    try {
      prepare(db, path, label, { mustExist: mustExist || readonly, readonly });
      return new Journal(db);
    } catch (e) {
      db.close();
      const damage = journalDamage(e);
      throw damage ? new CampaignError(`--db ${path}: ${damage}`) : e;
    }
  }

  /** Triage's tables (findings.ts), on this journal's connection. */
  findings(): Findings {
    this.findingsTables ??= new Findings(this.db, (row) => this.caseOf(row as CaseRow));
    return this.findingsTables;
  }

  /** The read-only queries of diff, summary's result files and export (journal-rows.ts), on this journal's connection. */
  rows(): JournalRows {
    this.journalRows ??= new JournalRows(this.db);
    return this.journalRows;
  }

  /** Starts a run: the cases recorded from now on belong to it. */
  startRun(info: RunInfo, now = Date.now()): void {
    const { lastInsertRowid } = this.db
      .prepare('INSERT INTO runs (command, engines, versions, fonts, candidate, started_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(
        JSON.stringify(info.command),
        JSON.stringify(info.engines),
        JSON.stringify(info.versions),
        info.fonts,
        info.candidate ? JSON.stringify(info.candidate) : null,
        iso(now),
      );
    this.run = Number(lastInsertRowid);
  }

  /** Marks the current run as ended (a killed run keeps ended_at null). */
  endRun(now = Date.now()): void {
    if (this.run !== null) this.db.prepare('UPDATE runs SET ended_at = ? WHERE id = ?').run(iso(now), this.run);
  }

  /** Whether this case (same id, same content) is already recorded. */
  has(key: CaseKey): boolean {
    return this.statements.has.get(key.id, key.hash) !== undefined;
  }

  /** Records a case and its outcomes in one transaction; false (and nothing written) when it was already recorded. */
  record(c: CaseRecord): boolean {
    if (this.run === null) throw new Error('Journal.record: no run started');
    return this.db.transaction(() => {
      const seq = this.statements.insertCase.get(
        c.id,
        c.hash,
        this.run,
        c.op,
        c.request,
        c.invalid,
        c.verdict,
        c.outlier,
        c.signature,
        c.expected,
        c.vote,
        iso(c.startedAt),
        c.elapsedMs,
        c.attempts,
      );
      if (seq === undefined) return false;
      for (const o of c.outcomes) this.insertOutcome(this.statements.insertOutcome, seq, o);
      for (const f of c.selfChecks ?? []) this.statements.insertSelfCheck.run(seq, f.engine, f.signature, f.result);
      if (c.authored) insertAuthored(this.db, seq, c.authored.records, c.authored.finding);
      if (c.candidate) this.insertCandidate(seq, c.candidate);
      return true;
    })();
  }

  /** Whether this candidate (same name, same version) has an answer recorded for this case. */
  hasCandidate(key: CaseKey, who: CandidateIdentity): boolean {
    return this.candidate(key, who) !== undefined;
  }

  /** A candidate's recorded outcome for a case, if any. */
  candidate(key: CaseKey, who: CandidateIdentity): CandidateRecord | undefined {
    const seq = this.statements.seqOf.get(key.id, key.hash);
    const row = seq === undefined ? undefined : this.statements.candidateOf.get(seq, who.name, who.version);
    return row && withFresh(this.db, seq!, candidateOfRow(row));
  }

  /**
   * The latest candidate finding recorded for a case (a signature of its own, or its fresh
   * layout's self-disagreement), with the candidate of the run that recorded it (how to start it again).
   */
  candidateFinding(key: CaseKey): { record: CandidateRecord; candidate: RunCandidate } | undefined {
    const seq = this.statements.seqOf.get(key.id, key.hash);
    const row = seq === undefined ? undefined : this.statements.candidateFinding.get(seq);
    if (!row || row.run_candidate === null) return undefined;
    return { record: withFresh(this.db, seq!, candidateOfRow(row)), candidate: JSON.parse(row.run_candidate) as RunCandidate };
  }

  /** Records a candidate's outcome for a case recorded before; false (nothing written) when the case is not recorded or the answer already is. */
  recordCandidate(key: CaseKey, candidate: CandidateRecord): boolean {
    if (this.run === null) throw new Error('Journal.recordCandidate: no run started');
    const seq = this.statements.seqOf.get(key.id, key.hash);
    if (seq === undefined) return false;
    return this.db.transaction(() => this.insertCandidate(seq, candidate))();
  }

  /** A candidate's outcome for the case `seq`, with its fresh layout and its authored assertions when it has them; false when one was recorded already. */
  private insertCandidate(seq: number, c: CandidateRecord): boolean {
    if (this.statements.insertCandidate.run(seq, this.run, ...candidateValues(c)).changes !== 1) return false;
    insertFresh(this.db, seq, c);
    if (c.authored) insertAuthored(this.db, seq, [c.authored]);
    return true;
  }

  /** The engines' outcomes recorded for a case (none when it is not recorded). */
  outcomesOf(key: CaseKey): EngineOutcome[] {
    const seq = this.statements.seqOf.get(key.id, key.hash);
    return seq === undefined ? [] : this.statements.outcomes.all(seq);
  }

  /** A check-layout page's assertions per subject (src/report shows its failures). */
  authored(key: CaseKey): AuthoredFailures[] {
    return authoredFailures(this.db, key.id, key.hash);
  }

  /** The candidate a summary is of: the one whose answer was recorded last; undefined when none was. */
  latestCandidate(): CandidateIdentity | undefined {
    return this.statements.latestCandidate.get();
  }

  /** Every recorded case in recording order, as `summary --cases` prints it, with the latest candidate's outcome (read as iterated). */
  *caseLines(): Generator<CaseLine> {
    for (const r of this.rows().cases(this.latestCandidate())) {
      const c = r.candidate;
      yield {
        id: r.id,
        vote: r.verdict,
        outlier: r.outlier,
        signature: r.signature,
        candidate:
          c === null
            ? null
            : {
                verdict: c.verdict,
                signature: c.signature,
                ...(c.unsupported === null ? {} : { unsupported: c.unsupported }),
                ...(c.self === null ? {} : { self: c.self }),
              },
        ...caseAuthored(this.db, r.seq, this.latestCandidate()),
      };
    }
  }

  /** The first case judged in a bucket of a candidate's findings (the summary's example), if any. */
  firstInCandidateBucket(who: CandidateIdentity, signature: string): CaseRecord | undefined {
    const row = firstInCandidateBucket(this.db, who, signature);
    return row && this.caseOf(row);
  }

  /** The counts of every recorded case, for progress. */
  counts(): Tally {
    return tallyOf(summarize(this.statements.verdicts.all(), this.statements.expected.get()!, []));
  }

  /** The summary of every case in the journal, all runs together, with the latest candidate's when one was judged. */
  summary(): Summary {
    const buckets = this.statements.buckets.all().map(({ signature, count, example }) => ({ signature, count, example }));
    const summary = summarize(this.statements.verdicts.all(), this.statements.expected.get()!, buckets);
    const who = this.latestCandidate();
    const wpt = wptSummary(this.db, who);
    if (wpt) summary.wpt = wpt;
    return who ? { ...summary, candidate: candidateSummary(this.db, who) } : summary;
  }

  /** Stores a reduction beside a recorded case (replacing an earlier one) in one transaction; false when the case is not recorded. */
  addReduction(key: CaseKey, r: ReductionRecord, now = Date.now()): boolean {
    const seq = this.statements.seqOf.get(key.id, key.hash);
    if (seq === undefined) return false;
    this.db.transaction(() => {
      replaceReducedFresh(this.db, seq, undefined);
      this.statements.dropReducedCandidate.run(seq);
      this.statements.dropReducedOutcomes.run(seq);
      this.statements.reduce.run(
        seq,
        r.request,
        r.signature,
        iso(now),
        r.vote,
        r.before.nodes,
        r.after.nodes,
        r.before.bytes,
        r.after.bytes,
        r.tests,
        r.elapsedMs,
        r.stopped,
        r.oneMinimal ? 1 : 0,
      );
      for (const o of r.outcomes) this.insertOutcome(this.statements.insertReducedOutcome, seq, o);
      if (r.candidate) this.statements.insertReducedCandidate.run(seq, ...candidateValues(r.candidate));
      replaceReducedFresh(this.db, seq, r.candidate);
    })();
    return true;
  }

  /** The reduction stored for a case, if any. */
  reduction(key: CaseKey): Reduction | undefined {
    const seq = this.statements.seqOf.get(key.id, key.hash);
    const row = seq === undefined ? undefined : this.statements.reduction.get(seq);
    if (!row) return undefined;
    const candidate = this.statements.reducedCandidate.get(seq!);
    const withCandidate = candidate ? { candidate: withReducedFresh(this.db, seq!, candidateOfRow(candidate)) } : {};
    return { ...row, outcomes: this.statements.reducedOutcomes.all(seq!), ...withCandidate };
  }

  /** Every recorded case with this id (one per content it was recorded with), oldest first. */
  casesWithId(id: string): CaseRecord[] {
    return this.statements.casesWithId.all(id).map((row) => this.caseOf(row));
  }

  /** The first case recorded in a bucket of findings (the summary's example), if any. */
  firstInBucket(signature: string): CaseRecord | undefined {
    const row = this.statements.firstInBucket.get(signature) ?? this.statements.firstSelfInBucket.get(signature);
    return row && this.caseOf(row);
  }

  /** Every run, oldest first. */
  runs(): RunRecord[] {
    return this.statements.runs.all().map(runRecord);
  }

  /** The run that recorded a case (what it ran with: engines, fonts). */
  runOf(key: CaseKey): RunRecord | undefined {
    const row = this.statements.runOf.get(key.id, key.hash);
    return row && runRecord(row);
  }

  /** Records that a report of `buckets` buckets was written to `path` (absolute). */
  addReport(path: string, buckets: number, now = Date.now()): void {
    this.statements.addReport.run(path, iso(now), buckets);
  }

  /** Where the last report of this journal was written, while that file exists. */
  lastReport(): string | undefined {
    const path = this.statements.lastReport.get();
    return path !== undefined && existsSync(path) ? path : undefined;
  }

  /**
   * Whether this connection checkpoints the WAL itself as it grows (SQLite's default: every
   * 1000 pages). A campaign turns it off while a Checkpointer does it from another thread.
   */
  autoCheckpoint(on: boolean): void {
    this.db.pragma(`wal_autocheckpoint = ${on ? 1000 : 0}`);
  }

  close(): void {
    this.db.close();
  }

  private insertOutcome(statement: Database.Statement, seq: number, o: EngineOutcome): void {
    const { engine, version, result, error, ms, authored = null, scrollbars = null } = o;
    statement.run(seq, engine, version, result, error === null ? null : errorCode(error), error, ms, authored, scrollbars);
  }

  private caseOf(row: CaseRow): CaseRecord {
    return {
      id: row.id,
      hash: row.hash,
      op: row.op,
      request: row.request,
      invalid: row.invalid,
      outcomes: this.statements.outcomes.all(row.seq),
      verdict: row.verdict,
      outlier: row.outlier,
      signature: row.signature,
      expected: row.expected,
      vote: row.vote,
      selfChecks: this.statements.selfChecks.all(row.seq),
      startedAt: Date.parse(row.started_at),
      elapsedMs: row.elapsed_ms,
      attempts: row.attempts,
    };
  }
}

const iso = (ms: number) => new Date(ms).toISOString();
