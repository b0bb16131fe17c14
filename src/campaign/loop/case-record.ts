// A case as the journal records it, built from its corpus item and the oracle's answer: the vote
// (each op's own, taken beside the engines), the bucket signature, the known difference it
// matches, and each engine's outcome.
//
// Answers are what a CaseService gives (src/coordinator/stdio.ts): plain values and JsonText
// (src/protocol/wire.ts), with the build of each engine. A case is sent as its op's registry entry
// says (src/protocol/ops.ts, `campaign`), so that its vote is taken in the worker, beside the
// engines, and arrives as JSON text; the engines' dumps, traces and states go into the journal as
// the text the worker made. Only the vote and each engine's relayout check are parsed here, once.
import { bucketOf, invalidSignature, relayoutBucket, signatureOf, type VotedCase } from '../../comparator/signature.js';
import { ENGINE_NAMES } from '../../protocol/schema.js';
import { OPS, namesItsOp, type Answer, type RequestOf, type SentOp } from '../../protocol/ops.js';
import type { RelayoutResult } from '../../protocol/relayout-schema.js';
import { heldValue, textOf, type JsonText, type WireValue } from '../../protocol/wire.js';
import type { Answered, RunOptions } from '../../coordinator/oracle-service.js';
import type { CaseService } from '../../coordinator/stdio.js';
import { opOf, type CaseRequest, type CorpusItem } from '../corpus/corpus.js';
import type { Expectations } from './expectations.js';
import type { CaseRecord, EngineOutcome, SelfCheck } from '../journal/journal.js';

/** What a campaign sends for a case: its op, and the request under it. */
export type SentRequest<K extends SentOp = SentOp> = { [O in K]: { op: O; request: RequestOf<O> } }[K];

/** Runs a case as it is sent: generic, so that its op and its request stay tied to each other. */
export const runSent = <K extends SentOp>(oracle: Pick<CaseService, 'run'>, sent: SentRequest<K>, options?: RunOptions) =>
  oracle.run(sent.op, sent.request, options);

/** When the case ran, for how long, and how many times it was submitted. */
export interface CaseTiming {
  startedAt: number;
  elapsedMs: number;
  attempts: number;
}

/**
 * What the oracle is asked for a case: its op's campaign form, with the fields that ask for each
 * engine's result and in-page time unless `dumps` is false (a reduction's trials need only the
 * vote). A geometry case goes as a `vote` with its dumps; a trace or reflect case as itself, voted.
 */
export function wireRequest(request: CaseRequest, { dumps = true } = {}): SentRequest {
  const { op, vote, results } = OPS[opOf(request)].campaign;
  const given: Record<string, unknown> = { ...request };
  for (const key of ['op', ...Object.keys(results)]) delete given[key];
  const sent = { ...given, ...(namesItsOp(op) ? { op } : {}), ...vote, ...(dumps ? results : {}) };
  // The registry's campaign fields are the sent op's own (test/unit/ops.test.ts checks each one).
  return { op, request: sent } as SentRequest;
}

/** The vote an answer carries, tagged with its op's kind of vote. */
export function votedCase(request: CaseRequest, { answer }: Answered<SentOp>): VotedCase {
  if (answer.vote === undefined) throw new Error(`the answer for ${JSON.stringify(request.id)} carries no vote`);
  return { op: OPS[opOf(request)].vote, vote: heldValue(answer.vote as JsonText<VotedCase['vote']>) } as VotedCase;
}

/** The bucket signature of a case from its answer (null when its engines are unanimous): what a campaign records, and a reduction keeps. */
export function caseSignature(request: CaseRequest, answered: Answered<SentOp>): string | null {
  const bucket = bucketOf(votedCase(request, answered));
  return bucket && signatureOf(bucket);
}

/** Each engine's part in an answer: its dump, trace or state as JSON text with the build that made it, or its error; in-page time when given. */
export function outcomesOf(request: CaseRequest, { answer, versions }: Answered<SentOp>): EngineOutcome[] {
  const field = OPS[OPS[opOf(request)].campaign.op].results;
  const held = answer as Readonly<Record<string, WireValue | undefined>>;
  const results = held[field] as Readonly<Record<string, WireValue | undefined>> | undefined;
  const errors = held.errors as Readonly<Record<string, string | undefined>> | undefined;
  const timing = held.timing as Readonly<Record<string, number | undefined>> | undefined;
  // What judging a candidate needs again from the journal: a check-layout page's readings, a site case's scrollbar room.
  const authored = held.authored as Readonly<Record<string, WireValue | undefined>> | undefined;
  const scrollbars = held.scrollbars as Readonly<Record<string, WireValue | undefined>> | undefined;
  return ENGINE_NAMES.flatMap((engine) => {
    const result = results?.[engine];
    const error = errors?.[engine];
    if (result === undefined && error === undefined) return [];
    const reading = authored?.[engine];
    const room = scrollbars?.[engine];
    return [
      {
        engine,
        version: result === undefined ? null : (versions[engine] ?? null),
        result: result === undefined ? null : textOf(result),
        error: error ?? null,
        ms: timing?.[engine] ?? null,
        ...(reading === undefined ? {} : { authored: textOf(reading) }),
        ...(room === undefined ? {} : { scrollbars: textOf(room) }),
      },
    ];
  });
}

/** Each engine that failed the relayout check in an answer, with its bucket signature. */
function selfChecksOf({ answer }: Answered<SentOp>): SelfCheck[] {
  const checks = (answer as Answer<'vote'>).relayout as Readonly<Record<string, JsonText<RelayoutResult> | undefined>> | undefined;
  return ENGINE_NAMES.flatMap((engine) => {
    const check = checks?.[engine];
    if (check === undefined) return [];
    const bucket = relayoutBucket(engine, heldValue(check));
    return bucket ? [{ engine, signature: signatureOf(bucket), result: textOf(check) }] : [];
  });
}

/** The record of a case the engines answered (`voted`: its vote, when the caller has parsed it already). */
export function votedRecord(
  item: Extract<CorpusItem, { ok: true }>,
  answered: Answered<SentOp>,
  timing: CaseTiming,
  expectations?: Expectations,
  voted: VotedCase = votedCase(item.request, answered),
): CaseRecord {
  const bucket = bucketOf(voted);
  return {
    id: item.id,
    hash: item.hash,
    op: opOf(item.request),
    request: item.given,
    invalid: null,
    outcomes: outcomesOf(item.request, answered),
    verdict: voted.vote.verdict,
    outlier: voted.vote.outlier,
    signature: bucket && signatureOf(bucket),
    expected:
      expectations?.matches({
        request: item.request,
        bucket,
        ...(voted.op === 'geometry' ? { failing: voted.vote.nodes.map((n) => n.index) } : {}),
      }) ?? null,
    // The vote as the worker wrote it.
    vote: textOf(answered.answer.vote as WireValue),
    ...((answered.answer as Answer<'vote'>).relayout === undefined ? {} : { selfChecks: selfChecksOf(answered) }),
    ...timing,
  };
}

/** The record of a corpus item the oracle would not accept: never run, so never voted. */
export function invalidRecord(item: Extract<CorpusItem, { ok: false }>, startedAt: number): CaseRecord {
  return {
    id: item.id,
    hash: item.hash,
    op: null,
    request: item.given,
    invalid: item.error,
    outcomes: [],
    verdict: null,
    outlier: null,
    signature: invalidSignature(item.error),
    expected: null,
    vote: null,
    startedAt,
    elapsedMs: 0,
    attempts: 0,
  };
}
