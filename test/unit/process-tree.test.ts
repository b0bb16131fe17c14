// A process tree (src/system/process-tree.ts): a program and everything it starts, found and
// killed whatever it does — children in its group, in a session of their own, with an empty
// environment. Where the kernel gives a v1 memory cgroup (root, as on the project's machines), the
// program is born in one of its own, and so is its first child; a cgroup left by an oracle that
// was killed hard is emptied and removed by the next.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { MemoryCgroup, removeStrayCgroups } from '../../src/system/memory/cgroup.js';
import { ProcessTree } from '../../src/system/process-tree.js';
import { memoryCgroupsHere, seenIn, STARTED_JS, startOf, stillRunning } from '../support/processes.js';

/** A program that starts, at once, a child in its group, one in a session of its own, and one that also clears its environment; then names them on stderr and waits. */
const PARENT = `
  const { spawn } = require('node:child_process');
  ${STARTED_JS}
  const forever = ['-e', 'setInterval(() => {}, 1e9)'];
  const kids = [{}, { detached: true }, { detached: true, env: {} }].map((o) => spawn(process.execPath, forever, { stdio: 'ignore', ...o }));
  started(kids.map((k) => k.pid));
  setInterval(() => {}, 1e9);
`;

const cgroups = memoryCgroupsHere();

test('a program that cannot be run is refused with the reason, before anything starts', () => {
  assert.equal(ProcessTree.start(['/no/such/program'], { name: 't', memoryLimit: 1 << 30 }), '/no/such/program is not an executable file');
  assert.equal(
    ProcessTree.start(['no-such-program-anywhere'], { name: 't', memoryLimit: 1 << 30 }),
    'no executable no-such-program-anywhere on PATH',
  );
});

test('killing the tree kills every process the program started, in its group or not', async () => {
  const started = ProcessTree.start([process.execPath, '-e', PARENT], { name: 'test', memoryLimit: 256 << 20 });
  assert.ok(typeof started !== 'string', String(started));
  const { tree, unconfined } = started;
  assert.equal(unconfined === null, cgroups, String(unconfined));
  try {
    const [line] = (await once(tree.child.stderr!, 'data')) as [Buffer];
    const kids = seenIn(line.toString());
    assert.equal(kids.length, 3);
    if (cgroups) {
      // Born in the cgroup: the program and its first children are in it without ever being moved.
      const folder = tree.cgroup!.path;
      assert.match(folder, new RegExp(`/browser-oracle-${process.pid}-test-\\d+$`));
      for (const pid of [tree.child.pid!, ...kids.map((k) => k.pid)])
        assert.match(readFileSync(`/proc/${pid}/cgroup`, 'utf8'), new RegExp(`memory:.*${folder.split('/').at(-1)}`));
      assert.equal(readFileSync(join(folder, 'memory.limit_in_bytes'), 'utf8').trim(), String(256 << 20));
    }
    const exited = once(tree.child, 'exit');
    assert.equal(await tree.killAll(), true);
    await exited;
    // Without a cgroup, the child that cleared its environment and left the group is the one that escapes (documented).
    assert.deepEqual(kids.map(stillRunning), cgroups ? [false, false, false] : [false, false, true]);
    if (!cgroups) process.kill(kids[2]!.pid, 'SIGKILL');
  } finally {
    // Whatever failed above, nothing of the tree is left to keep this test's process running.
    await tree.killAll();
  }
  const folder = tree.cgroup?.path;
  await tree.close();
  if (folder) assert.equal(existsSync(folder), false, 'closing removes the cgroup');
});

test('a cgroup an oracle left behind (it was killed hard) is emptied and removed by the next one', { timeout: 60_000 }, async (t) => {
  if (!cgroups) {
    t.diagnostic('no v1 memory cgroup here: nothing to leave behind');
    return;
  }
  // An oracle that has exited: a process that ran and is gone, whose pid names the cgroup.
  const gone = spawn(process.execPath, ['-e', '']);
  await once(gone, 'exit');
  // Where this oracle makes its cgroups: beside a probe's.
  const probe = MemoryCgroup.create('probe', 64 << 20) as MemoryCgroup;
  const own = dirname(probe.path);
  probe.remove();
  const folder = join(own, `browser-oracle-${gone.pid}-candidate-1`);
  mkdirSync(folder);
  const left = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1e9)'], { stdio: 'ignore', detached: true });
  await once(left, 'spawn');
  writeFileSync(join(folder, 'cgroup.procs'), String(left.pid));
  const exited = once(left, 'exit');
  removeStrayCgroups();
  await exited;
  assert.equal(startOf(left.pid!), undefined);
  removeStrayCgroups();
  assert.equal(existsSync(folder), false);
});
