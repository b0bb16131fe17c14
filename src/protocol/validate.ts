// Turns one input line into a typed request, or into the error line that answers it.
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import { Value } from '@sinclair/typebox/value';
import type { TSchema } from '@sinclair/typebox';
import {
  CASE_OPS,
  CORPUS_OPS,
  OP_NAMES,
  OPS,
  UNNAMED_OP,
  isOp,
  namesItsOp,
  type CaseOp,
  type CorpusOp,
  type OpName,
  type RequestOf,
} from './ops.js';
import { ConfigError, OracleError } from './errors.js';
import { LaunchOptionsSchema, type LaunchOptions } from './launch-options.js';
import { idProblem } from './id.js';
import { siteProblem, type Site } from './site-schema.js';

// A Map, so that an op read off the wire can only find an op's own checker.
const checkers = new Map<OpName, TypeCheck<TSchema>>(OP_NAMES.map((op) => [op, TypeCompiler.Compile(OPS[op].request)]));

/** Ops a client may name; one op's requests are those without `op`. */
const NAMED_OPS = OP_NAMES.filter(namesItsOp);

/** A request that passed, its type tied to its op. */
export type Valid<K extends OpName = OpName> = { [O in K]: { ok: true; op: O; request: RequestOf<O> } }[K];

export type Parsed = Valid | { ok: false; id: string | null; error: OracleError };

/** Whether a valid request runs a case on the engines. */
export const isCaseRequest = (valid: Valid): valid is Valid<CaseOp> => (CASE_OPS as readonly OpName[]).includes(valid.op);

/** Whether a valid request is one a campaign's corpus may hold. */
export const isCorpusRequest = (valid: Valid): valid is Valid<CorpusOp> => (CORPUS_OPS as readonly OpName[]).includes(valid.op);

const utf8 = new TextDecoder('utf-8', { fatal: true });
const lossyUtf8 = new TextDecoder('utf-8');

/** Validate one line (without its newline), as raw bytes or already-decoded text. */
export function parseRequestLine(line: Uint8Array | string): Parsed {
  let text: string;
  try {
    text = typeof line === 'string' ? line : utf8.decode(line);
  } catch {
    return fail(idOfUndecodable(line as Uint8Array), 'invalid_json', 'the line is not valid UTF-8');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return fail(null, 'invalid_json', `the line is not JSON (${(e as Error).message})`);
  }
  return checkRequest(value);
}

/**
 * The id of a line that is not valid UTF-8, when the id itself was sent intact. The decoder puts
 * U+FFFD in place of each bad sequence and never swallows an ASCII byte with it, so quotes and
 * backslashes stay where they were and the line parses as its sender wrote it; an id holding
 * U+FFFD may be one the decode damaged, so it is not trusted (null, as for no id at all).
 */
function idOfUndecodable(line: Uint8Array): string | null {
  let value: unknown;
  try {
    value = JSON.parse(lossyUtf8.decode(line));
  } catch {
    return null;
  }
  const id =
    typeof value === 'object' && value !== null && !Array.isArray(value) && Object.hasOwn(value, 'id')
      ? (value as { id: unknown }).id
      : undefined;
  return typeof id === 'string' && !id.includes('\uFFFD') ? id : null;
}

/** Validate a request that is already a value (a library call, a corpus line). */
export function checkRequest(value: unknown): Parsed {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail(null, 'invalid_request', 'the line must be a JSON object');
  }
  const record = value as Record<string, unknown>;
  const id = Object.hasOwn(record, 'id') && typeof record.id === 'string' ? record.id : null;
  if (id === null) {
    return fail(null, 'invalid_request', `field "id": ${Object.hasOwn(record, 'id') ? 'must be a string' : 'is required'}`);
  }
  const unusable = refusedId(id);
  if (unusable) return unusable;
  const named = Object.hasOwn(record, 'op') ? record.op : undefined;
  const op = named === undefined ? UNNAMED_OP : isOp(named) && namesItsOp(named) ? named : undefined;
  if (op === undefined) {
    return fail(
      id,
      'invalid_request',
      `field "op": unknown op ${JSON.stringify(named)} (known: ${NAMED_OPS.join(', ')}; omit op for a ${UNNAMED_OP} request)`,
    );
  }
  return checkRequestOf(op, value, id);
}

/** Validate `value` as a request of `op` (a library call's, which knows its op); `id` names it in a refusal. */
export function checkRequestOf<K extends OpName>(op: K, value: unknown, id: string | null): Valid<K> | Extract<Parsed, { ok: false }> {
  // A library call's id has not been checked yet (a line's was, before its op).
  const unusable = id === null ? undefined : refusedId(id);
  if (unusable) return unusable;
  const checker = checkers.get(op)!;
  if (!checker.Check(value)) return fail(id, 'invalid_request', describeValueError(checker.Errors(value).First()!));
  const problem = siteRequestProblem(value as { site?: Site; files?: unknown });
  if (problem) return fail(id, 'invalid_request', problem);
  return { ok: true, op, request: value as RequestOf<K> } as Valid<K>;
}

