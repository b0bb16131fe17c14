// A disagreement made small: the reducer (src/reduce, docs/reduce.md) deletes what it can from a
// case while the candidate, run on the engine farm, keeps the case's bucket signature, computed as
// a campaign computes it. The candidates run on the oracle of this process, many at once; no
// process is started per candidate. The reduced case is run once more, with its dumps, so what is
// stored beside the original is what the engines made of it.
import { performance } from 'node:perf_hooks';
import { reduce, type Progress } from '../reduce/index.js';
import { caseSignature, runSent, votedRecord, wireRequest } from './case-record.js';
import { contentHash } from './case-hash.js';
import type { CaseRequest } from './corpus.js';
import type { ReductionRecord } from './journal.js';
import type { CampaignOptions } from './run-campaign.js';

export interface ReduceCaseOptions {
  oracle: CampaignOptions['oracle'];
  request: CaseRequest;
  /** The bucket signature every candidate must keep. */
  signature: string;
  /** Candidates on the engines at once. */
  parallel: number;
  /** Candidates run at most, the original's check included. */
  maxTests?: number;
  /** Runs of the original and of every candidate that passes: the signature must hold in each (default 1). */
  runs?: number;
  /** No candidate starts after this many milliseconds. */
  timeLimitMs?: number;
  /** Aborting stops the reduction with the smallest case found so far. */
  signal?: AbortSignal;
  onProgress?: (progress: Progress) => void;
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
  const run = (request: CaseRequest, dumps: boolean) => runSent(o.oracle, wireRequest(request, { dumps }));
  const result = await reduce(
    o.request,
    async (candidate) => {
      // Each candidate under an id of its own: the id names it in the oracle's diagnostics.
      const named = { ...candidate, id: `${candidate.id}~${++sent}` };
      return caseSignature(named, await run(named, false)) === o.signature;
    },
    { parallel: o.parallel, maxTests: o.maxTests, runs: o.runs, timeLimitMs: o.timeLimitMs, signal: o.signal, onProgress: o.onProgress },
  );
  const reduced = result.request;
  const given = JSON.stringify(reduced);
  const final = votedRecord({ ok: true, id: reduced.id, hash: contentHash(reduced), given, request: reduced }, await run(reduced, true), {
    startedAt: 0,
    elapsedMs: 0,
    attempts: 1,
  });
  return {
    reduced,
    request: given,
    signature: final.signature,
    vote: final.vote,
    outcomes: final.outcomes,
    before: result.before,
    after: result.after,
    tests: result.tests,
    elapsedMs: performance.now() - started,
    stopped: result.stopped,
    oneMinimal: result.oneMinimal,
  };
}
