// The case runner's rules (src/workers/host/case-runner.ts, its header), one test each, on the
// fake engine (test/support/fake-engine.ts): no browser. The runner is given a page from the pool
// and a batch from the queue, as an engine host's lane gives them; the real fast path writes the
// batches and the geometry task's walk job runs on a case's own document.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { EngineLaunch } from '../../src/worker-contract/launch.js';
import { OracleError } from '../../src/protocol/errors.js';
import type { RawWalk } from '../../src/protocol/page-output.js';
import { BrowserSupervisor } from '../../src/workers/host/browser-supervisor.js';
import { CaseRunner } from '../../src/workers/host/case-runner.js';
import { EngineQueue, type Pending } from '../../src/workers/host/engine-queue.js';
import { FastPath, geometryJob } from '../../src/workers/host/fast-path.js';
import type { Job } from '../../src/workers/host/jobs.js';
import { MemoryWatcher } from '../../src/workers/host/memory-watch.js';
import { PagePool } from '../../src/workers/host/page-pool.js';
import { walkJob } from '../../src/workers/tasks/geometry.js';
import { walkOptions } from '../../src/workers/worker-context.js';
import { FakeEngine, documentOf, type FakePage } from '../support/fake-engine.js';

/** Generous: no healthy fake case comes near it, so only a planted hang reaches it, whatever the machine's load. */
const TIMEOUT_MS = 3_000;
const WALK = walkOptions({ maxNodes: 1000, maxFragments: 4000, maxBytes: 1 << 20 });
const BLANK = 'fake://blank';
const MiB = 1024 * 1024;
/** The fake engine's memory budget; a kill for memory reports twice as much. */
const BUDGET = 512 * MiB;
/** Never, in a test: the kills are the ones the fake engine's cases plant. */
const NO_SAMPLES_MS = 3_600_000;

/** The stand-in processes the memory watch killed, each a real process in a group of its own, as an engine's renderer is. */
const standIns: number[] = [];
after(() => {
  for (const pid of standIns)
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // killed by the watch, as planned
    }
});

/** A case as the queue holds it, recording every way it ends. */
interface Case extends Pending {
  name: string;
  ends: ({ walk: RawWalk } | { error: unknown })[];
}

/** The case `name` on its own document (it ran script, say). */
const own = (name: string): Job => walkJob('chromium', documentOf(name), WALK, 'void 0', false);
/** The script-free case `name`, for the fast path (its html is its name). */
const written = (name: string): Job =>
  geometryJob(name, null, BLANK, WALK, false, walkJob('chromium', documentOf(name), WALK, null, false));

function caseOf(name: string, job: Job): Case {
  const ends: Case['ends'] = [];
  return {
    name,
    ends,
    job,
    resolve: (walk) => ends.push({ walk: walk as RawWalk }),
    reject: (error) => ends.push({ error }),
    attempt: 0,
    alone: false,
    since: Date.now(),
  };
}

/** One engine's runner on the fake engine, with its pool, queue and fast path as an engine host composes them. */
async function host(fake: FakeEngine, pages = 1, maxBatch = 8) {
  const supervisor: BrowserSupervisor = new BrowserSupervisor('chromium', fake.launch, {} as EngineLaunch, () => pool.browserLost());
  const pool = new PagePool(supervisor, pages);
  const queue = new EngineQueue();
  const fastPath = new FastPath('chromium', () => supervisor.traits, maxBatch, TIMEOUT_MS);
  const watcher = new MemoryWatcher(BUDGET, NO_SAMPLES_MS);
  const memory = watcher.watch('chromium', supervisor);
  // The watch finds a stand-in over the budget and kills it, as it would a renderer.
  fake.killForMemory = () => {
    const standIn = spawn('sleep', ['600'], { detached: true, stdio: 'ignore' });
    standIns.push(standIn.pid!);
    memory.check([{ pid: standIn.pid!, group: standIn.pid!, name: 'renderer', rss: 2 * BUDGET, own: 2 * BUDGET }]);
  };
  const runner = new CaseRunner('chromium', supervisor, pool, queue, fastPath, TIMEOUT_MS, memory, pages);
  await supervisor.current();
  await pool.start();
  /** A page takes the next batch and the runner runs it; what the batch left queued stays queued. */
  const step = async () => {
    const slot = await pool.take(60_000);
    const batch = queue.next((run, queued) => fastPath.pick(slot, run, queued, pages));
    await runner.run(slot, batch);
    return batch as Case[];
  };
  return {
    queue,
    step,
    /** Queues the cases and runs batches until nothing is queued. */
    async run(...cases: Case[]) {
      for (const c of cases) queue.push(c);
      while (queue.size) await step();
    },
    close: () =>
      pool
        .close()
        .then(() => supervisor.close())
        .then(() => watcher.close()),
  };
}

