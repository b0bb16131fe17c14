// The journal's SQLite schema and how a file becomes a journal: the migrations that build the
// schema (entry i takes user_version i to i + 1; an entry that has shipped is never edited), and
// the checks that refuse a file that is not a journal. journal.ts reads and writes through it.
import Database from 'better-sqlite3';
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { CampaignError } from '../campaign-error.js';

/** `PRAGMA application_id` of a journal ("BrOr"), so any other SQLite file is refused. */
export const APPLICATION_ID = 0x42724f72;

/** What a candidate made of a case, judged: the columns both tables of migration 3 share (so, like it, never edited). */
const CANDIDATE_COLUMNS = `name        TEXT NOT NULL,            -- the candidate's name and version, from its ping
     version     TEXT NOT NULL,
     verdict     TEXT NOT NULL,            -- pass | fail | parse_divergence | discarded | no_majority | unsupported | error
     signature   TEXT,                     -- its bucket signature; null for pass and no_majority
     sides_with_outlier INTEGER NOT NULL,  -- 1: it matches the engine the other two outvoted, not the majority
     subpixel    INTEGER NOT NULL,         -- 1: a fail whose every delta is under 1/32 px
     unsupported TEXT,                     -- what it said it cannot lay out
     error_code  TEXT,
     error       TEXT,                     -- its error, code first
     dump        TEXT,                     -- its dump, JSON; null without one
     roots       TEXT,                     -- JSON array: the nodes whose subtrees it laid out; null: the whole document
     against     TEXT NOT NULL,            -- JSON object: engine -> its comparison's verdict against the candidate
     ms          REAL                      /* from sending the case to its answer */`;

/**
 * The schema, as the migrations that build it: entry i takes user_version i to i + 1. A change
 * is a new entry appended here; an entry that has shipped is never edited.
 */
