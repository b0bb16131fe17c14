// The farm on a Redis queue, end to end: a redis-server of each test's own, real `worker`
// processes with real engines, and `campaign --queue` / `browser-oracle --queue` as a user runs
// them. Faults: a worker SIGKILLed mid-campaign, Redis restarted (empty) mid-campaign, a worker
// whose engines cannot launch, Ctrl-C on the campaign; the bound on jobs kept in Redis; workers
// that differ; and the stdio oracle's lines through the queue.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { CASES_QUEUE } from '../../src/queue/connection.js';
import type { CaseResult } from '../../src/queue/jobs.js';
import { CliProcess, casesIn, readJournal, recordedAtLeast, runCli } from '../support/campaign-process.js';
import { type Line, OracleProcess, UNHURRIED } from '../support/oracle-process.js';
import { RedisServer } from '../support/redis-server.js';

const root = mkdtempSync(join(tmpdir(), 'queue-e2e-'));
after(() => rmSync(root, { recursive: true, force: true }));

const FARM = ['--workers=1', '--pages=1', UNHURRIED];
const ONE_ENGINE = ['--engines=chromium', ...FARM];

/** A worker process, once it has said it takes cases; throws with its stderr when it exits first. */
async function startWorker(url: string, flags: string[]): Promise<CliProcess> {
  const worker = new CliProcess(['worker', '--queue', url, ...flags]);
  await worker.saidOnStderr(/taking cases from/);
  return worker;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Stops workers still running (SIGTERM: they finish what they hold and close their engines). */
async function stopAll(workers: CliProcess[]): Promise<void> {
  for (const w of workers) w.kill('SIGTERM');
  await Promise.all(workers.map((w) => w.exited));
}

/** A test's queue: its redis-server, the workers it started, and a client of its own (made on first use). */
interface OnQueue {
  redis: RedisServer;
  workers: CliProcess[];
  readonly client: Redis;
}

/** Runs `body` on a redis-server of its own; afterwards the workers are stopped, the client disconnected and Redis closed. */
async function onQueue(body: (q: OnQueue) => Promise<void>): Promise<void> {
  const redis = await RedisServer.start();
  let client: Redis | undefined;
  const q: OnQueue = {
    redis,
    workers: [],
    get client() {
      client ??= redis.client();
      return client;
    },
  };
  try {
    await body(q);
  } finally {
    client?.disconnect();
    await stopAll(q.workers);
    await redis.close();
  }
}

/** The result the worker put on `results` for each case job id, once there is one for every id (a generous 5 minutes at most). */
async function resultsFor(results: Queue, ids: string[]): Promise<CaseResult[]> {
  const deadline = Date.now() + 300_000;
  for (;;) {
    const jobs = await Promise.all(ids.map((id) => results.getJob(id)));
    if (jobs.every((job) => job !== undefined)) return jobs.map((job) => job!.data as CaseResult);
    if (Date.now() > deadline) throw new Error(`no result for ${ids.filter((_, i) => !jobs[i]).join(', ')}`);
    await sleep(100);
  }
}

/** n small geometry cases, each a box of its own size. */
function boxCorpus(name: string, n: number): { path: string; ids: string[] } {
  const ids = Array.from({ length: n }, (_, i) => `box-${i}`);
  const path = join(root, name);
  writeFileSync(
    path,
    ids.map((id, i) => JSON.stringify({ id, html: `<!doctype html><div style="width:${10 + i}px;height:7px"></div>` })).join('\n') + '\n',
  );
  return { path, ids };
}

/** Every case's verdict, by id. */
const verdicts = (db: string) =>
  Object.fromEntries(readJournal(db, (sql) => sql.prepare<[], [string, string]>('SELECT id, verdict FROM cases ORDER BY id').raw().all()));

/** A journal's schema (its migration and every table) and what it says the cases ran on: its run's engines, versions and fonts, and the versions its outcomes name. */
const setup = (db: string) =>
  readJournal(db, (sql) => ({
    migration: sql.pragma('user_version', { simple: true }),
    schema: sql.prepare('SELECT name, sql FROM sqlite_schema ORDER BY name').all(),
    run: sql.prepare('SELECT engines, versions, fonts FROM runs').all(),
    outcomes: sql.prepare('SELECT engine, version, COUNT(*) AS n FROM outcomes GROUP BY engine, version ORDER BY engine').all(),
  }));

/** Every outcome's dump (or error), by case and engine. */
const results = (db: string) =>
  readJournal(db, (sql) =>
    sql
      .prepare('SELECT c.id, o.engine, o.result, o.error FROM outcomes o JOIN cases c ON c.seq = o.case_seq ORDER BY c.id, o.engine')
      .all(),
  );

/** Every job of the queues (cases and results) in Redis right now, by id: a case's job and its result share one. */
async function jobsInRedis(redis: Redis): Promise<Set<string>> {
  const keys = await redis.keys('bull:browser-oracle-*');
  return new Set(keys.map((key) => /^bull:browser-oracle-[a-z0-9-]+:([0-9a-f]{12}-\d+)$/.exec(key)?.[1]).filter((id) => id !== undefined));
}

/**
 * The jobs left in Redis once the campaign is done: none, or what is still there after 60 s. The
 * last removals (a case's job as its worker completes it, its result as the collector takes it)
 * can land a moment after the campaign has recorded the case and exited.
 */
async function jobsLeft(redis: Redis): Promise<Set<string>> {
  let left = await jobsInRedis(redis);
  for (const deadline = Date.now() + 60_000; left.size > 0 && Date.now() < deadline; left = await jobsInRedis(redis)) await sleep(50);
  return left;
}

test('two workers, one SIGKILLed mid-campaign: every case recorded exactly once, with the verdicts of a local run', async () => {
  const corpus = join(root, 'generated.ndjson');
  const emitted = await runCli(['campaign', '--generate', '24', '--seed', '13', '--emit']);
  assert.equal(emitted.code, 0, emitted.stderr);
  writeFileSync(corpus, emitted.stdout);
  const local = join(root, 'local.sqlite');
  const localRun = await runCli(['campaign', '--db', local, '--corpus', corpus, '--quiet', ...FARM]);
  assert.equal(localRun.code, 0, localRun.stderr);

  await onQueue(async ({ redis, client, workers }) => {
    const doomed = await startWorker(redis.url, [...FARM, '--concurrency=3']);
    workers.push(doomed);
    const db = join(root, 'queue.sqlite');
    const campaign = new CliProcess(['campaign', '--queue', redis.url, '--db', db, '--corpus', corpus, '--concurrency=6']);
    // Killed while it holds cases (BullMQ records which worker took each active job): frozen
    // first, so that what it holds cannot change while it is looked at. The other worker starts
    // once it is frozen, and takes over what it held.
    let held: string[] = [];
    for (let recorded = 6; !held.length; recorded++) {
      await recordedAtLeast(campaign, db, recorded);
      doomed.kill('SIGSTOP');
      const active = await client.lrange(`bull:${CASES_QUEUE}:active`, 0, -1);
      const takers = await Promise.all(active.map((id) => client.hget(`bull:${CASES_QUEUE}:${id}`, 'pb')));
      held = active.filter((_, i) => takers[i] === `${hostname()}:${doomed.pid}`);
      if (!held.length) doomed.kill('SIGCONT');
    }
    workers.push(await startWorker(redis.url, [...FARM, '--concurrency=3']));
    doomed.kill('SIGKILL');
    assert.equal(await campaign.exited, 0, campaign.stderr);
    assert.match(campaign.stderr, /campaign: done: 24 case\(s\) recorded in this run, 0 skipped as already recorded/);
    assert.deepEqual(verdicts(db), verdicts(local), 'the same verdict for every case as the local run');
    assert.deepEqual(
      setup(db),
      setup(local),
      "the same migrated schema; the run's engines, versions and fonts, and every outcome's engine version",
    );
    assert.deepEqual(results(db), results(local), 'every dump as the local run journaled it, byte for byte');
    assert.ok(Object.keys(verdicts(db)).length === 24);
    assert.deepEqual(await jobsLeft(client), new Set(), 'no job or result left in Redis');
  });
});

test('Redis restarting (empty) mid-campaign: workers and the campaign reconnect, nothing lost or doubled', async () => {
  // One case at a time on the worker, so that most of the corpus is still to come when Redis goes.
  const { path, ids } = boxCorpus('restart.ndjson', 40);
  await onQueue(async ({ redis, workers }) => {
    workers.push(await startWorker(redis.url, [...ONE_ENGINE, '--concurrency=1']));
    const db = join(root, 'restart.sqlite');
    const campaign = new CliProcess(['campaign', '--queue', redis.url, '--db', db, '--corpus', path, '--concurrency=3']);
    await recordedAtLeast(campaign, db, 4);
    await redis.stop();
    const atRestart = casesIn(db);
    await sleep(2000);
    await redis.up();
    assert.equal(await campaign.exited, 0, campaign.stderr);
    assert.match(campaign.stderr, /campaign: done: 40 case\(s\) recorded in this run, 0 skipped as already recorded/);
    assert.deepEqual(Object.keys(verdicts(db)).sort(), [...ids].sort());
    // With the one worker, every case recorded after the restart says both sides reconnected.
    assert.ok(atRestart < 40, `${atRestart} cases recorded before Redis went away`);
  });
});

test('campaign --queue with Redis away stops on signals at every stage: waiting for Redis, waiting for a worker, cases in flight', async () => {
  const { path, ids } = boxCorpus('away.ndjson', 40);
  await onQueue(async ({ redis, workers }) => {
    const db = join(root, 'away.sqlite');
    const args = ['campaign', '--queue', redis.url, '--db', db, '--corpus', path, '--concurrency=3'];

    await redis.stop();
    const waitingForRedis = new CliProcess(args);
    await waitingForRedis.saidOnStderr(/queue: waiting for Redis at /);
    waitingForRedis.kill('SIGTERM');
    assert.equal(await waitingForRedis.exited, 1, waitingForRedis.stderr);
    assert.match(waitingForRedis.stderr, /campaign: stopped by SIGTERM before any case ran/);

    await redis.up();
    const waitingForWorker = new CliProcess(args);
    await waitingForWorker.saidOnStderr(/waiting for a worker to answer/);
    await redis.stop();
    await waitingForWorker.saidOnStderr(/Redis at \S+: .*; retrying/);
    waitingForWorker.kill('SIGINT');
    assert.equal(await waitingForWorker.exited, 1, waitingForWorker.stderr);
    assert.match(waitingForWorker.stderr, /campaign: stopped by SIGINT before any case ran/);

    await redis.up();
    workers.push(await startWorker(redis.url, [...ONE_ENGINE, '--concurrency=1']));
    const running = new CliProcess(args);
    await recordedAtLeast(running, db, 2);
    await redis.stop();
    await running.saidOnStderr(/Redis at \S+: .*; retrying/);
    // The first signal waits for the cases in flight, which cannot come back while Redis is away; the second abandons them.
    running.kill('SIGTERM');
    await running.saidOnStderr(/SIGTERM: taking no new case/);
    running.kill('SIGTERM');
    assert.equal(await running.exited, 1, running.stderr);
    const recorded = Number(
      /campaign: stopped by SIGTERM, the cases in flight abandoned: (\d+) case\(s\) recorded/.exec(running.stderr)?.[1],
    );
    assert.ok(recorded >= 2 && recorded < 40, running.stderr);
    assert.doesNotMatch(running.stderr, /: error: /, 'the cases abandoned are no error of the run');

    await redis.up();
    const resumed = await runCli(args);
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.match(resumed.stderr, new RegExp(`campaign: done: ${40 - recorded} case\\(s\\) recorded in this run, ${recorded} skipped`));
    assert.deepEqual(Object.keys(verdicts(db)).sort(), [...ids].sort());
  });
});

test('browser-oracle --queue and a worker, waiting for a Redis that is away, stop on one signal', async () => {
  await onQueue(async ({ redis }) => {
    await redis.stop();
    const oracle = new CliProcess(['--queue', redis.url]);
    const worker = new CliProcess(['worker', '--queue', redis.url, ...ONE_ENGINE]);
    await Promise.all([oracle, worker].map((p) => p.saidOnStderr(/queue: waiting for Redis at /)));
    oracle.kill('SIGTERM');
    worker.kill('SIGINT');
    assert.equal(await oracle.exited, 0, oracle.stderr);
    assert.equal(await worker.exited, 0, worker.stderr);
    assert.doesNotMatch(worker.stderr, /taking cases from/);
  });
});

test('jobs naming an op every object inherits are answered invalid_request, and the worker serves the next job', async () => {
  const inherited = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];
  await onQueue(async ({ redis, client, workers }) => {
    const worker = await startWorker(redis.url, [...ONE_ENGINE, '--concurrency=2']);
    workers.push(worker);
    const reply = 'browser-oracle-results-hostile000000';
    const cases = new Queue(CASES_QUEUE, { connection: client });
    const results = new Queue(reply, { connection: client });
    // QueueEvents blocks on its connection: one of its own, closed below.
    const listening = redis.client();
    const events = new QueueEvents(CASES_QUEUE, { connection: listening });
    try {
      await events.waitUntilReady();
      const hostile = await Promise.all(
        inherited.map((op) => cases.add('vote', { op: 'vote', request: { id: op, op }, reply }, { jobId: `hostile-${op}` })),
      );
      // Not a case job at all: failed as such, never run.
      const bad = await cases.add('constructor', { op: 'constructor', request: { id: 'x' }, reply }, { jobId: 'hostile-job' });
      const good = await cases.add('vote', { op: 'vote', request: { id: 'good', op: 'vote', html: '<p>x</p>' }, reply }, { jobId: 'good' });
      // A case job is removed once it completed, so its result is what is waited for; a failed one is kept.
      const [served, ...answered] = await resultsFor(results, [good.id!, ...hostile.map((job) => job.id!)]);
      await assert.rejects(bad.waitUntilFinished(events), /not a case job: \/op/);
      for (const [i, op] of inherited.entries()) {
        const result = answered[i]!;
        const { error } = result.answer as Record<string, unknown>;
        assert.match(String(error), new RegExp(`^invalid_request: field "op": unknown op "${op}"`), op);
        assert.equal(result.worker.pid, worker.pid, 'answered by the worker that took them all');
      }
      assert.equal((served!.answer.vote as { verdict: string }).verdict, 'insufficient', JSON.stringify(served.answer));
      assert.equal(served!.worker.pid, worker.pid);
      assert.doesNotMatch(worker.stderr, /the engines stopped/);
    } finally {
      await events.close();
      listening.disconnect();
      await results.close();
      await cases.close();
    }
  });
});

