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
//
// With an engine under test judged (docs/candidate.md), the summary gains the latest candidate's:
//
//   "candidate": {"name", "version", "verdicts": {"pass", "fail", "parse_divergence", "discarded",
//                 "no_majority", "unsupported", "error"}, "sides_with_outlier", "subpixel",
//                 "self": {"agrees", "differs"}, "buckets": [{"signature", "count", "example"}]}
//
// `verdicts` counts the layout cases it answered; `sides_with_outlier` and `subpixel` count the
// ones so tagged (each also counted under its verdict); `self` counts its cases with mutations
// answered with a dump, by whether its incremental dump agrees with its layout from scratch;
// `buckets` are its findings (every verdict but pass and no_majority, and every self-disagreement,
// `candidate <name> | self | …`), ordered as the engines' are. `summary --cases` prints one line per
// recorded case (`CaseLine`).
//
// What `campaignSummary` (triage-summary.ts) adds: `fonts`, the font sets the runs used; once
// triaged (docs/triage.md), `findings` [{"id", "template", "outlier", "members", "reduced", …}],
// the largest first, and `untriaged`, the ids of the disagreeing cases in none; and `hint`, one line
// when most disagreements have one known cause, with the way out.
import { CANDIDATE_VERDICTS, type CandidateVerdict } from '../../comparator/candidate.js';
import { ENGINE_NAMES, type EngineName } from '../../protocol/schema.js';
import type { ClusterVerdict } from '../../protocol/vote-schema.js';
import { visible, visibleToken } from '../../system/visible-text.js';
import type { CaseAuthored, WptDirectory } from './authored-rows.js';

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
  /** The latest engine under test's, when one was judged. */
  candidate?: CandidateSummary;
  /** The font sets the journal's runs used, in run order (`unknown` for a run that did not say). */
  fonts?: string[];
  /** Triage's findings, the largest first. */
  findings?: SummaryFinding[];
  /** The disagreeing cases (the buckets' and the candidate's) in no finding, by id. */
  untriaged?: string[];
  /** One line: most disagreements have one known cause, and the way out. */
  hint?: string;
  /** Per WPT directory, when the journal holds check-layout pages (authored-rows.ts). */
  wpt?: Record<string, WptDirectory>;
}

/** A finding as the summary lists it. */
export interface SummaryFinding {
  /** `F` and its number. */
  id: string;
  template: string;
  /** The engine the other two outvoted, or the candidate's name; null for a split. */
  outlier: string | null;
  /** The ids of its cases, in recording order. */
  members: string[];
  /** The reduced request. */
  reduced: unknown;
  /** The reduced case's signature (a candidate's finding: the candidate's). */
  signature: string;
  /** Elements of the reduced case, html, head and body included. */
  elements: number;
  fonts: string | null;
  /** The builds that made the reduced case's outcomes. */
  versions: Record<string, string>;
  /** The known difference it was marked as, or null. */
  known: string | null;
  /** A candidate's finding: which candidate. */
  candidate?: { name: string; version: string };
}

export interface CandidateSummary {
  name: string;
  version: string;
  verdicts: Record<CandidateVerdict, number>;
  sides_with_outlier: number;
  subpixel: number;
  /** Its cases with mutations answered with a dump: how many agree with its layout from scratch, how many differ (each a finding in `buckets`). */
  self: { agrees: number; differs: number };
  buckets: SummaryBucket[];
}

/** How many of a candidate's answers have one verdict, and how many of those are tagged. */
export interface CandidateVerdictCount {
  verdict: CandidateVerdict;
  count: number;
  sidesWithOutlier: number;
  subpixel: number;
}

/** One recorded case as `summary --cases` prints it: the engines' vote and signature, and the candidate's, when it answered. */
export interface CaseLine {
  id: string;
  /** Null for an invalid corpus item. */
  vote: ClusterVerdict | null;
  outlier: EngineName | null;
  signature: string | null;
  candidate: { verdict: CandidateVerdict; signature: string | null; unsupported?: string; self?: 'agrees' | 'differs' } | null;
  /** A check-layout page's assertions held and failed, per engine and for the candidate. */
  authored?: CaseAuthored;
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
  summary.buckets = ordered(buckets);
  return summary;
}

/** A candidate's summary from its per-verdict counts and its unordered buckets. */
export function summarizeCandidate(
  who: { name: string; version: string },
  counts: CandidateVerdictCount[],
  buckets: SummaryBucket[],
  selfCounts: readonly { self: 'agrees' | 'differs'; count: number }[] = [],
): CandidateSummary {
  const self = { agrees: 0, differs: 0 };
  for (const c of selfCounts) self[c.self] += c.count;
  const verdicts = Object.fromEntries(CANDIDATE_VERDICTS.map((v) => [v, 0])) as Record<CandidateVerdict, number>;
  let sidesWithOutlier = 0;
  let subpixel = 0;
  for (const c of counts) {
    verdicts[c.verdict] += c.count;
    sidesWithOutlier += c.sidesWithOutlier;
    subpixel += c.subpixel;
  }
  return {
    name: who.name,
    version: who.version,
    verdicts,
    sides_with_outlier: sidesWithOutlier,
    subpixel,
    self,
    buckets: ordered(buckets),
  };
}

