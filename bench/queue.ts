// node dist/bench/queue.js [--cases=N] [--seed=S] [--rounds=R] [--workers=W] [--pages=P]
//
// What the queue costs per case, and what one worker machine gives through it. The same
// generated cases, sent as a campaign sends them (a vote with dumps and in-page times, all
// pipelined), go alternately to the stdio oracle on this machine and to `browser-oracle --queue`
// served by one `browser-oracle worker` with the same farm flags, on a redis-server of the
// bench's own; every process stays up between rounds, so no round pays for starting engines.
// CPU time per case comes from /proc (bench/cpu.ts), per process: the coordinator (the stdio
// oracle that takes the requests), the worker (its own Node process), the worker's oracle (the
// child that runs the engines), the engines, and Redis. Throughput is cases/s from the first
// sent to the last answered. On shared cores the rates drift; the CPU per case is the steadier figure.
// Then the same corpus through `campaign` into a fresh journal, locally and with --queue: the
// campaign's Node CPU per case (journal included) from its first case recorded to its last.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { wireRequest } from '../src/campaign/loop/case-record.js';
import { generateCases } from '../src/campaign/generator/generator.js';
import { ENGINE_NAMES } from '../src/protocol/schema.js';
import { descendantsOf } from '../src/system/processes.js';
import { requestLine } from '../src/campaign/generator/emit.js';
import { CliProcess, casesIn } from '../test/support/campaign-process.js';
import { OracleProcess } from '../test/support/oracle-process.js';
import { RedisServer } from '../test/support/redis-server.js';
import { type CpuSample, cpuBetween, sampleCpu } from './cpu.js';

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => Number(args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const cases = flag('cases', 100);
const seed = flag('seed', 1);
const rounds = flag('rounds', 2);
const farm = args.filter((a) => a.startsWith('--workers=') || a.startsWith('--pages='));

const generated = [...generateCases({ count: cases, seed, text: false })];
const requests = generated.map((c) => wireRequest(c).request);
const dir = mkdtempSync(join(tmpdir(), 'bench-queue-'));
const corpus = join(dir, 'corpus.ndjson');
writeFileSync(corpus, generated.map(requestLine).join('\n') + '\n');

/** CPU milliseconds of one process alone (utime + stime), its children left out. */
function ownMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

const engineMs = (s: CpuSample) => ENGINE_NAMES.reduce((sum, e) => sum + s[e], 0);

/** Sends every case at once, waits for every answer: seconds taken, and answer bytes. */
async function batch(oracle: OracleProcess, tag: string): Promise<{ seconds: number; bytes: number }> {
  const start = performance.now();
  const answers = await Promise.all(requests.map((r) => oracle.request({ ...r, id: `${tag}/${r.id}` })));
  const seconds = (performance.now() - start) / 1000;
  if (answers.some((a) => a.error !== undefined || !a.vote)) throw new Error(`${tag}: an answer without a vote`);
  return { seconds, bytes: answers.reduce((sum, a) => sum + JSON.stringify(a).length, 0) };
}

/**
 * `campaign` (extra arguments given) into a fresh journal: its Node CPU ms per case (the engines
 * left out), sampled every 20 ms from its first case recorded to its last, and cases/s.
 */
async function campaign(name: string, extra: string[]): Promise<{ ms: number; rate: number }> {
  const db = join(dir, `${name}.sqlite`);
  const p = new CliProcess(['campaign', '--db', db, '--corpus', corpus, ...extra]);
  let running = true;
  void p.exited.then(() => (running = false));
  let first: { ms: number; n: number } | undefined;
  let last: { ms: number; n: number } | undefined;
  while (running) {
    try {
      const sample = { ms: sampleCpu(p.pid).node, n: casesIn(db) };
      // Each count's first sighting only: after the last case, browsers that exit hand their CPU to Node's.
      if (sample.n > 0 && sample.n > (last?.n ?? 0)) {
        first ??= sample;
        last = sample;
      }
    } catch {
      // exited between two looks
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const done = /\(([\d.]+) cases\/s\)\n$/.exec(p.stderr);
  if ((await p.exited) !== 0 || !done || !first || !last || last.n <= first.n) throw new Error(`campaign ${name} failed:\n${p.stderr}`);
  return { ms: (last.ms - first.ms) / (last.n - first.n), rate: Number(done[1]) };
}

interface Round {
  rate: number;
  bytes: number;
  coordinator: number;
  worker: number;
  oracle: number;
  engines: number;
  redis: number;
}

const redis = await RedisServer.start();
const local = new OracleProcess(farm);
const worker = new CliProcess(['worker', '--queue', redis.url, ...farm]);
const queued = new OracleProcess(['--queue', redis.url]);
const results: { local: Round[]; queue: Round[] } = { local: [], queue: [] };
let campaigns: { local: { ms: number; rate: number }; queue: { ms: number; rate: number } };
try {
  await local.ready();
  await queued.ready(); // answered by the worker once its engines are up
  const child = descendantsOf(worker.pid).find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('main.js'))!;
  // One warm-up batch each: first pages, compiled code.
  await batch(local, 'warm');
  await batch(queued, 'warm');
  for (let round = 0; round < rounds; round++) {
    let before = sampleCpu(local.pid);
    let run = await batch(local, `l${round}`);
    let used = cpuBetween(before, sampleCpu(local.pid));
    results.local.push({
      rate: cases / run.seconds,
      bytes: run.bytes,
      coordinator: used.node,
      worker: 0,
      oracle: 0,
      engines: engineMs(used),
      redis: 0,
    });

    before = sampleCpu(child);
    const [coordinator0, worker0, redis0] = [ownMs(queued.pid), ownMs(worker.pid), ownMs(redis.pid!)];
    run = await batch(queued, `q${round}`);
    used = cpuBetween(before, sampleCpu(child));
    results.queue.push({
      rate: cases / run.seconds,
      bytes: run.bytes,
      coordinator: ownMs(queued.pid) - coordinator0,
      worker: ownMs(worker.pid) - worker0,
      oracle: used.node,
      engines: engineMs(used),
      redis: ownMs(redis.pid!) - redis0,
    });
    process.stderr.write(
      `bench: round ${round + 1}: local ${results.local.at(-1)!.rate.toFixed(2)} cases/s, queue ${results.queue.at(-1)!.rate.toFixed(2)} cases/s\n`,
    );
  }
  // The stdio oracles stay up but idle: their engines take next to no CPU meanwhile.
  campaigns = { local: await campaign('local', farm), queue: await campaign('queue', ['--queue', redis.url]) };
} finally {
  await queued.shutdown();
  await local.shutdown();
  worker.kill('SIGTERM');
  await worker.exited;
  await redis.close();
  rmSync(dir, { recursive: true, force: true });
}

const mean = (rs: Round[], key: keyof Round) => rs.reduce((sum, r) => sum + r[key], 0) / rs.length;
const perCase = (rs: Round[], key: keyof Round) => (mean(rs, key) / cases).toFixed(2).padStart(8);
console.log(
  `${cases} generated cases (seed ${seed}) as votes with dumps, farm ${farm.join(' ') || 'defaults'}, ${rounds} round(s) each, alternating`,
);
console.log('CPU ms per case                               local    queue');
console.log(`  coordinator (the stdio oracle asked)     ${perCase(results.local, 'coordinator')} ${perCase(results.queue, 'coordinator')}`);
console.log(`  worker (its own Node process)                   - ${perCase(results.queue, 'worker')}`);
console.log(`  the worker's oracle (Node)                      - ${perCase(results.queue, 'oracle')}`);
console.log(`  redis-server                                    - ${perCase(results.queue, 'redis')}`);
console.log(`  engines                                  ${perCase(results.local, 'engines')} ${perCase(results.queue, 'engines')}`);
const nodeLocal = mean(results.local, 'coordinator') / cases;
const nodeQueue =
  (mean(results.queue, 'coordinator') + mean(results.queue, 'worker') + mean(results.queue, 'oracle') + mean(results.queue, 'redis')) /
  cases;
console.log(
  `  all but the engines                      ${nodeLocal.toFixed(2).padStart(8)} ${nodeQueue.toFixed(2).padStart(8)}  (queue overhead ${(nodeQueue - nodeLocal).toFixed(2)} ms per case)`,
);
console.log(
  `throughput, cases/s                      ${mean(results.local, 'rate').toFixed(2).padStart(8)} ${mean(results.queue, 'rate').toFixed(2).padStart(8)}  (rounds: ${results.local.map((r) => r.rate.toFixed(2)).join(', ')} | ${results.queue.map((r) => r.rate.toFixed(2)).join(', ')})`,
);
console.log(`answer size, KiB per case                 ${(mean(results.queue, 'bytes') / cases / 1024).toFixed(1).padStart(7)}`);
console.log(
  `campaign into a journal: Node CPU ms per case ${campaigns.local.ms.toFixed(2)} local (engine farm included), ` +
    `${campaigns.queue.ms.toFixed(2)} with --queue (submitter, collector, journal); ${campaigns.local.rate.toFixed(2)} and ${campaigns.queue.rate.toFixed(2)} cases/s`,
);
