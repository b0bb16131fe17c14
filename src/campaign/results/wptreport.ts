// `summary --wptreport ENGINE|candidate`: one engine's (or the candidate's) side of a journal as
// the wptreport.json WPT's own tooling reads (wptrunner's --log-wptreport, wpt.fyi's results
// processor): {"results": [{"test", "subsuite", "status", "message", "duration", "subtests"}],
// "run_info": {"product", "browser_version", "os", …}, "time_start", "time_end"}, one result per
// case. A test is its id as a path from the root (`/dom/x.html`; a `.any.js` or `.window.js`
// test under the `.any.html` / `.window.html` name WPT runs it by); a repeated id gets its
// content hash as a query (`?hash=…`), since wpt.fyi refuses a test named twice.
//
// - A trace that wpt-import made (it records the harness status under `harness`): the engine's
//   own statuses, the harness's as the test's and each subtest's as recorded.
// - Any other case: PASS when the engine agrees with the vote's majority (unanimous, or not the
//   outlier), FAIL when it is the outlier or the engines split, PRECONDITION_FAILED when fewer
//   than three engines voted (or its document overflowed), its own error otherwise (TIMEOUT for
//   case_timeout, CRASH for engine_crashed, else ERROR). An invalid corpus item is ERROR.
// - The candidate: pass PASS, fail and parse_divergence FAIL, unsupported SKIP, no_majority and
//   discarded PRECONDITION_FAILED, error ERROR (TIMEOUT, CRASH for its timeout and crash); a case
//   it was not asked (not a layout case) SKIP.
import type { EngineName } from '../../protocol/schema.js';
import type { CaseRow, EngineRow } from '../journal/journal-rows.js';

interface WptSubtest {
  name: string;
  status: string;
  message: string | null;
}

export interface WptResult {
  test: string;
  subsuite: '';
  status: string;
  message: string | null;
  duration: number;
  subtests: WptSubtest[];
}

export interface WptReport {
  results: WptResult[];
  run_info: Record<string, string>;
  time_start?: number;
  time_end?: number;
}

/** The label under which wpt-import's report script records the harness status (src/wpt/report-script.ts). */
const HARNESS_LABEL = 'harness';

/** The path WPT names a test by, from a case id. */
export function wptTestName(id: string): string {
  const path = id.startsWith('/') ? id : `/${id}`;
  return path.replace(/\.(any|window)\.js$/, '.$1.html');
}

/** Status and message for an error text whose first word is its code. */
function errorStatus(error: string, crashCode: string, timeoutCode: string): { status: string; message: string } {
  const code = error.split(':')[0];
  return { status: code === timeoutCode ? 'TIMEOUT' : code === crashCode ? 'CRASH' : 'ERROR', message: error };
}

/** One engine's result for a case (its subtests, when wpt-import made the case). */
export function engineResult(
  row: CaseRow,
  engine: EngineName,
  outcome: EngineRow | undefined,
): Omit<WptResult, 'test' | 'subsuite' | 'duration'> {
  const plain = (status: string, message: string | null = null) => ({ status, message, subtests: [] });
  if (row.verdict === null) return plain('ERROR', row.invalid);
  if (!outcome) return plain('SKIP', `${engine} was not asked`);
  if (outcome.error !== null) return { ...errorStatus(outcome.error, 'engine_crashed', 'case_timeout'), subtests: [] };
  const harness = outcome.trace === null ? null : harnessRecords(outcome.trace);
  if (harness) return harness;
  switch (row.verdict) {
    case 'unanimous':
      return plain('PASS');
    case 'outlier':
      return row.outlier === engine ? plain('FAIL', row.signature) : plain('PASS');
    case 'split':
      return plain('FAIL', row.signature);
    default:
      return plain('PRECONDITION_FAILED', discarded(outcome.vote, engine) ? 'the document overflowed the viewport' : row.signature);
  }
}

/** The candidate's result for a case. */
export function candidateResult(row: CaseRow): Omit<WptResult, 'test' | 'subsuite' | 'duration'> {
  const c = row.candidate;
  const plain = (status: string, message: string | null = null) => ({ status, message, subtests: [] });
  if (!c) return plain('SKIP', row.verdict === null ? row.invalid : 'the candidate was not asked (not a layout case)');
  switch (c.verdict) {
    case 'pass':
      return plain('PASS');
    case 'fail':
    case 'parse_divergence':
      return plain('FAIL', c.signature);
    case 'unsupported':
      return plain('SKIP', c.unsupported);
    case 'error':
      return { ...errorStatus(c.error ?? 'error', 'candidate_crashed', 'candidate_timeout'), subtests: [] };
    default:
      return plain('PRECONDITION_FAILED', c.verdict);
  }
}

/** A wpt-import trace's statuses: the harness record as the test's, the others as subtests; null for any other trace. */
export function harnessRecords(traceJson: string): Omit<WptResult, 'test' | 'subsuite' | 'duration'> | null {
  let records: unknown;
  try {
    records = (JSON.parse(traceJson) as { records?: unknown }).records;
  } catch {
    return null;
  }
  if (!Array.isArray(records)) return null;
  const values = records.filter(
    (r): r is { label: string; value: string } =>
      typeof r === 'object' && r !== null && r.kind === 'value' && typeof r.label === 'string' && typeof r.value === 'string',
  );
  const harness = values.filter((r) => r.label === HARNESS_LABEL).at(-1);
  if (!harness) return null;
  const subtests = values.filter((r) => r !== harness).map((r) => ({ name: r.label, status: r.value, message: null }));
  return { status: harness.value === 'NO_HARNESS' ? 'ERROR' : harness.value, message: null, subtests };
}

/** Whether the vote says `engine`'s document overflowed (discarded). */
function discarded(voteJson: string | null, engine: EngineName): boolean {
  try {
    return (JSON.parse(voteJson ?? '{}') as { engines?: Record<string, { status?: string }> }).engines?.[engine]?.status === 'discarded';
  } catch {
    return false;
  }
}

/** Results in recording order, each test named once. */
export function wptResults(rows: CaseRow[], result: (row: CaseRow) => Omit<WptResult, 'test' | 'subsuite' | 'duration'>): WptResult[] {
  const count = new Map<string, number>();
  for (const r of rows) count.set(r.id, (count.get(r.id) ?? 0) + 1);
  return rows.map((r) => ({
    test: wptTestName(r.id) + (count.get(r.id)! > 1 ? `?hash=${r.hash.slice(0, 12)}` : ''),
    subsuite: '',
    ...result(r),
    duration: Math.round(r.elapsedMs),
  }));
}