const codeOf = (c: Case) => {
  const end = c.ends[0];
  return end && 'error' in end ? (end.error instanceof OracleError ? end.error.code : String(end.error)) : 'walk';
};

/** The pages that loaded `name`'s document, and which copy each loaded. */
const loads = (fake: FakeEngine, name: string) => fake.loadsOf(name).map(({ page, url }) => [page.index, url.split('/').at(-1)]);

test('a crash is retried once on a fresh page; a second crash is engine_crashed', async () => {
  const fake = new FakeEngine().plan('twice', 'crash', 'crash').plan('once', 'crash', 'answer');
  const h = await host(fake);
  const twice = caseOf('twice', own('twice'));
  const once = caseOf('once', own('once'));
  await h.run(twice, once);
  assert.deepEqual(twice.ends.length, 1);
  assert.equal(codeOf(twice), 'engine_crashed');
  assert.match(String((twice.ends[0] as { error: Error }).error.message), /crashed on this case twice, the second time on a fresh page/);
  assert.equal(codeOf(once), 'walk', 'one crash is the page’s: the case runs again and answers');
  for (const name of ['twice', 'once']) {
    const [first, second] = loads(fake, name);
    assert.deepEqual([first?.[1], second?.[1]], ['first', 'retry'], `${name}: each copy once, the retry's second`);
    assert.notEqual(first![0], second![0], `${name}: the second run is on another page`);
  }
  await h.close();
});

test('a case that hangs is case_timeout, its page retired, and it is not run again', async () => {
  const fake = new FakeEngine().plan('hung', 'hang');
  const h = await host(fake);
  const hung = caseOf('hung', own('hung'));
  await h.run(hung);
  assert.equal(codeOf(hung), 'case_timeout');
  assert.equal(hung.ends.length, 1);
  assert.equal(fake.attemptsAt('hung'), 1, 'a timeout is the case’s: no second run');
  const [[page]] = loads(fake, 'hung') as [[number, string]];
  assert.equal(fake.pages[page]!.closed, true, 'the page it hung is retired');
  await h.close();
});

test('a page that answers what the trusted code cannot have made is retried once, then page_tampered', async () => {
  const fake = new FakeEngine().plan('forged', 'tamper').plan('forged-once', 'tamper', 'answer').plan('off', 'viewport');
  const h = await host(fake);
  const forged = caseOf('forged', own('forged'));
  const once = caseOf('forged-once', own('forged-once'));
  const off = caseOf('off', own('off'));
  await h.run(forged, once, off);
  assert.equal(codeOf(forged), 'page_tampered');
  assert.equal(fake.attemptsAt('forged'), 2, 'once more on a fresh page, then the case’s');
  assert.equal(codeOf(once), 'walk');
  assert.equal(codeOf(off), 'page_tampered', 'a walk measured in another viewport is the page’s fault too');
  assert.match(String((off.ends[0] as { error: Error }).error.message), /800×483 viewport.*twice, the second time on a fresh page/);
  for (const c of [forged, once, off]) assert.equal(c.ends.length, 1, c.name);
  await h.close();
});

test('a page that left the case’s document never gives a dump: retried once, then page_tampered', async () => {
  const fake = new FakeEngine().plan('away', 'navigate').plan('away-once', 'navigate', 'answer');
  const h = await host(fake);
  const away = caseOf('away', own('away'));
  const once = caseOf('away-once', own('away-once'));
  await h.run(away, once);
  assert.deepEqual(away.ends.length, 1);
  assert.equal(codeOf(away), 'page_tampered');
  assert.match(
    String((away.ends[0] as { error: Error }).error.message),
    /not on the case's document \(it is at https:\/\/elsewhere\.example\/\)/,
  );
  assert.equal(codeOf(once), 'walk', 'the dump comes from the second copy of its own document');
  assert.deepEqual(
    loads(fake, 'away-once').map(([, copy]) => copy),
    ['first', 'retry'],
  );
  await h.close();
});

