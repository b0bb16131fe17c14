// npm run bench — throughput of the engine farm against naive oracles, side by side in one run on
// the same corpus (absolute figures drift on shared machines; the ratios are the result), CPU per
// case per engine from /proc, the latency of a lone request, and micro-benchmarks of the hot
// non-browser paths.
//
//   naive, loaded        the simplest oracle: one page per engine in this process; each case loaded
//                        as a document, then fonts and one walk; each engine in turn
//   naive, one call      the same pages, each case written and walked in one driver call (the
//                        fast path's call without batching); each engine in turn
//   farm, batch 1        the real oracle over stdio, every case pipelined, batches off
//   farm                 the real oracle over stdio, every case pipelined, as it ships
import { performance } from 'node:perf_hooks';
import { Presets, SingleBar } from 'cli-progress';
import type { RawWalk } from '../src/protocol/page-output.js';
import { dumpJson } from '../src/protocol/dump.js';
import { ENGINE_NAMES, type EngineName } from '../src/protocol/schema.js';
import { defaultOptions } from '../src/api/oracle.js';
import { OracleProcess, type Line } from '../test/support/oracle-process.js';
import { DirectEngines } from '../test/support/direct-engines.js';
import { layoutCorpus, type BenchCase } from '../test/support/layout-corpus.js';
import { CPU_OWNERS, cpuBetween, sampleCpu, type CpuSample } from './cpu.js';
import { microBenchmarks } from './micro.js';

const corpus = layoutCorpus(34);
const farmArgs = process.argv.slice(2).filter((a) => /^--(workers|pages|max-batch)=/.test(a));
function progress(label: string, total: number): SingleBar {
  const bar = new SingleBar(
    { format: `${label.padEnd(22)} {bar} {value}/{total} cases`, stream: process.stderr, hideCursor: true },
    Presets.shades_classic,
  );
  bar.start(total, 0);
  return bar;
}

interface Phase {
  label: string;
  seconds: number;
  cpu: CpuSample;
  walks: Map<string, Partial<Record<EngineName, RawWalk | Line>>>;
}

/** The naive oracles: one page per engine, here, each case through each engine in turn. */
async function naive(cases: BenchCase[], oneCall: boolean): Promise<Phase> {
  const label = oneCall ? 'naive, one call' : 'naive, loaded';
  const engines = await DirectEngines.open(ENGINE_NAMES, oneCall);
  try {
    const walks: Phase['walks'] = new Map();
    const bar = progress(label, cases.length);
    const before = sampleCpu(process.pid);
    const start = performance.now();
    for (const c of cases) {
      const perEngine: Partial<Record<EngineName, RawWalk>> = {};
      for (const engine of ENGINE_NAMES) {
        perEngine[engine] = oneCall ? (await engines.writeAndWalk(engine, [c.html]))[0] : await engines.loadAndWalk(engine, c.id, c.html);
      }
      walks.set(c.id, perEngine);
      bar.increment();
    }
    const seconds = (performance.now() - start) / 1000;
    const cpu = cpuBetween(before, sampleCpu(process.pid));
    bar.stop();
    return { label, seconds, cpu, walks };
  } finally {
    await engines.close();
  }
}

/** The real oracle over stdio, every case pipelined at once, as a fuzzing client would. */
async function farm(cases: BenchCase[], args: string[], label: string): Promise<Phase & { lone: number[] }> {
  const oracle = new OracleProcess([...farmArgs, ...args, '--log-level=debug']);
  await oracle.ready();
  // A lone request at a time: what a client that waits for each answer sees.
  const lone: number[] = [];
  for (const c of cases.slice(0, 40)) {
    const t0 = performance.now();
    await oracle.request({ id: `${label}/lone/${c.id}`, html: c.html });
    lone.push(performance.now() - t0);
  }
  const bar = progress(label, cases.length);
  const before = sampleCpu(oracle.pid);
  const start = performance.now();
  const answers = await Promise.all(
    cases.map((c) =>
      oracle.request({ id: `${label}/${c.id}`, html: c.html }).then((a) => {
        bar.increment();
        return a;
      }),
    ),
  );
  const seconds = (performance.now() - start) / 1000;
  const cpu = cpuBetween(before, sampleCpu(oracle.pid));
  bar.stop();
  await oracle.shutdown();
  const walks: Phase['walks'] = new Map(cases.map((c, i) => [c.id, (answers[i]!.dumps ?? {}) as Partial<Record<EngineName, Line>>]));
  const failed = answers.filter((a) => a.errors).length;
  if (failed) process.stderr.write(`bench: ${label}: ${failed} cases with an engine error\n`);
  return { label, seconds, cpu, walks, lone };
}

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const rate = (p: Phase) => corpus.length / p.seconds;
const perCase = (p: Phase, owner: keyof CpuSample) => p.cpu[owner] / corpus.length;

process.stderr.write(
  `bench: ${corpus.length} script-free cases in ${new Set(corpus.map((c) => c.family)).size} families; farm ${farmArgs.join(' ') || '(defaults)'}\n`,
);
const batched = await farm(corpus, [], 'farm');
const unbatched = await farm(corpus, ['--max-batch=1'], 'farm, batch 1');
const engines = await naive(corpus, false);
const oneCall = await naive(corpus, true);

// Every route gives every engine's dump byte for byte the same.
let identical = 0;
let compared = 0;
for (const c of corpus) {
  for (const engine of ENGINE_NAMES) {
    const reference = engines.walks.get(c.id)?.[engine] as RawWalk | undefined;
    if (!reference) continue;
    for (const phase of [oneCall, batched, unbatched]) {
      const other = phase.walks.get(c.id)?.[engine];
      if (!other) continue;
      compared++;
      const text = 'tags' in other ? dumpJson(engine, 'v', other as RawWalk).text : JSON.stringify({ ...other, engine_version: 'v' });
      if (text === dumpJson(engine, 'v', reference).text) identical++;
    }
  }
}

const phases = [engines, oneCall, unbatched, batched];
console.log(`\n${corpus.length} script-free layout cases, all three engines, measured in this run:`);
console.table(
  phases.map((p) => ({
    route: p.label,
    'cases/s': Number(rate(p).toFixed(1)),
    '× naive, loaded': Number((rate(p) / rate(engines)).toFixed(2)),
    '× naive, one call': Number((rate(p) / rate(oneCall)).toFixed(2)),
    ...Object.fromEntries(CPU_OWNERS.map((owner, i) => [i ? owner : `CPU ms/case ${owner}`, Number(perCase(p, owner).toFixed(2))])),
  })),
);
console.log(`dumps byte-identical across the routes: ${identical} of ${compared} engine dumps`);
const maxBatch = farmArgs.find((a) => a.startsWith('--max-batch='))?.split('=')[1] ?? defaultOptions().maxBatch;
console.log(`batch size: at most ${maxBatch} (--max-batch), ceil(queued / pages) below that`);
console.log(
  `lone request latency, ms: farm p50 ${percentile(batched.lone, 50).toFixed(1)} p99 ${percentile(batched.lone, 99).toFixed(1)}; ` +
    `batch 1 p50 ${percentile(unbatched.lone, 50).toFixed(1)} p99 ${percentile(unbatched.lone, 99).toFixed(1)}`,
);
console.log('\nHot non-browser paths (tinybench):');
console.table(await microBenchmarks(engines.walks as Map<string, Partial<Record<EngineName, RawWalk>>>));
