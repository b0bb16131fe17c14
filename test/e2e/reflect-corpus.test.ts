// The shipped reflection corpus through the real engines, as `reflect-corpus` runs it. Whether
// the engines agree on a case is a finding, not a test result: this checks only that every
// engine answered every case, and that the table has a row per case.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_CORPUS, formatTable, readCorpus, runCorpus } from '../../src/tools/reflect-corpus/session.js';
import { ENGINE_NAMES } from '../../src/protocol/schema.js';

test('every corpus case is answered by all three engines, one observation per probe', async () => {
  const requests = readCorpus(DEFAULT_CORPUS);
  const results = await runCorpus(requests);
  for (const { request, response, vote } of results) {
    assert.equal(response.errors, undefined, `${request.id}: ${JSON.stringify(response.errors)}`);
    assert.deepEqual(Object.keys(response.states), [...ENGINE_NAMES], request.id);
    for (const engine of ENGINE_NAMES)
      assert.equal(response.states[engine]!.observations.length, request.probes.length, `${request.id} ${engine}`);
    assert.notEqual(vote.verdict, 'insufficient', request.id);
  }
  const table = formatTable(results);
  for (const { id } of requests)
    assert.ok(
      table.some((line) => line.startsWith(`${id} `)),
      `no row for ${id}`,
    );
  assert.match(table.at(-1)!, new RegExp(`^${requests.length} cases: \\d+ unanimous, \\d+ outlier, \\d+ split, 0 insufficient$`));
});
