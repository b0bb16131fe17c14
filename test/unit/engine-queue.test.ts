// The per-engine queue's batches: script-free cases from the head, up to min(maxBatch,
// ceil(queued / idle pages)); a case that loads its own document ends a batch; and, for an engine whose
// written documents keep bidi processing on, a page takes cases of its own kind first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EngineQueue, type Pending } from '../../src/workers/host/engine-queue.js';
import type { Job, WalkJob, WriteJob } from '../../src/workers/host/jobs.js';

const own = { kind: 'walk' } as WalkJob;
const write = (html: string, bidi = false): WriteJob => ({
  kind: 'write',
  html,
  blankUrl: '',
  walk: own.walk,
  relayout: false,
  fallback: own,
  bidi,
});
const pending = (job: Job): Pending => ({ job, resolve: () => {}, reject: () => {}, attempt: 0, alone: false, since: 0 });
const names = (batch: Pending[]) => batch.map((p) => (p.job.kind === 'write' ? p.job.html : p.job.kind));

function queueOf(maxBatch: number, jobs: Job[]): EngineQueue {
  const queue = new EngineQueue(maxBatch);
  for (const job of jobs) queue.push(pending(job));
  return queue;
}

test('a batch is what is queued, shared between the idle pages, up to maxBatch, and ends at a case with its own document', () => {
  const queue = queueOf(3, [write('a'), write('b'), write('c'), write('d'), own, write('e')]);
  assert.deepEqual(names(queue.next(2)), ['a', 'b', 'c'], 'min(3, ceil(5 / 2))');
  assert.deepEqual(names(queue.next(2)), ['d'], 'the walk ends the batch');
  assert.deepEqual(names(queue.next(2)), ['walk']);
  assert.deepEqual(names(queue.next(2)), ['e'], 'a lone case is not held back');
  assert.deepEqual(queue.next(2), []);
});

test('a page whose sibling pages are all busy takes everything queued, up to maxBatch: a burst is not split geometrically', () => {
  const burst = Array.from({ length: 28 }, (_, i) => write(`c${i}`));
  const sizes = (idle: number) => {
    const queue = queueOf(64, burst);
    const taken: number[] = [];
    for (let batch = queue.next(idle); batch.length; batch = queue.next(idle)) taken.push(batch.length);
    return taken;
  };
  assert.deepEqual(sizes(1), [28], 'the only idle page takes the whole burst');
  assert.deepEqual(sizes(2), [14, 7, 4, 2, 1], 'two idle pages still share it (what each of two pages took from a burst before)');
  assert.deepEqual(names(queueOf(4, burst).next(1)), ['c0', 'c1', 'c2', 'c3'], 'never more than maxBatch');
});

test('a page takes the cases of its own bidi kind first, in order, and the others only when there are none', () => {
  const jobs = () => [write('l1'), write('r1', true), write('l2'), write('r2', true), write('l3'), own, write('r3', true)];
  const clean = queueOf(32, jobs());
  assert.deepEqual(names(clean.next(1, false)), ['l1', 'l2', 'l3']);
  assert.deepEqual(names(clean.next(1, false)), ['r1', 'r2'], 'none of its kind left before the walk');
  const tainted = queueOf(32, jobs());
  assert.deepEqual(names(tainted.next(1, true)), ['r1', 'r2']);
  assert.deepEqual(names(tainted.next(1, true)), ['l1', 'l2', 'l3']);
  assert.deepEqual(names(tainted.next(1, true)), ['walk'], 'a case with its own document still goes in its turn');
  assert.deepEqual(names(queueOf(32, jobs()).next(1)), ['l1', 'r1', 'l2', 'r2', 'l3'], 'no preference: the head as it is');
});
