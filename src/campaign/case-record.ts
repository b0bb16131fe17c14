// A case as the journal records it, built from its corpus item and, once the engines have
// answered, the oracle's response: the vote (each kind of request with its own), the bucket
// signature, the known difference it matches, and each engine's outcome.
import type { Static } from '@sinclair/typebox';
import { voteReflect } from '../comparator/reflect-vote.js';
import { bucketOf, invalidSignature, signatureOf, type VotedCase } from '../comparator/signature.js';
import { voteTraces } from '../comparator/trace-vote.js';
import { voteGeometry } from '../comparator/vote.js';
import type { VoteResult } from '../protocol/vote-schema.js';
import { ENGINE_NAMES, type GeometryResponseSchema, type ReflectResponse, type VoteResponseSchema } from '../protocol/schema.js';
import type { TraceResponse } from '../protocol/trace-schema.js';
import type { CaseRequest, CorpusItem } from './corpus.js';
import type { Expectations } from './expectations.js';
import type { CaseRecord, EngineOutcome } from './journal.js';

type GeometryResponse = Static<typeof GeometryResponseSchema>;
type VoteResponse = Static<typeof VoteResponseSchema>;

/** What the oracle answers a case request with. */
export type CaseResponse = GeometryResponse | VoteResponse | TraceResponse | ReflectResponse;

/** When the case ran, for how long, and how many times it was submitted. */
export interface CaseTiming {
  startedAt: number;
  elapsedMs: number;
  attempts: number;
}

/** The kind of a case request: a geometry request is the one without `op`. */
export const opOf = (request: CaseRequest) => ('op' in request && request.op ? request.op : 'geometry');

/** The vote on a response, tagged with its kind; a `vote` request's answer carries it already. */
export function votedCase(request: CaseRequest, response: CaseResponse): VotedCase {
  switch (opOf(request)) {
    case 'geometry':
      return { op: 'geometry', vote: voteGeometry(response as GeometryResponse) };
    case 'vote':
      return { op: 'geometry', vote: (response as VoteResponse).vote as VoteResult };
    case 'trace':
      return { op: 'trace', vote: voteTraces(response as TraceResponse) };
    case 'reflect':
      return { op: 'reflect', vote: voteReflect(response as ReflectResponse) };
  }
}

/** Each engine's part in a response: its dump, trace or state as JSON text, or its error; in-page time when given. */
export function outcomesOf(response: CaseResponse): EngineOutcome[] {
  const results =
    'dumps' in response ? response.dumps : 'traces' in response ? response.traces : 'states' in response ? response.states : undefined;
  const timing = 'timing' in response ? response.timing : undefined;
  return ENGINE_NAMES.flatMap((engine) => {
    const result = results?.[engine];
    const error = response.errors?.[engine];
    if (result === undefined && error === undefined) return [];
    return [
      {
        engine,
        version: result?.engine_version ?? null,
        result: result ? JSON.stringify(result) : null,
        error: error ?? null,
        ms: timing?.[engine] ?? null,
      },
    ];
  });
}

/** The record of a case the engines answered. */
export function votedRecord(
  item: Extract<CorpusItem, { ok: true }>,
  response: CaseResponse,
  timing: CaseTiming,
  expectations?: Expectations,
): CaseRecord {
  const voted = votedCase(item.request, response);
  const bucket = bucketOf(voted);
  return {
    id: item.id,
    hash: item.hash,
    op: opOf(item.request),
    request: item.given,
    invalid: null,
    outcomes: outcomesOf(response),
    verdict: voted.vote.verdict,
    outlier: voted.vote.outlier,
    signature: bucket && signatureOf(bucket),
    expected: expectations?.matches({ request: item.request, bucket }) ?? null,
    vote: JSON.stringify(voted.vote),
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
