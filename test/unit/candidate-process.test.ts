// The process client of the candidate protocol, against real processes: the two reference
// candidates (through this package's CLI), and a small candidate in test/support that crashes,
// hangs or writes garbage on demand. Every case gets exactly one outcome, its own; a process that
// crashed or hung is started again after the back-off; a malformed line is that case's error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import {
  CandidateProcess,
  CandidateStartError,
  commandArgv,
  defaultBackOff,
  IN_FLIGHT,
  type CandidateProcessOptions,
} from '../../src/candidate-client/process-source.js';
import { judgedOutcome, type SourceOutcome } from '../../src/candidate-client/source.js';
import { captureStderr } from '../support/stderr-capture.js';

const FLAKY = fileURLToPath(new URL('../support/flaky-candidate.js', import.meta.url));
const flaky = (flags: string) => `${JSON.stringify(process.execPath)} ${JSON.stringify(FLAKY)} ${flags}`;

/** A candidate started with `options`, run on cases 1..n (html = the case's number), then closed. */
async function runCases(options: CandidateProcessOptions, n: number): Promise<{ outcomes: SourceOutcome[]; starts: number[] }> {
  const starts: number[] = [];
  const candidate = await CandidateProcess.start({ backOffMs: (f) => f * 50, ...options, onStart: ({ pauseMs }) => starts.push(pauseMs) });
  try {
    const outcomes = await Promise.all(Array.from({ length: n }, (_, i) => candidate.run({ id: `c${i + 1}`, html: String(i + 1) })));
    return { outcomes, starts };
  } finally {
    await candidate.close();
  }
}

/** What each outcome is, as one short string: the width its dump gives, or its error code. */
const shapes = (outcomes: SourceOutcome[]) =>
  outcomes.map((o) => (o.kind === 'dump' ? o.dump.nodes[0]!.bounding.w : o.kind === 'error' ? o.message.split(':')[0]! : `unsupported`));

test('a command line is split as a shell splits words; a reference name runs the CLI', () => {
  assert.deepEqual(commandArgv(`path/to/my-engine --flag 'two words' "x y"`), ['path/to/my-engine', '--flag', 'two words', 'x y']);
  const taffy = commandArgv('taffy', 'square');
  assert.deepEqual(taffy.slice(-4), ['candidate', 'taffy', '--fonts', 'square']);
  assert.match(taffy[1]!, /cli\/main\.js$/);
  assert.throws(() => commandArgv('   '), /empty/);
});

test('the back-off doubles with each failure in a row, from none', () => {
  assert.deepEqual([0, 1, 2, 3, 10].map(defaultBackOff), [0, 200, 400, 800, 10_000]);
});

test('a candidate that exits on its fifth case loses nothing and doubles nothing, and is restarted after a pause', async () => {
  const { outcomes, starts } = await runCases({ command: flaky('--crash-on 5') }, 12);
  // Each process crashes on its own fifth case: cases 5 and 10 of the run.
  assert.deepEqual(shapes(outcomes), [1, 2, 3, 4, 'candidate_crashed', 6, 7, 8, 9, 'candidate_crashed', 11, 12]);
  assert.deepEqual(starts, [0, 50, 50], 'one failure in a row each time, so one step of back-off');
});

test('a candidate that hangs is killed at the timeout; the case is an error, the rest are answered', async () => {
  // The timeout is long enough for a loaded machine to answer the other cases; only the hung one reaches it.
  const { outcomes, starts } = await runCases({ command: flaky('--hang-on 2'), timeoutMs: 8000 }, 3);
  assert.deepEqual(shapes(outcomes), [1, 'candidate_timeout', 3], 'case 3 is the new process’s first');
  assert.equal(starts.length, 2);
});

test('cases are written ahead of their answers, and each answer finds its case by id, in any order', async () => {
  // It answers only once it holds four cases: given one at a time, the first would wait for ever.
  const { outcomes, starts } = await runCases({ command: flaky('--batch 4'), timeoutMs: 60_000 }, 8);
  assert.ok(IN_FLIGHT >= 4);
  assert.deepEqual(shapes(outcomes), [1, 2, 3, 4, 5, 6, 7, 8]);
  assert.equal(starts.length, 1);
});

