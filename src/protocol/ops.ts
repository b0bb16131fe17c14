// Every request the oracle takes, once. One descriptor per op: the schemas of its request and of its
// answer, how the case server serves its html, which vote judges its answer, which field of the
// answer holds one result per engine, and how a campaign sends it. Everything else that needs the
// ops — validation, the published schema, the coordinator, the worker tasks' table, the library's
// methods, the queue's jobs, the corpus and reduce refusals, the journal, --help — derives them
// from OPS; docs/adding-an-op.md is the checklist for a new one. Data and schemas only: what an
// op does lives in its worker task (src/workers/tasks/) and its page program (src/page/).
import type { Static, TObject, TSchema } from '@sinclair/typebox';
import { GeometryRequestSchema, GeometryResponseSchema, type GeometryRequest } from './geometry-schema.js';
import { mutationsProblem } from './mutation-check.js';
import { VoteRequestSchema, VoteResponseSchema } from './vote-op-schema.js';
import { ReflectRequestSchema, ReflectResponseSchema, ReflectVoteResultSchema } from './reflect-schema.js';
import { PingRequestSchema, PingResponseSchema } from './ping-schema.js';
import { ShutdownRequestSchema, ShutdownResponseSchema } from './shutdown-schema.js';
import { TraceRequestSchema, TraceResponseSchema, type TraceRequest } from './trace-schema.js';
import { emulateProblem } from './emulation-schema.js';
import { ScreenshotRequestSchema, ScreenshotResponseSchema } from './screenshot-schema.js';
import { VoteResultSchema } from './vote-schema.js';
import { TraceVoteResultSchema } from './trace-vote-schema.js';
import { JsonText } from './json-text.js';
import type { InProcess, WireValue } from './wire.js';
import type { ProfileName } from './common.js';

/**
 * How the case server makes a case's html into the document each engine loads
 * (src/coordinator/case-documents.ts): `document`, the html is the whole document; `body`, it is
 * the body of a standards-mode page; `recorder`, it is the body of a page whose first script is the
 * trace recorder, served on a secure origin.
 */
export type DocumentKind = 'document' | 'body' | 'recorder';

/** Why a geometry or vote request's `mutations` cannot run: beside a `script`, or naming what the document does not hold. */
function layoutRefusal(request: Pick<GeometryRequest, 'html' | 'script' | 'mutations'>): string | null {
  if (request.mutations === undefined) return null;
  if (request.script !== undefined) return 'field "mutations": a request has a script or mutations, not both';
  return mutationsProblem(request.html, request.mutations);
}

/** Each three-way vote (src/comparator) by its kind, with the schema of the result it gives: the dumps', the traces', the states'. */
export const VOTE_SCHEMAS = { geometry: VoteResultSchema, trace: TraceVoteResultSchema, reflect: ReflectVoteResultSchema } as const;
export type VoteKind = keyof typeof VOTE_SCHEMAS;
export type VoteResults = { [K in VoteKind]: Static<(typeof VOTE_SCHEMAS)[K]> };

export interface Descriptor {
  request: TObject;
  response: TObject;
  /** How its html is served; null for an op that runs no case (a control op): it never reaches the engines. */
  document: DocumentKind | null;
  /** The vote that judges its answer; null when none does. */
  vote: VoteKind | null;
  /** The field of its answer that holds one result per engine (a dump, a trace, …); null when none does. */
  results: string | null;
  /**
   * How a campaign sends a case of this op so that its vote is taken beside the engines: the op
   * it sends, the fields that ask for the vote, and the fields that also ask for each engine's
   * result and in-page time (a reduction's candidates need only the vote). Null: a corpus may not
   * hold it.
   */
  campaign: { op: string; vote: Readonly<Record<string, unknown>>; results: Readonly<Record<string, unknown>> } | null;
  /**
   * Why a valid request of this op cannot run under the launch `profile`, if it cannot: the
   * coordinator refuses it (invalid_request) before any engine runs. Left out when every valid
   * request can run.
   */
  refusal?(request: never, profile: ProfileName): string | null;
}

export const OPS = {
  geometry: {
    request: GeometryRequestSchema,
    response: GeometryResponseSchema,
    document: 'document',
    vote: 'geometry',
    results: 'dumps',
    campaign: { op: 'vote', vote: {}, results: { dumps: true, timing: true } },
    refusal: layoutRefusal,
  },
  vote: {
    request: VoteRequestSchema,
    response: VoteResponseSchema,
    document: 'document',
    vote: 'geometry',
    results: 'dumps',
    campaign: { op: 'vote', vote: {}, results: { dumps: true, timing: true } },
    refusal: layoutRefusal,
  },
  reflect: {
    request: ReflectRequestSchema,
    response: ReflectResponseSchema,
    document: 'body',
    vote: 'reflect',
    results: 'states',
    campaign: { op: 'reflect', vote: { vote: true }, results: {} },
  },
  trace: {
    request: TraceRequestSchema,
    response: TraceResponseSchema,
    document: 'recorder',
    vote: 'trace',
    results: 'traces',
    campaign: { op: 'trace', vote: { vote: true }, results: {} },
    // An emulation no engine can take here: a time zone no engine knows, a device feature without the `devices` profile.
    refusal: (request: TraceRequest, profile: ProfileName) => (request.emulate ? emulateProblem(request.emulate, profile) : null),
  },
  screenshot: {
    request: ScreenshotRequestSchema,
    response: ScreenshotResponseSchema,
    document: 'document',
    vote: null,
    results: 'images',
    campaign: null,
  },
  ping: { request: PingRequestSchema, response: PingResponseSchema, document: null, vote: null, results: null, campaign: null },
  shutdown: { request: ShutdownRequestSchema, response: ShutdownResponseSchema, document: null, vote: null, results: null, campaign: null },
} as const satisfies Record<string, Descriptor>;

