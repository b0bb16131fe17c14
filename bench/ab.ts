// Levers held side by side: variants of the oracle (another build, other flags, a config file of
// other prefs) run the same corpus in alternating rounds, each round one fresh oracle per variant,
// and the bench prints the median CPU ms per case by process kind, cases/s, the batch sizes, and
// whether every dump is byte for byte the first variant's.
//
// --corpus=small (the default), text, or a file of NDJSON requests (with `script`s); --warm=N lone
// requests before each measured phase (default 0: the pages' start is counted);
//   node dist/bench/ab.js --corpus=small --rounds=3 'before|/tmp/base/bin/browser-oracle|' 'after||' 'scopes 5||--config=/tmp/c.json'
//
// Each variant is `label|executable (empty: this build)|flags (space-separated)`.
import { readFileSync } from 'node:fs';
import { dumpJson } from '../src/protocol/dump.js';
import { ENGINE_NAMES } from '../src/protocol/schema.js';
import type { RawWalk } from '../src/protocol/page-output.js';
import { boxCorpus } from '../test/support/box-corpus.js';
import { type BenchCase, layoutCorpus } from '../test/support/layout-corpus.js';
import { CPU_OWNERS } from './cpu.js';
import { farm, fixed, histogram, type Phase } from './routes.js';

const argv = process.argv.slice(2);
const flag = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const rounds = Number(flag('rounds') ?? 2);
/** Lone requests each oracle answers before the measured phase, as `npm run bench` sends: its pages opened and warm, not counted. */
const warm = Number(flag('warm') ?? 0);
/** NDJSON requests (`campaign --generate N --seed S --emit`), each id made unique by its line number. */
const requests = (file: string): BenchCase[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line, i) => {
      const { id, html, script } = JSON.parse(line) as { id: string; html: string; script?: string };
      return { id: `${i}/${id}`, family: 'request', html, script };
    });
const which = flag('corpus');
const corpus = which === 'text' ? layoutCorpus(34) : which && which !== 'small' ? requests(which) : boxCorpus(Number(flag('cases') ?? 300));
const variants = argv
  .filter((a) => !a.startsWith('--'))
  .map((spec) => {
    const [label = spec, bin = '', flags = ''] = spec.split('|');
    return { label, bin: bin || undefined, args: flags.split(' ').filter(Boolean) };
  });
if (!variants.length || argv.includes('--help')) {
  process.stderr.write(
    "usage: node dist/bench/ab.js [--corpus=small|text|FILE] [--rounds=N] [--cases=N] [--warm=N] 'label|executable|flags' …\n",
  );
  process.exit(argv.includes('--help') ? 0 : 2);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const text = (engine: (typeof ENGINE_NAMES)[number], dump: RawWalk | Record<string, unknown>) =>
  'tags' in dump ? dumpJson(engine, 'v', dump as RawWalk).text : JSON.stringify({ ...dump, engine_version: 'v' });

const runs = new Map(variants.map((v) => [v.label, [] as (Phase & { batches: number[] })[]]));
for (let round = 0; round < rounds; round++) {
  for (const v of variants) runs.get(v.label)!.push(await farm(corpus, v.args, `${v.label} #${round + 1}`, { bin: v.bin, lone: warm }));
}

const reference = runs.get(variants[0]!.label)![0]!;
const rows: Record<string, Record<string, number | string>> = {};
const kinds = [...new Set([...runs.values()].flat().flatMap((p) => Object.keys(p.kinds)))].sort();
for (const [label, phases] of runs) {
  let identical = 0;
  let compared = 0;
  for (const p of phases) {
    for (const c of corpus) {
      for (const engine of ENGINE_NAMES) {
        const a = reference.walks.get(c.id)?.[engine];
        const b = p.walks.get(c.id)?.[engine];
        if (!a || !b) continue;
        compared++;
        if (text(engine, a) === text(engine, b)) identical++;
      }
    }
  }
  const perCase = (ms: (p: Phase) => number) => fixed(median(phases.map((p) => ms(p) / corpus.length)));
  rows[label] = {
    'cases/s': fixed(median(phases.map((p) => corpus.length / p.seconds)), 1),
    'CPU ms/case': perCase((p) => CPU_OWNERS.reduce((sum, o) => sum + p.cpu[o], 0)),
    ...Object.fromEntries(CPU_OWNERS.map((o) => [o, perCase((p) => p.cpu[o])])),
    'cases/call': String(histogram(phases.flatMap((p) => p.batches))['mean cases/call']),
    identical: `${identical}/${compared}`,
  };
  for (const k of kinds) rows[label]![k] = perCase((p) => p.kinds[k] ?? 0);
}
console.log(`${corpus.length} cases, ${rounds} rounds, medians over the rounds; dumps compared with ${variants[0]!.label}'s first round:`);
// One column per variant: the process kinds are many.
const metrics = [...new Set(Object.values(rows).flatMap((r) => Object.keys(r)))];
console.table(
  Object.fromEntries(metrics.map((m) => [m, Object.fromEntries(Object.entries(rows).map(([label, r]) => [label, r[m] ?? 0]))])),
);
