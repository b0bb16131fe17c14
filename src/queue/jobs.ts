// What travels through Redis: a case job (the request a worker's oracle answers, and where to
// post the answer) and its result (the answer line, with the worker that gave it). Both are
// checked on arrival: Redis is shared, and what it holds is not trusted to have our shape.
import { type Static, Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { CASE_OPS, VOTE_SCHEMAS } from '../protocol/ops.js';
import { PingResponseSchema } from '../protocol/ping-schema.js';

/** The requests a job carries: every case op of the registry, and the ping QueueOracle.ping sends (answered by one worker's oracle). */
const JOB_OPS = [...CASE_OPS, 'ping'] as const;

const CaseJobSchema = Type.Object(
  {
    op: Type.Union(JOB_OPS.map((op) => Type.Literal(op))),
    /** The request as the stdio oracle takes it; the worker's oracle checks it. */
    request: Type.Record(Type.String(), Type.Unknown()),
    /** The results queue of the submitter that wants the answer. */
    reply: Type.String({ minLength: 1 }),
  },
  { additionalProperties: false },
);
export type CaseJob = Static<typeof CaseJobSchema>;

/** Which machine ran a case, and with what: the worker's host, pid, and its oracle's ping fields. */
const WorkerInfoSchema = Type.Composite(
  [
    Type.Object({ host: Type.String(), pid: Type.Integer() }),
    Type.Pick(PingResponseSchema, ['engines', 'versions', 'profile', 'fonts', 'network']),
  ],
  { additionalProperties: false },
);
export type WorkerInfo = Static<typeof WorkerInfoSchema>;

const CaseResultSchema = Type.Object(
  {
    worker: WorkerInfoSchema,
    /**
     * The answer of the worker's oracle, parsed there (a worker's time is cheaper than the
     * collector's); its id is the worker's own. Its vote (any kind of vote: a geometry, trace or
     * reflect case's) is checked: the campaign counts cases by the verdict and outlier it names.
     */
    answer: Type.Object({ vote: Type.Optional(Type.Union(Object.values(VOTE_SCHEMAS))) }, { additionalProperties: Type.Unknown() }),
  },
  { additionalProperties: false },
);
export type CaseResult = Static<typeof CaseResultSchema>;

/** A result as its worker posts it: checked where it arrives (checkCaseResult), not where it is made. */
export interface CaseReply {
  worker: WorkerInfo;
  answer: Readonly<Record<string, unknown>>;
}

const caseJob = TypeCompiler.Compile(CaseJobSchema);
const caseResult = TypeCompiler.Compile(CaseResultSchema);

/** `data` as a case job, or a message saying why it is not one. */
export function checkCaseJob(data: unknown): CaseJob | string {
  return caseJob.Check(data) ? data : describe('case job', caseJob.Errors(data).First());
}

/** `data` as a case result, or a message saying why it is not one. */
export function checkCaseResult(data: unknown): CaseResult | string {
  return caseResult.Check(data) ? data : describe('case result', caseResult.Errors(data).First());
}

const describe = (what: string, error: { path: string; message: string } | undefined) =>
  `not a ${what}: ${error ? `${error.path || '/'} ${error.message}` : 'wrong shape'}`;
