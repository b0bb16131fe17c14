// The tester, the reducer's one door to the predicate (issue 23, finding 8): with `runs` above one,
// a trial holds only if it holds in every one of its runs, the original's runs are all made
// and counted, and a trial a budget cuts short is not taken as holding.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Tester } from '../../src/reduce/tester.js';
import type { CaseTexts } from '../../src/reduce/types.js';

const OPEN = { maxTests: 1000, deadline: Infinity, signal: undefined };

/** A predicate that answers each html with the next of its scripted answers, and records its calls. */
function scripted(answers: Record<string, boolean[]>) {
  const calls: string[] = [];
  let running = 0;
  let peak = 0;
  const predicate = async (texts: CaseTexts) => {
    const html = texts.html!;
    const i = calls.filter((c) => c === html).length;
    calls.push(html);
    peak = Math.max(peak, ++running);
    await new Promise((resolve) => setImmediate(resolve));
    running--;
    return answers[html]![i]!;
  };
  return { predicate, calls, peak: () => peak };
}

test('a trial holds only if it holds in each of its runs; the first run that fails ends its test', async () => {
  const p = scripted({ always: [true, true, true], flaky: [true, false, true], never: [false, true, true] });
  const tester = new Tester(p.predicate, OPEN, 3);
  assert.equal(await tester.test({ html: 'always' }), true);
  assert.equal(await tester.test({ html: 'flaky' }), false);
  assert.equal(await tester.test({ html: 'never' }), false);
  assert.deepEqual(p.calls, ['always', 'always', 'always', 'flaky', 'flaky', 'never']);
  assert.equal(tester.tested, 3, 'three trials');
  assert.equal(tester.runs, 6, 'six runs');
  // The verdict is cached whole: a trial once refused is not run again, to be lucky.
  assert.equal(await tester.test({ html: 'flaky' }), false);
  assert.equal(tester.cacheHits, 1);
  assert.equal(p.calls.length, 6);
});

test("the original's runs are all made, at most `parallel` at once, and counted", async () => {
  const p = scripted({ original: [true, false, true, true, false] });
  const tester = new Tester(p.predicate, OPEN, 5);
  assert.deepEqual(await tester.count({ html: 'original' }, 2), { held: 3, ran: 5 });
  assert.equal(p.calls.length, 5, 'every run, not just up to the first that fails');
  assert.equal(p.peak(), 2);
  assert.equal(tester.tested, 1);
  // Counted once, known after: the original does not hold.
  assert.equal(await tester.test({ html: 'original' }), false);
  assert.equal(p.calls.length, 5);
});

test('a trial whose runs an abort cuts short does not hold', async () => {
  const stop = new AbortController();
  const tester = new Tester(
    async () => {
      stop.abort();
      return true;
    },
    { ...OPEN, signal: stop.signal },
    3,
  );
  assert.equal(await tester.test({ html: 'x' }), false);
  assert.equal(tester.runs, 1);
  assert.equal(tester.stopped, 'aborted');
});

test('a trial whose runs the time limit cuts short does not hold, and the original counts only the runs made', async () => {
  let now = 0;
  const tester = new Tester(
    async () => {
      now++;
      return true;
    },
    { ...OPEN, deadline: 1 },
    3,
    () => now,
  );
  assert.deepEqual(await tester.count({ html: 'original' }, 1), { held: 1, ran: 1 });
  assert.equal(tester.stopped, 'time-limit');
  assert.equal(await tester.test({ html: 'trial' }), false);
  assert.equal(tester.runs, 1);
});

test('max-tests counts trials: the runs of one already started are all made', async () => {
  const p = scripted({ a: [true, true, true], b: [true, true, true] });
  const tester = new Tester(p.predicate, { ...OPEN, maxTests: 1 }, 3);
  assert.equal(await tester.test({ html: 'a' }), true);
  assert.equal(await tester.test({ html: 'b' }), false, 'no second trial starts');
  assert.deepEqual(p.calls, ['a', 'a', 'a']);
  assert.equal(tester.stopped, 'max-tests');
});
