// node dist/bench/candidate.js [--cases=N] [--seed=S] [--rounds=R] [--workers=W] [--pages=P]
//
// What an engine under test costs a campaign: the same corpus (generated inside what the
// reference Taffy candidate supports, so that it lays most cases out rather than refusing them)
// through `browser-oracle campaign` into a fresh journal with and without `--candidate taffy`,
// alternately, `rounds` times each, in one run (absolute figures drift on a shared machine; the
// ratio is the result). Cases/s is the campaign's own closing figure (first case sent to last
// recorded, engine start-up excluded); CPU is every process of the run (the oracle, its engines,
// the candidate), read from this process's reaped children, per case. Then the Taffy adapter in
// this process alone, on the same cases: the CPU it needs per case, so that an overhead above
// it is the process boundary's. Beside them, the same cases with mutations (the same documents:
// the generator draws them after the tree; no relayout check, so that the mutations alone
// differ), through the campaign with the candidate and through the adapter, which lays a
// mutation case out three times (the original, the mutated one in its kept tree, and from
// scratch): what a mutation case costs next to a plain one. The load average is printed beside
// the figures.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { layOutCase } from '../src/candidate-reference/engine.js';
import { referenceEngine } from '../src/candidate-reference/serve.js';
import { runCli } from '../test/support/campaign-process.js';
import type { CandidateCase } from '../src/protocol/candidate-schema.js';

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => Number(args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
// 1000: at 200 a campaign is a second or two, and the candidate process's start and warm-up were a
// third of its cost (−31.7 % against −25 % at 1000, the same build).
const cases = flag('cases', 1000);
const seed = flag('seed', 3);
const rounds = flag('rounds', 2);
const farmArgs = args.filter((a) => a.startsWith('--workers=') || a.startsWith('--pages='));

const dir = mkdtempSync(join(tmpdir(), 'bench-candidate-'));
const corpus = join(dir, 'corpus.ndjson');
const mutationCorpus = join(dir, 'mutations.ndjson');

/** CPU ms of this process's reaped children so far: a finished campaign and everything it waited for (cutime and cstime, 10 ms ticks). */
function childrenCpuMs(): number {
  const stat = readFileSync(`/proc/${process.pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[13]) + Number(f[14])) * 10;
}

interface Round {
  casesPerSecond: number;
  cpuMsPerCase: number;
}

async function campaign(label: string, round: number, extra: string[], from = corpus): Promise<Round> {
  const db = join(dir, `${label}-${round}.sqlite`);
  const before = childrenCpuMs();
  const run = await runCli(['campaign', '--db', db, '--corpus', from, '--fonts=square', ...farmArgs, ...extra]);
  const cpu = childrenCpuMs() - before;
  // The closing line, wherever it is: the oracle may warn after it (processes it killed on closing).
  const done = /campaign: done: (\d+) case\(s\) recorded .*\(([\d.]+) cases\/s\)$/m.exec(run.stderr);
  if (run.code !== 0 || !done || Number(done[1]) !== cases) throw new Error(`campaign failed (exit ${run.code}):\n${run.stderr}`);
  return { casesPerSecond: Number(done[2]), cpuMsPerCase: cpu / cases };
}

/** The generated corpus, as NDJSON, with `extra` generator flags. */
async function emit(extra: string[]): Promise<string> {
  const emitted = await runCli([
    'campaign',
    '--generate',
    String(cases),
    '--seed',
    String(seed),
    '--candidate',
    'taffy',
    '--fonts=square',
    '--emit',
    ...extra,
  ]);
  if (emitted.code !== 0) throw new Error(emitted.stderr);
  return emitted.stdout;
}

/** The Taffy adapter in this process on `text`'s requests: CPU and wall ms per case, and how many it refused. */
function inProcess(taffy: Awaited<ReturnType<typeof referenceEngine>>, text: string) {
  const requests = text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as CandidateCase);
  const layOut = () => {
    let refused = 0;
    for (const { id, html, mutations } of requests)
      if ('unsupported' in layOutCase(taffy, { id, html, ...(mutations ? { mutations } : {}) }, 'square')) refused++;
    return refused;
  };
  // Once untimed: the first pass is mostly the JIT's (measured: 6.2 CPU ms/case, then 1.0).
  layOut();
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  const refused = layOut();
  const cpu = process.cpuUsage(cpuBefore);
  return {
    cpu: (cpu.user + cpu.system) / 1000 / requests.length,
    wall: (performance.now() - start) / requests.length,
    refused,
    count: requests.length,
  };
}

try {
  const emitted = { stdout: await emit([]) };
  writeFileSync(corpus, emitted.stdout);
  const mutated = await emit(['--mutations', '--no-relayout']);
  writeFileSync(mutationCorpus, mutated);
  const load = loadavg().map((l) => l.toFixed(2));
  const without: Round[] = [];
  const withTaffy: Round[] = [];
  const withMutations: Round[] = [];
  for (let round = 0; round < rounds; round++) {
    without.push(await campaign('without', round, []));
    withTaffy.push(await campaign('taffy', round, ['--candidate', 'taffy']));
    withMutations.push(await campaign('mutations', round, ['--candidate', 'taffy'], mutationCorpus));
  }
  const mean = (list: Round[], key: keyof Round) => list.reduce((n, r) => n + r[key], 0) / list.length;
  // The adapter in this process, on the same cases.
  const taffy = await referenceEngine('taffy');
  const plain = inProcess(taffy, emitted.stdout);
  const mutations = inProcess(taffy, mutated);

  const row = (label: string, list: Round[]) =>
    `${label.padEnd(26)} ${mean(list, 'casesPerSecond').toFixed(2).padStart(8)} cases/s ${mean(list, 'cpuMsPerCase').toFixed(1).padStart(8)} CPU ms/case`;
  console.log(`candidate cost: ${cases} cases (seed ${seed}, inside taffy's supports), ${rounds} round(s) each, alternating`);
  console.log(`load average before: ${load.join(' ')} (${farmArgs.join(' ') || 'default farm'})`);
  console.log(row('campaign', without));
  console.log(row('campaign --candidate taffy', withTaffy));
  console.log(row('  the same, with mutations', withMutations));
  const rate = mean(withTaffy, 'casesPerSecond') / mean(without, 'casesPerSecond') - 1;
  const cpuCost = mean(withTaffy, 'cpuMsPerCase') - mean(without, 'cpuMsPerCase');
  console.log(
    `candidate: ${(rate * 100).toFixed(1)} % cases/s, ${cpuCost >= 0 ? '+' : ''}${cpuCost.toFixed(2)} CPU ms/case ` +
      `(${((cpuCost / mean(without, 'cpuMsPerCase')) * 100).toFixed(1)} %)`,
  );
  const ratio = (key: keyof Round) => (mean(withMutations, key) / mean(withTaffy, key)).toFixed(2);
  console.log(
    `a mutation case next to a plain one, with the candidate: × ${ratio('cpuMsPerCase')} CPU ms/case, × ${ratio('casesPerSecond')} cases/s`,
  );
  for (const [label, r] of [
    ['taffy adapter in process', plain],
    ['  the same, with mutations', mutations],
  ] as const)
    console.log(`${label}: ${r.cpu.toFixed(2)} CPU ms/case, ${r.wall.toFixed(2)} ms/case wall; ${r.refused} of ${r.count} unsupported`);
  console.log(`a mutation case next to a plain one, in the adapter: × ${(mutations.cpu / plain.cpu).toFixed(2)} CPU ms/case`);
  console.log(
    `load average after: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