export const MIGRATIONS = [
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
  // 2: what `reduce` measured and `report` wrote. The columns are null in reductions stored before.
  `ALTER TABLE reductions ADD COLUMN vote TEXT;              -- the reduced case's vote, JSON
   ALTER TABLE reductions ADD COLUMN before_nodes INTEGER;   -- elements in the DOM, before and after
   ALTER TABLE reductions ADD COLUMN after_nodes INTEGER;
   ALTER TABLE reductions ADD COLUMN before_bytes INTEGER;   -- UTF-8 bytes of html and script
   ALTER TABLE reductions ADD COLUMN after_bytes INTEGER;
   ALTER TABLE reductions ADD COLUMN tests INTEGER;          -- candidates run on the engines
   ALTER TABLE reductions ADD COLUMN elapsed_ms REAL;
   ALTER TABLE reductions ADD COLUMN stopped TEXT;           -- null at the fixpoint, else max-tests | time-limit | aborted
   ALTER TABLE reductions ADD COLUMN one_minimal INTEGER;    -- 1: removing any one element loses the signature
   CREATE TABLE reduction_outcomes (
     case_seq    INTEGER NOT NULL REFERENCES reductions(case_seq),
     engine      TEXT NOT NULL,
     version     TEXT,
     result      TEXT,                     -- the reduced case's dump, trace or state, JSON; null on error
     error_code  TEXT,
     error       TEXT,
     ms          REAL,
     PRIMARY KEY (case_seq, engine)
   ) WITHOUT ROWID;
   CREATE TABLE reports (
     id          INTEGER PRIMARY KEY,
     path        TEXT NOT NULL,            -- absolute
     written_at  TEXT NOT NULL,
     buckets     INTEGER NOT NULL
   );`,
  // 3: the relayout check's findings, one engine held to itself: a bucket of their own beside the vote's.
  `CREATE TABLE self_checks (
     case_seq    INTEGER NOT NULL REFERENCES cases(seq),
     engine      TEXT NOT NULL,
     signature   TEXT NOT NULL,            -- self <engine> | relayout | <tag> | <styles>
     result      TEXT NOT NULL,            -- the engine's relayout check, JSON
     PRIMARY KEY (case_seq, engine)
   ) WITHOUT ROWID;
   CREATE INDEX self_checks_by_signature ON self_checks (signature, case_seq);`,
  // 4: an engine under test beside the engines (docs/candidate.md). Journals from before hold no candidate.
  `ALTER TABLE runs ADD COLUMN candidate TEXT;              -- JSON {command, name, version}: the candidate of the run; null: none
   CREATE TABLE candidate_outcomes (
     id          INTEGER PRIMARY KEY,      -- recording order
     case_seq    INTEGER NOT NULL REFERENCES cases(seq),
     run         INTEGER NOT NULL REFERENCES runs(id),
     ${CANDIDATE_COLUMNS},
     UNIQUE (case_seq, name, version)
   );
   CREATE INDEX candidate_by_signature ON candidate_outcomes (name, version, signature, id) WHERE signature IS NOT NULL;
   CREATE TABLE reduction_candidates (     -- the candidate's outcome for a reduced case, when the reduction kept its finding
     case_seq    INTEGER PRIMARY KEY REFERENCES reductions(case_seq),
     ${CANDIDATE_COLUMNS}
   );`,
  // 5: triage (docs/triage.md): findings, each a reduced case and its template, and the cases grouped under them.
  `CREATE TABLE findings (
     id          INTEGER PRIMARY KEY,
     subject     TEXT NOT NULL,            -- engines, or the candidate's {"name","version"} JSON
     template    TEXT NOT NULL,            -- the reduced case's template (src/campaign/triage/template.ts)
     signature   TEXT NOT NULL,            -- the reduced case's bucket signature (a candidate's finding: the candidate's)
     engines_signature TEXT,               -- a candidate's finding: the engines' signature it kept too; null: their agreement
     outlier     TEXT,                     -- the outlier engine, or the candidate's name; null for a split
     case_seq    INTEGER NOT NULL REFERENCES cases(seq),   -- the case whose reduction it is
     reduced     TEXT NOT NULL,            -- the reduced request, JSON
     vote        TEXT,                     -- its vote, JSON
     outcomes    TEXT NOT NULL,            -- JSON array: each engine's outcome for it, as in outcomes
     candidate   TEXT,                     -- a candidate's finding: the candidate's outcome for it, JSON
     versions    TEXT NOT NULL,            -- JSON object: engine (and candidate) -> build
     fonts       TEXT,                     -- the font set it was found and reduced with
     elements    INTEGER NOT NULL,         -- elements of the reduced case, html, head and body included
     known       TEXT,                     -- the id of the known difference it was marked as; null: new
     created_at  TEXT NOT NULL,
     UNIQUE (subject, template, outlier)
   );
   CREATE TABLE finding_members (
     subject     TEXT NOT NULL,
     case_seq    INTEGER NOT NULL REFERENCES cases(seq),
     finding     INTEGER NOT NULL REFERENCES findings(id),
     how         TEXT NOT NULL,            -- reduced (its own reduction) | instance (the template's instance in it shows its signature)
     instance    TEXT,                     -- how = instance: that instance, JSON
     PRIMARY KEY (subject, case_seq)
   ) WITHOUT ROWID;
   CREATE INDEX finding_members_by_finding ON finding_members (finding, case_seq);
   CREATE TABLE triage_tries (             -- a finding's template tried on a case, in vain
     finding     INTEGER NOT NULL REFERENCES findings(id),
     case_seq    INTEGER NOT NULL REFERENCES cases(seq),
     PRIMARY KEY (finding, case_seq)
   ) WITHOUT ROWID;
   CREATE TABLE triage_untriaged (         -- a case triage gave up on, and why
     subject     TEXT NOT NULL,
     case_seq    INTEGER NOT NULL REFERENCES cases(seq),
     reason      TEXT NOT NULL,
     PRIMARY KEY (subject, case_seq)
   ) WITHOUT ROWID;`,
  // 6: a check-layout page's authored expectations (docs/wpt.md): each subject's assertions, and those all three browsers fail alike.
  `CREATE TABLE authored (
     case_seq    INTEGER NOT NULL REFERENCES cases(seq),
     subject     TEXT NOT NULL,            -- chromium | firefox | webkit | candidate
     name        TEXT,                     -- the candidate's name and version; null for an engine
     version     TEXT,
     pass        INTEGER NOT NULL,
     fail        INTEGER NOT NULL,
     failures    TEXT NOT NULL,            -- JSON [{index, tag, attr, expected, actual}]
     judged      TEXT,                     -- the candidate's scope, JSON {nodes, skipped_split, out_of_scope, assertions, approximate}
     UNIQUE (case_seq, subject, name, version)
   );
   CREATE TABLE authored_findings (
     case_seq    INTEGER PRIMARY KEY REFERENCES cases(seq),
     signature   TEXT NOT NULL,            -- wpt authored | browsers agree against | <attr> | <tag>
     detail      TEXT NOT NULL             /* JSON: every assertion the three fail alike */
   );`,
  // 7: a candidate's layout from scratch of a case with mutations, and the candidate held to it (docs/candidate.md, "Mutations").
  `CREATE TABLE candidate_fresh (
     case_seq    INTEGER NOT NULL REFERENCES cases(seq),
     name        TEXT NOT NULL,            -- the candidate_outcomes row it belongs to: case, name, version
     version     TEXT NOT NULL,
     verdict     TEXT NOT NULL,            -- its fresh dump against the vote's majority, as candidate_outcomes.verdict
     self        TEXT NOT NULL,            -- agrees | differs: its incremental dump against its fresh one
     signature   TEXT,                     -- candidate <name> | self | <tag> | <properties>; null when it agrees
     dump        TEXT NOT NULL,            -- its fresh dump, JSON
     PRIMARY KEY (case_seq, name, version)
   ) WITHOUT ROWID;`,
  // 8: what judging a candidate again from the journal needs (docs/wpt.md): each engine's check-layout reading and scrollbar
  // room, and whether the candidate laid its roots out alone. Null in rows recorded before (judged by geometry, as then).
  `ALTER TABLE outcomes ADD COLUMN authored TEXT;             -- a check-layout page: the engine's reading of its attributes, JSON
   ALTER TABLE outcomes ADD COLUMN scrollbars TEXT;           -- a site case: the room its viewport scrollbars took, JSON {x, y}
   ALTER TABLE reduction_outcomes ADD COLUMN authored TEXT;
   ALTER TABLE reduction_outcomes ADD COLUMN scrollbars TEXT;
   ALTER TABLE candidate_outcomes ADD COLUMN placed INTEGER;  -- 0: its roots laid out alone, away from the page (placed: false)
   ALTER TABLE reduction_candidates ADD COLUMN placed INTEGER;`,
  // 9: the candidate's fresh layout of a reduced case with mutations, as candidate_fresh holds the original's.
  `CREATE TABLE reduction_candidate_fresh (
     case_seq    INTEGER PRIMARY KEY REFERENCES reduction_candidates(case_seq),
     verdict     TEXT NOT NULL,            -- as candidate_fresh's columns
     self        TEXT NOT NULL,
     signature   TEXT,
     dump        TEXT NOT NULL
   );`,
];

