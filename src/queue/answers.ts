// A worker's answer, as it arrives from Redis, made the submitter's: the request's own id put
// back, the bulky members turned back into JSON text, and a ping's fields checked. Every key of
// it came from Redis, so the answer is built of own properties only: a member named __proto__
// stays a member, never the answer's prototype.
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { OracleError } from '../protocol/errors.js';
import { RESULT_FIELDS, type AnswerFields } from '../protocol/ops.js';
import { PingResponseSchema } from '../protocol/ping-schema.js';
import { plainJson, type WireValue } from '../protocol/wire.js';

/** The answer `given` by a worker's oracle, under the request's `id`; written natively from here on, so neither the journal nor stdout walks it value by value. */
export function answerOf(id: string, given: Record<string, unknown>): Record<string, WireValue | undefined> {
  const members = Object.entries(given).flatMap(([key, value]): [string, WireValue][] => {
    if (key === 'id') return [];
    if (key === 'vote') return [[key, plainJson(value)]];
    if (RESULT_FIELDS.has(key) && typeof value === 'object' && value !== null)
      return [[key, Object.fromEntries(Object.entries(value).map(([engine, v]) => [engine, plainJson(v)]))]];
    return [[key, value as WireValue]];
  });
  // fromEntries defines each member; assigning them one by one would let "__proto__" set the prototype.
  return Object.fromEntries([['id', id], ...members]);
}

const checkPing = TypeCompiler.Compile(PingResponseSchema);

/** A ping answer's fields beside its id (engines, versions, profile, fonts, …), once checked: the campaign keys its run by them. */
export function pingFields(answer: Record<string, WireValue | undefined>): AnswerFields<'ping'> {
  if (typeof answer.error === 'string') throw new OracleError('internal_error', `a worker answered the ping with ${answer.error}`);
  if (!checkPing.Check(answer)) {
    const first = checkPing.Errors(answer).First();
    throw new OracleError(
      'internal_error',
      `a worker's ping answer is not one: ${first ? `${first.path || '/'} ${first.message}` : 'wrong shape'}`,
    );
  }
  const { id: _, ...fields } = answer;
  return fields;
}
