// The adapters' bounded waits: a promise that never settles must not hold its owner, and one that
// does keeps its outcome (withDeadline) or is waited for quietly (withGrace).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withDeadline, withGrace } from '../../src/workers/engines/time-limits.js';

const never = new Promise<never>(() => {});

test('withGrace resolves when the promise settles, either way, and when it never does', async () => {
  assert.equal(await withGrace(Promise.resolve('value'), 60_000), undefined);
  assert.equal(await withGrace(Promise.reject(new Error('closed already')), 60_000), undefined);
  assert.equal(await withGrace(never, 1), undefined);
});

test("withDeadline keeps the promise's value or error, and rejects with late() when it never settles", async () => {
  assert.equal(await withDeadline(Promise.resolve(7), 60_000, () => new Error('late')), 7);
  await assert.rejects(
    withDeadline(Promise.reject(new Error('refused')), 60_000, () => new Error('late')),
    /^Error: refused$/,
  );
  await assert.rejects(
    withDeadline(never, 1, () => new Error('no session within 1 ms')),
    /^Error: no session within 1 ms$/,
  );
});
