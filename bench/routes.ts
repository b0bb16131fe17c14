// What the benchmarks share: a phase's CPU (by owner and by process kind, from /proc) and the
// real oracle over stdio as a fuzzing client drives it, every case pipelined at once.
import { performance } from 'node:perf_hooks';
import { Presets, SingleBar } from 'cli-progress';
import type { RawWalk } from '../src/protocol/page-output.js';
import type { EngineName } from '../src/protocol/schema.js';
import { BATCH_LOG } from '../src/workers/host/fast-path.js';
import { STAGE_LOG } from '../src/workers/host/page-pool.js';
import { ORACLE_BIN, OracleProcess, type Line } from '../test/support/oracle-process.js';
import type { BenchCase } from '../test/support/layout-corpus.js';
import { cpuBetween, sampleCpu, sampleKinds, type CpuSample } from './cpu.js';

export function progress(label: string, total: number): SingleBar {
  const bar = new SingleBar(
    { format: `${label.padEnd(22)} {bar} {value}/{total} cases`, stream: process.stderr, hideCursor: true },
    Presets.shades_classic,
  );
  bar.start(total, 0);
  return bar;
}

export interface Phase {
  label: string;
  seconds: number;
  cpu: CpuSample;
  kinds: Record<string, number>;
  walks: Map<string, Partial<Record<EngineName, RawWalk | Line>>>;
}

/** Samples CPU (by owner and by process kind) below `root` around `run`. */
export async function measured<T>(
  root: number,
  run: () => Promise<T>,
): Promise<{ value: T; seconds: number; cpu: CpuSample; kinds: Record<string, number> }> {
  const before = { cpu: sampleCpu(root), kinds: sampleKinds(root) };
  const start = performance.now();
  const value = await run();
  const seconds = (performance.now() - start) / 1000;
  return { value, seconds, cpu: cpuBetween(before.cpu, sampleCpu(root)), kinds: cpuBetween(before.kinds, sampleKinds(root)) };
}

/** The real oracle over stdio, every case pipelined at once, as a fuzzing client would. */
export async function farm(
  cases: BenchCase[],
  args: string[],
  label: string,
  { bin = ORACLE_BIN, lone: loneCount = 40, fields = {} }: { bin?: string; lone?: number; fields?: Line } = {},
): Promise<Phase & { lone: number[]; batches: number[]; stages: Map<string, number[]> }> {
  const oracle = new OracleProcess([...args, '--log-level=debug'], {}, bin);
  await oracle.ready();
  // A lone request at a time: what a client that waits for each answer sees.
  const lone: number[] = [];
  for (const c of cases.slice(0, loneCount)) {
    const t0 = performance.now();
    await oracle.request({ id: `${label}/lone/${c.id}`, html: c.html, ...c.fields, ...fields });
    lone.push(performance.now() - t0);
  }
  const bar = progress(label, cases.length);
  const logFrom = oracle.stderr.length;
  const {
    value: answers,
    seconds,
    cpu,
    kinds,
  } = await measured(oracle.pid, () =>
    Promise.all(
      cases.map((c) =>
        oracle
          .request({
            id: `${label}/${c.id}`,
            html: c.html,
            ...(c.script === undefined ? {} : { script: c.script }),
            ...c.fields,
            ...fields,
          })
          .then((a) => {
            bar.increment();
            return a;
          }),
      ),
    ),
  );
  bar.stop();
  await oracle.shutdown();
  // Cases per fast-path driver call while the queue was full (the worker's debug lines).
  const batches = [...oracle.stderr.slice(logFrom).matchAll(new RegExp(`${BATCH_LOG} (\\d+)`, 'g'))].map((m) => Number(m[1]));
  // Milliseconds of each stage of a page (opened, a case document loaded and run, closed), by "engine stage".
  const stages = new Map<string, number[]>();
  for (const [, engine, stage, ms] of oracle.stderr.slice(logFrom).matchAll(new RegExp(`(\\w+): ${STAGE_LOG} (\\w+) (\\d+)`, 'g')))
    stages.set(`${engine} ${stage}`, [...(stages.get(`${engine} ${stage}`) ?? []), Number(ms)]);
  const walks: Phase['walks'] = new Map(cases.map((c, i) => [c.id, (answers[i]!.dumps ?? {}) as Partial<Record<EngineName, Line>>]));
  const failed = answers.filter((a) => a.errors).length;
  if (failed) process.stderr.write(`bench: ${label}: ${failed} cases with an engine error\n`);
  // A case laid out once, whole, agrees with itself: a relayout check that fails is worth a line.
  const selfFailed = answers.filter((a) =>
    Object.values((a.relayout ?? {}) as Record<string, { verdict: string }>).some((check) => check.verdict !== 'pass'),
  );
  if (selfFailed.length) process.stderr.write(`bench: ${label}: ${selfFailed.length} cases failed the relayout check\n`);
  return { label, seconds, cpu, kinds, walks, lone, batches, stages };
}

export const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
export const fixed = (x: number, digits = 2) => Number(x.toFixed(digits));

/** Batch sizes in power-of-two bins: how many driver calls carried 1, 2–3, 4–7, … cases. */
export function histogram(sizes: number[]): Record<string, number | string> {
  const bins: Record<string, number | string> = {
    calls: sizes.length,
    'mean cases/call': sizes.length ? fixed(sizes.reduce((a, b) => a + b, 0) / sizes.length, 1) : '-',
  };
  for (let lo = 1; lo <= Math.max(1, ...sizes); lo *= 2) {
    const hi = 2 * lo - 1;
    bins[lo === hi ? `${lo}` : `${lo}–${hi}`] = sizes.filter((n) => n >= lo && n <= hi).length;
  }
  return bins;
}