/** How a journal is opened: `mustExist` refuses an empty file; `readonly` neither migrates nor writes it. */
export interface OpenMode {
  mustExist: boolean;
  readonly: boolean;
}

/**
 * Checks that `db` (the file at `path`, named `label` in messages) is a journal (or, unless
 * `mode.mustExist`, an empty file), sets the connection up, and migrates it; a read-only journal
 * must already be of this schema, since migrating it would write it.
 */
export function prepare(db: Database.Database, path: string, label: string, mode: OpenMode): void {
  let applicationId: number;
  let tables: number;
  try {
    applicationId = db.pragma('application_id', { simple: true }) as number;
    tables = db.prepare<[], number>("SELECT COUNT(*) FROM sqlite_schema WHERE type = 'table'").pluck().get()!;
  } catch (e) {
    const fault = journalFault(e, label);
    throw fault instanceof CampaignError ? fault : new CampaignError(`${label}: cannot read it (${fault.message})`);
  }
  if (mode.mustExist && applicationId === 0 && tables === 0)
    throw new CampaignError(`${label}: not a browser-oracle journal (an empty file)`);
  if (applicationId !== APPLICATION_ID && !(applicationId === 0 && tables === 0)) {
    throw new CampaignError(`${label}: not a browser-oracle journal (an SQLite database of something else); name a new file`);
  }
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > MIGRATIONS.length) {
    throw new CampaignError(
      `${label}: written by a newer browser-oracle (journal schema ${version}; this one knows up to ${MIGRATIONS.length})`,
    );
  }
  if (mode.readonly) {
    if (version < MIGRATIONS.length)
      throw new CampaignError(
        `${label}: journal schema ${version}, older than this browser-oracle's (${MIGRATIONS.length}); ` +
          `\`browser-oracle summary --db ${path}\` brings it up to date`,
      );
    db.pragma('busy_timeout = 5000');
    return;
  }
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  // A `summary` may read while a campaign writes; WAL lets it, and a brief lock is waited out.
  db.pragma('busy_timeout = 5000');
  if (version < MIGRATIONS.length)
    db.transaction(() => {
      // Read again under the write lock: another process may have migrated the file meanwhile.
      for (let v = db.pragma('user_version', { simple: true }) as number; v < MIGRATIONS.length; v++) db.exec(MIGRATIONS[v]!);
      db.pragma(`user_version = ${MIGRATIONS.length}`);
      db.pragma(`application_id = ${APPLICATION_ID}`);
    }).immediate();
  // Each table's first page, read now: a file damaged where its tables begin is said before any engine starts.
  for (const table of TABLES) db.prepare(`SELECT 1 FROM ${table} LIMIT 1`).get();
}

