// The memory watch on this test's own child processes, no browser: what /proc says a process group
// holds, the watcher killing the biggest process of a group over its budget, the failure that kill
// explains, and (where the kernel offers a v1 memory cgroup, as on the project's machines) the
// kernel's own kill at an engine's hard limit, read back the same way.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { OracleError } from '../../src/protocol/errors.js';
import { MemoryCgroup } from '../../src/system/memory/cgroup.js';
import { ProcessTable } from '../../src/system/memory/process-memory.js';
import { groupGone } from '../../src/system/processes.js';

const processesOf = (groups: ReadonlySet<number>) => new ProcessTable().read(groups);
import { EngineGoneError } from '../../src/workers/engine.js';
import { CGROUP_LIMIT, MemoryWatcher } from '../../src/workers/host/memory-watch.js';

const MiB = 1024 * 1024;

/**
 * A node process that holds `mib` MiB of its own (filled, so resident) once it has read a line, or
 * at once; it says "held" on stdout when it holds them all. `children` more such processes of
 * `childMib` each are started below it, in its process group, before it says so.
 */
function holder(mib: number, options: { wait?: boolean; children?: number; childMib?: number } = {}): ChildProcess {
  const source = `
    const { spawn } = require('node:child_process');
    const hold = [];
    const fill = (mib, done) => {
      // 8 MiB at a time, a task each, so that what it holds grows as a case's allocation does.
      if (mib <= 0) return done();
      hold.push(Buffer.alloc(8 << 20, 1));
      setImmediate(() => fill(mib - 8, done));
    };
    const start = () => {
      let waiting = ${options.children ?? 0};
      const held = () => { if (--waiting < 0) process.stdout.write('held\\n'); };
      for (let i = 0; i < ${options.children ?? 0}; i++) {
        const child = spawn(process.execPath, ['-e', ${JSON.stringify(childSource())}, '${options.childMib ?? 0}'], { stdio: ['ignore', 'pipe', 'inherit'] });
        child.stdout.once('data', held);
      }
      fill(${mib}, held);
    };
    ${options.wait ? "process.stdin.once('data', start);" : 'start();'}
    setInterval(() => {}, 1000);
  `;
  const child = spawn(process.execPath, ['-e', source], { detached: true, stdio: ['pipe', 'pipe', 'inherit'] });
  children.push(child);
  return child;
}

function childSource(): string {
  return "const hold = []; for (let i = 0; i < Number(process.argv[1]); i += 8) hold.push(Buffer.alloc(8 << 20, 1)); process.stdout.write('held\\n'); setInterval(() => {}, 1000);";
}

const children: ChildProcess[] = [];
after(() => {
  for (const child of children)
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // gone
    }
});

const said = async (child: ChildProcess, word: string) => {
  for await (const line of createInterface({ input: child.stdout! })) if (line === word) return;
  throw new Error(`the child ended before it said ${word}`);
};

test("a process group's processes, found from /proc with what each holds for itself and resident", async () => {
  const parent = holder(96, { children: 2, childMib: 48 });
  await said(parent, 'held');
  const found = processesOf(new Set([parent.pid!]));
  assert.equal(found.length, 3, JSON.stringify(found));
  assert.ok(found.every((p) => p.group === parent.pid && p.name === 'node' && p.rss >= p.own));
  const [top, ...below] = [...found].sort((a, b) => b.own - a.own);
  assert.equal(top!.pid, parent.pid);
  // What it holds, and no more than that and the runtime's own heap and buffers.
  assert.ok(top!.own >= 96 * MiB && top!.own < 200 * MiB, `${top!.own / MiB} MiB`);
  for (const p of below) assert.ok(p.own >= 48 * MiB && p.own < 150 * MiB, `${p.own / MiB} MiB`);
  // This test's own process is in another group, and a group with no process has none.
  assert.ok(!found.some((p) => p.pid === process.pid));
  assert.deepEqual(processesOf(new Set([2 ** 22 + 1])), []);
  // One table, pass after pass, as the watch reads: a group started after the first pass is found too.
  const table = new ProcessTable();
  assert.equal(table.read(new Set([parent.pid!])).length, 3);
  const later = holder(16);
  await said(later, 'held');
  const both = table.read(new Set([parent.pid!, later.pid!]));
  assert.deepEqual(new Set(both.map((p) => p.group)), new Set([parent.pid!, later.pid!]));
  assert.equal(both.length, 4);
  for (const child of [parent, later]) {
    const exited = once(child, 'exit');
    process.kill(-child.pid!, 'SIGKILL');
    await exited;
  }
  // The parent's children are not ours to wait for: they end when the kernel gets to them.
  for (const child of [parent, later]) await groupGone(child.pid!, 60_000);
  assert.deepEqual(table.read(new Set([parent.pid!, later.pid!])), [], 'a process that exited is not read');
});

