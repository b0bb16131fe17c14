// `compare` and `vote` for programs, and for the commands of the same names: the comparator on
// dumps and responses as they travel (a protocol line, a file), each checked against its schema
// first, so an input that is not what it claims is an InvalidInputError naming the field.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { DumpSchema, type Dump } from '../protocol/schema.js';
import { GeometryResponseSchema, type GeometryResponse } from '../protocol/geometry-schema.js';
import { VoteResponseSchema, type VoteResponse } from '../protocol/vote-op-schema.js';
import { ReflectResponseSchema, type ReflectResponse } from '../protocol/reflect-schema.js';
import { TraceResponseSchema, type TraceResponse } from '../protocol/trace-schema.js';
import type { VoteResult } from '../protocol/vote-schema.js';
import { columnarFromDump, InvalidDumpError } from '../comparator/columnar.js';
import { compare as compareColumnar, type CompareResult } from '../comparator/compare.js';
import { compareCandidate as candidateAgainst, type CandidateResult } from '../comparator/candidate.js';
import { columnarResponse, voteColumnar } from '../comparator/vote.js';
import { voteReflect, type ReflectVoteResult } from '../comparator/reflect-vote.js';
import { voteTraces, type TraceVoteResult } from '../comparator/trace-vote.js';

/** An argument that is not the dump or response it was given as. */
export class InvalidInputError extends Error {
  override name = 'InvalidInputError';

  constructor(
    /** The parameter: `a`, `b`, `candidate` or `response`. */
    readonly argument: string,
    /** What it should have been: "a dump", "an oracle geometry response", ... */
    readonly what: string,
    /** Where and why: a JSON pointer and the schema's complaint, or the dump's inconsistency. */
    readonly detail: string,
  ) {
    super(`${argument} is not ${what}: ${detail}`);
  }
}

/** A dump from any engine, the engine under test's included: its `engine` may be any name. */
export type AnyDump = Omit<Dump, 'engine'> & { engine: string };

/** Two dumps compared (deltas are b − a), with the engine each came from. */
export type Comparison = { a: string; b: string } & CompareResult;

/** A candidate dump judged against the engines of one response (deltas are candidate − engine). */
export type CandidateJudgement = { candidate: string } & CandidateResult;

/** The verdict `vote` gives, by the kind of response it was given. */
export type Verdict = VoteResult | ReflectVoteResult | TraceVoteResult;

interface InputKind<T extends TSchema> {
  what: string;
  check: () => TypeCheck<T>;
}

/** Compiled on first use, so a program that never judges pays nothing. */
function inputKind<T extends TSchema>(what: string, schema: T): InputKind<T> {
  let check: TypeCheck<T> | undefined;
  return { what, check: () => (check ??= TypeCompiler.Compile(schema)) };
}

// The engine under test is none of the oracle's engines, so a dump may name its engine freely.
const AnyDumpSchema = Type.Object({ ...DumpSchema.properties, engine: Type.String({ minLength: 1 }) }, { additionalProperties: false });
const ANY_DUMP = inputKind('a dump', AnyDumpSchema);
const CANDIDATE = inputKind('a candidate dump', AnyDumpSchema);
const GEOMETRY = inputKind('an oracle geometry response', GeometryResponseSchema);
const VOTE = inputKind('an oracle vote response', VoteResponseSchema);
const REFLECT = inputKind('an oracle reflect response', ReflectResponseSchema);
const TRACE = inputKind('an oracle trace response', TraceResponseSchema);

/** The argument `value` (named `argument`) as `kind`, converted by `build`; an InvalidInputError when it is not one. */
function checked<T extends TSchema, R>(argument: string, value: unknown, kind: InputKind<T>, build: (value: Static<T>) => R): R {
  const check = kind.check();
  if (!check.Check(value)) {
    const first = check.Errors(value).First()!;
    throw new InvalidInputError(argument, kind.what, `${first.path || '(top level)'}: ${first.message}`);
  }
  try {
    return build(value);
  } catch (error) {
    if (error instanceof InvalidDumpError) throw new InvalidInputError(argument, kind.what, error.message);
    throw error;
  }
}

/**
 * Compares two dumps by the contract rules: the same DOM shape, then box and fragment sizes and
 * parent-relative offsets, each within 1/60 px; computed styles are reported, never voted.
 * Either may come from an engine under test (any `engine` name). This is what
 * `browser-oracle compare a.json b.json` prints.
 */
export function compare(a: AnyDump, b: AnyDump): Comparison {
  const left = checked('a', a, ANY_DUMP, columnarFromDump);
  const right = checked('b', b, ANY_DUMP, columnarFromDump);
  return { a: left.engine, b: right.engine, ...compareColumnar(left, right) };
}

/**
 * Judges a candidate dump (the engine under test, any `engine` name) against every engine of a
 * geometry response: `pass` when it passes against each engine of their majority. This is what
 * `browser-oracle compare --candidate candidate.json response.json` prints.
 */
export function compareCandidate(candidate: AnyDump, response: GeometryResponse): CandidateJudgement {
  const dump = checked('candidate', candidate, CANDIDATE, columnarFromDump);
  const engines = checked('response', response, GEOMETRY, columnarResponse);
  return { candidate: dump.engine, ...candidateAgainst(dump, engines) };
}

/**
 * The three-way vote on a response of any kind: a geometry response's dumps, a reflect
 * response's observations, a trace response's records; a vote response carries its vote
 * already (taken next to the engines), which is checked and returned. Verdicts: unanimous,
 * outlier, split, insufficient. This is what `browser-oracle vote response.json` prints.
 */
export function vote(response: GeometryResponse | VoteResponse): VoteResult;
export function vote(response: ReflectResponse): ReflectVoteResult;
export function vote(response: TraceResponse): TraceVoteResult;
export function vote(response: unknown): Verdict;
export function vote(response: unknown): Verdict {
  const has = (field: string) => typeof response === 'object' && response !== null && field in response;
  if (has('states')) return checked('response', response, REFLECT, voteReflect);
  if (has('traces')) return checked('response', response, TRACE, voteTraces);
  if (has('vote')) return checked('response', response, VOTE, (r) => r.vote);
  return checked('response', response, GEOMETRY, (r) => voteColumnar(columnarResponse(r)));
}

/** True for the verdicts that mean agreement: `pass` for a comparison, `unanimous` for a vote. */
export function agrees(result: { verdict: string }): boolean {
  return result.verdict === 'pass' || result.verdict === 'unanimous';
}
