// A report's input from a campaign journal: the summary, the runs, and for each bucket its first
// case (reduced when a reduction is stored), with its dumps and errors as recorded and a picture
// per engine taken now through `shoot` (the screenshot op, on a farm the caller runs).
import type { CaseRecord, EngineOutcome, Journal, Reduction } from '../campaign/journal/journal.js';
import { campaignSummary, type SummaryJournal } from '../campaign/journal/triage-summary.js';
import { findingExamples } from './finding-examples.js';
import { ENGINE_NAMES, type Dump, type EngineName } from '../protocol/schema.js';
import type { ScreenshotRequest } from '../protocol/screenshot-schema.js';
import { OPS } from '../protocol/ops.js';
import type { VoteResult } from '../protocol/vote-schema.js';
import type { RelayoutResult } from '../protocol/relayout-schema.js';
import type { ReportCandidate, ReportCase, ReportEngine, ReportInput, Shoot } from './input.js';

export type { Shoot, Shots } from './input.js';
import { dumpJsonText, rejudged, type CandidateRecord } from '../campaign/loop/candidate-record.js';
import { candidateFailingIndex, candidateSelfIndex, isSelfSignature } from '../comparator/candidate-signature.js';
import type { CandidateDump } from '../protocol/candidate-schema.js';
import type { Mutation } from '../protocol/mutations-schema.js';
import { mutationScript } from '../page/mutation-script.js';

/** What the report reads of a journal. */
export type ReportJournal = Pick<Journal, 'firstInBucket' | 'reduction' | 'candidate' | 'firstInCandidateBucket' | 'authored'> &
  SummaryJournal;

/** A case judged by the geometry vote is a layout: its pictures are taken. Other cases are not layouts, and an invalid item never ran. */
const isLayout = (op: CaseRecord['op']) => op !== null && OPS[op].vote === 'geometry';

/** The report's input; the buckets' pictures are taken `parallel` at a time. */
export async function reportInput(journal: ReportJournal, shoot: Shoot, generatedAt: string, parallel = 4): Promise<ReportInput> {
  const summary = campaignSummary(journal);
  const examples = new Map<string, ReportCase>();
  // The engines' buckets, then the latest candidate's (its signatures start with `candidate `, so no key is shared).
  const who = summary.candidate;
  const buckets: [string, () => CaseRecord | undefined][] = [
    ...summary.buckets.map(({ signature }): [string, () => CaseRecord | undefined] => [signature, () => journal.firstInBucket(signature)]),
    ...(who?.buckets ?? []).map(({ signature }): [string, () => CaseRecord | undefined] => [
      signature,
      () => journal.firstInCandidateBucket(who!, signature),
    ]),
  ];
  const next = async () => {
    for (let bucket = buckets.shift(); bucket; bucket = buckets.shift()) {
      const [signature, first] = bucket;
      const recorded = first();
      if (!recorded) continue;
      const reduction = journal.reduction(recorded) ?? null;
      const example = await exampleOf(recorded, reduction, shoot, signature);
      // A reduced case shows the candidate's answer to the reduced request; it has one when the reduction kept a candidate's finding.
      const answer = who && (reduction ? reduction.candidate : journal.candidate(recorded, who));
      if (answer) example.candidate = candidateOf(answer, (reduction ?? recorded).outcomes, isSelfSignature(signature));
      const authored = journal.authored(recorded);
      if (authored.length) example.authored = authored;
      examples.set(signature, example);
    }
  };
  await Promise.all(Array.from({ length: parallel }, next));
  return {
    summary,
    runs: journal.runs(),
    examples,
    findings: await findingExamples(journal.findings().list(), shoot, parallel),
    generatedAt,
  };
}

/** A bucket's example as the report shows it: the reduced case when there is one; a relayout bucket's with its engine's check. */
async function exampleOf(c: CaseRecord, reduction: Reduction | null, shoot: Shoot, signature: string): Promise<ReportCase> {
  const shown = reduction ?? c;
  const self = c.selfChecks?.find((s) => s.signature === signature);
  const geometry = isLayout(c.op);
  const base = {
    id: c.id,
    op: c.op,
    request: c.request,
    reduced: reduction && { request: reduction.request, signature: reduction.signature },
    invalid: c.invalid,
    vote: geometry && shown.vote !== null ? (JSON.parse(shown.vote) as VoteResult) : null,
    ...(self ? { relayout: { engine: self.engine, check: JSON.parse(self.result) as RelayoutResult } } : {}),
  };
  if (c.op === null) return { ...base, engines: {} };
  const shots = geometry ? await shoot(screenshotRequest(c.id, shown.request)) : null;
  const engines: Partial<Record<EngineName, ReportEngine>> = {};
  for (const engine of ENGINE_NAMES) {
    const outcome = shown.outcomes.find((o) => o.engine === engine);
    const image = shots?.images[engine] ?? null;
    const error = shots ? shots.errors?.[engine] : `no screenshot: a ${c.op} case is not pictured`;
    if (!outcome && !image && !error) continue;
    engines[engine] = { ...outcomeOf(outcome, geometry), screenshot: image, ...(error === undefined ? {} : { screenshotError: error }) };
  }
  return { ...base, engines };
}

/** An engine's recorded result: its dump (geometry cases), or its error. */
function outcomeOf(o: EngineOutcome | undefined, geometry: boolean): Pick<ReportEngine, 'dump' | 'error'> {
  if (!o) return {};
  if (o.error !== null) return { error: o.error };
  return geometry && o.result !== null ? { dump: JSON.parse(o.result) as Dump } : {};
}

/** The screenshot op's request for a recorded geometry or vote request (its html, script and engines). */
function screenshotRequest(id: string, text: string): ScreenshotRequest {
  const { html, engines, ...rest } = JSON.parse(text) as { html: string; script?: string; mutations?: Mutation[]; engines?: EngineName[] };
  // A case's mutations are pictured as the oracle ran them: the script it writes for them.
  const script = rest.mutations ? mutationScript(rest.mutations) : rest.script;
  return { id: `report:${id}`, op: 'screenshot', html, ...(script === undefined ? {} : { script }), ...(engines ? { engines } : {}) };
}

/**
 * The candidate's column: its dump, drawn over the majority's first engine, and the node its
 * signature names with its failures there; in a self-disagreement's bucket (`self`), the node where
 * its incremental dump starts to differ from its fresh one.
 */
function candidateOf(record: CandidateRecord, outcomes: readonly EngineOutcome[], self: boolean): ReportCandidate {
  const { name, version, verdict, signature, unsupported, error } = record;
  const fresh = record.fresh && {
    dump: JSON.parse(record.fresh.dump) as CandidateDump,
    self: record.fresh.self,
    signature: record.fresh.signature,
  };
  const base = { name, version, verdict, signature, unsupported, error, ...(fresh ? { fresh } : {}) };
  const judged = rejudged(record, outcomes);
  if (!judged) return { ...base, over: null, node: null };
  const { result, dump } = judged;
  const index = self && result.fresh ? candidateSelfIndex(result.fresh, dump) : candidateFailingIndex(result, dump);
  // Every engine it was compared with, those it matches at the node too (no failures: the outlier it sides with, say).
  const against = ENGINE_NAMES.flatMap((engine) => {
    const compared = result.compares[engine];
    return compared ? [{ engine, failures: compared.failures.filter((f) => f.index === index) }] : [];
  });
  return {
    ...base,
    dump: JSON.parse(dumpJsonText(record.dump!)) as CandidateDump,
    over: result.majority[0] ?? null,
    node: index === null ? null : { index, tag: dump.tagTable.name(dump.tags[index]!), against },
  };
}
