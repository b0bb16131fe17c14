// What a candidate starts does not outlive it: a child in its process group, one in a session of
// its own (setsid), one that also clears its environment, after the candidate ends normally,
// crashes or hangs. As root with a v1 memory hierarchy (the project's machines), the candidate
// runs in a memory cgroup of its own, bounded; as another user (no cgroup), its group and the
// mark in its environment find what it started, and a warning says what is not bounded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { CandidateProcess } from '../../src/candidate-client/process-source.js';
import type { SourceOutcome } from '../../src/candidate-client/source.js';
import { memoryCgroupsHere, seenIn, STARTED_JS, stillRunning, type SeenProcess } from '../support/processes.js';
import { scriptedCandidate } from '../support/scripted-candidate.js';
import { captureStderr } from '../support/stderr-capture.js';

/**
 * A candidate that, on each case, starts three processes that would run for ever — one in its own
 * group, one in a new session, one in a new session with an empty environment (where `escape` is
 * set) — and names them on stderr; then answers the case (html `end`), exits (`crash`) or hangs
 * (`hang`).
 */
const STARTER = `
  const forever = ['-e', 'setInterval(() => {}, 1e9)'];
  const kids = [
    spawn(process.execPath, forever, { stdio: 'ignore' }),
    spawn(process.execPath, forever, { stdio: 'ignore', detached: true }),
    ...(process.env.ESCAPE ? [spawn(process.execPath, forever, { stdio: 'ignore', detached: true, env: {} })] : []),
  ];
  for (const kid of kids) kid.unref();
  started(kids.map((k) => k.pid));
  if (request.html === 'crash') setTimeout(() => process.exit(3), 100);
  else if (request.html !== 'hang') say(answer(request, 1));
`;

const cgroups = memoryCgroupsHere();

test('nothing a candidate starts outlives it, in its group or not, after it ends, crashes or hangs', async () => {
  const logged = captureStderr();
  const outcomes: SourceOutcome[] = [];
  let during: SeenProcess[] = [];
  try {
    process.env.ESCAPE = cgroups ? '1' : '';
    const candidate = await CandidateProcess.start({
      command: scriptedCandidate(STARTER, STARTED_JS),
      timeoutMs: 3000,
      backOffMs: () => 0,
    });
    try {
      for (const html of ['crash', 'hang', 'end']) outcomes.push(await candidate.run({ id: html, html }));
      // Its stderr is a pipe of its own: the last candidate's `started` line may come after its answer.
      const named = cgroups ? 9 : 6;
      for (const deadline = Date.now() + 60_000; seenIn(logged.text()).length < named && Date.now() < deadline; ) await sleep(20);
      during = seenIn(logged.text());
      // The ones started under the cases that crashed and hung are already gone; the last candidate's are still running.
      assert.deepEqual(
        during.map(stillRunning),
        during.map((_, i) => i >= during.length - (cgroups ? 3 : 2)),
        'the crashed and the killed candidates took theirs with them',
      );
    } finally {
      await candidate.close();
      delete process.env.ESCAPE;
    }
  } finally {
    logged.stop();
  }
  assert.deepEqual(
    outcomes.map((o) => (o.kind === 'error' ? o.message.split(':')[0] : o.kind)),
    ['candidate_crashed', 'candidate_timeout', 'dump'],
  );
  assert.equal(during.length, cgroups ? 9 : 6);
  assert.deepEqual(during.filter(stillRunning), [], 'a candidate that ended normally took its processes with it too');
});

test('where the kernel gives it a memory cgroup, a candidate is bounded: past its limit, the case is a crash that says so', async () => {
  const hungry = scriptedCandidate(
    `const held = []; for (let i = 0; i < 64; i++) held.push(Buffer.alloc(8 << 20, 1)); say(answer(request, held.length));`,
  );
  const logged = captureStderr();
  let outcome: SourceOutcome;
  try {
    const candidate = await CandidateProcess.start({ command: hungry, memoryLimit: 128 << 20, timeoutMs: 60_000 });
    try {
      outcome = await candidate.run({ id: 'big', html: '1' });
    } finally {
      await candidate.close();
    }
  } finally {
    logged.stop();
  }
  if (!cgroups) {
    // No cgroup here (not root, or no v1 memory hierarchy): said, once, never silent.
    assert.match(logged.text(), /runs without a memory cgroup/);
    return;
  }
  assert.equal(outcome.kind, 'error');
  assert.match(
    outcome.kind === 'error' ? outcome.message : '',
    /^candidate_crashed: .*the kernel killed it at its memory limit of 128 MiB/,
  );
});

test('without a cgroup (another user than root), a warning says so, and its group and its environment still find what it started', () => {
  const nobody = spawnSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).stdout.trim();
  assert.ok(process.getuid?.() !== 0 || nobody, 'as root, this machine has a user nobody to run as');
  if (process.getuid?.() !== 0) return; // already not root: the test above ran without a cgroup
  const dir = mkdtempSync(join(tmpdir(), 'unconfined-'));
  chmodSync(dir, 0o755);
  const candidate = scriptedCandidate(STARTER, STARTED_JS);
  const file = JSON.parse(candidate.split(' ')[1]!) as string;
  chmodSync(join(file, '..'), 0o755);
  const script = join(dir, 'run.mjs');
  const client = fileURLToPath(new URL('../../src/candidate-client/process-source.js', import.meta.url));
  writeFileSync(
    script,
    `import { CandidateProcess } from ${JSON.stringify(client)};
     const candidate = await CandidateProcess.start({ command: ${JSON.stringify(candidate)}, timeoutMs: 3000, backOffMs: () => 0 });
     const outcomes = [];
     for (const html of ['crash', 'hang', 'end']) outcomes.push((await candidate.run({ id: html, html })).kind);
     await candidate.close();
     console.log(JSON.stringify(outcomes));`,
  );
  const done = spawnSync('setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', process.execPath, script], {
    encoding: 'utf8',
    cwd: dir,
    timeout: 120_000,
  });
  assert.equal(done.status, 0, done.stderr);
  assert.deepEqual(JSON.parse(done.stdout), ['error', 'error', 'dump']);
  assert.match(done.stderr, /^browser-oracle: warn: candidate .*: runs without a memory cgroup \(.*\): its memory is not bounded/m);
  assert.equal(done.stderr.match(/runs without a memory cgroup/g)?.length, 1, 'said once');
  const started = seenIn(done.stderr);
  assert.equal(started.length, 6);
  assert.deepEqual(started.filter(stillRunning), []);
});
