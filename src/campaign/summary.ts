// A campaign's summary: every recorded case counted by its vote, and the findings (cases that
// are neither unanimous nor expected) grouped by bucket signature. As JSON (`summary --json`):
//
//   {"cases", "verdicts": {"unanimous", "outlier": {engine: n}, "split", "insufficient"},
//    "invalid", "expected", "buckets": [{"signature", "count", "example"}]}
//
// `cases` counts every recorded case: the four verdicts plus `invalid` (corpus items the
// oracle would not accept, which are never voted). `expected` counts the cases an --expect
// rule matched, whatever their verdict. `buckets` holds the findings, invalid items included
// (signature `invalid | <code>`), by count descending then signature; `example` is the id of
// the first case recorded in the bucket.
import { ENGINE_NAMES, type EngineName } from '../protocol/schema.js';
import type { ClusterVerdict } from '../protocol/vote-schema.js';

export interface SummaryBucket {
  signature: string;
  count: number;
  example: string;
}

export interface Summary {
  cases: number;
  verdicts: { unanimous: number; outlier: Record<EngineName, number>; split: number; insufficient: number };
  invalid: number;
  expected: number;
  buckets: SummaryBucket[];
}

/** How many recorded cases have one verdict (and outlier); verdict null is an invalid item. */
export interface VerdictCount {
  verdict: ClusterVerdict | null;
  outlier: EngineName | null;
  count: number;
}

/** The flat counts a progress line shows. */
export interface Tally {
  cases: number;
  unanimous: number;
  outlier: number;
  split: number;
  insufficient: number;
  invalid: number;
  expected: number;
}

/** The summary from per-verdict counts, the expected count and the unordered buckets. */
export function summarize(counts: VerdictCount[], expected: number, buckets: SummaryBucket[]): Summary {
  const outlier = Object.fromEntries(ENGINE_NAMES.map((e) => [e, 0])) as Record<EngineName, number>;
  const summary: Summary = { cases: 0, verdicts: { unanimous: 0, outlier, split: 0, insufficient: 0 }, invalid: 0, expected, buckets: [] };
  for (const { verdict, outlier: engine, count } of counts) {
    summary.cases += count;
    if (verdict === null) summary.invalid += count;
    else if (verdict === 'outlier') outlier[engine!] += count;
    else summary.verdicts[verdict] += count;
  }
  summary.buckets = [...buckets].sort((a, b) => b.count - a.count || (a.signature < b.signature ? -1 : a.signature > b.signature ? 1 : 0));
  return summary;
}

/** The flat counts of a summary. */
export function tallyOf(s: Summary): Tally {
  const { unanimous, split, insufficient } = s.verdicts;
  const outlier = ENGINE_NAMES.reduce((n, e) => n + s.verdicts.outlier[e], 0);
  return { cases: s.cases, unanimous, outlier, split, insufficient, invalid: s.invalid, expected: s.expected };
}

/** The summary for people: the counts, then a table of findings (count, signature, example), then where the report is. */
export function renderSummary(s: Summary, reportPath?: string): string {
  const outliers = ENGINE_NAMES.filter((e) => s.verdicts.outlier[e]).map((e) => `${e} ${s.verdicts.outlier[e]}`);
  const t = tallyOf(s);
  const lines = [
    `${s.cases} cases: ${t.unanimous} unanimous, ${t.outlier} outlier${outliers.length ? ` (${outliers.join(', ')})` : ''}, ` +
      `${t.split} split, ${t.insufficient} insufficient, ${t.invalid} invalid; ${t.expected} expected`,
  ];
  if (s.buckets.length === 0) lines.push('no findings');
  else {
    const countWidth = Math.max(5, ...s.buckets.map((b) => String(b.count).length));
    const signatureWidth = Math.max(9, ...s.buckets.map((b) => b.signature.length));
    const row = (count: string, signature: string, example: string) =>
      `${count.padStart(countWidth)}  ${signature.padEnd(signatureWidth)}  ${example}`.trimEnd();
    lines.push(row('count', 'signature', 'example'));
    // An id is the client's text: quoted when it has whitespace, so a row stays one line and its columns stay apart.
    for (const b of s.buckets) lines.push(row(String(b.count), b.signature, /\s/.test(b.example) ? JSON.stringify(b.example) : b.example));
  }
  if (reportPath !== undefined) lines.push(`report: ${reportPath}`);
  return lines.join('\n') + '\n';
}