type Ops = typeof OPS;
export type OpName = keyof Ops;
/** The ops that run a case on the engines. */
export type CaseOp = { [K in OpName]: Ops[K]['document'] extends null ? never : K }[OpName];
/** The ops a campaign's corpus may hold. */
export type CorpusOp = { [K in OpName]: Ops[K]['campaign'] extends null ? never : K }[OpName];
/** The ops a campaign sends its cases as. */
export type SentOp = NonNullable<Ops[CorpusOp]['campaign']>['op'];

export type RequestOf<K extends OpName> = Static<Ops[K]['request']>;
export type ResponseOf<K extends OpName> = Static<Ops[K]['response']>;
/** Any request. */
export type Request = RequestOf<OpName>;
/** An answer held in process, before it is a line or handed to a program (src/protocol/wire.ts). */
export type Answer<K extends OpName> = InProcess<ResponseOf<K>>;
/** An answer's fields beside its id, as a worker task makes them. */
export type AnswerFields<K extends OpName> = Omit<Answer<K>, 'id'>;

/** Every op, in the registry's order. */
export const OP_NAMES = Object.keys(OPS) as OpName[];

/** Whether `name`, read off the wire, is an op: an own key of the registry, never an inherited one. */
export const isOp = (name: unknown): name is OpName => typeof name === 'string' && Object.hasOwn(OPS, name);

const isCaseOp = (op: OpName): op is CaseOp => OPS[op].document !== null;

const isCorpusOp = (op: OpName): op is CorpusOp => OPS[op].campaign !== null;

export const CASE_OPS: readonly CaseOp[] = OP_NAMES.filter(isCaseOp);

export const CORPUS_OPS: readonly CorpusOp[] = OP_NAMES.filter(isCorpusOp);

/** `ops` as a sentence lists them, the last joined by "and" or by "or". */
export const listOps = (ops: readonly OpName[], joiner: 'and' | 'or'): string =>
  new Intl.ListFormat('en-GB', { type: joiner === 'and' ? 'conjunction' : 'disjunction' }).format(ops);

/** Whether a request of `op` names its op; one op's requests (geometry's) are those without an `op` field. */
export const namesItsOp = (op: OpName): boolean => Object.hasOwn(OPS[op].request.properties, 'op');

/** The op whose requests have no `op` field. */
export type UnnamedOp = { [K in OpName]: 'op' extends keyof Ops[K]['request']['properties'] ? never : K }[OpName];
export const UNNAMED_OP = OP_NAMES.find((op) => !namesItsOp(op)) as UnnamedOp;

/** The answer fields that hold one result per engine, over every op. */
export const RESULT_FIELDS: ReadonlySet<string> = new Set(OP_NAMES.flatMap((op) => OPS[op].results ?? []));

/**
 * An answer's fields beside its id, in the order its response schema lists them (the contract's:
 * `id` first, `errors` after the results, `timing` after `errors`), each field that is one value
 * per engine in engine order; undefined fields are left out.
 */
export function inAnswerOrder<K extends OpName>(op: K, fields: AnswerFields<K>): AnswerFields<K> {
  const given = fields as Readonly<Record<string, WireValue | undefined>>;
  const out: Record<string, WireValue> = {};
  for (const [key, schema] of Object.entries(OPS[op].response.properties as Record<string, TSchema>)) {
    const value = Object.hasOwn(given, key) ? given[key] : undefined;
    if (value !== undefined) out[key] = membersInOrder(schema, value);
  }
  return out as AnswerFields<K>;
}

function membersInOrder(schema: TSchema, value: WireValue): WireValue {
  const properties = schema.properties as Record<string, TSchema> | undefined;
  const isMap =
    typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof JsonText) && !(value instanceof Uint8Array);
  if (!properties || !isMap) return value;
  const members = value as Readonly<Record<string, WireValue | undefined>>;
  const out: Record<string, WireValue> = {};
  for (const key of Object.keys(properties)) {
    const member = Object.hasOwn(members, key) ? members[key] : undefined;
    if (member !== undefined) out[key] = member;
  }
  return out;
}
