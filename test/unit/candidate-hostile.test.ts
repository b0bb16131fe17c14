// The candidate client against candidates that misbehave on purpose, each a small program the test
// writes (test/support/scripted-candidate.ts): cases that share ids answered out of order, a line
// cut short by an exit, bursts of garbage, floods of answers to nobody, lines and stderr of many
// megabytes. Every case gets exactly one outcome, its own; one failure costs one case; the log
// quotes nothing raw; reading a line costs time in proportion to its length.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { answerOutcome, CandidateProcess, type CandidateProcessOptions } from '../../src/candidate-client/process-source.js';
import type { SourceOutcome } from '../../src/candidate-client/source.js';
import type { CandidateCase } from '../../src/protocol/candidate-schema.js';
import { visible } from '../../src/system/visible-text.js';
import { scriptedCandidate } from '../support/scripted-candidate.js';
import { captureStderr } from '../support/stderr-capture.js';

/** Runs `cases` on a candidate started with `options`, all at once, then closes it; the outcomes, the pauses before each start and what was logged. */
async function run(
  options: CandidateProcessOptions,
  cases: CandidateCase[],
): Promise<{ outcomes: SourceOutcome[]; starts: number[]; logged: string }> {
  const starts: number[] = [];
  const logged = captureStderr();
  try {
    const candidate = await CandidateProcess.start({ backOffMs: () => 10, ...options, onStart: ({ pauseMs }) => starts.push(pauseMs) });
    let outcomes: SourceOutcome[];
    try {
      outcomes = await Promise.all(cases.map((c) => candidate.run(c)));
    } finally {
      await candidate.close();
    }
    // Read once it is closed: its stderr is a pipe of its own, which may still hold lines written before its answers.
    return { outcomes, starts, logged: logged.text() };
  } finally {
    logged.stop();
  }
}

/** Whether a line holds no character that would not show as itself (a control, a bidirectional override…). */
const shownAsIs = (line: string) => visible(line) === line;

/** Cases 1..n, each's html its number. */
const numbered = (n: number, id = (i: number) => `c${i}`): CandidateCase[] =>
  Array.from({ length: n }, (_, i) => ({ id: id(i + 1), html: String(i + 1) }));

/** Each outcome as one short value: the width of its dump's root, else its error code. */
const shapes = (outcomes: SourceOutcome[]) =>
  outcomes.map((o) => (o.kind === 'dump' ? o.dump.nodes[0]!.bounding.w : o.kind === 'error' ? o.message.split(':')[0]! : 'unsupported'));

test('cases that share an id, or an id made up for an id-less corpus line, are never taken for each other, in any order of answers', async () => {
  // A corpus may hold the same id twice, and `line:<n>` made up for a line without one can equal another line's own id.
  const ids = ['dup', 'dup', 'line:3', 'line:3', '', '__proto__', 'dup', 'ping'];
  const cases = ids.map((id, i) => ({ id, html: String(i + 1) }));
  // It holds every case it is given, then answers them last first; then in a shuffled order.
  const reversed = scriptedCandidate(
    `held.push(request); if (held.length === ${ids.length}) for (const r of held.splice(0).reverse()) say(answer(r, Number(r.html)));`,
    'const held = [];',
  );
  assert.deepEqual(shapes((await run({ command: reversed, timeoutMs: 60_000 }, cases)).outcomes), [1, 2, 3, 4, 5, 6, 7, 8]);
  const shuffled = scriptedCandidate(
    `held.push(request); if (held.length === ${ids.length}) for (const i of [3, 0, 7, 1, 6, 2, 5, 4]) say(answer(held[i], Number(held[i].html)));`,
    'const held = [];',
  );
  assert.deepEqual(shapes((await run({ command: shuffled, timeoutMs: 60_000 }, cases)).outcomes), [1, 2, 3, 4, 5, 6, 7, 8]);
});

