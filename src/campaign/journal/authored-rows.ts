// The journal's check-layout tables (migration 5): `authored`, one row per case and subject (each
// engine, and the candidate by name and version) with its assertions held and failed; and
// `authored_findings`, the assertions all three browsers fail alike. What `summary --json` makes of
// them per WPT directory (the case id's first two segments), and what `summary --cases` adds per case:
//
//   "wpt": {"css/css-flexbox": {"files", "unanimous", "chromium": {"files_all_hold", "assertions":
//           {"pass", "fail"}}, "firefox", "webkit", "candidate": {…, "judged_files"}}}
import type Database from 'better-sqlite3';
import { perDatabase } from './journal-schema.js';
import type { AuthoredFinding, AuthoredRecord } from '../loop/authored-record.js';
import type { ENGINE_NAMES } from '../../protocol/schema.js';

interface WptSubject {
  files_all_hold: number;
  assertions: { pass: number; fail: number };
}
export interface WptDirectory {
  files: number;
  unanimous: number;
  chromium?: WptSubject;
  firefox?: WptSubject;
  webkit?: WptSubject;
  /** The latest candidate's; judged_files: the files where anything was judged. */
  candidate?: WptSubject & { judged_files: number };
}

/** A case's assertions per subject, as `summary --cases` prints them. */
export type CaseAuthored = Partial<Record<(typeof ENGINE_NAMES)[number] | 'candidate', { pass: number; fail: number }>>;

function prepared(db: Database.Database) {
  return {
    insert: db.prepare(
      'INSERT OR IGNORE INTO authored (case_seq, subject, name, version, pass, fail, failures, judged) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    finding: db.prepare('INSERT OR IGNORE INTO authored_findings (case_seq, signature, detail) VALUES (?, ?, ?)'),
    failures: db.prepare<[string, string], AuthoredFailures>(
      `SELECT a.subject AS subject, a.name AS name, a.pass AS pass, a.fail AS fail, a.failures AS failures FROM authored a
         JOIN cases c ON c.seq = a.case_seq WHERE c.id = ? AND c.hash = ? ORDER BY a.subject`,
    ),
    ofCase: db.prepare<[number, string, string], { subject: string; pass: number; fail: number }>(
      `SELECT subject, pass, fail FROM authored WHERE case_seq = ? AND (subject <> 'candidate' OR (name = ? AND version = ?))`,
    ),
    perCase: db.prepare<
      [string, string],
      { id: string; verdict: string | null; subject: string; pass: number; fail: number; judged: string | null }
    >(
      `SELECT c.id AS id, c.verdict AS verdict, a.subject AS subject, a.pass AS pass, a.fail AS fail, a.judged AS judged
         FROM authored a JOIN cases c ON c.seq = a.case_seq
        WHERE a.subject <> 'candidate' OR (a.name = ? AND a.version = ?) ORDER BY a.case_seq`,
    ),
  };
}

const of = perDatabase(prepared);

/** Writes a case's authored rows and its finding (inside the caller's transaction). */
export function insertAuthored(
  db: Database.Database,
  seq: number,
  records: readonly AuthoredRecord[],
  finding?: AuthoredFinding | null,
): void {
  const s = of(db);
  for (const r of records) {
    s.insert.run(
      seq,
      r.subject,
      r.name,
      r.version,
      r.pass,
      r.fail,
      JSON.stringify(r.failures),
      r.judged === null ? null : JSON.stringify(r.judged),
    );
  }
  if (finding) s.finding.run(seq, finding.signature, JSON.stringify(finding.detail));
}

/** A subject's assertions on a case, as a report shows them. */
export interface AuthoredFailures {
  subject: string;
  /** The candidate's name; null for an engine. */
  name: string | null;
  pass: number;
  fail: number;
  /** JSON [{index, tag, attr, expected, actual}]. */
  failures: string;
}

/** Every subject's assertions on the case (id, hash), engines and candidates alike. */
export const authoredFailures = (db: Database.Database, id: string, hash: string): AuthoredFailures[] => of(db).failures.all(id, hash);

/** A --cases line's `authored`: a case's assertions per subject (the candidate's: `who`'s); nothing when it has none recorded. */
export function caseAuthored(
  db: Database.Database,
  seq: number,
  who: { name: string; version: string } | undefined,
): { authored?: CaseAuthored } {
  const rows = of(db).ofCase.all(seq, who?.name ?? '', who?.version ?? '');
  if (rows.length === 0) return {};
  return { authored: Object.fromEntries(rows.map((r) => [r.subject, { pass: r.pass, fail: r.fail }])) };
}

/** The directory a WPT case id names: its first two path segments (css/css-flexbox). */
const directoryOf = (id: string) => id.split('/').slice(0, 2).join('/');

/** Per WPT directory: files, unanimous files, and per engine and the candidate (`who`) the files whose assertions all hold. */
export function wptSummary(
  db: Database.Database,
  who: { name: string; version: string } | undefined,
): Record<string, WptDirectory> | undefined {
  const out: Record<string, WptDirectory> = {};
  const seen = new Set<string>();
  for (const r of of(db).perCase.iterate(who?.name ?? '', who?.version ?? '')) {
    const key = directoryOf(r.id);
    const dir = out[key] ?? { files: 0, unanimous: 0 };
    out[key] = dir;
    if (!seen.has(r.id)) {
      seen.add(r.id);
      dir.files++;
      if (r.verdict === 'unanimous') dir.unanimous++;
    }
    const subject = r.subject as keyof CaseAuthored;
    const s: WptSubject & { judged_files?: number } = dir[subject] ?? {
      files_all_hold: 0,
      assertions: { pass: 0, fail: 0 },
      ...(subject === 'candidate' ? { judged_files: 0 } : {}),
    };
    dir[subject] = s as WptSubject & { judged_files: number };
    s.assertions.pass += r.pass;
    s.assertions.fail += r.fail;
    if (r.fail === 0 && r.pass > 0) s.files_all_hold++;
    if (s.judged_files !== undefined && r.pass + r.fail > 0) s.judged_files++;
  }
  return seen.size ? out : undefined;
}