/** The journal's tables, as the migrations make them. */
const TABLES = [
  'runs',
  'cases',
  'outcomes',
  'reductions',
  'reduction_outcomes',
  'reports',
  'self_checks',
  'candidate_outcomes',
  'reduction_candidates',
  'findings',
  'finding_members',
  'triage_tries',
  'triage_untriaged',
  'authored',
  'authored_findings',
  'candidate_fresh',
  'reduction_candidate_fresh',
] as const;

/**
 * What to tell the user when SQLite found the journal damaged (or not a database at all), in one
 * line; undefined when `error` is anything else. Running the command again cannot resume it.
 */
export function journalDamage(error: unknown): string | undefined {
  if (!(error instanceof Database.SqliteError) || !/^SQLITE_(CORRUPT|NOTADB)/.test(error.code)) return undefined;
  return (
    `the journal is damaged (SQLite: ${error.message}), so it can be neither resumed nor read; ` +
    "start a new one (--db another file), or salvage what it holds with sqlite3's .recover"
  );
}

/**
 * Refuses a file shorter than its own SQLite header says (a copy or download cut short), before
 * SQLite reads it: SQLite reads a missing page as zeros and may answer from what remains. Only
 * without a write-ahead log: a checkpoint in progress writes page 1 before the pages it counts.
 */
export function refuseTruncated(path: string, label: string): void {
  let header: Buffer;
  let size: number;
  try {
    size = statSync(path).size;
    if (existsSync(`${path}-wal`) && statSync(`${path}-wal`).size > 0) return;
    header = Buffer.alloc(100);
    const fd = openSync(path, 'r');
    try {
      readSync(fd, header, 0, 100, 0);
    } finally {
      closeSync(fd);
    }
  } catch {
    return; // SQLite's own open says what is wrong with a file that cannot be read
  }
  if (size < 100 || header.toString('latin1', 0, 16) !== 'SQLite format 3\0') return;
  const pageSize = header.readUInt16BE(16) === 1 ? 65536 : header.readUInt16BE(16);
  const pages = header.readUInt32BE(28);
  // The page count is valid only when the change counter matches it (SQLite 3.7.0 and later write both).
  const valid = header.readUInt32BE(92) === header.readUInt32BE(24);
  if (valid && pages > 0 && size < pages * pageSize)
    throw new CampaignError(`${label}: truncated: ${size} bytes, where its header counts ${pages} pages of ${pageSize} bytes`);
}

/** A journal SQLite cannot read, in one line: not SQLite, damaged, or unreadable. */
export function journalFault(e: unknown, label: string): Error {
  if (e instanceof CampaignError) return e;
  const code = (e as { code?: string }).code ?? '';
  if (code === 'SQLITE_NOTADB') return new CampaignError(`${label}: not a browser-oracle journal (not an SQLite database)`);
  if (code.startsWith('SQLITE_CORRUPT')) return new CampaignError(`${label}: damaged (SQLite: ${(e as Error).message})`);
  if (code.startsWith('SQLITE_')) return new CampaignError(`${label}: cannot read it (${(e as Error).message})`);
  return e as Error;
}

/** `make`'s statements for a database, prepared on its first use there and kept while the database is. */
export function perDatabase<T>(make: (db: Database.Database) => T): (db: Database.Database) => T {
  const made = new WeakMap<Database.Database, T>();
  return (db) => {
    const known = made.get(db);
    if (known) return known;
    const fresh = make(db);
    made.set(db, fresh);
    return fresh;
  };
}
