// The short form of `npm run chaos`: browsers killed at random and a hanging case now and
// then, while a client pipelines cases. Nothing may be lost, duplicated or left running.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runChaos } from '../support/chaos.js';

test('under random browser kills and hangs, every case is answered exactly once and nothing outlives the oracle', async () => {
  const report = await runChaos({
    cases: 150,
    killEvery: { range: [10, 25], unit: 'answers' },
    hangEvery: 70,
    timeoutMs: 4_000,
    window: 8,
    oracleArgs: ['--workers=1'],
  });
  assert.ok(report.kills >= 1, `at least one browser was killed (${JSON.stringify(report)})`);
  assert.equal(report.hangs, 2);
  assert.equal(report.lost, 0);
  assert.equal(report.duplicates, 0);
  assert.deepEqual(report.orphans, [], 'no process of the oracle outlives it');
  assert.equal(report.exitCode, 0);
  // Each hanging case ends in every engine by timeout (or as a crash, when a kill lands on
  // its browser meanwhile); nothing fails for any other reason.
  const { case_timeout = 0, engine_crashed = 0 } = report.engineErrors;
  assert.ok(case_timeout >= 1 && case_timeout + engine_crashed >= 2 * 3, JSON.stringify(report.engineErrors));
  assert.deepEqual(
    Object.keys(report.engineErrors).filter((c) => c !== 'case_timeout' && c !== 'engine_crashed'),
    [],
  );
});
