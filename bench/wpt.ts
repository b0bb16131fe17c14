// npm run bench (its WPT part): WPT-like pages per second (bench/wpt-pages.ts: pages that scroll,
// load Ahem and a support image, carry prose and check-layout attributes) through the real oracle
// as it ships, side by side with the naive oracle in the same run (one page per engine in this
// process, each page loaded with its site, the harness waited for, one walk; each engine in
// turn). Absolute figures drift with the machine's load: the ratio is the result. Every engine's
// dump is checked byte for byte across the two routes. Where the time goes is printed beside the
// ratio: CPU per page by process kind on each route, and the wall milliseconds of each stage of a
// page (the oracle's debug lines: a page opened, the case loaded, run, the page closed). Then the
// ceiling any route could reach here: the naive oracle loads as many empty documents too, and a
// WPT page's own work (its CPU less an empty document's, which a route that navigates no page per
// case could save) over the machine's cores bounds the pages per second of any route that walks
// every page.
//
//   node dist/bench/wpt.js [--pages=N] [--workers=…] (the farm's flags as in bench/run.ts)
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { dumpJson } from '../src/protocol/dump.js';
import type { RawWalk } from '../src/protocol/page-output.js';
import { ENGINE_NAMES, type EngineName } from '../src/protocol/schema.js';
import type { Site } from '../src/protocol/site-schema.js';
import { DirectEngines } from '../test/support/direct-engines.js';
import type { BenchCase } from '../test/support/layout-corpus.js';
import { farm, fixed, measured, progress, type Phase } from './routes.js';
import { wptPages } from './wpt-pages.js';

const args = process.argv.slice(2);
const count = Number(args.find((a) => a.startsWith('--pages='))?.split('=')[1] ?? 60);
const farmArgs = args.filter((a) => /^--(workers|max-batch)=/.test(a));
const pages = wptPages(count);
const loadAtStart = loadavg()[0]!;

/** Wall milliseconds of each engine's load and walk on the naive route. */
const naiveStages = new Map<string, number[]>();

/** The naive oracle on `cases`: one page per engine here, each case loaded with its site, the harness waited for, one walk; each engine in turn. */
async function naive(label: string, cases: BenchCase[]): Promise<Phase> {
  const engines = await DirectEngines.open(ENGINE_NAMES, false);
  try {
    const walks: Phase['walks'] = new Map();
    const bar = progress(label, cases.length);
    const { seconds, cpu, kinds } = await measured(process.pid, async () => {
      for (const c of cases) {
        const { site, wait } = (c.fields ?? {}) as { site?: Site; wait?: string };
        const perEngine: Partial<Record<EngineName, RawWalk>> = {};
        for (const engine of ENGINE_NAMES) {
          const start = performance.now();
          perEngine[engine] = await engines.loadAndWalk(engine, c.id, c.html, { ...(site && { site }), ...(wait && { wait }) });
          const key = `${label}: ${engine} load+run`;
          naiveStages.set(key, [...(naiveStages.get(key) ?? []), performance.now() - start]);
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

process.stderr.write(`bench: wpt: ${pages.length} WPT-like pages\n`);
const shipped = await farm(pages, farmArgs, 'farm', { lone: 5, fields: { op: 'vote', dumps: true } });
const plain = await naive('naive, loaded', pages);
// As many documents with nothing in them: what navigating to a document costs by itself.
const empty = await naive(
  'naive, empty',
  pages.map((_, i) => ({ id: `empty/${i}`, family: 'empty', html: '<!DOCTYPE html><title>empty</title>' })),
);

let identical = 0;
let compared = 0;
for (const page of pages) {
  for (const engine of ENGINE_NAMES) {
    const reference = plain.walks.get(page.id)?.[engine] as RawWalk | undefined;
    const other = shipped.walks.get(page.id)?.[engine];
    if (!reference || !other) continue;
    compared++;
    if (JSON.stringify({ ...other, engine_version: 'v' }) === dumpJson(engine, 'v', reference).text) identical++;
  }
}
const rate = (p: Phase) => pages.length / p.seconds;
console.log(`\nwpt: ${pages.length} WPT-like pages (scrolling, Ahem, a support image, prose, check-layout attributes), all three engines:`);
console.table(
  [plain, shipped].map((p) => ({ route: p.label, 'pages/s': fixed(rate(p), 2), '× naive, loaded': fixed(rate(p) / rate(plain)) })),
);
const perPage = (ms: number) => fixed(ms / pages.length, 0);
console.log('wpt: CPU ms per page, by process kind (the oracle\'s Node threads are "node"):');
const kinds = [...new Set([plain, empty, shipped].flatMap((p) => Object.keys(p.kinds)))].sort();
console.table(
  Object.fromEntries(
    [...kinds, 'total'].map((kind) => [
      kind,
      Object.fromEntries(
        [plain, empty, shipped].map((p) => [
          p.label,
          perPage(kind === 'total' ? Object.values(p.kinds).reduce((a, b) => a + b, 0) : (p.kinds[kind] ?? 0)),
        ]),
      ),
    ]),
  ),
);
const mean = (xs: number[]) => fixed(xs.reduce((a, b) => a + b, 0) / xs.length, 0);
console.log('wpt: wall ms per page and engine, by stage (mean; the farm runs its pages at once, so its stages wait for the CPU):');
console.table(
  Object.fromEntries(
    [
      ...[...naiveStages].map(([key, ms]) => [key, ms] as const),
      ...[...shipped.stages].sort().map(([key, ms]) => [`farm ${key}`, ms] as const),
    ].map(([key, ms]) => [key, { n: ms.length, 'mean ms': mean(ms), 'max ms': fixed(Math.max(...ms), 0) }]),
  ),
);
const cpuPerPage = (p: Phase) => Object.values(p.kinds).reduce((a, b) => a + b, 0) / pages.length;
const cores = availableParallelism();
const own = cpuPerPage(plain) - cpuPerPage(empty);
console.log(
  `wpt: the ceiling here: a WPT-like page's own work (its load with its site, the harness, the walk, less an empty document's load) is ${fixed(own, 0)} CPU ms;` +
    ` with all ${cores} cores on it and nothing else paid, no route that walks every page passes ${fixed((cores * 1000) / own, 2)} pages/s,` +
    ` ${fixed((cores * 1000) / own / rate(plain))}× the naive oracle (10× would need ${fixed((cores * 1000) / (10 * rate(plain)), 0)} CPU ms per page in all)`,
);
console.log(`wpt: dumps byte-identical across the two routes: ${identical} of ${compared} engine dumps`);
console.log(`load average (1 min): ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end`);
