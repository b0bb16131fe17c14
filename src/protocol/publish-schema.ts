// Prints the published JSON Schema of the protocol (npm run schema → schema/protocol.schema.json),
// generated from the same TypeBox definitions the oracle validates with: one request and one
// response per op of the registry (src/protocol/ops.ts), and the error response.
import type { TSchema } from '@sinclair/typebox';
import { OP_NAMES, OPS } from './ops.js';
import { ErrorResponseSchema } from './schema.js';
import { CANDIDATE_SCHEMAS } from './candidate-schema.js';

const defName = (kind: string, suffix: string) => `${kind[0]!.toUpperCase()}${kind.slice(1)}${suffix}`;

export function protocolJsonSchema(): object {
  // Every message is one definition, named after its op (GeometryRequest, PingResponse, ...);
  // shared shapes are inlined, so no $id repeats.
  const requests: Record<string, TSchema> = Object.fromEntries(OP_NAMES.map((op) => [op, OPS[op].request]));
  const responses: Record<string, TSchema> = {
    ...Object.fromEntries(OP_NAMES.map((op) => [op, OPS[op].response])),
    error: ErrorResponseSchema,
  };
  const defs: Record<string, TSchema> = {};
  for (const [kind, schema] of Object.entries(requests)) defs[defName(kind, 'Request')] = schema;
  for (const [kind, schema] of Object.entries(responses)) defs[defName(kind, 'Response')] = schema;
  // The candidate protocol (docs/candidate.md): what the oracle and an engine under test say to each other.
  for (const [kind, schema] of Object.entries(CANDIDATE_SCHEMAS)) defs[`Candidate${kind}`] = schema;
  const refs = (suffix: string, kinds: string[]) => kinds.map((kind) => ({ $ref: `#/$defs/${defName(kind, suffix)}` }));
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://browser-oracle/protocol.schema.json',
    title: 'browser-oracle stdio protocol',
    description:
      'One JSON object per line. A request line is one of the requests; every request gets exactly one response line, one of the responses.',
    $defs: {
      ...(JSON.parse(JSON.stringify(defs)) as object),
      Request: { description: 'Any request line.', oneOf: refs('Request', Object.keys(requests)) },
      Response: { description: 'Any response line.', oneOf: refs('Response', Object.keys(responses)) },
    },
    $ref: '#/$defs/Request',
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(JSON.stringify(protocolJsonSchema(), null, 2) + '\n');
}
