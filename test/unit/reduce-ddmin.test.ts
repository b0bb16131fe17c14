// The search machinery on its own: the ordered parallel scan, ddmin, and the predicate cache.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { firstSuccess } from '../../src/reduce/first-success.js';
import { ddmin } from '../../src/reduce/ddmin.js';
import { Tester } from '../../src/reduce/tester.js';

/** A promise with its resolve function outside, so a test decides the order things finish in. */
function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
const tick = () => new Promise((r) => setImmediate(r));
const never = () => false;

test('firstSuccess takes the first success in list order, not the first to finish', async () => {
  const pending = Array.from({ length: 6 }, () => deferred<boolean>());
  const result = firstSuccess([0, 1, 2, 3, 4, 5], (i) => pending[i]!.promise, 8, never);
  await tick();
  // Finish from last to first: 5 succeeds before 2 does, and 2 must still win.
  for (const i of [5, 4, 3, 2, 1, 0]) {
    pending[i]!.resolve(i === 2 || i === 5);
    await tick();
  }
  assert.equal(await result, 2);
});

test('firstSuccess starts nothing after a known success, and at most `parallel` at a time', async () => {
  const started: number[] = [];
  const pending = Array.from({ length: 10 }, () => deferred<boolean>());
  let running = 0;
  let peak = 0;
  const result = firstSuccess(
    [...pending.keys()],
    async (i) => {
      started.push(i);
      peak = Math.max(peak, ++running);
      const answer = await pending[i]!.promise;
      running--;
      return answer;
    },
    3,
    never,
  );
  await tick();
  pending[1]!.resolve(true);
  await tick();
  pending[0]!.resolve(false);
  await tick();
  pending[2]!.resolve(false);
  assert.equal(await result, 1);
  assert.deepEqual(started, [0, 1, 2]);
  assert.equal(peak, 3);
});

test('firstSuccess returns -1 when nothing passes, and rethrows a test error after the others settle', async () => {
  assert.equal(await firstSuccess([1, 2, 3], async () => false, 2, never), -1);
  let settled = 0;
  await assert.rejects(
    firstSuccess(
      [0, 1, 2],
      async (i) => {
        await tick();
        settled++;
        if (i === 0) throw new Error('farm gone');
        return false;
      },
      3,
      never,
    ),
    /farm gone/,
  );
  assert.equal(settled, 3);
});

test('firstSuccess starts no test once halted', async () => {
  const started: number[] = [];
  const result = await firstSuccess(
    [0, 1, 2, 3],
    async (i) => {
      started.push(i);
      return false;
    },
    1,
    () => started.length >= 2,
  );
  assert.equal(result, -1);
  assert.deepEqual(started, [0, 1]);
});

test('ddmin finds exactly the needed units, and removing any one of them fails', async () => {
  const needed = new Set([3, 17, 18, 40]);
  const passes = async (keep: readonly number[]) => [...needed].every((u) => keep.includes(u));
  const keep = await ddmin(50, passes, { parallel: 4, halted: never });
  assert.deepEqual(keep, [3, 17, 18, 40]);
  for (const u of keep) assert.equal(await passes(keep.filter((k) => k !== u)), false);
});

test('ddmin tries the empty configuration first', async () => {
  const tried: (readonly number[])[] = [];
  const keep = await ddmin(
    5,
    async (k) => {
      tried.push(k);
      return true;
    },
    { parallel: 1, halted: never },
  );
  assert.deepEqual(keep, []);
  assert.deepEqual(tried, [[]]);
});

test('ddmin handles interacting units: a pair that is needed only together', async () => {
  // Passes when both 5 and 6 are kept, or when 9 is kept: ddmin may settle on either, and the
  // result must be 1-minimal.
  const passes = async (k: readonly number[]) => (k.includes(5) && k.includes(6)) || k.includes(9);
  const keep = await ddmin(12, passes, { parallel: 3, halted: never });
  assert.ok(await passes(keep));
  for (const u of keep) assert.equal(await passes(keep.filter((k) => k !== u)), false);
});

test('the tester asks the predicate once per distinct text, even for concurrent requests', async () => {
  const asked: string[] = [];
  const tester = new Tester(
    async (t) => {
      asked.push(t.html!);
      await tick();
      return t.html === 'a';
    },
    {
      maxTests: 100,
      deadline: Infinity,
      signal: undefined,
    },
  );
  const answers = await Promise.all([
    tester.test({ html: 'a' }),
    tester.test({ html: 'a' }),
    tester.test({ html: 'b' }),
    tester.test({ html: 'a' }),
  ]);
  assert.deepEqual(answers, [true, true, false, true]);
  assert.deepEqual(asked, ['a', 'b']);
  assert.equal(tester.tested, 2);
  assert.equal(tester.cacheHits, 2);
});

test('the tester tells html from script: the same string in either field is two trials', async () => {
  const tester = new Tester(async (t) => t.script === 'x', { maxTests: 100, deadline: Infinity, signal: undefined });
  assert.equal(await tester.test({ html: 'x' }), false);
  assert.equal(await tester.test({ script: 'x' }), true);
  assert.equal(tester.tested, 2);
});

test('the tester refuses tests past maxTests and says why', async () => {
  const tester = new Tester(async () => true, { maxTests: 2, deadline: Infinity, signal: undefined });
  assert.equal(await tester.test({ html: '1' }), true);
  assert.equal(await tester.test({ html: '2' }), true);
  assert.equal(tester.stopped, null);
  assert.equal(await tester.test({ html: '3' }), false);
  assert.equal(tester.stopped, 'max-tests');
  assert.equal(tester.tested, 2);
  assert.equal(await tester.test({ html: '1' }), true, 'cached answers are still given');
});
