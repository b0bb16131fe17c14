// Recorded responses (test/fixtures) as a campaign's oracle in process hands them over: each
// engine's result as JsonText, the vote as the worker takes it (a response that carries one keeps
// it), and the build of each engine, read from its result.
import { vote } from '../../src/api/judge.js';
import type { Answered } from '../../src/coordinator/oracle-service.js';
import { RESULT_FIELDS, type Answer, type SentOp } from '../../src/protocol/ops.js';
import type { EngineName } from '../../src/protocol/schema.js';
import { plainJson } from '../../src/protocol/wire.js';

export function answered(response: object): Answered<SentOp> {
  const answer: Record<string, unknown> = {};
  const versions: Partial<Record<EngineName, string>> = {};
  for (const [key, value] of Object.entries(response)) {
    if (!RESULT_FIELDS.has(key)) answer[key] = value;
    else {
      const results = value as Partial<Record<EngineName, { engine_version: string }>>;
      answer[key] = Object.fromEntries(Object.entries(results).map(([engine, result]) => [engine, plainJson(result)]));
      for (const [engine, result] of Object.entries(results)) versions[engine as EngineName] = result!.engine_version;
    }
  }
  answer.vote = plainJson('vote' in response ? response.vote : vote(response));
  return { answer: answer as Answer<SentOp>, versions };
}
