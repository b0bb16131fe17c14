// A journal read for `diff`: every case with the journal's candidate's outcome and its engines'
// builds, and who recorded it. The journal is opened read-only and read whole before anything is
// printed, so a journal that turns out damaged halfway prints nothing.
import { journalFault } from '../journal/journal-schema.js';
import { Journal } from '../journal/journal.js';
import { diffRows, type DiffResult, type DiffRow, type JournalSide } from './diff.js';

/** One journal's side and rows; its file is named in messages as given. */
function readForDiff(path: string): { side: JournalSide; rows: DiffRow[] } {
  const journal = Journal.open(path, { readonly: true, label: path });
  try {
    const rows = journal.rows();
    const candidate = journal.latestCandidate() ?? null;
    const builds = rows.caseBuilds();
    const cases: DiffRow[] = [];
    for (const r of rows.cases(candidate ?? undefined)) {
      cases.push({
        id: r.id,
        hash: r.hash,
        vote: r.verdict,
        outlier: r.outlier,
        signature: r.signature,
        candidate: r.candidate && { verdict: r.candidate.verdict, signature: r.candidate.signature },
        builds: builds.get(r.seq) ?? {},
      });
    }
    return { side: { journal: path, engines: rows.engineBuilds(), candidate, cases: cases.length }, rows: cases };
  } catch (e) {
    throw journalFault(e, path);
  } finally {
    journal.close();
  }
}

/** The diff of the journals at two paths. */
export function diffJournals(basePath: string, headPath: string): DiffResult {
  const base = readForDiff(basePath);
  const head = readForDiff(headPath);
  return diffRows(base.side, base.rows, head.side, head.rows);
}
