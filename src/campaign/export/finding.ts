// The findings `export` writes, read from a journal: the cases it names (--case ID, --bucket
// SIGNATURE, or every bucket's first case), each as the layout it is (reduced, when a reduction
// with its vote is stored), with the engines' dumps, their vote and their builds. Expectations
// come from the vote's majority (majority.ts), never from one engine.
import { defaultTreeAdapter as tree, type DefaultTreeAdapterTypes as T } from 'parse5';
import { ENGINE_NAMES, type Dump, type EngineName } from '../../protocol/schema.js';
import type { VoteResult } from '../../protocol/vote-schema.js';
import { OPS } from '../../protocol/ops.js';
import { CampaignError } from '../campaign-error.js';
import type { CaseRecord, EngineOutcome, Journal } from '../journal/journal.js';

/** A case to export, as the engines laid it out. */
export interface Finding {
  id: string;
  hash: string;
  /** The document, and the script the engines ran before their walk, when it has one. */
  html: string;
  script: string | null;
  /** Whether this is the reduced case `reduce` stored. */
  reduced: boolean;
  vote: VoteResult;
  /** The bucket signature of the engines' vote (null when unanimous). */
  signature: string | null;
  /** The latest candidate's finding on the case, when it has one. */
  candidate: { name: string; version: string; verdict: string; signature: string } | null;
  /** Each engine's dump, for the engines that gave one. */
  dumps: Partial<Record<EngineName, Dump>>;
  /** Each engine's build. */
  builds: Partial<Record<EngineName, string>>;
}

/** A case the export could not take, and why. */
export interface Refused {
  id: string;
  why: string;
}

export type Selection = { case: string } | { bucket: string } | 'findings';

/** The findings named by `selection`; a name that matches nothing is a CampaignError. */
export function selectFindings(journal: Journal, selection: Selection): (Finding | Refused)[] {
  const who = journal.latestCandidate();
  let records: CaseRecord[];
  if (selection === 'findings') {
    const summary = journal.summary();
    const firsts = [
      ...summary.buckets.map((b) => journal.firstInBucket(b.signature)),
      ...(who ? (summary.candidate?.buckets ?? []).map((b) => journal.firstInCandidateBucket(who, b.signature)) : []),
    ];
    const seen = new Set<string>();
    records = firsts.filter((r): r is CaseRecord => r !== undefined && !seen.has(`${r.id}\n${r.hash}`) && !!seen.add(`${r.id}\n${r.hash}`));
  } else if ('case' in selection) {
    records = journal.casesWithId(selection.case);
    if (!records.length) throw new CampaignError(`--case ${selection.case}: no such case in this journal`);
  } else {
    const first = journal.firstInBucket(selection.bucket) ?? (who && journal.firstInCandidateBucket(who, selection.bucket));
    if (!first) throw new CampaignError(`--bucket ${JSON.stringify(selection.bucket)}: no bucket of this journal has that signature`);
    records = [first];
  }
  return records.map((r) => findingOf(journal, r, who));
}

function findingOf(journal: Journal, r: CaseRecord, who: ReturnType<Journal['latestCandidate']>): Finding | Refused {
  if (r.op === null) return { id: r.id, why: `an invalid corpus item, never laid out (${r.invalid})` };
  if (OPS[r.op].vote !== 'geometry') return { id: r.id, why: `a ${r.op} case is not a layout` };
  const reduction = journal.reduction(r);
  const shown = reduction?.vote ? { ...reduction, reduced: true } : { ...r, reduced: false };
  if (shown.vote === null) return { id: r.id, why: 'no vote was recorded for it' };
  const request = JSON.parse(shown.request) as { html?: string; script?: string; mutations?: unknown[] };
  if (typeof request.html !== 'string') return { id: r.id, why: 'its request has no html' };
  // Every export format is a static tree: the mutations' boxes are of a document no format holds.
  if (request.mutations) return { id: r.id, why: 'it has mutations, and its boxes are of the document they made' };
  const finding = who && (reduction?.vote ? reduction.candidate : journal.candidate(r, who));
  return {
    id: r.id,
    hash: r.hash,
    html: request.html,
    script: request.script ?? null,
    reduced: shown.reduced,
    vote: JSON.parse(shown.vote) as VoteResult,
    signature: shown.signature,
    candidate:
      finding && finding.signature !== null
        ? { name: finding.name, version: finding.version, verdict: finding.verdict, signature: finding.signature }
        : null,
    dumps: dumpsOf(shown.outcomes),
    builds: Object.fromEntries(r.outcomes.filter((o) => o.version !== null).map((o) => [o.engine, o.version!])),
  };
}

function dumpsOf(outcomes: EngineOutcome[]): Partial<Record<EngineName, Dump>> {
  const dumps: Partial<Record<EngineName, Dump>> = {};
  for (const engine of ENGINE_NAMES) {
    const result = outcomes.find((o) => o.engine === engine)?.result;
    if (result) dumps[engine] = JSON.parse(result) as Dump;
  }
  return dumps;
}

/** How the vote went, in a few words: `unanimous`, `outlier firefox`, `split`. */
export const voteWords = (vote: VoteResult): string => (vote.verdict === 'outlier' ? `outlier ${vote.outlier}` : vote.verdict);

/** What a finding is, in one line, for the comment an export writes above it: its id, vote and signature, the engines' builds, the candidate's finding. */
export function aboutFinding(f: Finding): string {
  const builds = ENGINE_NAMES.filter((e) => f.builds[e]).map((e) => `${e} ${f.builds[e]}`);
  const parts = [`${voteWords(f.vote)}${f.signature ? ` (${f.signature})` : ''}`, `builds: ${builds.join(', ')}`];
  if (f.candidate) parts.push(`candidate ${f.candidate.name} ${f.candidate.version}: ${f.candidate.signature}`);
  if (f.reduced) parts.push('reduced');
  return `${f.id}: ${parts.join('; ')}`;
}

/** Every element of a parsed document in a dump's order (document order, template contents left out). */
export function elementsOf(parent: T.ParentNode): T.Element[] {
  return parent.childNodes.flatMap((c) => (tree.isElementNode(c) ? [c, ...elementsOf(c)] : []));
}