test('the candidate is sent an id of the oracle’s own for each line, never a case’s, and never the same twice', async () => {
  const seen = scriptedCandidate(
    `process.stderr.write('id ' + JSON.stringify(request.id) + '\\n'); say(answer(request, Number(request.html)));`,
  );
  const { outcomes, logged } = await run(
    { command: seen },
    numbered(4, () => 'same'),
  );
  assert.deepEqual(shapes(outcomes), [1, 2, 3, 4]);
  const ids = [...logged.matchAll(/: id "([^"]*)"/g)].map((m) => m[1]!);
  assert.equal(ids.length, 4, logged);
  assert.equal(new Set(ids).size, 4, `${ids}`);
  assert.ok(!ids.includes('same'));
});

test('whatever the candidate writes to stderr before it exits is logged before close() returns', async () => {
  // Its last words come as its input ends, written at once and more than a pipe holds: the exit is seen before the pipe is read to its end.
  const lastWords = scriptedCandidate(
    'say(answer(request, 1));',
    `process.stdin.on('end', () => { for (let i = 0; i < 2000; i++) require('node:fs').writeSync(2, 'last ' + i + ' ' + 'x'.repeat(100) + '\\n'); process.exit(0); });`,
  );
  const { logged } = await run({ command: lastWords }, numbered(1));
  assert.equal([...logged.matchAll(/: last (\d+) x/g)].length, 2000);
});

test('a candidate that exits in the middle of an answer line costs that case alone', async () => {
  const cut = scriptedCandidate(
    `if (request.html === '2') { say(answer(request, 2).slice(0, 40)); process.exit(3); } say(answer(request, Number(request.html)));`,
  );
  const { outcomes, starts } = await run({ command: cut }, numbered(5));
  assert.deepEqual(shapes(outcomes), [1, 'candidate_crashed', 3, 4, 5]);
  const crashed = outcomes[1]!;
  assert.match(crashed.kind === 'error' ? crashed.message : '', /exited with code 3 during the case, in the middle of a line \(40 bytes\)/);
  assert.equal(starts.length, 2);
});

test('a burst of garbage costs one case, the one the candidate was on; the process is replaced and the rest are answered', async () => {
  // Control sequences, NULs, bytes that are not UTF-8, and lines that are JSON but answer nothing.
  const burst = Buffer.concat([
    Buffer.from('\x1b[2J\x1b]0;pwned\x07\nbrowser-oracle: error: forged\n'),
    Buffer.from([0x00, 0x01, 0xff, 0xfe, 0x9b, 0x0a]),
    Buffer.from(`[1,2,3]\n{"dump":{}}\n${'x'.repeat(5000)}\n`),
  ]);
  const garbage = scriptedCandidate(
    `if (request.html === '2') for (let i = 0; i < 20; i++) say(Buffer.from('${burst.toString('base64')}', 'base64')); say(answer(request, Number(request.html)));`,
  );
  const { outcomes, logged } = await run({ command: garbage }, numbered(8));
  assert.deepEqual(shapes(outcomes), [1, 'candidate_protocol', 3, 4, 5, 6, 7, 8]);
  const error = outcomes[1]!;
  assert.ok(error.kind === 'error' && error.message.length < 400, JSON.stringify(error));
  assert.ok(error.kind === 'error' && shownAsIs(error.message), JSON.stringify(error));
  assert.ok(logged.split('\n').every(shownAsIs), 'nothing raw reaches the log');
  assert.doesNotMatch(logged, /^browser-oracle: error: forged/m);
});

