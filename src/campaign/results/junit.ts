// `summary --junit`: a journal as a JUnit XML report, the file CI systems read (Jenkins, GitLab,
// GitHub's test reporters): one <testsuites> holding one <testsuite> named after the corpus, one
// <testcase> per recorded case (name: its id; classname: its directory, or the corpus), with
//   - the candidate's verdict, where the journal's candidate answered the case: pass passes; fail
//     and parse_divergence are a <failure>; unsupported, no_majority and discarded are <skipped>;
//     error is an <error>;
//   - otherwise the vote: unanimous, or a difference a known-difference rule expects, passes;
//     any other vote is a <failure>; an invalid corpus item is an <error>.
// The counts on <testsuites> and <testsuite> are those of the testcases, so that with a candidate
// that answered every case they are the summary's: failures = fail + parse_divergence, skipped =
// unsupported + no_majority + discarded, errors = error.
import type { CaseRow } from '../journal/journal-rows.js';
import { xmlAttribute, xmlText } from './xml.js';

/** What one case is in the report; `type` and `message` say why for any but a pass. */
export type JunitOutcome =
  | { status: 'passed' }
  | { status: 'failure' | 'error'; type: string; message: string }
  | { status: 'skipped'; message: string };

export interface JunitSuite {
  /** The corpus's name (the suite, and the classname of a case whose id has no directory). */
  name: string;
  /** When the first run started (ISO 8601), if any did. */
  timestamp: string | null;
  /** Name → value: the engines' builds and the candidate, as <property> elements. */
  properties: [string, string][];
}

export function junitOutcome(row: CaseRow): JunitOutcome {
  const c = row.candidate;
  if (c) {
    switch (c.verdict) {
      case 'pass':
        return { status: 'passed' };
      case 'fail':
      case 'parse_divergence':
        return { status: 'failure', type: c.verdict, message: c.signature ?? c.verdict };
      case 'error':
        return { status: 'error', type: 'error', message: c.error ?? 'error' };
      default:
        return { status: 'skipped', message: c.unsupported === null ? c.verdict : `${c.verdict}: ${c.unsupported}` };
    }
  }
  if (row.verdict === null) return { status: 'error', type: 'invalid', message: row.invalid ?? 'invalid' };
  if (row.verdict === 'unanimous' || row.expected !== null) return { status: 'passed' };
  return { status: 'failure', type: row.verdict, message: row.signature ?? row.verdict };
}

/** A case's classname: the directory of its id (`dom/nodes` for `dom/nodes/x.html`), or the corpus. */
const classnameOf = (id: string, corpus: string): string => (id.includes('/') ? id.slice(0, id.lastIndexOf('/')) : corpus);

const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** The whole report, from the journal's cases in recording order. */
export function junitXml(suite: JunitSuite, rows: Iterable<CaseRow>): string {
  const counts = { tests: 0, failures: 0, errors: 0, skipped: 0 };
  let ms = 0;
  const cases: string[] = [];
  for (const row of rows) {
    const outcome = junitOutcome(row);
    counts.tests++;
    ms += row.elapsedMs;
    const head = `    <testcase name="${xmlAttribute(row.id)}" classname="${xmlAttribute(classnameOf(row.id, suite.name))}" time="${seconds(row.elapsedMs)}"`;
    if (outcome.status === 'passed') {
      cases.push(`${head}/>`);
      continue;
    }
    if (outcome.status === 'failure') counts.failures++;
    else if (outcome.status === 'error') counts.errors++;
    else counts.skipped++;
    const body =
      outcome.status === 'skipped'
        ? `<skipped message="${xmlAttribute(outcome.message)}"/>`
        : `<${outcome.status} message="${xmlAttribute(outcome.message)}" type="${xmlAttribute(outcome.type)}">${xmlText(detail(row))}</${outcome.status}>`;
    cases.push(`${head}>\n      ${body}\n    </testcase>`);
  }
  const totals = `tests="${counts.tests}" failures="${counts.failures}" errors="${counts.errors}" skipped="${counts.skipped}" time="${seconds(ms)}"`;
  const stamp = suite.timestamp === null ? '' : ` timestamp="${xmlAttribute(suite.timestamp.replace(/\.\d+Z$/, ''))}"`;
  const properties = suite.properties.map(
    ([name, value]) => `      <property name="${xmlAttribute(name)}" value="${xmlAttribute(value)}"/>`,
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="browser-oracle" ${totals}>`,
    `  <testsuite name="${xmlAttribute(suite.name)}" ${totals}${stamp}>`,
    ...(properties.length ? ['    <properties>', ...properties, '    </properties>'] : []),
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/** The body of a failure or error: the vote, and the candidate's part. */
function detail(row: CaseRow): string {
  const vote =
    row.verdict === null
      ? `invalid item: ${row.invalid}`
      : row.verdict === 'outlier'
        ? `vote: outlier ${row.outlier}`
        : `vote: ${row.verdict}`;
  const lines = [vote];
  if (row.signature !== null) lines.push(`bucket: ${row.signature}`);
  if (row.candidate) lines.push(`candidate: ${row.candidate.verdict}${row.candidate.signature ? ` (${row.candidate.signature})` : ''}`);
  return lines.join('\n');
}
