// npm run bench — throughput of the engine farm against a naive oracle, side by side in one
// run on the same corpus (absolute figures drift on shared machines; the ratio is the result),
// the engines' own in-page time per case, and micro-benchmarks of the hot non-browser paths.
import { performance } from 'node:perf_hooks';
import { SingleBar, Presets } from 'cli-progress';
import { ENGINE_NAMES, type EngineName } from '../src/protocol/schema.js';
import { dumpJson, type RawWalk } from '../src/protocol/dump.js';
import { LAUNCHERS } from '../src/workers/engines/index.js';
import { WALK_FIXED_ARGS, WALK_FUNCTION_SOURCE } from '../src/page/walk.js';
import { writeThenCall } from '../src/workers/script-free.js';
import type { EnginePage, EngineBrowser } from '../src/workers/engine.js';
import { EgressGuard } from '../src/coordinator/egress-guard.js';
import { CONFIG_DIR } from '../src/system/paths.js';
import { OracleProcess, type Line } from '../test/support/oracle-process.js';
import { layoutCorpus, type BenchCase } from '../test/support/layout-corpus.js';
import { microBenchmarks } from './micro.js';

const corpus = layoutCorpus();
const args = process.argv.slice(2);
const farmArgs = args.filter((a) => a.startsWith('--workers=') || a.startsWith('--pages='));

function progress(label: string, total: number): SingleBar {
  const bar = new SingleBar(
    { format: `${label.padEnd(22)} {bar} {value}/{total} cases`, stream: process.stderr, hideCursor: true },
    Presets.shades_classic,
  );
  bar.start(total, 0);
  return bar;
}

/**
 * The naive oracle: one browser and one page per engine, in this process, each case written
 * into the page and walked, through each engine in turn. (It uses the farm's own one-round-trip
 * write + walk, so the ratio measures the farm's scheduling, not a slower page method.)
 */
async function naive(cases: BenchCase[]): Promise<{ seconds: number; walks: Map<string, Partial<Record<EngineName, RawWalk>>> }> {
  const guard = await EgressGuard.start();
  const browsers: EngineBrowser[] = [];
  const pages: [EngineName, EnginePage][] = [];
  try {
    for (const engine of ENGINE_NAMES) {
      const browser = await LAUNCHERS[engine]({
        profile: 'default',
        display: undefined,
        configDir: CONFIG_DIR,
        proxyUrl: guard.proxyUrl,
        browsers: 'auto',
        paths: {},
        extra: {},
      });
      browsers.push(browser);
      pages.push([engine, await browser.newPage()]);
    }
    const walks = new Map<string, Partial<Record<EngineName, RawWalk>>>();
    const bar = progress('naive (sequential)', cases.length);
    const start = performance.now();
    for (const c of cases) {
      const perEngine: Partial<Record<EngineName, RawWalk>> = {};
      for (const [engine, page] of pages) {
        perEngine[engine] = await page.call<RawWalk>(writeThenCall(WALK_FUNCTION_SOURCE), [c.html, null, ...WALK_FIXED_ARGS]);
      }
      walks.set(c.id, perEngine);
      bar.increment();
    }
    const seconds = (performance.now() - start) / 1000;
    bar.stop();
    return { seconds, walks };
  } finally {
    await Promise.all(browsers.map((b) => b.close()));
    await guard.close();
  }
}

/** The real oracle over stdio, every case pipelined at once, as a fuzzing client would. */
async function farm(oracle: OracleProcess, cases: BenchCase[], engines: readonly EngineName[], label: string) {
  const bar = progress(label, cases.length);
  const start = performance.now();
  const answers = await Promise.all(
    cases.map((c) =>
      oracle.request({ id: `${label}/${c.id}`, html: c.html, engines, timing: true }).then((a) => {
        bar.increment();
        return a;
      }),
    ),
  );
  const seconds = (performance.now() - start) / 1000;
  bar.stop();
  const failed = answers.filter((a) => a.errors).length;
  return { seconds, answers, failed };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const rate = (n: number, s: number) => `${(n / s).toFixed(1)} cases/s`;

const oracle = new OracleProcess(farmArgs);
const ping = await oracle.ready();
process.stderr.write(
  `bench: ${corpus.length} cases; farm ${farmArgs.join(' ') || '(default workers and pages)'}; engines ${ping.engines.join(', ')}\n`,
);

const together = await farm(oracle, corpus, ENGINE_NAMES, 'farm, three engines');
const single: Record<string, Awaited<ReturnType<typeof farm>>> = {};
for (const engine of ENGINE_NAMES) single[engine] = await farm(oracle, corpus, [engine], `farm, ${engine} only`);
await oracle.shutdown();

const baseline = await naive(corpus);

// The farm loads a fresh document per case, the naive oracle writes into a reused page: the
// same engine should compute byte-identical dumps either way.
let identical = 0;
let compared = 0;
for (const c of corpus) {
  const answer = together.answers.find((a) => a.id === `farm, three engines/${c.id}`)!;
  for (const engine of ENGINE_NAMES) {
    const walk = baseline.walks.get(c.id)?.[engine];
    const dump = answer.dumps[engine] as Line | undefined;
    if (!walk || !dump) continue;
    compared++;
    if (JSON.stringify(dump) === dumpJson(engine, dump.engine_version, walk).text) identical++;
  }
}

const inPage = Object.fromEntries(
  ENGINE_NAMES.map((e) => [e, mean(together.answers.map((a) => a.timing?.[e]).filter((t): t is number => typeof t === 'number'))]),
);

console.log(`\nEnd to end, ${corpus.length} layout cases (${new Set(corpus.map((c) => c.family)).size} families), measured in this run:`);
console.log(`  naive oracle (1 page per engine, sequential write + walk):      ${rate(corpus.length, baseline.seconds)}`);
console.log(
  `  farm, all three engines per case:                               ${rate(corpus.length, together.seconds)}  (${together.failed} cases with an engine error)`,
);
for (const engine of ENGINE_NAMES)
  console.log(`  farm, ${engine.padEnd(8)} only:                                        ${rate(corpus.length, single[engine]!.seconds)}`);
console.log(`  ratio farm / naive (three engines): ${(baseline.seconds / together.seconds).toFixed(2)}×`);
console.log(`  farm and naive dumps byte-identical for ${identical} of ${compared} engine dumps`);
console.log(`\nIn-page time per case (load: parse + style + layout; plus the walk), mean over the corpus:`);
for (const engine of ENGINE_NAMES) console.log(`  ${engine.padEnd(8)} ${inPage[engine]!.toFixed(2)} ms`);
console.log(`  sum      ${ENGINE_NAMES.reduce((s, e) => s + inPage[e]!, 0).toFixed(2)} ms of engine work per three-engine case`);

console.log('\nHot non-browser paths (tinybench):');
console.table(await microBenchmarks(baseline.walks));
