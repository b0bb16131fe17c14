// How the farm's cost scales: CPU ms per case by owner against case size (fixtures of 10, 100,
// 1000 and 10,000 nested boxes), then cases/s and CPU per case of the small-fixture corpus against
// --workers and --pages (docs/benchmarks.md, "Scaling", holds what this printed and the defaults
// chosen from it). Extra flags go to every farm.
//
//   node dist/bench/scaling.js [--sizes-only | --farms-only] [--max-batch=N …]
import { boxCase, boxCorpus } from '../test/support/box-corpus.js';
import { CPU_OWNERS } from './cpu.js';
import { farm, fixed, histogram, type Phase } from './routes.js';

const argv = process.argv.slice(2);
const extra = argv.filter((a) => !a.endsWith('-only'));
const cpuRow = (p: Phase, cases: number) => {
  const owners = Object.fromEntries(CPU_OWNERS.map((o) => [o, fixed(p.cpu[o] / cases)]));
  return { 'cases/s': fixed(cases / p.seconds, 1), 'CPU ms/case': fixed(CPU_OWNERS.reduce((s, o) => s + p.cpu[o], 0) / cases), ...owners };
};

if (!argv.includes('--farms-only')) {
  // Fewer cases of the larger sizes: each 10,000-box case is a few MB of dumps.
  const sizes: [number, number][] = [
    [10, 200],
    [100, 100],
    [1000, 30],
    [10_000, 6],
  ];
  const rows: Record<string, object> = {};
  for (const [elements, count] of sizes) {
    const cases = Array.from({ length: count }, (_, i) => boxCase(9_000 + i, elements));
    const p = await farm(cases, extra, `${elements} boxes`, { lone: 0 });
    rows[`${elements} boxes`] = {
      ...cpuRow(p, count),
      'CPU ms/element': fixed(CPU_OWNERS.reduce((s, o) => s + p.cpu[o], 0) / count / elements, 3),
    };
  }
  console.log('CPU per case against case size (the farm at the flags given):');
  console.table(rows);
}

if (!argv.includes('--sizes-only')) {
  const corpus = boxCorpus(300);
  const rows: Record<string, object> = {};
  for (const [workers, pages] of [
    [1, 1],
    [1, 2],
    [1, 4],
    [2, 1],
    [2, 2],
  ] as const) {
    const p = await farm(corpus, [...extra, `--workers=${workers}`, `--pages=${pages}`], `workers ${workers} pages ${pages}`, { lone: 0 });
    rows[`--workers=${workers} --pages=${pages}`] = { ...cpuRow(p, corpus.length), 'cases/call': histogram(p.batches)['mean cases/call'] };
  }
  console.log(`${corpus.length} small fixtures against --workers and --pages:`);
  console.table(rows);
}