test('a batch that fails as a whole runs each of its cases again by itself: only the guilty one errs', async () => {
  const fake = new FakeEngine().plan('hangs', 'hang').plan('crashes', 'crash');
  const h = await host(fake);
  const cases = ['a', 'hangs', 'b', 'crashes', 'c'].map((name) => caseOf(name, written(name)));
  for (const c of cases) h.queue.push(c);
  const first = await h.step();
  assert.equal(first.length, 5, 'the five went in one batch');
  assert.ok(
    cases.every((c) => c.ends.length === 0),
    'the failed batch settled none of them',
  );
  while (h.queue.size) {
    const batch = await h.step();
    assert.equal(batch.length, 1, 'each case of the failed batch runs alone');
  }
  assert.deepEqual(
    cases.map((c) => [c.name, codeOf(c), c.ends.length]),
    [
      ['a', 'walk', 1],
      ['hangs', 'case_timeout', 1],
      ['b', 'walk', 1],
      ['crashes', 'engine_crashed', 1],
      ['c', 'walk', 1],
    ],
  );
  await h.close();
});

test('every case ends exactly once, whatever happens to it and to the others', async () => {
  const fake = new FakeEngine()
    .plan('w-tamper', 'tamper', 'answer')
    .plan('w-fail', 'fail')
    .plan('w-budget', 'budget', 'answer')
    .plan('w-away', 'navigate', 'answer')
    .plan('d-crash', 'crash')
    .plan('d-fail', 'fail')
    .plan('d-exit', 'exit', 'answer')
    .plan('d-away', 'navigate');
  const h = await host(fake, 2, 4);
  const cases = [
    ...['w1', 'w-tamper', 'w2', 'w-fail', 'w3', 'w-budget', 'w4', 'w-away', 'w5'].map((name) => caseOf(name, written(name))),
    ...['d1', 'd-crash', 'd-fail', 'd-exit', 'd-away', 'd2'].map((name) => caseOf(name, own(name))),
  ];
  await h.run(...cases);
  assert.deepEqual(
    cases.filter((c) => c.ends.length !== 1).map((c) => [c.name, c.ends.length]),
    [],
    'a case that ended twice, or never',
  );
  assert.deepEqual(Object.fromEntries(cases.map((c) => [c.name, codeOf(c)])), {
    w1: 'walk',
    'w-tamper': 'walk',
    w2: 'walk',
    'w-fail': 'page_tampered',
    w3: 'walk',
    'w-budget': 'walk',
    w4: 'walk',
    'w-away': 'walk',
    w5: 'walk',
    d1: 'walk',
    'd-crash': 'engine_crashed',
    'd-fail': 'Error: the driver refused the call',
    'd-exit': 'walk',
    'd-away': 'page_tampered',
    d2: 'walk',
  });
  await h.close();
});

test('a page that loaded a case’s own document is retired afterwards, whatever happened; a page the fast path wrote into is not', async () => {
  const fake = new FakeEngine().plan('d-fail', 'fail');
  const h = await host(fake);
  await h.run(caseOf('d-ok', own('d-ok')), caseOf('d-fail', own('d-fail')));
  const used = (name: string) => fake.pages[fake.loadsOf(name)[0]!.page.index]!;
  for (const name of ['d-ok', 'd-fail']) {
    assert.equal(used(name).closed, true, `${name}: its page is closed`);
    assert.equal(used(name).loads.length, 1, `${name}: its page loaded nothing else`);
  }
  const blank = caseOf('w', written('w'));
  await h.run(blank);
  const writer = fake.pages.find((p: FakePage) => p.loads.includes(BLANK))!;
  assert.equal(codeOf(blank), 'walk');
  assert.equal(writer.closed, false, 'the blank page goes back to the pool');
  await h.close();
});

test('a batch cut short by its time budget leaves the rest of its cases queued, first, to run again', async () => {
  const fake = new FakeEngine().plan('c', 'budget', 'answer');
  const h = await host(fake);
  const cases = ['a', 'b', 'c', 'd'].map((name) => caseOf(name, written(name)));
  for (const c of cases) h.queue.push(c);
  h.queue.push(caseOf('later', own('later')));
  await h.step();
  assert.deepEqual(
    cases.map((c) => c.ends.length),
    [1, 1, 0, 0],
    'the two walked are answered, the rest not yet',
  );
  const next = await h.step();
  assert.deepEqual(
    next.map((c) => c.name),
    ['c', 'd'],
    'the rest goes before later work',
  );
  assert.deepEqual(
    cases.map((c) => codeOf(c)),
    ['walk', 'walk', 'walk', 'walk'],
  );
  await h.close();
});