test('a worker whose engines cannot launch takes no jobs', async () => {
  await onQueue(async ({ redis, client }) => {
    const queue = new Queue(CASES_QUEUE, { connection: client });
    try {
      for (let i = 0; i < 3; i++)
        await queue.add('vote', { op: 'vote', request: { id: `c${i}`, op: 'vote', html: '<p>x</p>' }, reply: 'nobody' });
      const worker = await runCli(['worker', '--queue', redis.url, '--engines=chromium', '--chromium=/bin/false', ...FARM]);
      assert.equal(worker.code, 1, worker.stderr);
      assert.match(worker.stderr, /worker: the engines did not start .*: taking no jobs/);
      assert.deepEqual(await queue.getJobCounts('wait', 'active', 'completed', 'failed'), { wait: 3, active: 0, completed: 0, failed: 0 });
    } finally {
      await queue.close();
    }
  });
});

test('Ctrl-C on campaign --queue: no new job, the jobs in flight collected and recorded, nothing left in Redis', async () => {
  const { path, ids } = boxCorpus('interrupt.ndjson', 40);
  await onQueue(async ({ redis, client, workers }) => {
    workers.push(await startWorker(redis.url, [...ONE_ENGINE, '--concurrency=2']));
    const db = join(root, 'interrupt.sqlite');
    const args = ['campaign', '--queue', redis.url, '--db', db, '--corpus', path, '--concurrency=4'];
    const campaign = new CliProcess(args);
    await recordedAtLeast(campaign, db, 3);
    // Between one job's end and the next one's submission Redis may hold none: it is read until it holds some.
    let inFlight = 0;
    for (const deadline = Date.now() + 60_000; inFlight === 0 && Date.now() < deadline; await sleep(20))
      inFlight = (await jobsInRedis(client)).size;
    const atSignal = casesIn(db);
    campaign.kill('SIGINT');
    assert.equal(await campaign.exited, 1, campaign.stderr);
    const recorded = Number(/campaign: stopped by SIGINT: (\d+) case\(s\) recorded in this run/.exec(campaign.stderr)?.[1]);
    assert.equal(recorded, casesIn(db));
    assert.ok(
      inFlight > 0 && recorded > atSignal && recorded < 40,
      `${inFlight} jobs in Redis and ${atSignal} recorded at the signal, ${recorded} at the end`,
    );
    assert.deepEqual(await jobsLeft(client), new Set(), 'every job in flight was collected');

    const second = await runCli(args);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stderr, new RegExp(`campaign: done: ${40 - recorded} case\\(s\\) recorded in this run, ${recorded} skipped`));
    assert.deepEqual(Object.keys(verdicts(db)).sort(), [...ids].sort());
  });
});