/** Buckets by count descending, then signature (UTF-16 code units). */
const ordered = (buckets: SummaryBucket[]) =>
  [...buckets].sort((a, b) => b.count - a.count || (a.signature < b.signature ? -1 : a.signature > b.signature ? 1 : 0));

/** The flat counts of a summary. */
export function tallyOf(s: Summary): Tally {
  const { unanimous, split, insufficient } = s.verdicts;
  const outlier = ENGINE_NAMES.reduce((n, e) => n + s.verdicts.outlier[e], 0);
  return { cases: s.cases, unanimous, outlier, split, insufficient, invalid: s.invalid, expected: s.expected };
}

/**
 * The summary for people: the counts, then a table of findings (count, signature, example), then
 * where the report is. Names, versions, signatures and ids are a candidate's or a corpus's text:
 * each is made visible (visible-text.ts), so a row is one line and nothing reaches the terminal.
 */
export function renderSummary(s: Summary, reportPath?: string): string {
  const outliers = ENGINE_NAMES.filter((e) => s.verdicts.outlier[e]).map((e) => `${e} ${s.verdicts.outlier[e]}`);
  const t = tallyOf(s);
  const lines = [
    `${s.cases} cases: ${t.unanimous} unanimous, ${t.outlier} outlier${outliers.length ? ` (${outliers.join(', ')})` : ''}, ` +
      `${t.split} split, ${t.insufficient} insufficient, ${t.invalid} invalid; ${t.expected} expected`,
  ];
  if (s.fonts?.length) lines.push(`fonts: ${s.fonts.map((f) => visible(f)).join(', ')}`);
  if (s.hint) lines.push(`hint: ${visible(s.hint)}`);
  lines.push(...findingLines(s));
  lines.push(...bucketTable(s.buckets));
  const c = s.candidate;
  if (c) {
    const judged = CANDIDATE_VERDICTS.reduce((n, v) => n + c.verdicts[v], 0);
    const counts = CANDIDATE_VERDICTS.map((v) => `${c.verdicts[v]} ${v}`).join(', ');
    lines.push(
      `candidate ${visible(c.name)} (${visible(c.version)}), ${judged} layout cases: ${counts}; ${c.sides_with_outlier} side with the outlier, ${c.subpixel} subpixel` +
        (c.self.agrees + c.self.differs ? `; held to itself after mutations: ${c.self.agrees} agree, ${c.self.differs} differ` : ''),
      ...bucketTable(c.buckets),
    );
  }
  if (reportPath !== undefined) lines.push(`report: ${visible(reportPath)}`);
  return lines.join('\n') + '\n';
}

/** Triage's findings, new ones first, each with its template and reduced case; the known ones; the cases in none. Nothing before a triage. */
function findingLines(s: Summary): string[] {
  const findings = s.findings ?? [];
  if (findings.length === 0) return [];
  const one = (f: SummaryFinding) => [
    `${f.id}  ${f.members.length} ${f.members.length === 1 ? 'case' : 'cases'}  ${visible(f.signature)}  (${f.elements} elements${f.known ? `; known: ${visible(f.known)}` : ''})`,
    `    template  ${visible(f.template, 400)}`,
    `    reduced   ${visible(((f.reduced as { html?: string }).html ?? JSON.stringify(f.reduced)).replace(/\s+/g, ' '), 160)}`,
  ];
  const fresh = findings.filter((f) => f.known === null);
  const known = findings.filter((f) => f.known !== null);
  const cases = (list: SummaryFinding[]) => list.reduce((n, f) => n + f.members.length, 0);
  const untriaged = s.untriaged ?? [];
  return [
    `findings: ${fresh.length} new (${cases(fresh)} cases), ${known.length} known (${cases(known)} cases), ${untriaged.length} cases untriaged`,
    ...fresh.flatMap(one),
    ...known.flatMap(one),
    ...(untriaged.length ? [`untriaged: ${untriaged.slice(0, 8).map(visibleToken).join(', ')}${untriaged.length > 8 ? ', …' : ''}`] : []),
    'buckets:',
  ];
}

/** A `count  signature  example` table of findings, or `no findings`. */
function bucketTable(buckets: SummaryBucket[]): string[] {
  if (buckets.length === 0) return ['no findings'];
  // An id is the client's text: quoted when it has whitespace, so that its columns stay apart.
  const rows = buckets.map((b) => ({
    count: String(b.count),
    signature: visible(b.signature),
    example: visible(/\s/.test(b.example) ? JSON.stringify(b.example) : b.example),
  }));
  const countWidth = Math.max(5, ...rows.map((r) => r.count.length));
  const signatureWidth = Math.max(9, ...rows.map((r) => r.signature.length));
  const row = ({ count, signature, example }: (typeof rows)[number]) =>
    `${count.padStart(countWidth)}  ${signature.padEnd(signatureWidth)}  ${example}`.trimEnd();
  return [row({ count: 'count', signature: 'signature', example: 'example' }), ...rows.map(row)];
}
