// The campaign journal: one SQLite file (better-sqlite3) holding every case a campaign ran, so a
// run can be resumed, summarized and triaged later. Tables (docs/campaign.md, "The journal"):
//
//   runs        one row per `campaign` invocation: command line, engines, versions, fonts, times
//   cases       one row per case, unique by (id, hash): the request as given, the vote's verdict,
//               outlier and bucket signature, the matched known difference, timings, attempts
//   outcomes    one row per case and engine: the dump / trace / state as JSON text, or the error
//   reductions  at most one row per case: a reduced request found later, beside the original,
//               with its vote, its sizes before and after, and what the reduction took
//   reduction_outcomes  one row per reduction and engine: the reduced case's dump, or its error
//   reports     one row per report written: where, and when
//   self_checks one row per case and engine that failed its relayout check (held to its own
//               layout from scratch): its bucket signature and the check
//   candidate_outcomes  one row per case and engine under test (name and version): what it made
//               of the case, judged against the engines' vote, with its bucket signature
//   reduction_candidates  at most one row per reduction: the candidate's outcome for the reduced case
//
// A case's rows (its candidate's included) are written in one transaction once it has been voted, so a process killed at
// any point loses only the cases in flight, and a case is never half recorded. WAL mode with
// synchronous=NORMAL: a commit is in the WAL (the OS's page cache) when `record` returns, which
// survives a kill -9 of this process; only an OS crash or power loss can drop the last commits
// (never corrupting the file), and no commit waits for an fsync.
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import type { ClusterVerdict } from '../../protocol/vote-schema.js';
import { errorCode } from '../../comparator/signature.js';
import type { EngineName } from '../../protocol/schema.js';
import type { CorpusOp } from '../../protocol/ops.js';
import { CampaignError } from '../campaign-error.js';
import type { CandidateIdentity, CandidateRecord, FreshRecord } from '../loop/candidate-record.js';
import { journalDamage, prepare, refuseTruncated } from './journal-schema.js';
import { JournalRows } from './journal-rows.js';
import {
  summarize,
  summarizeCandidate,
  tallyOf,
  type CandidateVerdictCount,
  type CaseLine,
  type Summary,
  type SummaryBucket,
  type Tally,
  type VerdictCount,
} from './summary.js';

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

interface CaseRow {
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

interface RunRow {
  command: string;
  engines: string;
  versions: string;
  fonts: string | null;
  candidate: string | null;
  started_at: string;
  ended_at: string | null;
}

/** A candidate_outcomes or reduction_candidates row. */
interface CandidateRow {
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
  against: string;
  ms: number | null;
}

const OUTCOME_COLUMNS = 'engine, version, result, error, ms';
const RUN_COLUMNS = 'r.command, r.engines, r.versions, r.fonts, r.candidate, r.started_at, r.ended_at';
const CANDIDATE_COLUMNS =
  'name, version, verdict, signature, sides_with_outlier, subpixel, unsupported, error_code, error, dump, roots, against, ms';
/** Each finding of a candidate (name, version): its answers' signatures and its self-disagreements', with the answer's id and case. */
const CANDIDATE_FINDINGS = `SELECT co.signature AS signature, c.id AS example, co.id AS answer, c.seq AS seq FROM candidate_outcomes co
  JOIN cases c ON c.seq = co.case_seq WHERE co.name = @name AND co.version = @version AND co.signature IS NOT NULL
  UNION ALL SELECT cf.signature, c.id, co.id, c.seq FROM candidate_fresh cf
  JOIN candidate_outcomes co ON co.case_seq = cf.case_seq AND co.name = cf.name AND co.version = cf.version
  JOIN cases c ON c.seq = cf.case_seq WHERE cf.name = @name AND cf.version = @version AND cf.signature IS NOT NULL`;
const CANDIDATE_VALUES = CANDIDATE_COLUMNS.split(', ')
  .map(() => '?')
  .join(', ');

export class Journal {
  private run: number | null = null;
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
        'INSERT INTO outcomes (case_seq, engine, version, result, error_code, error, ms) VALUES (?, ?, ?, ?, ?, ?, ?)',
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
        'INSERT INTO reduction_outcomes (case_seq, engine, version, result, error_code, error, ms) VALUES (?, ?, ?, ?, ?, ?, ?)',
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
      candidateVerdicts: db.prepare<[string, string], CandidateVerdictCount>(
        `SELECT verdict, COUNT(*) AS count, SUM(sides_with_outlier) AS sidesWithOutlier, SUM(subpixel) AS subpixel
         FROM candidate_outcomes WHERE name = ? AND version = ? GROUP BY verdict`,
      ),
      // As for the engines' buckets: the bare c.id comes from the row with the MIN(co.id), the bucket's first answer.
      candidateBuckets: db.prepare<[CandidateIdentity], SummaryBucket>(
        `SELECT signature, COUNT(*) AS count, example, MIN(answer) FROM (${CANDIDATE_FINDINGS}) GROUP BY signature`,
      ),
      firstInCandidateBucket: db.prepare<[CandidateIdentity & { signature: string }], CaseRow>(
        `SELECT c.* FROM (${CANDIDATE_FINDINGS}) f JOIN cases c ON c.seq = f.seq WHERE f.signature = @signature ORDER BY f.answer LIMIT 1`,
      ),
      insertFresh: db.prepare(
        'INSERT OR IGNORE INTO candidate_fresh (case_seq, name, version, verdict, self, signature, dump) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      freshOf: db.prepare<[number, string, string], FreshRecord>(
        'SELECT verdict, self, signature, dump FROM candidate_fresh WHERE case_seq = ? AND name = ? AND version = ?',
      ),
      selfCounts: db.prepare<[string, string], { self: 'agrees' | 'differs'; count: number }>(
        'SELECT self, COUNT(*) AS count FROM candidate_fresh WHERE name = ? AND version = ? GROUP BY self',
      ),
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
    const fresh = row && this.statements.freshOf.get(seq!, who.name, who.version);
    return row && { ...candidateOfRow(row), ...(fresh ? { fresh } : {}) };
  }

