// A journal's summary as `summary`, `campaign` and `report` show it: the counts and buckets
// (Journal.summary), the font sets its runs used, triage's findings and the disagreeing cases in
// none (findings.ts), and a hint when most disagreements have one known systematic cause, naming
// the way out.
import { bucketOf } from '../../comparator/signature.js';
import type { VoteResult } from '../../protocol/vote-schema.js';
import type { FindingRecord, Findings } from './findings.js';
import type { Journal } from './journal.js';
import type { Summary, SummaryFinding } from './summary.js';

/**
 * The share of the disagreements one cause must explain for the hint. Under Liberation, 45 % and
 * 46 % of the disagreements of 300 generated cases (seeds 11 and 2026) were Firefox outliers
 * within 1 px; under the square font 0 % and 1 % (docs/campaign.md, "Fonts for generated cases").
 */
const HINT_SHARE = 0.4;

/** What the summary reads of a journal. */
export type SummaryJournal = Pick<Journal, 'summary' | 'runs'> & { findings(): Pick<Findings, 'list' | 'untriaged' | 'disagreements'> };

/** The summary of every case in the journal (at `path`, which the hint names), with the fonts, the findings, the untriaged cases and the hint. */
export function campaignSummary(journal: SummaryJournal, path = 'FILE'): Summary {
  const summary = journal.summary();
  const fonts = [...new Set(journal.runs().map((r) => r.fonts ?? 'unknown'))];
  const table = journal.findings();
  const findings = table.list().map(summaryFinding);
  const hint = hintOf(fonts, table.disagreements(), findings, path);
  return { ...summary, fonts, findings, untriaged: table.untriaged(summary.candidate), ...(hint ? { hint } : {}) };
}

/** A finding's name: `F` and its number. */
export const findingName = (id: number): string => `F${id}`;

function summaryFinding(f: FindingRecord): SummaryFinding {
  return {
    id: findingName(f.id),
    template: f.template,
    outlier: f.outlier,
    members: f.members,
    reduced: JSON.parse(f.reduced) as unknown,
    signature: f.signature,
    elements: f.elements,
    fonts: f.fonts,
    versions: f.versions,
    known: f.known,
    ...(f.subject === 'engines' ? {} : { candidate: f.subject }),
  };
}

/** One line when one known cause explains at least HINT_SHARE of the engines' disagreements, with the way out. */
function hintOf(
  fonts: string[],
  disagreements: { outlier: string | null; vote: string }[],
  findings: SummaryFinding[],
  path: string,
): string | undefined {
  const total = disagreements.length;
  if (total === 0) return undefined;
  if (fonts.includes('liberation')) {
    const strut = disagreements.filter((d) => d.outlier === 'firefox' && withinOnePx(d.vote)).length;
    if (strut >= HINT_SHARE * total)
      return (
        `${strut} of ${total} disagreements are Firefox outliers within 1 px, most of them a line's strut in Liberation's ` +
        'metrics, which Gecko rounds its own way: run with --fonts=square to compare layout rather than fonts (docs/fonts.md)'
      );
  }
  const top = findings.filter((f) => f.known === null && f.candidate === undefined).sort((a, b) => b.members.length - a.members.length)[0];
  // A finding of one case is no cause most disagreements share, whatever their number.
  if (top && top.members.length > 1 && top.members.length >= HINT_SHARE * total)
    return (
      `${top.members.length} of ${total} disagreements are finding ${top.id} (${top.signature}); once it is reported, keep it ` +
      `apart: browser-oracle triage --db ${path} --mark-known ${top.id} --expect known.json, and run later campaigns with --expect known.json`
    );
  return undefined;
}

const withinOnePx = (vote: string): boolean => {
  const delta = bucketOf({ op: 'geometry', vote: JSON.parse(vote) as VoteResult })?.maxDelta;
  return delta !== null && delta !== undefined && delta <= 1;
};
