// npm run bench — throughput of the engine farm against naive oracles, side by side in one run on
// the same corpus (absolute figures drift on shared machines; the ratios are the result), on two
// corpora: small layout fixtures (nested boxes, no text) and text-heavy pages. For each: CPU per
// case by process kind from /proc, the farm's batch sizes (cases per driver call), the latency of
// a lone request; then micro-benchmarks of the hot non-browser paths.
//
//   naive, loaded        the simplest oracle: one page per engine in this process; each case loaded
//                        as a document, then fonts and one walk; each engine in turn
//   naive, one call      the same pages, each case written and walked in one driver call (the
//                        fast path's call without batching); each engine in turn
//   farm, batch 1        the real oracle over stdio, every case pipelined, batches off
//   farm                 the real oracle over stdio, every case pipelined, as it ships
//   farm, relayout       the same, every request with the relayout check on (a second walk after
//                        a layout from scratch, compared in the worker): what the check costs
//
// --corpus=small|text runs one corpus only; --workers=, --pages= and --max-batch= go to the farm.
import { loadavg } from 'node:os';
import type { RawWalk } from '../src/protocol/page-output.js';
import { dumpJson } from '../src/protocol/dump.js';
import { ENGINE_NAMES, type EngineName } from '../src/protocol/schema.js';
import { defaultOptions } from '../src/api/oracle.js';
import { DirectEngines } from '../test/support/direct-engines.js';
import { boxCorpus } from '../test/support/box-corpus.js';
import { layoutCorpus, type BenchCase } from '../test/support/layout-corpus.js';
import { CPU_OWNERS } from './cpu.js';
import { microBenchmarks } from './micro.js';
import { farm, fixed, histogram, measured, percentile, progress, type Phase } from './routes.js';

const args = process.argv.slice(2);
const farmArgs = args.filter((a) => /^--(workers|pages|max-batch)=/.test(a));
const only = args.find((a) => a.startsWith('--corpus='))?.split('=')[1];
const CORPORA: Record<string, { title: string; cases: () => BenchCase[] }> = {
  small: { title: 'small layout fixtures (5 to 60 nested boxes, no text)', cases: () => boxCorpus(300) },
  text: { title: 'text-heavy layout pages', cases: () => layoutCorpus(34) },
};

/** The naive oracles: one page per engine, here, each case through each engine in turn. */
async function naive(cases: BenchCase[], oneCall: boolean): Promise<Phase> {
  const label = oneCall ? 'naive, one call' : 'naive, loaded';
  const engines = await DirectEngines.open(ENGINE_NAMES, oneCall);
  try {
    const walks: Phase['walks'] = new Map();
    const bar = progress(label, cases.length);
    const { seconds, cpu, kinds } = await measured(process.pid, async () => {
      for (const c of cases) {
        const perEngine: Partial<Record<EngineName, RawWalk>> = {};
        for (const engine of ENGINE_NAMES) {
          perEngine[engine] = oneCall ? (await engines.writeAndWalk(engine, [c.html]))[0] : await engines.loadAndWalk(engine, c.id, c.html);
        }
        walks.set(c.id, perEngine);
        bar.increment();
      }
    });
    bar.stop();
    return { label, seconds, cpu, kinds, walks };
  } finally {
    await engines.close();
  }
}

const maxBatch = farmArgs.find((a) => a.startsWith('--max-batch='))?.split('=')[1] ?? defaultOptions().maxBatch;
process.stderr.write(`bench: farm ${farmArgs.join(' ') || '(defaults)'}, --max-batch ${maxBatch}\n`);
/** The text corpus's walks, for the micro-benchmarks. */
const textWalks = new Map<string, Partial<Record<EngineName, RawWalk>>>();
const loadAtStart = loadavg()[0]!;

for (const [name, { title, cases: make }] of Object.entries(CORPORA)) {
  if (only && only !== name) continue;
  const corpus = make();
  process.stderr.write(`bench: ${name}: ${corpus.length} cases, ${title}\n`);
  const batched = await farm(corpus, farmArgs, 'farm');
  const unbatched = await farm(corpus, [...farmArgs, '--max-batch=1'], 'farm, batch 1');
  const relayout = await farm(corpus, farmArgs, 'farm, relayout', { fields: { relayout: true } });
  const engines = await naive(corpus, false);
  const oneCall = await naive(corpus, true);
  if (name === 'text') for (const [id, walks] of engines.walks) textWalks.set(id, walks as Partial<Record<EngineName, RawWalk>>);

  // Every route gives every engine's dump byte for byte the same.
  let identical = 0;
  let compared = 0;
  for (const c of corpus) {
    for (const engine of ENGINE_NAMES) {
      const reference = engines.walks.get(c.id)?.[engine] as RawWalk | undefined;
      if (!reference) continue;
      for (const phase of [oneCall, batched, unbatched, relayout]) {
        const other = phase.walks.get(c.id)?.[engine];
        if (!other) continue;
        compared++;
        const text = 'tags' in other ? dumpJson(engine, 'v', other as RawWalk).text : JSON.stringify({ ...other, engine_version: 'v' });
        if (text === dumpJson(engine, 'v', reference).text) identical++;
      }
    }
  }

  const phases = [engines, oneCall, unbatched, batched, relayout];
  const rate = (p: Phase) => corpus.length / p.seconds;
  console.log(`\n${name}: ${corpus.length} ${title}, all three engines, measured in this run:`);
  console.table(
    phases.map((p) => ({
      route: p.label,
      'cases/s': fixed(rate(p), 1),
      '× naive, loaded': fixed(rate(p) / rate(engines)),
      '× naive, one call': fixed(rate(p) / rate(oneCall)),
      '× farm': fixed(rate(p) / rate(batched)),
      ...Object.fromEntries(CPU_OWNERS.map((owner, i) => [i ? owner : `CPU ms/case ${owner}`, fixed(p.cpu[owner] / corpus.length)])),
      total: fixed(CPU_OWNERS.reduce((sum, owner) => sum + p.cpu[owner], 0) / corpus.length),
    })),
  );
  console.log(`${name}: CPU ms per case by process kind:`);
  const kinds = [...new Set(phases.flatMap((p) => Object.keys(p.kinds)))].sort();
  console.table(
    Object.fromEntries(
      kinds
        .filter((k) => phases.some((p) => (p.kinds[k] ?? 0) > 0))
        .map((k) => [k, Object.fromEntries(phases.map((p) => [p.label, fixed((p.kinds[k] ?? 0) / corpus.length)]))]),
    ),
  );
  console.log(`${name}: dumps byte-identical across the routes: ${identical} of ${compared} engine dumps`);
  console.log(`${name}: cases per driver call of the farm's fast path, the queue full, at most ${maxBatch} (--max-batch):`);
  console.table({ farm: histogram(batched.batches) });
  console.log(
    `${name}: lone request latency, ms: farm p50 ${percentile(batched.lone, 50).toFixed(1)} p99 ${percentile(batched.lone, 99).toFixed(1)}; ` +
      `batch 1 p50 ${percentile(unbatched.lone, 50).toFixed(1)} p99 ${percentile(unbatched.lone, 99).toFixed(1)}; ` +
      `relayout p50 ${percentile(relayout.lone, 50).toFixed(1)} p99 ${percentile(relayout.lone, 99).toFixed(1)}`,
  );
}
// The figures drift with the machine's load: the ratios are the result, and this says how loaded it was.
console.log(`\nload average (1 min): ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end`);

if (!only || only === 'text') {
  console.log('\nHot non-browser paths (tinybench):');
  console.table(await microBenchmarks(textWalks));
}
