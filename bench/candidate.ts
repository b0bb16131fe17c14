// node dist/bench/candidate.js [--cases=N] [--warm=W] [--seed=S] [--rounds=R] [--workers=W] [--pages=P] [--no-mutations] [--own-only]
//
// What an engine under test costs a campaign, split where it can be changed. One corpus
// (generated inside what the reference Taffy candidate supports, so that it lays most cases out)
// through `browser-oracle campaign` into fresh journals, `rounds` times each, in rounds:
//
//   campaign                     no candidate: the browsers' and the oracle's own CPU per case
//   campaign --candidate replay  a candidate that answers instantly from Taffy's recorded answers
//                                (bench/candidate-replay.ts): what the oracle itself spends on a
//                                candidate's case (writing it, reading and checking the answer,
//                                the walks' columns, judging, journaling) is its Node's CPU beyond
//                                the run without one, less the replaying process's own
//   campaign --candidate taffy   the reference candidate itself, end to end
//
// CPU is read from /proc for the campaign's process tree, by owner (each engine's processes, and
// Node: the oracle and the candidate's process), over `cases` cases in the middle of a campaign:
// its corpus holds `warm` cases more on each side, and the window opens once its journal holds
// `warm` cases and closes once it holds `warm + cases`. Start-up, warm-up and shutdown are left
// out (a campaign's cost a case is what it costs once running: on a 1000-case campaign, V8's
// compiling on its helper threads was a third of the oracle's own work on a candidate case), and
// the window opens and closes with as many cases in flight: the engines run up to a few hundred
// cases ahead of the journal, so a window that closed on the campaign's last case counted their
// work for far fewer cases than it divided by (a quarter fewer over 1000). The figure over the
// whole campaign, from its first progress line to its last, is printed beside it. cases/s is the
// campaign's own closing figure. The first two runs of a round are next to each other, in
// turn one first and then the other, and the oracle's own work is taken round by round, of the
// two: its median over the rounds and their spread are printed, and the oracle's process thread
// by thread (its main thread, its other threads). Then each reference candidate's own CPU per case, in this
// process, on cases generated inside what it supports (bench/candidate-stages.js splits it into
// stages). The goal: the oracle's own work per candidate case under 5 % of the browsers' CPU per case.
// Beside them, the same cases with mutations (the same documents: the generator draws them after
// the tree; no relayout check, so that the mutations alone differ), through the campaign with the
// Taffy candidate and in process (Taffy and Yoga), where a mutation case is laid out three times (the original, the
// mutated one in its kept tree, and from scratch): what a mutation case costs next to a plain one
// (the mutation campaign is its `cases` cases alone, measured whole, and set beside the Taffy
// campaign's whole figure).
// --no-mutations leaves those out (a mutation campaign is the slowest of the four on a loaded machine);
// --own-only runs the first two alone, for the oracle's own work.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { generateCases } from '../src/campaign/generator/generator.js';
import { layOutCase } from '../src/candidate-reference/engine.js';
import { referenceEngine } from '../src/candidate-reference/serve.js';
import { ENGINE_NAMES } from '../src/protocol/schema.js';
import { CliProcess, runCli } from '../test/support/campaign-process.js';
import { cpuBetween, ownCpuMs, sampleCpu, type CpuSample } from './cpu.js';

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => Number(args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
// 1000: at 200 a campaign is a second or two, and the candidate process's start and warm-up were a
// third of its cost (−31.7 % against −25 % at 1000, the same build).
const cases = flag('cases', 1000);
// 1000: more than the cases the engines run ahead of the journal (up to 250 here), and past most
// of V8's compiling.
const warm = flag('warm', 1000);
const seed = flag('seed', 3);
const rounds = flag('rounds', 2);
const ownOnly = args.includes('--own-only');
const mutations = !ownOnly && !args.includes('--no-mutations');
const farmArgs = args.filter((a) => a.startsWith('--workers=') || a.startsWith('--pages='));
const REPLAY = fileURLToPath(new URL('./candidate-replay.js', import.meta.url));

const dir = mkdtempSync(join(tmpdir(), 'bench-candidate-'));
const corpus = join(dir, 'corpus.ndjson');
const recorded = join(dir, 'taffy-answers.ndjson');
const mutationCorpus = join(dir, 'mutations.ndjson');

const processCpuMs = (pid: number) => ownCpuMs(`/proc/${pid}`);

interface Run {
  casesPerSecond: number;
  /** CPU ms per case over the cases, by owner. */
  cpu: CpuSample;
  /** The candidate process's own CPU ms per case over the same span, when it could be told apart. */
  candidate: number | null;
  /** The oracle's own Node process alone, CPU ms per case: its main thread (the loop, the judge, the journal) and its other threads (workers, GC, I/O). */
  oracle: { main: number; others: number };
  /** The same as `cpu` and `candidate`, over every case of the campaign (its warm-up included). */
  whole: { cpu: CpuSample; candidate: number | null };
}

/** The oracle process's CPU ms so far: its main thread (whose id is the process's) and the sum of its other threads. */
function oracleCpu(pid: number): { main: number; others: number } {
  const main = ownCpuMs(`/proc/${pid}/task/${pid}`) ?? 0;
  // Its own utime and stime, without its children's: every thread's, those that ended included.
  return { main, others: (processCpuMs(pid) ?? 0) - main };
}

/** A campaign over `from`, whose window is its cases between the first and the last `around` (none: the whole campaign). */
async function campaign(label: string, round: number, candidate: string[], from = corpus, around = warm): Promise<Run> {
  const db = join(dir, `${label}-${round}.sqlite`);
  const cli = new CliProcess(['campaign', '--db', db, '--corpus', from, '--fonts=square', ...farmArgs, ...candidate]);
  await cli.saidOnStderr(/campaign: 0\/\d+ cases/);
  // The candidate's process: `… candidate taffy …`, or the replaying script (not the oracle's own `--candidate …`).
  const candidatePid = cli.descendants().find((pid) => {
    let argv: string[];
    try {
      argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    } catch {
      return false; // gone since it was listed (a browser's short-lived helper)
    }
    return argv.includes('candidate') || argv.some((a) => a.endsWith('candidate-replay.js'));
  });
  const candidateCpu = () => (candidatePid === undefined ? null : processCpuMs(candidatePid));
  const started = { cpu: sampleCpu(cli.pid), candidate: candidateCpu() };
  // How many cases the campaign's journal holds, read as it runs.
  const journal = new Database(db, { readonly: true, fileMustExist: true });
  const count = journal.prepare('SELECT count(*) FROM cases').pluck();
  const recorded = () => count.get() as number;
  // A sample once the journal holds `count` cases: the cases recorded while it was read are counted half in it.
  const sampleAt = async (count: number) => {
    while (recorded() < count) await sleep(20);
    const first = recorded();
    const sample = { cpu: sampleCpu(cli.pid), oracle: oracleCpu(cli.pid), candidate: candidateCpu() };
    return { ...sample, at: (first + recorded()) / 2 };
  };
  const opened = await sampleAt(around);
  const closed = await sampleAt(around + cases);
  journal.close();
  const total = 2 * around + cases;
  await cli.saidOnStderr(new RegExp(`campaign: ${total}/${total} cases`));
  const ended = { cpu: sampleCpu(cli.pid), candidate: candidateCpu() };
  const code = await cli.exited;
  const done = /campaign: done: (\d+) case\(s\) recorded .*\(([\d.]+) cases\/s\)$/m.exec(cli.stderr);
  if (code !== 0 || !done || Number(done[1]) !== total) throw new Error(`campaign failed (exit ${code}):\n${cli.stderr}`);
  // The replaying candidate may be gone at the last progress line: its CPU then as it said when it ended.
  const replayed = /replay cpu ([\d.]+) ms/.exec(cli.stderr);
  ended.candidate ??= replayed ? Number(replayed[1]) : null;
  /** CPU ms per case by owner, and the candidate's, between two samples, over `count` cases. */
  const perCase = (from: { cpu: CpuSample; candidate: number | null }, to: typeof from, count: number) => ({
    cpu: Object.fromEntries(Object.entries(cpuBetween(from.cpu, to.cpu)).map(([owner, ms]) => [owner, ms / count])) as CpuSample,
    candidate: from.candidate === null || to.candidate === null ? null : (to.candidate - from.candidate) / count,
  });
  const measured = closed.at - opened.at;
  const oracle = cpuBetween(opened.oracle, closed.oracle);
  return {
    casesPerSecond: Number(done[2]),
    ...perCase(opened, closed, measured),
    oracle: { main: oracle.main / measured, others: oracle.others / measured },
    whole: perCase(started, ended, total),
  };
}

/**
 * A reference candidate's own CPU per case in this process, warm, on cases generated inside what
 * it supports: after as many other cases (the next seed's), so that its caches hold what a long
 * campaign's would, not these cases themselves.
 */
async function inProcess(name: 'taffy' | 'yoga', mutations = false): Promise<{ ms: number; refused: number; count: number }> {
  const engine = await referenceEngine(name);
  const supports = engine.supports('square');
  const draw = (s: number) => [
    ...generateCases({ count: cases, seed: s, text: false, script: false, mutations, relayout: false, supports }),
  ];
  for (const request of draw(seed + 1)) layOutCase(engine, request, 'square');
  const requests = draw(seed);
  let refused = 0;
  const before = process.cpuUsage();
  for (const request of requests) if ('unsupported' in layOutCase(engine, request, 'square')) refused++;
  const { user, system } = process.cpuUsage(before);
  return { ms: (user + system) / 1000 / requests.length, refused, count: requests.length };
}

/** `count` generated cases, as NDJSON, with `extra` generator flags. */
async function emit(extra: string[], count: number): Promise<string> {
  const emitted = await runCli([
    'campaign',
    '--generate',
    String(count),
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

try {
  const emitted = { stdout: await emit([], 2 * warm + cases) };
  writeFileSync(corpus, emitted.stdout);
  if (mutations) writeFileSync(mutationCorpus, await emit(['--mutations', '--no-relayout'], cases));
  // Taffy's answers, ping first, for the replaying candidate.
  const answers = await runCli(['candidate', 'taffy', '--fonts=square'], `{"id":"ping","op":"ping"}\n${emitted.stdout}`);
  if (answers.code !== 0) throw new Error(answers.stderr);
  writeFileSync(recorded, answers.stdout);

  const load = loadavg().map((l) => l.toFixed(2));
  const labels = ['campaign', 'campaign --candidate replay', 'campaign --candidate taffy', '  the same, with mutations'] as const;
  const runs: Record<(typeof labels)[number], Run[]> = {
    campaign: [],
    'campaign --candidate replay': [],
    'campaign --candidate taffy': [],
    '  the same, with mutations': [],
  };
  for (let round = 0; round < rounds; round++) {
    // The two routes whose difference is the oracle's own work run next to each other, first one then
    // the other in turn: a load that rises or falls over a round then favours neither route.
    const without = () => campaign('without', round, []);
    const replay = () => campaign('replay', round, ['--candidate', `node ${REPLAY} ${recorded} ${corpus}`]);
    if (round % 2 === 0) {
      runs.campaign.push(await without());
      runs['campaign --candidate replay'].push(await replay());
    } else {
      runs['campaign --candidate replay'].push(await replay());
      runs.campaign.push(await without());
    }
    if (!ownOnly) runs['campaign --candidate taffy'].push(await campaign('taffy', round, ['--candidate', 'taffy']));
    if (mutations) runs['  the same, with mutations'].push(await campaign('mutations', round, ['--candidate', 'taffy'], mutationCorpus, 0));
  }
  const mean = (list: Run[], of: (r: Run) => number) => list.reduce((n, r) => n + of(r), 0) / list.length;
  const median = (list: number[]) => {
    const sorted = [...list].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  };
  const browsers = (r: Pick<Run, 'cpu'>) => ENGINE_NAMES.reduce((n, e) => n + r.cpu[e], 0);

  console.log(
    `candidate cost: ${cases} cases between ${warm} before and ${warm} after (seed ${seed}, inside taffy's supports), ${rounds} round(s) each, alternating`,
  );
  console.log(`load average before: ${load.join(' ')} (${farmArgs.join(' ') || 'default farm'})`);
  console.log(
    `${''.padEnd(28)} ${'cases/s'.padStart(8)}  CPU ms a case: ${'browsers'.padStart(8)} ${'node'.padStart(6)} ${'candidate'.padStart(9)}`,
  );
  for (const label of labels) {
    const list = runs[label];
    if (!list.length) continue;
    const candidate = list.every((r) => r.candidate !== null) ? mean(list, (r) => r.candidate!).toFixed(2) : '-';
    console.log(
      `${label.padEnd(28)} ${mean(list, (r) => r.casesPerSecond)
        .toFixed(1)
        .padStart(8)}                ${mean(list, browsers).toFixed(2).padStart(8)} ${mean(list, (r) => r.cpu.node)
        .toFixed(2)
        .padStart(6)} ${candidate.padStart(9)}`,
    );
  }
  const without = runs.campaign;
  const replay = runs['campaign --candidate replay'];
  const browserMs = mean(without, browsers);
  const own = mean(replay, (r) => r.cpu.node - (r.candidate ?? 0)) - mean(without, (r) => r.cpu.node);
  // Each round's own figure, from the two runs next to each other: on a shared machine the spread
  // is part of the result, and the median is the figure a slow round or two does not move.
  const share = (r: Pick<Run, 'cpu' | 'candidate'>, alone: Pick<Run, 'cpu'>) =>
    ((r.cpu.node - (r.candidate ?? 0) - alone.cpu.node) / browsers(alone)) * 100;
  const perRound = replay.map((r, i) => share(r, without[i]!));
  const wholeRounds = replay.map((r, i) => share(r.whole, without[i]!.whole));
  console.log(
    `the oracle's own work per candidate case: median ${median(perRound).toFixed(1)} % of the browsers' CPU a case ` +
      `(rounds: ${perRound.map((p) => `${p.toFixed(1)} %`).join(', ')}; spread ${(Math.max(...perRound) - Math.min(...perRound)).toFixed(1)} points; goal: under 5 %); ` +
      `over all rounds ${own.toFixed(3)} CPU ms, ${((own / browserMs) * 100).toFixed(1)} % of the browsers' ${browserMs.toFixed(2)} ms`,
  );
  console.log(
    `  over the whole campaign, all ${2 * warm + cases} cases: median ${median(wholeRounds).toFixed(1)} % ` +
      `(rounds: ${wholeRounds.map((p) => `${p.toFixed(1)} %`).join(', ')})`,
  );
  // The same difference, thread by thread of the oracle's process (the replaying process is not in it).
  const threads = (of: (o: Run['oracle']) => number) => median(replay.map((r, i) => of(r.oracle) - of(without[i]!.oracle)));
  console.log(
    `  in the oracle's process, median of the rounds: main thread ${threads((o) => o.main).toFixed(3)} CPU ms a case, ` +
      `its other threads (workers, GC, I/O) ${threads((o) => o.others).toFixed(3)}`,
  );
  if (!ownOnly) {
    const taffy = await inProcess('taffy');
    const yoga = await inProcess('yoga');
    const taffyMutations = mutations ? await inProcess('taffy', true) : undefined;
    const yogaMutations = mutations ? await inProcess('yoga', true) : undefined;
    // The Taffy process's own CPU, by difference: its run's Node less the oracle's own (the replay run's, whose answers are Taffy's).
    const taffyProcess = mean(runs['campaign --candidate taffy'], (r) => r.cpu.node) - mean(replay, (r) => r.cpu.node - (r.candidate ?? 0));
    const share = (ms: number) => `${((ms / browserMs) * 100).toFixed(1)} % of the browsers'`;
    console.log(
      `the taffy candidate's process over the cases (its warm-up included): ${taffyProcess.toFixed(2)} CPU ms a case, ${share(taffyProcess)}`,
    );
    const rate = mean(runs['campaign --candidate taffy'], (r) => r.casesPerSecond) / mean(without, (r) => r.casesPerSecond) - 1;
    console.log(`end to end with the taffy candidate: ${(rate * 100).toFixed(1)} % cases/s`);
    for (const [name, r] of [
      ['taffy', taffy],
      ['yoga', yoga],
    ] as const)
      console.log(
        `${name} candidate's own work, warm, in process: ${r.ms.toFixed(3)} CPU ms a case, ${share(r.ms)} (${r.refused} of ${r.count} unsupported; stages: node dist/bench/candidate-stages.js --engine=${name})`,
      );
    const mutated = runs['  the same, with mutations'];
    const plain = runs['campaign --candidate taffy'];
    // Over whole campaigns: the mutation campaign has no cases around its window (at about 1.4 cases/s, three times its
    // cases would triple the bench's longest run).
    const ratio = (of: (r: Run) => number) => (mean(mutated, of) / mean(plain, of)).toFixed(2);
    if (taffyMutations)
      console.log(
        `a mutation case next to a plain one, with the taffy candidate: × ${ratio((r) => r.whole.cpu.node)} Node CPU ms a case, × ${ratio((r) => r.casesPerSecond)} cases/s; ` +
          `in process: × ${(taffyMutations.ms / taffy.ms).toFixed(2)} CPU ms a case (${taffyMutations.refused} of ${taffyMutations.count} unsupported)`,
      );
    // Yoga's own cases are drawn inside what it supports: its ratio is in process only.
    if (yogaMutations)
      console.log(
        `a mutation case next to a plain one, yoga in process: × ${(yogaMutations.ms / yoga.ms).toFixed(2)} CPU ms a case (${yogaMutations.refused} of ${yogaMutations.count} unsupported)`,
      );
  }
  console.log(
    `load average after: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