test('failures in a row lengthen the pause', async () => {
  const { outcomes, starts } = await runCases({ command: flaky('--crash-on 1') }, 3);
  assert.deepEqual(shapes(outcomes), ['candidate_crashed', 'candidate_crashed', 'candidate_crashed']);
  assert.deepEqual(starts, [0, 50, 100]);
});

test('a line that is no answer is that case’s error and ends the process; an invalid answer to its case is its error alone', async () => {
  // Not JSON: which case it was meant for cannot be told, so the process is replaced (one fault, one case; candidate-hostile.test.ts).
  const garbage = await runCases({ command: flaky('--garbage-on 2') }, 3);
  assert.deepEqual(shapes(garbage.outcomes), [1, 'candidate_protocol', 3]);
  assert.equal(garbage.starts.length, 2, 'replaced');
  // Under its case's id: that case's error, and the process keeps serving.
  const invalid = await runCases({ command: flaky('--invalid-on 1') }, 2);
  assert.deepEqual(shapes(invalid.outcomes), ['candidate_protocol', 2]);
  assert.equal(invalid.starts.length, 1, 'not restarted');
  const first = invalid.outcomes[0]!;
  assert.equal(
    first.kind === 'error' && first.message,
    'candidate_protocol: not a candidate answer: field "dump.engine_version": is required',
  );
});

test('an answer to an id no case waits for is dropped; the waiting case keeps its own', async () => {
  const { outcomes } = await runCases({ command: flaky('--stale-on 2') }, 3);
  assert.deepEqual(shapes(outcomes), [1, 2, 3]);
});

test('the candidate’s stderr goes to the oracle’s log', async () => {
  const written = captureStderr();
  try {
    await runCases({ command: flaky('--stderr hello-from-the-candidate') }, 1);
  } finally {
    written.stop();
  }
  assert.ok(/^browser-oracle: info: candidate flaky: hello-from-the-candidate/m.test(written.text()), written.text());
});

test('a candidate that does not start, or does not answer its ping, is refused in one line', async () => {
  await assert.rejects(CandidateProcess.start({ command: '/no/such/engine' }), (error: Error) => {
    assert.ok(error instanceof CandidateStartError);
    assert.match(error.message, /^candidate \/no\/such\/engine: could not start/);
    assert.doesNotMatch(error.message, /\n/);
    return true;
  });
  await assert.rejects(CandidateProcess.start({ command: flaky('--no-ping'), startTimeoutMs: 1000 }), /candidate_timeout/);
});

for (const name of ['taffy', 'yoga'] as const) {
  test(`the ${name} reference candidate, as a process: ping, a dump, unsupported`, async () => {
    const candidate = await CandidateProcess.start({ command: name, startTimeoutMs: 120_000, timeoutMs: 60_000 });
    try {
      assert.equal(candidate.name, name);
      assert.match(candidate.version, new RegExp(`^${name}-layout \\d`));
      assert.ok(candidate.supports?.properties.display?.includes('flex'));
      const html =
        '<!doctype html><style>body{margin:0}</style><div style="display:flex;width:100px;height:50px"><div style="flex:1"></div></div>';
      const answer = await candidate.run({ id: 'a', html });
      assert.equal(answer.kind, 'dump');
      const judged = judgedOutcome(answer);
      assert.equal(judged.kind, 'dump');
      if (answer.kind === 'dump') {
        assert.deepEqual(answer.roots, [4], 'the body (3) holds the case: html, head, style, body, div');
        assert.deepEqual(answer.dump.nodes[5]!.bounding, { x: 0, y: 0, w: 100, h: 50 }, 'the flex item grows to fill its container');
      }
      const grid = await candidate.run({
        id: 'b',
        html: '<!doctype html><div style="display:grid;grid-template-columns:fit-content(50px)"></div>',
      });
      assert.equal(grid.kind, 'unsupported');
      const script = await candidate.run({ id: 'c', html: '<!doctype html><div></div>', script: 'document.body.remove()' });
      assert.deepEqual(script, { kind: 'unsupported', what: 'script (a reference candidate runs no JavaScript)' });
    } finally {
      await candidate.close();
    }
  });
}
