// The campaign journal: one SQLite file (better-sqlite3) holding every case a campaign ran, so a
// run can be resumed, summarized and triaged later. Tables (docs/campaign.md, "The journal"):
//
//   runs        one row per `campaign` invocation: command line, engines, versions, fonts, times
//   cases       one row per case, unique by (id, hash): the request as given, the vote's verdict,
//               outlier and bucket signature, the matched known difference, timings, attempts
//   outcomes    one row per case and engine: the dump / trace / state as JSON text, or the error
//   reductions  at most one row per case: a reduced request found later, beside the original
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
import { CampaignError } from './campaign-error.js';
import { summarize, tallyOf, type Summary, type SummaryBucket, type Tally, type VerdictCount } from './summary.js';

/** `PRAGMA application_id` of a journal ("BrOr"), so any other SQLite file is refused. */
const APPLICATION_ID = 0x42724f72;

/**
 * The schema, as the migrations that build it: entry i takes user_version i to i + 1. A change
 * is a new entry appended here; an entry that has shipped is never edited.
 */
const MIGRATIONS = [
  `CREATE TABLE runs (
     id          INTEGER PRIMARY KEY,
     command     TEXT NOT NULL,            -- JSON array: the command line
     engines     TEXT NOT NULL,            -- JSON array of engine names
     versions    TEXT NOT NULL,            -- JSON object: engine -> version
     fonts       TEXT,                     -- liberation | square | null (not said)
     started_at  TEXT NOT NULL,            -- ISO 8601, UTC
     ended_at    TEXT                      -- null while running, or when the run was killed
   );
   CREATE TABLE cases (
     seq         INTEGER PRIMARY KEY,      -- recording order
     id          TEXT NOT NULL,            -- the case's key in its corpus
     hash        TEXT NOT NULL,            -- sha256 of the canonical request without its id
     run         INTEGER NOT NULL REFERENCES runs(id),
     op          TEXT,                     -- geometry | vote | trace | reflect; null: invalid item
     request     TEXT NOT NULL,            -- as the corpus gave it
     invalid     TEXT,                     -- an invalid item's error (code: message)
     verdict     TEXT,                     -- unanimous | outlier | split | insufficient; null: invalid
     outlier     TEXT,
     signature   TEXT,                     -- bucket signature; null when unanimous
     expected    TEXT,                     -- id of the known difference it matched
     vote        TEXT,                     -- the vote result, JSON
     started_at  TEXT NOT NULL,
     elapsed_ms  REAL NOT NULL,            -- from submitting the case to its vote
     attempts    INTEGER NOT NULL,
     UNIQUE (id, hash)
   );
   CREATE INDEX cases_by_signature ON cases (signature, seq) WHERE signature IS NOT NULL AND expected IS NULL;
   CREATE TABLE outcomes (
     case_seq    INTEGER NOT NULL REFERENCES cases(seq),
     engine      TEXT NOT NULL,
     version     TEXT,                     -- engine_version of the result
     result      TEXT,                     -- the dump, trace or state, JSON; null on error
     error_code  TEXT,
     error       TEXT,                     -- the oracle's message, code first
     ms          REAL,                     -- in-page time, when the response carried it
     PRIMARY KEY (case_seq, engine)
   ) WITHOUT ROWID;
   CREATE TABLE reductions (
     case_seq    INTEGER PRIMARY KEY REFERENCES cases(seq),
     request     TEXT NOT NULL,            -- the reduced request, JSON
     signature   TEXT,                     -- the reduced case's bucket signature
     reduced_at  TEXT NOT NULL
   );`,
];

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
  op: 'geometry' | 'vote' | 'trace' | 'reflect' | null;
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

/** A reduced version of a recorded case. */
export interface Reduction {
  request: string;
  signature: string | null;
}

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
      reduce: db.prepare('INSERT OR REPLACE INTO reductions (case_seq, request, signature, reduced_at) VALUES (?, ?, ?, ?)'),
      reduction: db.prepare<[number], Reduction>('SELECT request, signature FROM reductions WHERE case_seq = ?'),
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
      for (const o of c.outcomes) {
        this.statements.insertOutcome.run(seq, o.engine, o.version, o.result, o.error === null ? null : errorCode(o.error), o.error, o.ms);
      }
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

  /** Stores a reduced request beside a recorded case (replacing an earlier reduction); false when the case is not recorded. */
  addReduction(key: CaseKey, reduction: Reduction, now = Date.now()): boolean {
    const seq = this.statements.seqOf.get(key.id, key.hash);
    if (seq === undefined) return false;
    this.statements.reduce.run(seq, reduction.request, reduction.signature, iso(now));
    return true;
  }

  /** The reduction stored for a case, if any. */
  reduction(key: CaseKey): Reduction | undefined {
    const seq = this.statements.seqOf.get(key.id, key.hash);
    return seq === undefined ? undefined : this.statements.reduction.get(seq);
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
}

/** Checks that `db` is a journal (or, unless `mustExist`, an empty file), sets the connection up, and migrates it. */
function prepare(db: Database.Database, path: string, mustExist: boolean): void {
  let applicationId: number;
  let tables: number;
  try {
    applicationId = db.pragma('application_id', { simple: true }) as number;
    tables = db.prepare<[], number>("SELECT COUNT(*) FROM sqlite_schema WHERE type = 'table'").pluck().get()!;
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'SQLITE_NOTADB') throw new CampaignError(`--db ${path}: not a browser-oracle journal (not an SQLite database)`);
    throw new CampaignError(`--db ${path}: cannot read it (${(e as Error).message})`);
  }
  if (mustExist && applicationId === 0 && tables === 0)
    throw new CampaignError(`--db ${path}: not a browser-oracle journal (an empty file)`);
  if (applicationId !== APPLICATION_ID && !(applicationId === 0 && tables === 0)) {
    throw new CampaignError(`--db ${path}: not a browser-oracle journal (an SQLite database of something else); name a new file`);
  }
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > MIGRATIONS.length) {
    throw new CampaignError(
      `--db ${path}: written by a newer browser-oracle (journal schema ${version}; this one knows up to ${MIGRATIONS.length})`,
    );
  }
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  // A `summary` may read while a campaign writes; WAL lets it, and a brief lock is waited out.
  db.pragma('busy_timeout = 5000');
  if (version === MIGRATIONS.length) return;
  db.transaction(() => {
    // Read again under the write lock: another process may have migrated the file meanwhile.
    for (let v = db.pragma('user_version', { simple: true }) as number; v < MIGRATIONS.length; v++) db.exec(MIGRATIONS[v]!);
    db.pragma(`user_version = ${MIGRATIONS.length}`);
    db.pragma(`application_id = ${APPLICATION_ID}`);
  }).immediate();
}

const iso = (ms: number) => new Date(ms).toISOString();
