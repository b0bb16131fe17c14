// The per-engine queue's batches, as the fast path picks them: script-free cases from the head, up
// to min(maxBatch, ceil(queued / idle pages)); a case that loads its own document ends a batch;
// and, for an engine whose written documents keep bidi processing on, a page takes cases of its
// own kind first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EngineQueue, type Pending } from '../../src/workers/host/engine-queue.js';
import { FastPath } from '../../src/workers/host/fast-path.js';
import type { DocumentJob, Job, WriteJob } from '../../src/workers/host/jobs.js';
import type { Slot } from '../../src/workers/host/page-pool.js';

const own = { kind: 'document' } as DocumentJob<never>;
const write = (html: string, bidi = false): WriteJob => ({
  kind: 'write',
  html,
  blankUrl: '',
  walk: {} as WriteJob['walk'],
  relayout: false,
  fallback: own,
  bidi,
});
const pending = (job: Job): Pending => ({ job, resolve: () => {}, reject: () => {}, attempt: 0, alone: false, since: 0 });
const names = (batch: Pending[]) => batch.map((p) => (p.job.kind === 'write' ? p.job.html : p.job.kind));

/**
 * A queue holding `jobs`, and how a page takes its next batch with `idle` pages free (itself
 * included): the fast path of an engine that keeps bidi or not, on a page whose document has it on or not.
 */
function queueOf(maxBatch: number, jobs: Job[], keepsBidi = false) {
  const queue = new EngineQueue();
  for (const job of jobs) queue.push(pending(job));
  const fastPath = new FastPath('firefox', () => ({ writesKeepBidi: keepsBidi, swapsWrites: true }), maxBatch, 1000);
  return (idle: number, bidiPage = false) => {
    const slot = { blank: { bidi: bidiPage } } as Slot;
    return queue.next((run, queued) => fastPath.pick(slot, run, queued, idle));
  };
}

test('a batch is what is queued, shared between the idle pages, up to maxBatch, and ends at a case with its own document', () => {
  const next = queueOf(3, [write('a'), write('b'), write('c'), write('d'), own, write('e')]);
  assert.deepEqual(names(next(2)), ['a', 'b', 'c'], 'min(3, ceil(5 / 2))');
  assert.deepEqual(names(next(2)), ['d'], 'the document ends the batch');
  assert.deepEqual(names(next(2)), ['document']);
  assert.deepEqual(names(next(2)), ['e'], 'a lone case is not held back');
  assert.deepEqual(next(2), []);
});

test('a page whose sibling pages are all busy takes everything queued, up to maxBatch: a burst is not split geometrically', () => {
  const burst = Array.from({ length: 28 }, (_, i) => write(`c${i}`));
  const sizes = (idle: number) => {
    const next = queueOf(64, burst);
    const taken: number[] = [];
    for (let batch = next(idle); batch.length; batch = next(idle)) taken.push(batch.length);
    return taken;
  };
  assert.deepEqual(sizes(1), [28], 'the only idle page takes the whole burst');
  assert.deepEqual(sizes(2), [14, 7, 4, 2, 1], 'two idle pages still share it (what each of two pages took from a burst before)');
  assert.deepEqual(names(queueOf(4, burst)(1)), ['c0', 'c1', 'c2', 'c3'], 'never more than maxBatch');
});

test('a page takes the cases of its own bidi kind first, in order, and the others only when there are none', () => {
  const jobs = () => [write('l1'), write('r1', true), write('l2'), write('r2', true), write('l3'), own, write('r3', true)];
  const clean = queueOf(32, jobs(), true);
  assert.deepEqual(names(clean(1, false)), ['l1', 'l2', 'l3']);
  assert.deepEqual(names(clean(1, false)), ['r1', 'r2'], 'none of its kind left before the document');
  const tainted = queueOf(32, jobs(), true);
  assert.deepEqual(names(tainted(1, true)), ['r1', 'r2']);
  assert.deepEqual(names(tainted(1, true)), ['l1', 'l2', 'l3']);
  assert.deepEqual(names(tainted(1, true)), ['document'], 'a case with its own document still goes in its turn');
  assert.deepEqual(names(queueOf(32, jobs())(1, true)), ['l1', 'r1', 'l2', 'r2', 'l3'], 'an engine without the rule: the head as it is');
});
