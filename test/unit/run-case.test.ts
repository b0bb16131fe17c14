// The coordinator's one answer to a task that fails as a whole (src/coordinator/run-case.ts): a
// worker that throws under a task, or dies, still answers the case, from the same task run on no
// engine, with that failure as each engine's error; only a second failure rejects. The farm here
// stands in for the worker threads and records the tasks it is given.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CaseServer } from '../../src/coordinator/case-server.js';
import type { EngineFarm } from '../../src/coordinator/engine-farm.js';
import { runCase } from '../../src/coordinator/run-case.js';
import type { WorkerTask } from '../../src/worker-contract/tasks.js';

/** A farm running chromium and firefox whose workers answer as `answers` say, in turn: an error thrown, or the task's errors as its answer. */
function farmAnswering(answers: ('throw' | 'answer')[]) {
  const tasks: WorkerTask[] = [];
  let released = 0;
  const farm = {
    engines: ['chromium', 'firefox'],
    guarded: new Set(),
    run: async (task: WorkerTask) => {
      tasks.push(task);
      if (answers[tasks.length - 1] === 'throw') throw new Error('the worker died under the task');
      return { errors: task.unavailable };
    },
  } as unknown as EngineFarm;
  const document = { url: 'http://localhost/case', nonce: 'n', retry: { url: 'http://localhost/retry', nonce: 'r' } };
  const cases = {
    blankUrl: 'http://localhost/blank',
    publish: () => ({ documents: { chromium: document, firefox: document }, release: () => released++ }),
  } as unknown as CaseServer;
  return { ctx: { farm, cases, profile: 'default' as const }, tasks, released: () => released };
}

test('a task that fails as a whole is answered from the same task on no engine, with the failure as each engine’s error', async () => {
  const { ctx, tasks, released } = farmAnswering(['throw', 'answer']);
  const { answer } = await runCase(ctx, 'geometry', { id: 'c1', html: '<p>x</p>', engines: ['chromium', 'webkit'] });
  assert.deepEqual(
    tasks.map((t) => t.engines),
    [['chromium'], []],
  );
  assert.deepEqual(answer, {
    id: 'c1',
    errors: { webkit: 'engine_not_launched: engine not launched', chromium: 'internal_error: the worker died under the task' },
  });
  assert.equal(released(), 1, "the case's documents are released once");
});

test('a second failure rejects, and the documents are still released', async () => {
  const { ctx, tasks, released } = farmAnswering(['throw', 'throw']);
  await assert.rejects(runCase(ctx, 'geometry', { id: 'c2', html: '<p>x</p>' }), /the worker died under the task/);
  assert.equal(tasks.length, 2);
  assert.equal(released(), 1);
});