test('backpressure: the jobs in Redis never outnumber --concurrency, and none is left once recorded', async () => {
  const { path } = boxCorpus('bound.ndjson', 20);
  await onQueue(async ({ redis, client, workers }) => {
    workers.push(await startWorker(redis.url, [...ONE_ENGINE, '--concurrency=2']));
    const db = join(root, 'bound.sqlite');
    const campaign = new CliProcess(['campaign', '--queue', redis.url, '--db', db, '--corpus', path, '--concurrency=3']);
    const cases = new Queue(CASES_QUEUE, { connection: client });
    try {
      await campaign.saidOnStderr(/a worker answered/);
      // Paused, the queue hands out no job: once the worker has handed in what it holds, the
      // campaign can only fill its slots and wait, and what Redis holds is then still. No sample
      // of a moving state: a submitter that kept no bound would have sent the whole corpus by then.
      await cases.pause();
      let still: { active: number; results: number; jobs: number };
      do {
        await sleep(50);
        const keys = await client.keys('bull:browser-oracle-results-*');
        still = {
          active: await cases.getActiveCount(),
          results: keys.filter((key) => /:[0-9a-f]{12}-\d+$/.test(key)).length,
          jobs: (await jobsInRedis(client)).size,
        };
      } while (still.active > 0 || still.results > 0 || still.jobs < 3);
      assert.equal(still.jobs, 3, 'as many jobs as --concurrency, and no more');
      assert.ok(casesIn(db) < 20, 'the corpus was not sent whole');
      await cases.resume();
      assert.equal(await campaign.exited, 0, campaign.stderr);
      assert.equal(casesIn(db), 20);
      assert.deepEqual(await jobsLeft(client), new Set());
    } finally {
      await cases.close();
    }
  });
});