/** What a request's schema cannot say of its `site`. */
function siteRequestProblem(request: { site?: Site; files?: unknown }): string | null {
  if (request.site === undefined) return null;
  if (request.files !== undefined) return 'field "files": a trace takes "files" or "site", not both';
  return siteProblem(request.site);
}

let launchOptionsCheck: TypeCheck<typeof LaunchOptionsSchema> | undefined;

/** Checks launch options (a library call's, a config file's); a ConfigError names the first bad field, prefixed by `source`. */
export function checkLaunchOptions(value: unknown, source: string): LaunchOptions {
  launchOptionsCheck ??= TypeCompiler.Compile(LaunchOptionsSchema);
  if (launchOptionsCheck.Check(value)) return value;
  const first = launchOptionsCheck.Errors(value).First()!;
  throw new ConfigError(`${source}: ${first.path ? describeValueError(first) : 'must be a JSON object'}`);
}

/** The refusal of an id that cannot come back unchanged; it is not echoed (UTF-8 cannot carry it). */
function refusedId(id: string): Extract<Parsed, { ok: false }> | undefined {
  const unusable = idProblem(id);
  return unusable ? fail(null, 'invalid_request', `field "id": ${unusable}`) : undefined;
}

function fail(id: string | null, code: 'invalid_json' | 'invalid_request', message: string): Extract<Parsed, { ok: false }> {
  return { ok: false, id, error: new OracleError(code, message) };
}

/**
 * The member of a union a value was meant as, when that is plain: among objects told apart by their
 * `op` (a mutation), the one it names (its `op` is the error when it names none); among members of
 * different types, the one of its type. Its first error names the field to fix.
 */
function byOp(members: readonly TSchema[], value: unknown): ValueError | undefined {
  const ops = members.map((m) => (m.properties as Record<string, TSchema> | undefined)?.op?.const as unknown);
  if (typeof value === 'object' && value !== null && ops.length && ops.every((op) => typeof op === 'string')) {
    const op = (value as { op?: unknown }).op;
    const member = members[ops.indexOf(op as string)];
    if (member) return Value.Errors(member, value).First();
    const opUnion = { anyOf: ops.map((o) => ({ const: o })) } as unknown as TSchema;
    return { type: ValueErrorType.Union, schema: opUnion, path: '/op', value: op, message: '', errors: [] };
  }
  const ofType = members.filter((m) => m.type === typeof value);
  return ofType.length === 1 && ofType[0]!.type !== 'object' ? Value.Errors(ofType[0]!, value).First() : undefined;
}

/** "field \"engines[1]\": must be one of ..." — names the field a client has to fix. */
export function describeValueError(error: ValueError): string {
  const field = error.path
    .split('/')
    .slice(1)
    // JSON Pointer escapes, so that a key holding `/` (a trace's file path) reads as sent.
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`))
    .join('')
    .replace(/^\./, '');
  const name = `field "${field}"`;
  switch (error.type) {
    case ValueErrorType.ObjectAdditionalProperties:
      // A map whose keys follow a pattern (a trace's `files`): the key is what is wrong.
      return error.schema.patternProperties ? `${name}: not an allowed key` : `${name}: unknown field`;
    case ValueErrorType.ObjectRequiredProperty:
      return `${name}: is required`;
    case ValueErrorType.Union: {
      const members = (error.schema.anyOf as TSchema[] | undefined) ?? [];
      const chosen = byOp(members, error.value);
      if (chosen) return describeValueError({ ...chosen, path: `${error.path}${chosen.path}` });
      const options = members.map((s) => s.const).filter((c) => c !== undefined);
      if (options.length) return `${name}: must be one of ${options.map((o) => JSON.stringify(o)).join(', ')}`;
      const types = [...new Set(members.map((s) => s.type as unknown))];
      return types.every((t) => typeof t === 'string')
        ? `${name}: must be a ${types.join(' or a ')}`
        : `${name}: ${error.message.toLowerCase()}`;
    }
    case ValueErrorType.Literal:
      return `${name}: must be ${JSON.stringify(error.schema.const)}`;
    case ValueErrorType.ArrayMinItems:
      return `${name}: must not be empty`;
    case ValueErrorType.ArrayUniqueItems:
      return `${name}: must not repeat an entry`;
    default:
      return `${name}: ${error.message.toLowerCase()}`;
  }
}