test('garbage between cases, when the candidate is on none, costs no case', async () => {
  // After each answer, once the oracle has nothing waiting, a line of garbage: logged (a few times), never charged.
  const between = scriptedCandidate(`say(answer(request, Number(request.html))); setTimeout(() => say('not json\\n'), 50);`);
  const candidate = await CandidateProcess.start({ command: between });
  try {
    for (const c of numbered(4)) {
      const [outcome] = shapes([await candidate.run(c)]);
      assert.equal(outcome, Number(c.html));
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    await candidate.close();
  }
});

test('a flood of answers to ids no case waits for is dropped, logged a few times, and the cases keep their own answers', async () => {
  const flood = scriptedCandidate(
    `for (let i = 0; i < 500; i++) say(JSON.stringify({ id: 'nobody-' + i, error: 'x' }) + '\\n'); say(answer(request, Number(request.html)));`,
  );
  const { outcomes, logged } = await run({ command: flood }, numbered(3));
  assert.deepEqual(shapes(outcomes), [1, 2, 3]);
  const dropped = logged.split('\n').filter((l) => l.includes('dropped an answer to'));
  assert.ok(dropped.length > 0 && dropped.length <= 10, `${dropped.length} lines`);
});

/** CPU time (user + system, µs) this process spends on `work`. */
async function cpuOf(work: () => Promise<unknown>): Promise<number> {
  const before = process.cpuUsage();
  await work();
  const used = process.cpuUsage(before);
  return used.user + used.system;
}

/**
 * The CPU this process spends on a case whose candidate writes `bytes` in the way `writes` says
 * (the html is the size), at two sizes eight times apart, each the least of two runs: a cost
 * linear in the size is about 8 times as much (less, with what does not grow), a quadratic one 64.
 */
async function growth(candidate: CandidateProcess, small: number): Promise<number> {
  const cost = async (bytes: number) => {
    let least = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 2; i++) {
      const outcome = { value: undefined as SourceOutcome | undefined };
      least = Math.min(least, await cpuOf(async () => (outcome.value = await candidate.run({ id: 'big', html: String(bytes) }))));
      assert.notEqual(outcome.value?.kind === 'error' && outcome.value.message.split(':')[0], 'candidate_timeout');
    }
    return least;
  };
  const a = await cost(small);
  const b = await cost(8 * small);
  return b / a;
}

test('an answer line of many megabytes is read at a cost linear in its length', async () => {
  // An answer that is valid and as long as the html says: an error whose message is that many x's.
  const long = scriptedCandidate(`say(JSON.stringify({ id: request.id, error: 'x'.repeat(Number(request.html)) }) + '\\n');`);
  const candidate = await CandidateProcess.start({ command: long, timeoutMs: 600_000 });
  try {
    const ratio = await growth(candidate, 4 << 20);
    assert.ok(ratio < 20, `8 times the length cost ${ratio.toFixed(1)} times the CPU`);
    const answer = await candidate.run({ id: 'big', html: String(32 << 20) });
    assert.equal(answer.kind, 'error');
    assert.ok(answer.kind === 'error' && answer.message.length < 2000, 'its text is kept short');
  } finally {
    await candidate.close();
  }
});

test('stderr of many megabytes without a newline is read at a linear cost, held bounded, and logged cut and visible', async () => {
  const noisy = scriptedCandidate(
    `const chunk = '\\x1b[31m' + 'e'.repeat(65536); for (let left = Number(request.html); left > 0; left -= chunk.length) process.stderr.write(chunk); say(answer(request, 1));`,
  );
  const logged = captureStderr();
  let text: string;
  try {
    const candidate = await CandidateProcess.start({ command: noisy, timeoutMs: 600_000 });
    try {
      const ratio = await growth(candidate, 4 << 20);
      assert.ok(ratio < 20, `8 times the stderr cost ${ratio.toFixed(1)} times the CPU`);
    } finally {
      await candidate.close();
    }
  } finally {
    text = logged.text();
    logged.stop();
  }
  const lines = text.split('\n').filter((l) => l.includes('candidate scripted:'));
  assert.ok(lines.length > 0, 'the stderr was logged');
  for (const line of lines) assert.ok(line.length < 20_000, `a log line of ${line.length} characters`);
  assert.ok(text.split('\n').every(shownAsIs), 'nothing raw reaches the log');
  assert.match(lines[0]!, /\\x1b\[31m/);
});

test('an unsupported or error text keeps no control character, and is kept short', () => {
  const hostile = 'float: left\u001b[2J\n\u0000\u009b\u202e'.padEnd(5000, 'x');
  const unsupported = answerOutcome({ id: '1', unsupported: hostile }, 'scripted');
  assert.equal(unsupported.kind, 'unsupported');
  const what = unsupported.kind === 'unsupported' ? unsupported.what : '';
  assert.ok(what.startsWith('float: left\\x1b[2J\\n\\x00\\x9b\\u202e') && shownAsIs(what) && what.length < 1100, what);
  const error = answerOutcome({ id: '1', error: hostile }, 'scripted');
  assert.ok(error.kind === 'error' && shownAsIs(error.message) && error.message.length < 1100, JSON.stringify(error));
});
