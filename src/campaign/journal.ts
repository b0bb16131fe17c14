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
//
// A case's rows are written in one transaction once it has been voted, so a process killed at
// any point loses only the cases in flight, and a case is never half recorded. WAL mode with
// synchronous=NORMAL: a commit is in the WAL (the OS's page cache) when `record` returns, which
// survives a kill -9 of this process; only an OS crash or power loss can drop the last commits
// (never corrupting the file), and no commit waits for an fsync.
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import type { ClusterVerdict } from '../protocol/vote-schema.js';
import { errorCode } from '../comparator/signature.js';
import type { EngineName } from '../protocol/schema.js';
import type { CorpusOp } from '../protocol/ops.js';
import { CampaignError } from './campaign-error.js';
import { prepare } from './journal-schema.js';
import { summarize, tallyOf, type Summary, type SummaryBucket, type Tally, type VerdictCount } from './summary.js';

/** What a run records about itself when it starts. */
export interface RunInfo {
  command: string[];
  engines: EngineName[];
  versions: Partial<Record<EngineName, string>>;
  fonts: string | null;
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
  /** Epoch milliseconds. */
  startedAt: number;
  elapsedMs: number;
  attempts: number;
}

/** A reduced version of a recorded case, as a report shows it: the request, its signature, and what the engines made of it. */
export interface Reduction {
  request: string;
  signature: string | null;
  /** The reduced case's vote, JSON; null for a reduction stored without one. */
  vote: string | null;
  outcomes: EngineOutcome[];
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
  /** Candidates run on the engines. */
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
  started_at: string;
  ended_at: string | null;
}

const OUTCOME_COLUMNS = 'engine, version, result, error, ms';

export class Journal {
  private run: number | null = null;
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
        `SELECT signature, COUNT(*) AS count, id AS example, MIN(seq) FROM cases
         WHERE signature IS NOT NULL AND expected IS NULL GROUP BY signature`,
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
      runs: db.prepare<[], RunRow>('SELECT command, engines, versions, fonts, started_at, ended_at FROM runs ORDER BY id'),
      runOf: db.prepare<[string, string], RunRow>(
        `SELECT r.command, r.engines, r.versions, r.fonts, r.started_at, r.ended_at FROM runs r JOIN cases c ON c.run = r.id
         WHERE c.id = ? AND c.hash = ?`,
      ),
      addReport: db.prepare('INSERT INTO reports (path, written_at, buckets) VALUES (?, ?, ?)'),
      lastReport: db.prepare<[], string>('SELECT path FROM reports ORDER BY id DESC LIMIT 1').pluck(),
    };
  }

  /**
   * Opens the journal at `path`, creating it when the file does not exist or is empty (unless
   * `mustExist`: then only a journal is opened) and bringing an older schema up to date. Throws
   * a CampaignError for a file that is not a journal, or one written by a newer browser-oracle.
   */
  static open(path: string, { mustExist = false } = {}): Journal {
    if (mustExist && !existsSync(path)) throw new CampaignError(`--db ${path}: no such journal`);
    let db: Database.Database;
    try {
      db = new Database(path);
    } catch (e) {
      throw new CampaignError(`--db ${path}: cannot open it (${(e as Error).message})`);
    }
    try {
      prepare(db, path, mustExist);
      return new Journal(db);
    } catch (e) {
      db.close();
      throw e;
    }
  }

  /** Starts a run: the cases recorded from now on belong to it. */
  startRun(info: RunInfo, now = Date.now()): void {
    const { lastInsertRowid } = this.db
      .prepare('INSERT INTO runs (command, engines, versions, fonts, started_at) VALUES (?, ?, ?, ?, ?)')
      .run(JSON.stringify(info.command), JSON.stringify(info.engines), JSON.stringify(info.versions), info.fonts, iso(now));
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
      return true;
    })();
  }

  /** The counts of every recorded case, for progress. */
  counts(): Tally {
    return tallyOf(summarize(this.statements.verdicts.all(), this.statements.expected.get()!, []));
  }

  /** The summary of every case in the journal, all runs together. */
  summary(): Summary {
    const buckets = this.statements.buckets.all().map(({ signature, count, example }) => ({ signature, count, example }));
    return summarize(this.statements.verdicts.all(), this.statements.expected.get()!, buckets);
  }

  /** Stores a reduction beside a recorded case (replacing an earlier one) in one transaction; false when the case is not recorded. */
  addReduction(key: CaseKey, r: ReductionRecord, now = Date.now()): boolean {
    const seq = this.statements.seqOf.get(key.id, key.hash);
    if (seq === undefined) return false;
    this.db.transaction(() => {
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
    })();
    return true;
  }

  /** The reduction stored for a case, if any. */
  reduction(key: CaseKey): Reduction | undefined {
    const seq = this.statements.seqOf.get(key.id, key.hash);
    const row = seq === undefined ? undefined : this.statements.reduction.get(seq);
    return row && { ...row, outcomes: this.statements.reducedOutcomes.all(seq!) };
  }

  /** Every recorded case with this id (one per content it was recorded with), oldest first. */
  casesWithId(id: string): CaseRecord[] {
    return this.statements.casesWithId.all(id).map((row) => this.caseOf(row));
  }

  /** The first case recorded in a bucket of findings (the summary's example), if any. */
  firstInBucket(signature: string): CaseRecord | undefined {
    const row = this.statements.firstInBucket.get(signature);
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
  startedAt: r.started_at,
  endedAt: r.ended_at,
});

const iso = (ms: number) => new Date(ms).toISOString();