test('over its budget, an engine loses its biggest process; the failures of the case that ran meanwhile are memory_exceeded', async () => {
  const watcher = new MemoryWatcher(256 * MiB, 3_600_000);
  try {
    const small = holder(64);
    const groups = [small.pid!];
    const memory = watcher.watch('chromium', { processGroups: () => groups, groupPerPage: false });
    await said(small, 'held');
    const mark = memory.mark();
    watcher.sample();
    const gone = new EngineGoneError('gone');
    assert.equal(memory.explain(gone, mark), gone, 'under the budget, nothing was killed');
    const big = holder(256);
    groups.push(big.pid!);
    await said(big, 'held');
    const exited = once(big, 'exit');
    watcher.sample();
    assert.deepEqual(await exited, [null, 'SIGKILL']);
    assert.equal(small.exitCode, null, 'the smaller process lives on');
    for (const failure of [new EngineGoneError('renderer gone'), new Error('session deleted'), new OracleError('page_tampered', 'x')]) {
      const error = memory.explain(failure, mark);
      assert.ok(error instanceof OracleError && error.code === 'memory_exceeded', String(error));
      assert.match(error.message, /^chromium used \d+(\.\d)? MiB, over 256 MiB \(--max-engine-memory\); its node process was killed$/);
    }
    // The case's own answers stand: its page lived to give them.
    const scriptError = new OracleError('script_error', 'RangeError');
    assert.equal(memory.explain(scriptError, mark), scriptError);
    // A case that started after the kill is not charged with it.
    const later = memory.mark();
    assert.equal(memory.explain(gone, later), gone);
    const smallExited = once(small, 'exit');
    process.kill(-small.pid!, 'SIGKILL');
    await smallExited;
  } finally {
    await watcher.close();
  }
});

test("where a process group is one page's browser, a process of it killed for memory takes the whole group", async () => {
  const watcher = new MemoryWatcher(256 * MiB, 3_600_000);
  try {
    // A small leader (a driver) above the process that holds the most (a web process).
    const page = holder(8, { children: 1, childMib: 320 });
    await said(page, 'held');
    const below = processesOf(new Set([page.pid!])).filter((p) => p.pid !== page.pid);
    assert.equal(below.length, 1);
    const memory = watcher.watch('webkit', { processGroups: () => [page.pid!], groupPerPage: true });
    const mark = memory.mark();
    const exited = once(page, 'exit');
    watcher.sample();
    assert.deepEqual(await exited, [null, 'SIGKILL'], 'the leader went with the process over the budget');
    assert.match(String(memory.explain(new Error('connection reset'), mark)), /^OracleError: webkit used .* its node process was killed$/);
  } finally {
    await watcher.close();
  }
});

test('where the kernel has a v1 memory cgroup, an engine runs under a hard limit a quarter above its budget, and its kills are read back', async () => {
  const watcher = new MemoryWatcher(256 * MiB, 3_600_000);
  try {
    const child = holder(1024, { wait: true });
    const memory = watcher.watch('chromium', { processGroups: () => [child.pid!], groupPerPage: false });
    // One sample moves the group's processes into the engine's cgroup, if there is one.
    await watcher.sample();
    const cgroup = readFileSync(`/proc/${child.pid}/cgroup`, 'utf8')
      .split('\n')
      .find((line) => line.split(':')[1]?.split(',').includes('memory'));
    const probe = MemoryCgroup.create('probe', 256 * MiB);
    if (typeof probe === 'string') {
      // No v1 memory hierarchy here (cgroup v2 only, or not root): the watcher is the only bound.
      assert.ok(!cgroup?.includes('browser-oracle-'), cgroup);
      return;
    }
    probe.remove();
    assert.match(cgroup!, new RegExp(`/browser-oracle-${process.pid}-0-chromium$`));
    const folder = join(dirname(probe.path), `browser-oracle-${process.pid}-0-chromium`);
    const limit = Number(readFileSync(join(folder, 'memory.limit_in_bytes'), 'utf8'));
    assert.equal(limit, Math.round(256 * MiB * CGROUP_LIMIT));
    // The watcher does not sample again: the kernel alone stops the allocation, at the limit.
    const mark = memory.mark();
    const exited = once(child, 'exit');
    child.stdin!.write('go\n');
    assert.deepEqual(await exited, [null, 'SIGKILL']);
    const error = memory.explain(new EngineGoneError('gone'), mark);
    assert.ok(error instanceof OracleError && error.code === 'memory_exceeded', String(error));
    assert.match(
      error.message,
      /^chromium reached its kernel limit of 320 MiB \(--max-engine-memory 256 MiB, and a quarter\); the kernel killed/,
    );
    await watcher.close();
    assert.ok(!existsSync(folder), 'closing removes the cgroup');
  } finally {
    await watcher.close();
  }
});
