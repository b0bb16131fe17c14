// The package's entry point: `import { Oracle, compare, vote } from 'browser-oracle'`. The library
// launches the engines and asks typed questions (Oracle), judges answers (compare, vote), and
// exports the protocol's TypeBox schemas with the types derived from them.
export { Oracle, defaultOptions, type Ask, type CaseMethods } from './api/oracle.js';
export {
  agrees,
  compare,
  compareCandidate,
  InvalidInputError,
  vote,
  type AnyDump,
  type CandidateJudgement,
  type Comparison,
  type Verdict,
} from './api/judge.js';
export { CONFIG_FILE, configFileFor, readConfigFile } from './api/config-file.js';
export { ConfigError, ERROR_CODES, OracleError, type ErrorCode } from './protocol/errors.js';
export { checkRequest, parseRequestLine, type Parsed } from './protocol/validate.js';
export * from './protocol/schema.js';
export {
  CASE_OPS,
  CORPUS_OPS,
  OP_NAMES,
  OPS,
  type CaseOp,
  type CorpusOp,
  type OpName,
  type Request,
  type RequestOf,
  type ResponseOf,
} from './protocol/ops.js';
export { TraceVoteResultSchema } from './protocol/trace-vote-schema.js';
export { ReflectVoteResultSchema } from './protocol/reflect-vote-schema.js';
export * from './protocol/trace-schema.js';
export * from './protocol/screenshot-schema.js';
export * from './protocol/reflect-schema.js';
export * from './protocol/vote-schema.js';
export * from './protocol/launch-options.js';
export { FONT_SET_NAMES, type FontSetName } from './protocol/font-sets.js';
export type { CompareResult, Failure, StyleMismatch } from './comparator/compare.js';
export type { CandidateResult } from './comparator/candidate.js';
export type { ObservationVote, ReflectVoteResult } from './comparator/reflect-vote.js';
export type { RecordVote, TraceVoteResult } from './comparator/trace-vote.js';
export type { TraceCompareResult, TraceCompareVerdict, TraceFailure } from './comparator/trace-compare.js';