  /**
   * The latest candidate finding recorded for a case (a signature of its own, or its fresh
   * layout's self-disagreement), with the candidate of the run that recorded it (how to start it again).
   */
  candidateFinding(key: CaseKey): { record: CandidateRecord; candidate: RunCandidate } | undefined {
    const seq = this.statements.seqOf.get(key.id, key.hash);
    const row = seq === undefined ? undefined : this.statements.candidateFinding.get(seq);
    if (!row || row.run_candidate === null) return undefined;
    const fresh = this.statements.freshOf.get(seq!, row.name, row.version);
    return { record: { ...candidateOfRow(row), ...(fresh ? { fresh } : {}) }, candidate: JSON.parse(row.run_candidate) as RunCandidate };
  }

  /** Records a candidate's outcome for a case recorded before; false (nothing written) when the case is not recorded or the answer already is. */
  recordCandidate(key: CaseKey, candidate: CandidateRecord): boolean {
    if (this.run === null) throw new Error('Journal.recordCandidate: no run started');
    const seq = this.statements.seqOf.get(key.id, key.hash);
    if (seq === undefined) return false;
    return this.db.transaction(() => this.insertCandidate(seq, candidate))();
  }

  /** A candidate's outcome for the case `seq`, with its fresh layout when it has one; false when one was recorded already. */
  private insertCandidate(seq: number, c: CandidateRecord): boolean {
    if (this.statements.insertCandidate.run(seq, this.run, ...candidateValues(c)).changes !== 1) return false;
    const f = c.fresh;
    if (f) this.statements.insertFresh.run(seq, c.name, c.version, f.verdict, f.self, f.signature, f.dump);
    return true;
  }

  /** The engines' outcomes recorded for a case (none when it is not recorded). */
  outcomesOf(key: CaseKey): EngineOutcome[] {
    const seq = this.statements.seqOf.get(key.id, key.hash);
    return seq === undefined ? [] : this.statements.outcomes.all(seq);
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
      };
    }
  }

  /** The first case judged in a bucket of a candidate's findings (the summary's example), if any. */
  firstInCandidateBucket(who: CandidateIdentity, signature: string): CaseRecord | undefined {
    const row = this.statements.firstInCandidateBucket.get({ name: who.name, version: who.version, signature });
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
    if (!who) return summary;
    const candidateBuckets = this.statements.candidateBuckets
      .all({ name: who.name, version: who.version })
      .map(({ signature, count, example }) => ({ signature, count, example }));
    return {
      ...summary,
      candidate: summarizeCandidate(
        who,
        this.statements.candidateVerdicts.all(who.name, who.version),
        candidateBuckets,
        this.statements.selfCounts.all(who.name, who.version),
      ),
    };
  }

  /** Stores a reduction beside a recorded case (replacing an earlier one) in one transaction; false when the case is not recorded. */
  addReduction(key: CaseKey, r: ReductionRecord, now = Date.now()): boolean {
    const seq = this.statements.seqOf.get(key.id, key.hash);
    if (seq === undefined) return false;
    this.db.transaction(() => {
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
    })();
    return true;
  }

  /** The reduction stored for a case, if any. */
  reduction(key: CaseKey): Reduction | undefined {
    const seq = this.statements.seqOf.get(key.id, key.hash);
    const row = seq === undefined ? undefined : this.statements.reduction.get(seq);
    if (!row) return undefined;
    const candidate = this.statements.reducedCandidate.get(seq!);
    return { ...row, outcomes: this.statements.reducedOutcomes.all(seq!), ...(candidate ? { candidate: candidateOfRow(candidate) } : {}) };
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
    statement.run(seq, o.engine, o.version, o.result, o.error === null ? null : errorCode(o.error), o.error, o.ms);
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

const runRecord = (r: RunRow): RunRecord => ({
  command: JSON.parse(r.command) as string[],
  engines: JSON.parse(r.engines) as EngineName[],
  versions: JSON.parse(r.versions) as Partial<Record<EngineName, string>>,
  fonts: r.fonts,
  candidate: r.candidate === null ? null : (JSON.parse(r.candidate) as RunCandidate),
  startedAt: r.started_at,
  endedAt: r.ended_at,
});

/** A candidate record as the values of CANDIDATE_COLUMNS, in order. */
const candidateValues = (c: CandidateRecord): unknown[] => [
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
  JSON.stringify(c.against),
  c.ms,
];

const candidateOfRow = (r: CandidateRow): CandidateRecord => ({
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
  against: JSON.parse(r.against) as CandidateRecord['against'],
  ms: r.ms,
});

const iso = (ms: number) => new Date(ms).toISOString();