test('workers that differ (fonts here) are warned about once, naming both', async () => {
  const { path } = boxCorpus('differ.ndjson', 12);
  await onQueue(async ({ redis, workers }) => {
    workers.push(
      await startWorker(redis.url, [...ONE_ENGINE, '--concurrency=1']),
      await startWorker(redis.url, [...ONE_ENGINE, '--concurrency=1', '--fonts=square']),
    );
    const db = join(root, 'differ.sqlite');
    const run = await runCli(['campaign', '--queue', redis.url, '--db', db, '--corpus', path, '--concurrency=4']);
    assert.equal(run.code, 0, run.stderr);
    const warnings = run.stderr.split('\n').filter((line) => line.includes('workers disagree'));
    assert.equal(warnings.length, 1, run.stderr);
    for (const part of [`:${workers[0]!.pid} runs`, `:${workers[1]!.pid} runs`, 'fonts liberation', 'fonts square'])
      assert.ok(warnings[0]!.includes(part), `${part} in: ${warnings[0]}`);
  });
});

test('browser-oracle --queue answers the same lines as the stdio oracle on this machine', async () => {
  const requests: Line[] = [
    { id: 'geometry', html: '<!doctype html><p style="width:50px">some words that wrap</p>' },
    { id: 'vote', op: 'vote', html: '<!doctype html><div style="display:flex"><span>a</span><b>b</b></div>' },
    { id: 'reflect', op: 'reflect', html: '<input id=a maxlength=-1>', probes: [{ selector: '#a', attr: 'maxlength', idl: 'maxLength' }] },
    { id: 'trace', op: 'trace', script: "trace.value('x', 1 / 3); trace.done()" },
    { id: 'screenshot', op: 'screenshot', html: '<!doctype html><p style="color:teal">a picture</p>' },
    { id: 'firefox-only', html: '<p>hi</p>', engines: ['firefox'] },
    { id: 'ping', op: 'ping' },
    { id: 'bad', op: 'nope' },
  ];
  // A trace names the origin its page was served from: each oracle's case server has a port of its own.
  const ask = async (oracle: OracleProcess) => {
    const answers = await Promise.all(requests.map((r) => oracle.request(r)));
    assert.equal(await oracle.shutdown(), 0, oracle.stderr);
    return JSON.parse(JSON.stringify(answers).replace(/"origin":"http:\/\/localhost:\d+"/g, '"origin":"the case server"')) as Line[];
  };
  const local = await ask(new OracleProcess(FARM));
  await onQueue(async ({ redis, workers }) => {
    workers.push(await startWorker(redis.url, FARM));
    const queued = await ask(new OracleProcess(['--queue', redis.url]));
    assert.deepEqual(queued, local);
    assert.ok(local.every((answer, i) => answer.id === requests[i]!.id));
  });
});
