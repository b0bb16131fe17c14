// A worker's answer, as it arrives from Redis, made the submitter's: the request's own id put
// back, the bulky members turned back into JSON text, and a ping's fields checked. Every key of
// it came from Redis, so the answer is built of own properties only: a member named __proto__
// stays a member, never the answer's prototype.
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { Answer } from '../coordinator/oracle-service.js';
import { OracleError } from '../protocol/errors.js';
import { PingResponseSchema } from '../protocol/schema.js';
import { parsedJson } from '../protocol/wire.js';

/** An answer's members that hold one result per engine. */
const PER_ENGINE = new Set(['dumps', 'traces', 'states']);

/** The answer `given` by a worker's oracle, under the request's `id`; written natively from here on, so neither the journal nor stdout walks it value by value. */
export function answerOf(id: string, given: Record<string, unknown>): Answer {
  const members = Object.entries(given).flatMap(([key, value]): [string, Answer[string]][] => {
    if (key === 'id') return [];
    if (key === 'vote') return [[key, parsedJson(value)]];
    if (PER_ENGINE.has(key) && typeof value === 'object' && value !== null)
      return [[key, Object.fromEntries(Object.entries(value).map(([engine, v]) => [engine, parsedJson(v)]))]];
    return [[key, value as Answer[string]]];
  });
  // fromEntries defines each member; assigning them one by one would let "__proto__" set the prototype.
  return Object.fromEntries([['id', id], ...members]) as Answer;
}

const checkPing = TypeCompiler.Compile(PingResponseSchema);

/** A ping answer's fields beside its id (engines, versions, profile, fonts, …), once checked: the campaign keys its run by them. */
export function pingFields(answer: Answer): Answer {
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
