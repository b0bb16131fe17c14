// Prints the published JSON Schema of the protocol (npm run schema → schema/protocol.schema.json),
// generated from the same TypeBox definitions the oracle validates with.
import { REQUEST_SCHEMAS, RESPONSE_SCHEMAS, DumpSchema } from './schema.js';

export function protocolJsonSchema(): object {
  // Each schema is published under its $id (GeometryRequest, PingResponse, Dump, ...).
  const schemas = [...Object.values(REQUEST_SCHEMAS), ...Object.values(RESPONSE_SCHEMAS), DumpSchema];
  const defs = Object.fromEntries(schemas.map(({ $id, ...schema }) => [$id!, schema]));
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://browser-oracle/protocol.schema.json',
    title: 'browser-oracle stdio protocol',
    description: 'One JSON object per line. A request line is one of the requests; every request gets exactly one response line.',
    $defs: Object.fromEntries(Object.entries(defs).map(([name, schema]) => [name, JSON.parse(JSON.stringify(schema))])),
    oneOf: Object.values(REQUEST_SCHEMAS).map((schema) => ({ $ref: `#/$defs/${schema.$id}` })),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(JSON.stringify(protocolJsonSchema(), null, 2) + '\n');
}