test('a process killed for memory under a case is retried once on a fresh page; a second kill is memory_exceeded, however the driver reported it', async () => {
  const fake = new FakeEngine()
    .plan('twice', 'memory', 'memory')
    .plan('once', 'memory', 'answer')
    .plan('hung', 'memory-hang', 'memory-hang');
  const h = await host(fake);
  const cases = ['twice', 'once', 'hung'].map((name) => caseOf(name, own(name)));
  await h.run(...cases);
  assert.deepEqual(
    cases.map((c) => [c.name, codeOf(c), c.ends.length, fake.attemptsAt(c.name)]),
    [
      ['twice', 'memory_exceeded', 1, 2],
      ['once', 'walk', 1, 2],
      // A call left hanging by the kill is the memory's doing too, not the case's time.
      ['hung', 'memory_exceeded', 1, 2],
    ],
  );
  assert.match(
    String((cases[0]!.ends[0] as { error: Error }).error.message),
    /^chromium used 1 GiB, over 512 MiB \(--max-engine-memory\); its renderer process was killed$/,
  );
  for (const name of ['twice', 'once', 'hung']) {
    const [first, second] = loads(fake, name);
    assert.deepEqual([first?.[1], second?.[1]], ['first', 'retry'], `${name}: each copy once, the retry's second`);
    assert.notEqual(first![0], second![0], `${name}: the second run is on another page`);
  }
  await h.close();
});

test('a written batch in which a process is killed for memory runs each case again alone: only the guilty one is memory_exceeded', async () => {
  const fake = new FakeEngine().plan('big', 'memory');
  const h = await host(fake);
  const cases = ['a', 'big', 'b'].map((name) => caseOf(name, written(name)));
  await h.run(...cases);
  assert.deepEqual(
    cases.map((c) => [c.name, codeOf(c), c.ends.length]),
    [
      ['a', 'walk', 1],
      ['big', 'memory_exceeded', 1],
      ['b', 'walk', 1],
    ],
  );
  await h.close();
});

test('a failure with no kill for memory under it keeps its own code, a kill before the case notwithstanding', async () => {
  const fake = new FakeEngine().plan('earlier', 'memory', 'answer').plan('crashes', 'crash');
  const h = await host(fake);
  const earlier = caseOf('earlier', own('earlier'));
  await h.run(earlier);
  const crashes = caseOf('crashes', own('crashes'));
  await h.run(crashes);
  assert.equal(codeOf(earlier), 'walk');
  assert.equal(codeOf(crashes), 'engine_crashed', 'the kill was an earlier case’s');
  await h.close();
});

test('a blank page that outlives a case’s time has spent it: a lone written case is case_timeout, a batch runs again case by case', async () => {
  const lone = new FakeEngine().plan(BLANK, 'hang');
  let h = await host(lone);
  const alone = caseOf('alone', written('alone'));
  await h.run(alone);
  assert.deepEqual([codeOf(alone), alone.ends.length], ['case_timeout', 1]);
  assert.equal(lone.attemptsAt('alone'), 0, 'it was never written: its blank page never came');
  await h.close();

  const batched = new FakeEngine().plan(BLANK, 'hang', 'answer');
  h = await host(batched);
  const cases = ['a', 'b'].map((name) => caseOf(name, written(name)));
  await h.run(...cases);
  assert.deepEqual(
    cases.map((c) => [c.name, codeOf(c), c.ends.length]),
    [
      ['a', 'walk', 1],
      ['b', 'walk', 1],
    ],
    'nobody knows which case to blame: each runs by itself, and the next blank page loads',
  );
  await h.close();
});

test('a blank page that fails to load is the page’s fault, not the case’s: the case runs again on a fresh page', async () => {
  const fake = new FakeEngine().plan(BLANK, 'fail', 'answer');
  const h = await host(fake);
  const one = caseOf('one', written('one'));
  await h.run(one);
  assert.deepEqual([codeOf(one), one.ends.length, fake.attemptsAt('one')], ['walk', 1, 1]);
  await h.close();
});
