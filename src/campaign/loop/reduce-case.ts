// A disagreement made small: the reducer (src/reduce, docs/reduce.md) deletes what it can from a
// case while the trial, run on the engine farm, keeps the case's bucket signature, computed as
// a campaign computes it. The trials run on the oracle of this process, many at once; no
// process is started per trial. The reduced case is run once more, with its dumps, so what is
// stored beside the original is what the engines made of it.
//
// A candidate's finding (`candidate`) is reduced while two things hold together: the candidate's
// failure keeps its signature, and the engines keep theirs (their agreement, for a unanimous case).
// Without the second the reduction drifts into a disagreement of the browsers, which is not the
// candidate's finding any more. A candidate's self-disagreement after mutations (`candidate <name>
// | self | …`) is kept as its fresh layout's signature, shrinking the document and the mutations.
import { performance } from 'node:perf_hooks';
import { reduce, type ReductionStatus } from '../../reduce/index.js';
import { caseSignature, outcomesOf, runSent, votedRecord, wireRequest } from './case-record.js';
import { contentHash } from '../corpus/case-hash.js';
import type { CaseRequest } from '../corpus/corpus.js';
import type { ReductionRecord } from '../journal/journal.js';
import type { CampaignOptions } from './run-campaign.js';
import { candidateCase, candidateRecord, isLayoutCase } from './candidate-record.js';
import type { Answered } from '../../coordinator/oracle-service.js';
import type { SentOp } from '../../protocol/ops.js';
import type { DumpSource } from '../../candidate-client/source.js';
import { isSelfSignature } from '../../comparator/candidate-signature.js';
import { mutationsProblem } from '../../protocol/mutation-check.js';

/** What a case must keep to show a finding: the engines' signature, and a candidate's beside it. */
export interface FindingKept {
  oracle: CampaignOptions['oracle'];
  /** The engines' bucket signature every trial must keep (null: their agreement, with `candidate`). */
  signature: string | null;
  /** An engine under test whose finding is reduced: its outcome must keep this signature too. */
  candidate?: { source: DumpSource; signature: string };
}

export interface ReduceCaseOptions extends FindingKept {
  request: CaseRequest;
  /** Trials on the engines at once. */
  parallel: number;
  /** Trials run at most, the original's check included. */
  maxTests?: number;
  /** Runs of the original and of every trial that passes: the signature must hold in each (default 1). */
  runs?: number;
  /** No trial starts after this many milliseconds. */
  timeLimitMs?: number;
  /** Aborting stops the reduction with the smallest case found so far. */
  signal?: AbortSignal;
  onProgress?: (status: ReductionStatus) => void;
}

/** How a case runs on the engines, and the candidate's outcome for it, to be judged once the engines' answer is in. */
function runners(o: FindingKept) {
  const run = (request: CaseRequest, dumps: boolean) => runSent(o.oracle, wireRequest(request, { dumps }));
  const judged = async (request: CaseRequest) => {
    if (!o.candidate || !isLayoutCase(request)) return () => undefined;
    const { source } = o.candidate;
    const outcome = await source.run(candidateCase(request));
    return (answered: Answered<SentOp>) => candidateRecord(source, outcome, outcomesOf(request, answered));
  };
  return { run, judged };
}

/** Whether one run of a case keeps the finding: the engines' signature, and the candidate's when there is one. */
export function keepsFinding(o: FindingKept): (request: CaseRequest) => Promise<boolean> {
  const { run, judged } = runners(o);
  return async (request) => {
    // A trial whose mutations name elements it no longer has is one the oracle refuses: it fails, as any trial that loses the finding.
    if ('mutations' in request && request.mutations && mutationsProblem(request.html, request.mutations) !== null) return false;
    if (!o.candidate) return caseSignature(request, await run(request, false)) === o.signature;
    const [answer, record] = await Promise.all([run(request, true), judged(request)]);
    const judgedRecord = record(answer);
    const candidateSignature = isSelfSignature(o.candidate.signature) ? judgedRecord?.fresh?.signature : judgedRecord?.signature;
    return caseSignature(request, answer) === o.signature && candidateSignature === o.candidate.signature;
  };
}

/** The reduced case as a journal stores it, and the reduced request itself. */
export interface ReducedCase extends ReductionRecord {
  reduced: CaseRequest;
}

/**
 * Reduces `request` while its signature holds, in each of `runs` runs. Rejects with the
 * reducer's NotReproducibleError when the original does not show the signature in every run.
 */
export async function reduceCase(o: ReduceCaseOptions): Promise<ReducedCase> {
  const started = performance.now();
  let sent = 0;
  const { run, judged } = runners(o);
  const keeps = keepsFinding(o);
  const result = await reduce(
    o.request,
    // Each trial under an id of its own: the id names it in the oracle's diagnostics.
    (trial) => keeps({ ...trial, id: `${trial.id}~${++sent}` }),
    { parallel: o.parallel, maxTests: o.maxTests, runs: o.runs, timeLimitMs: o.timeLimitMs, signal: o.signal, onProgress: o.onProgress },
  );
  const reduced = result.request;
  const given = JSON.stringify(reduced);
  const [answer, record] = await Promise.all([run(reduced, true), judged(reduced)]);
  const final = votedRecord({ ok: true, id: reduced.id, hash: contentHash(reduced), given, request: reduced }, answer, {
    startedAt: 0,
    elapsedMs: 0,
    attempts: 1,
  });
  const candidate = record(answer);
  return {
    reduced,
    request: given,
    signature: final.signature,
    vote: final.vote,
    outcomes: final.outcomes,
    ...(candidate ? { candidate } : {}),
    before: result.before,
    after: result.after,
    tests: result.tests,
    elapsedMs: performance.now() - started,
    stopped: result.stopped,
    oneMinimal: result.oneMinimal,
  };
}
