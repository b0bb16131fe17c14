// The published JSON Schema (schema/protocol.schema.json) as a client would use it: Ajv 8 with
// its draft 2020-12 dialect, in strict mode, so a schema Ajv would only warn about fails here.
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

/** Compiled as dist/test/support/published-schema.js; the schema stays in the source tree. */
export const PUBLISHED_SCHEMA = new URL('../../../schema/protocol.schema.json', import.meta.url);

export interface PublishedValidators {
  request: ValidateFunction;
  response: ValidateFunction;
}

/** Compiles the whole published schema (every definition), then its Request and Response unions. */
export function compilePublishedSchema(): PublishedValidators {
  const schema = JSON.parse(readFileSync(PUBLISHED_SCHEMA, 'utf8')) as { $id: string };
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  ajv.addSchema(schema);
  const named = (def: string) => {
    const validate = ajv.getSchema(`${schema.$id}#/$defs/${def}`);
    if (!validate) throw new Error(`the published schema has no $defs/${def}`);
    return validate;
  };
  return { request: named('Request'), response: named('Response') };
}

/** Ajv's errors for `value` as one readable string ('' when it validates). */
export function schemaErrors(validate: ValidateFunction, value: unknown): string {
  return validate(value) ? '' : JSON.stringify(validate.errors);
}
