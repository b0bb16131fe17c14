// Throughput of the comparator on real dumps: `node dist/bench/compare.bench.js`.
//
// The 10-, 1 000- and 10 000-node documents are built from the recorded fixtures
// (test/fixtures/dumps) by concatenating the <body> subtrees of several recordings, in every
// engine alike, until the node count is reached. Each appended subtree is moved below the
// previous one by that engine's own height for it, as the engine would have stacked them, so
// the engines' real differences (Gecko's taller lines, wrapping) recur along the document.
import { readFileSync } from 'node:fs';
import { Bench } from 'tinybench';
import { ENGINE_NAMES, type Dump, type EngineName } from '../src/protocol/schema.js';
import { columnarFromDump, type ColumnarDump } from '../src/comparator/columnar.js';
import { compare } from '../src/comparator/compare.js';
import { voteColumnar, type EngineDumps } from '../src/comparator/vote.js';

const SOURCES = ['rigid-base', 'inline-wrap', 'text-line', 'agree', 'fragment-count'];
const SIZES = [10, 1_000, 10_000];
/** Node comparisons per second the comparator must sustain on one core. */
const TARGET = 1_000_000;

type Node = Dump['nodes'][number];

function recorded(name: string): Record<EngineName, Dump> {
  const text = readFileSync(new URL(`../../test/fixtures/dumps/${name}.json`, import.meta.url), 'utf8');
  return JSON.parse(text).dumps;
}

/** The subtrees under <body>, each as its nodes in document order. */
function bodySubtrees(d: Dump): Node[][] {
  const body = d.nodes.findIndex((n) => n.tag === 'BODY');
  const subtrees: Node[][] = [];
  for (const n of d.nodes.slice(body + 1)) {
    if (n.parent === body) subtrees.push([n]);
    else subtrees.at(-1)!.push(n);
  }
  return subtrees;
}

/** One engine's dump grown to exactly `size` nodes: the first source's head, then body subtrees in turn. */
function grow(sources: Dump[], size: number): Dump {
  const base = sources[0]!;
  const body = base.nodes.findIndex((n) => n.tag === 'BODY');
  const nodes = base.nodes.slice(0, body + 1);
  const pieces = sources.flatMap(bodySubtrees);
  let shift = 0;
  for (let k = 0; nodes.length < size; k++) {
    const piece = pieces[k % pieces.length]!;
    const rebase = nodes.length - piece[0]!.index;
    const move = (r: Node['bounding']) => ({ ...r, y: r.y + shift });
    for (const n of piece) {
      const boxed = n.rects.length > 0;
      nodes.push({
        ...n,
        index: n.index + rebase,
        parent: n === piece[0] ? body : n.parent + rebase,
        depth: n.depth,
        bounding: boxed ? move(n.bounding) : n.bounding,
        rects: n.rects.map(move),
      });
    }
    shift += piece[0]!.bounding.h;
  }
  return { ...base, overflowed: false, nodes: nodes.slice(0, size) };
}

const fixtures = SOURCES.map(recorded);
const documents = SIZES.map((size) => {
  const dumps = {} as Record<EngineName, ColumnarDump>;
  for (const e of ENGINE_NAMES)
    dumps[e] = columnarFromDump(
      grow(
        fixtures.map((f) => f[e]),
        size,
      ),
    );
  return { size, dumps };
});
const largestWire = grow(
  fixtures.map((f) => f.chromium),
  SIZES.at(-1)!,
);

const bench = new Bench({ time: 500 });
/** Node comparisons each task makes per run, for the rate column. */
const comparisons = new Map<string, number>();
const add = (name: string, nodeComparisons: number, fn: () => unknown) => {
  comparisons.set(name, nodeComparisons);
  bench.add(name, fn);
};
for (const { size, dumps } of documents) {
  add(`compare chromium~webkit, ${size} nodes`, size, () => compare(dumps.chromium, dumps.webkit));
  const response: EngineDumps<ColumnarDump> = { dumps };
  add(`vote (3 pairs), ${size} nodes`, 3 * size, () => voteColumnar(response));
}
add(`columnarFromDump, ${largestWire.nodes.length} nodes (once per dump)`, 0, () => columnarFromDump(largestWire));

await bench.run();
const rows = bench.tasks.map((task) => {
  if (task.result.state !== 'completed') throw new Error(`${task.name}: ${task.result.state}`);
  const perRun = comparisons.get(task.name)!;
  const meanMs = task.result.latency.mean;
  return { task: task.name, 'mean µs': Number((meanMs * 1000).toFixed(1)), rate: perRun ? (perRun * 1000) / meanMs : undefined };
});
console.table(rows.map(({ rate, ...row }) => ({ ...row, 'node comparisons/s': rate ? Math.round(rate).toLocaleString('en') : '—' })));
const slowest = Math.min(...rows.flatMap((r) => (r.rate ? [r.rate] : [])));
console.log(
  `slowest: ${Math.round(slowest).toLocaleString('en')} node comparisons/s; target ${TARGET.toLocaleString('en')}: ${slowest >= TARGET ? 'met' : 'MISSED'}`,
);
