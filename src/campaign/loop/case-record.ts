// A case as the journal records it, built from its corpus item and the oracle's answer: the vote
// (each kind of request with its own), the bucket signature, the known difference it matches,
// and each engine's outcome.
//
// Answers are what OracleService gives: plain values and JsonText (src/protocol/wire.ts). The
// engines' dumps, traces and states go into the journal as the text the page side made, never
// parsed here; only what a vote needs is parsed. A geometry case is sent as a `vote` with its
// dumps (`wireRequest`), so its vote is taken in the worker and arrives as JSON text too.
import type { Static } from '@sinclair/typebox';
import { voteReflect } from '../../comparator/reflect-vote.js';
import { bucketOf, invalidSignature, relayoutBucket, signatureOf, type VotedCase } from '../../comparator/signature.js';
import { voteTraces } from '../../comparator/trace-vote.js';
import { voteGeometry } from '../../comparator/vote.js';
import type { VoteResult } from '../../protocol/vote-schema.js';
import type { RelayoutResult } from '../../protocol/relayout-schema.js';
import { ENGINE_NAMES, type GeometryResponseSchema, type ReflectResponse, type VoteRequest } from '../../protocol/schema.js';
import type { TraceRequest, TraceResponse } from '../../protocol/trace-schema.js';
import { encodeJson, type WireValue } from '../../protocol/wire.js';
import type { CaseRequest, CorpusItem } from '../corpus/corpus.js';
import type { Expectations } from './expectations.js';
import type { CaseRecord, EngineOutcome, SelfCheck } from '../journal/journal.js';

/** An oracle answer before it is a line: plain values and JsonText. */
export type CaseAnswer = { readonly [key: string]: WireValue | undefined };

/** The request kinds a campaign sends to the oracle (a geometry case goes as `vote`). */
export type SentOp = 'vote' | 'reflect' | 'trace';

/** When the case ran, for how long, and how many times it was submitted. */
export interface CaseTiming {
  startedAt: number;
  elapsedMs: number;
  attempts: number;
}

/** The kind of a case request: a geometry request is the one without `op`. */
const opOf = (request: CaseRequest) => ('op' in request && request.op ? request.op : 'geometry');

/**
 * What the oracle is asked for a case. A geometry or vote case is asked as a `vote`, with its
 * dumps and in-page times unless `dumps` is false (a reduction's trials need only the vote):
 * the vote is taken in the worker, beside the engines, and the dumps still reach the journal.
 * Reflect and trace requests go as they are.
 */
export function wireRequest(request: CaseRequest, { dumps = true } = {}): { op: SentOp; request: CaseRequest } {
  if ('op' in request && (request.op === 'reflect' || request.op === 'trace')) return { op: request.op, request };
  const { id, html, script, engines, relayout } = request;
  const vote: VoteRequest = dumps ? { id, op: 'vote', html, dumps: true, timing: true } : { id, op: 'vote', html };
  if (script !== undefined) vote.script = script;
  if (engines !== undefined) vote.engines = engines;
  if (relayout !== undefined) vote.relayout = relayout;
  return { op: 'vote', request: vote };
}

/** The JSON text of an answer's value: JsonText as it came, anything else encoded. */
const jsonOf = (value: WireValue): string => encodeJson(value).text;
const parsed = <T>(value: WireValue): T => JSON.parse(jsonOf(value)) as T;

/** The vote on an answer, tagged with its kind: the one the answer carries (a `vote`), else taken here by op. */
export function votedCase(request: CaseRequest, answer: CaseAnswer): VotedCase {
  if (answer.vote !== undefined) return { op: 'geometry', vote: parsed<VoteResult>(answer.vote) };
  switch (opOf(request)) {
    case 'trace':
      return { op: 'trace', vote: voteTraces(parsed<TraceResponse>(answer), (request as TraceRequest).align) };
    case 'reflect':
      return { op: 'reflect', vote: voteReflect(parsed<ReflectResponse>(answer)) };
    default:
      return { op: 'geometry', vote: voteGeometry(parsed<Static<typeof GeometryResponseSchema>>(answer)) };
  }
}

/** The bucket signature of a case from its answer (null when its engines are unanimous): what a campaign records, and a reduction keeps. */
export function caseSignature(request: CaseRequest, answer: CaseAnswer): string | null {
  const bucket = bucketOf(votedCase(request, answer));
  return bucket && signatureOf(bucket);
}

/** A dump's, trace's or state's engine_version, read from the head of its text (the contract puts it second). */
const VERSION = /^\{"engine":"[a-z]+","engine_version":("(?:[^"\\]|\\.)*")/;

/** Each engine's part in an answer: its dump, trace or state as JSON text, or its error; in-page time when given. */
export function outcomesOf(answer: CaseAnswer): EngineOutcome[] {
  const results = (answer.dumps ?? answer.traces ?? answer.states) as Readonly<Record<string, WireValue | undefined>> | undefined;
  const errors = answer.errors as Readonly<Record<string, string | undefined>> | undefined;
  const timing = answer.timing as Readonly<Record<string, number | undefined>> | undefined;
  return ENGINE_NAMES.flatMap((engine) => {
    const result = results?.[engine];
    const error = errors?.[engine];
    if (result === undefined && error === undefined) return [];
    const text = result === undefined ? null : jsonOf(result);
    const version = text === null ? undefined : VERSION.exec(text)?.[1];
    return [
      {
        engine,
        version: version === undefined ? null : (JSON.parse(version) as string),
        result: text,
        error: error ?? null,
        ms: timing?.[engine] ?? null,
      },
    ];
  });
}

/** Each engine that failed the relayout check in an answer, with its bucket signature. */
function selfChecksOf(answer: CaseAnswer): SelfCheck[] {
  const checks = answer.relayout as Readonly<Record<string, WireValue | undefined>> | undefined;
  return ENGINE_NAMES.flatMap((engine) => {
    const check = checks?.[engine];
    if (check === undefined) return [];
    const result = jsonOf(check);
    const bucket = relayoutBucket(engine, JSON.parse(result) as RelayoutResult);
    return bucket ? [{ engine, signature: signatureOf(bucket), result }] : [];
  });
}

/** The record of a case the engines answered. */
export function votedRecord(
  item: Extract<CorpusItem, { ok: true }>,
  answer: CaseAnswer,
  timing: CaseTiming,
  expectations?: Expectations,
): CaseRecord {
  const voted = votedCase(item.request, answer);
  const bucket = bucketOf(voted);
  return {
    id: item.id,
    hash: item.hash,
    op: opOf(item.request),
    request: item.given,
    invalid: null,
    outcomes: outcomesOf(answer),
    verdict: voted.vote.verdict,
    outlier: voted.vote.outlier,
    signature: bucket && signatureOf(bucket),
    expected: expectations?.matches({ request: item.request, bucket }) ?? null,
    vote: answer.vote !== undefined ? jsonOf(answer.vote) : JSON.stringify(voted.vote),
    ...(answer.relayout === undefined ? {} : { selfChecks: selfChecksOf(answer) }),
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
