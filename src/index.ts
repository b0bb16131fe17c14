// The package's entry point, `import { Oracle, compare, vote } from 'browser-oracle'`: the public
// API, named one by one (docs/api.md describes each). What is not listed here is internal and may
// change without notice.

// Launch the engines, ask typed questions, close.
export { Oracle, type Ask } from './api/oracle.js';

// Judge answers: two dumps, a response's three-way vote, an engine under test against the three.
export {
  compare,
  compareCandidate,
  InvalidInputError,
  vote,
  type AnyDump,
  type CandidateJudgement,
  type Comparison,
  type Verdict,
} from './api/judge.js';
export type { CompareResult, Failure, StyleMismatch } from './comparator/compare.js';
export type { CandidateResult } from './comparator/candidate.js';
export type { ObservationVote, ReflectVoteResult } from './comparator/reflect-vote.js';
export type { RecordVote, TraceVoteResult } from './comparator/trace-vote.js';
export type { TraceCompareResult, TraceCompareVerdict, TraceFailure } from './comparator/trace-compare.js';

// The protocol: each request's and answer's TypeBox schema (a JSON Schema too) and its type.
export {
  DumpSchema,
  ENGINE_NAMES,
  ErrorResponseSchema,
  PROFILE_NAMES,
  STYLE_PROPERTIES,
  type Dump,
  type EngineName,
  type ErrorResponse,
  type ProfileName,
} from './protocol/schema.js';
export {
  GeometryRequestSchema,
  GeometryResponseSchema,
  type GeometryRequest,
  type GeometryResponse,
} from './protocol/geometry-schema.js';
export { VoteRequestSchema, VoteResponseSchema, type VoteRequest, type VoteResponse } from './protocol/vote-op-schema.js';
export {
  ReflectRequestSchema,
  ReflectResponseSchema,
  type IdlValue,
  type Observation,
  type Probe,
  type ReflectRequest,
  type ReflectResponse,
  type ReflectState,
} from './protocol/reflect-schema.js';
export { PingRequestSchema, PingResponseSchema, type PingRequest, type PingResponse } from './protocol/ping-schema.js';
export {
  ShutdownRequestSchema,
  ShutdownResponseSchema,
  type ShutdownRequest,
  type ShutdownResponse,
} from './protocol/shutdown-schema.js';
export {
  TraceRequestSchema,
  TraceResponseSchema,
  type Trace,
  type TraceRecord,
  type TraceRequest,
  type TraceResponse,
} from './protocol/trace-schema.js';
export {
  ScreenshotRequestSchema,
  ScreenshotResponseSchema,
  type ScreenshotRequest,
  type ScreenshotResponse,
} from './protocol/screenshot-schema.js';
export {
  VoteResultSchema,
  type ClusterVerdict,
  type CompareVerdict,
  type FailureKind,
  type NodeVote,
  type PairKey,
  type PairResult,
  type VoteResult,
} from './protocol/vote-schema.js';
export type { Request } from './protocol/ops.js';
export { FONT_SET_NAMES, type FontSetName } from './protocol/font-sets.js';

// Launch options, as Oracle.launch, the command line and the config file take them.
export {
  LaunchOptionsSchema,
  type BrowserSource,
  type Executables,
  type LaunchExtras,
  type LaunchOptions,
} from './protocol/launch-options.js';
export { CONFIG_FILE, configFileFor, readConfigFile } from './api/config-file.js';

// Errors: a stable code first, then a message.
export { ConfigError, ERROR_CODES, OracleError, type ErrorCode } from './protocol/errors.js';
