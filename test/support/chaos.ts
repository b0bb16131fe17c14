// The chaos run behind `npm run chaos` (and its short form in the test suite): a stream of
// cases while engine browsers are SIGKILLed at random and a case that hangs every engine
// arrives every so often. It checks that every id is answered exactly once and that no
// process outlives the oracle, and measures the resident memory of the oracle and its browsers.
import { readFileSync } from 'node:fs';
import { ENGINE_NAMES } from '../../src/protocol/schema.js';
import { OracleProcess, type Line } from './oracle-process.js';
import { engineProcesses, killAll, processesOwnedBy, startOf } from './processes.js';
import { layoutCorpus } from './layout-corpus.js';

export interface ChaosOptions {
  cases: number;
  /**
   * A browser is killed after a random pause in this range, in milliseconds (as browsers die in
   * the field) or in answers (a pace that a slow machine cannot outrun: between two kills some
   * cases are always answered); null: no kills (a plain soak).
   */
  killEvery: { range: [number, number]; unit: 'ms' | 'answers' } | null;
  /** Every n-th case hangs every engine. */
  hangEvery: number;
  timeoutMs: number;
  /** Requests a client keeps outstanding at once. */
  window: number;
  oracleArgs?: string[];
  onProgress?: (answered: number) => void;
}

export interface ChaosReport {
  cases: number;
  answered: number;
  lost: number;
  duplicates: number;
  kills: number;
  hangs: number;
  engineErrors: Record<string, number>;
  peakRssMiB: number;
  finalRssMiB: number;
  /** Resident memory (MiB) of the oracle and everything below it after each tenth of the cases. */
  rssByTenthMiB: number[];
  /** Processes of the oracle still running after it exited, as "pid name". */
  orphans: string[];
  exitCode: number | null;
  seconds: number;
}

const HANG = '<!doctype html><p>hang</p><script>while (true) {}</script>';

function comm(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '(gone)';
  }
}

function rssKiB(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const corpus = layoutCorpus();
  const oracle = new OracleProcess([`--timeout-ms=${options.timeoutMs}`, ...(options.oracleArgs ?? [])]);
  await oracle.ready();
  const oracleStart = startOf(oracle.pid)!;
  const start = performance.now();
  /** Every process seen below the oracle, by pid, with its start: the same pid later may be another process. */
  const seen = new Map<number, number>();
  let peak = 0;
  let last = 0;
  const sample = () => {
    const pids = [oracle.pid, ...oracle.descendants()];
    for (const pid of pids) {
      const started = startOf(pid);
      if (started !== undefined) seen.set(pid, started);
    }
    last = pids.reduce((sum, pid) => sum + rssKiB(pid), 0);
    peak = Math.max(peak, last);
  };
  const sampler = setInterval(sample, 500);

  let kills = 0;
  let running = true;
  const answers: Line[] = [];
  let progressed = () => {};
  /** Resolves once `n` more cases are answered, or the run is over. */
  const answered = async (n: number) => {
    const target = answers.length + n;
    while (running && answers.length < target) await new Promise<void>((resolve) => (progressed = resolve));
  };
  const killer = (async () => {
    while (running && options.killEvery) {
      const [lo, hi] = options.killEvery.range;
      const pause = lo + Math.random() * (hi - lo);
      if (options.killEvery.unit === 'ms') await new Promise((r) => setTimeout(r, pause));
      else await answered(Math.round(pause));
      if (!running) break;
      const engine = ENGINE_NAMES[Math.floor(Math.random() * ENGINE_NAMES.length)]!;
      const victims = engineProcesses(oracle.descendants(), engine);
      if (victims.length) {
        killAll(victims.slice(0, 1));
        kills++;
      }
    }
  })();

  let hangs = 0;
  const rssByTenth: number[] = [];
  let next = 0;
  const client = async () => {
    while (next < options.cases) {
      const i = next++;
      const hang = i > 0 && i % options.hangEvery === 0;
      if (hang) hangs++;
      const c = corpus[i % corpus.length]!;
      answers.push(await oracle.request({ id: `chaos-${i}`, html: hang ? HANG : c.html }));
      progressed();
      options.onProgress?.(answers.length);
      if (answers.length % Math.max(1, Math.floor(options.cases / 10)) === 0) {
        sample();
        rssByTenth.push(Math.round(last / 1024));
      }
    }
  };
  await Promise.all(Array.from({ length: options.window }, client));
  running = false;
  progressed();
  await killer;
  sample();
  clearInterval(sampler);
  const exitCode = await oracle.shutdown();

  const counts = new Map<string, number>();
  for (const line of oracle.lines) if (String(line.id).startsWith('chaos-')) counts.set(line.id, (counts.get(line.id) ?? 0) + 1);
  const engineErrors: Record<string, number> = {};
  for (const a of answers)
    for (const message of Object.values<string>(a.errors ?? {})) {
      const code = message.split(':')[0]!;
      engineErrors[code] = (engineErrors[code] ?? 0) + 1;
    }
  seen.delete(oracle.pid);
  // Those seen below it that are the same processes still, and any carrying its mark that were
  // never seen (started and orphaned between two samples).
  const orphans = new Set([...seen].filter(([pid, started]) => startOf(pid) === started).map(([pid]) => pid));
  for (const pid of processesOwnedBy(oracle.pid)) if ((startOf(pid) ?? -1) >= oracleStart) orphans.add(pid);
  return {
    cases: options.cases,
    answered: counts.size,
    lost: options.cases - counts.size,
    duplicates: [...counts.values()].filter((n) => n > 1).length,
    kills,
    hangs,
    engineErrors,
    peakRssMiB: Math.round(peak / 1024),
    finalRssMiB: Math.round(last / 1024),
    rssByTenthMiB: rssByTenth,
    orphans: [...orphans].map((pid) => `${pid} ${comm(pid)}`),
    exitCode,
    seconds: Math.round((performance.now() - start) / 1000),
  };
}
