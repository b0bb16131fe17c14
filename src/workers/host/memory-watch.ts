// A worker's watch over the memory of its engines' browsers. Four times a second one pass over
// /proc reads what every process of every engine holds (src/system/memory/process-memory.ts); an
// engine over its budget (--max-engine-memory) loses the process over it, or the one holding the
// most, killed at once (src/system/memory/budget.ts). Each kill is recorded before it is made, so
// the failure policy (case-runner.ts) can tell why a page died under a case, whatever its driver
// made of it (a crash, a broken call, a timeout): a case that passes the budget on a fresh page too
// is answered memory_exceeded, never engine_crashed or case_timeout. Where the kernel has a memory
// cgroup to give (src/system/memory/cgroup.ts), each engine also runs under a hard limit a quarter
// above its budget, which no allocation can outrun between two samples; the kernel's kills there
// are read back and recorded the same way.
import { threadId } from 'node:worker_threads';
import { setTimeout as sleep } from 'node:timers/promises';
import { OracleError, type ErrorCode } from '../../protocol/errors.js';
import type { EngineName } from '../../protocol/schema.js';
import { formatSize } from '../../protocol/sizes.js';
import { log } from '../../system/log.js';
import { overrun } from '../../system/memory/budget.js';
import { MemoryCgroup } from '../../system/memory/cgroup.js';
import { ProcessTable, type ProcessMemory } from '../../system/memory/process-memory.js';

/** How often the processes are read: between two reads a process can allocate unseen (the sampling slack, docs/protocol.md "Memory"). */
export const SAMPLE_MS = 250;
/** The kernel's limit for an engine, as a multiple of its budget: room for the watcher, which gives the case its answer, to act first. */
export const CGROUP_LIMIT = 1.25;
/** Errors only a live page gives: the case's own answers. */
const CASE_ANSWERS: ReadonlySet<ErrorCode> = new Set(['script_error', 'dump_too_large', 'selector_not_found']);
/** How long a closing engine's cgroup waits for its last processes to be gone before it is left to the next oracle's sweep. */
const CGROUP_REMOVE_MS = 3_000;

/** What the watch asks of an engine's browser at each sample (src/workers/engine.ts says what each means). */
export interface WatchedBrowser {
  processGroups(): readonly number[];
  readonly groupPerPage: boolean;
}

export class MemoryWatcher {
  private readonly engines = new Set<EngineMemory>();
  private readonly table = new ProcessTable();
  private readonly timer: NodeJS.Timeout;

  constructor(
    readonly budget: number,
    sampleMs = SAMPLE_MS,
  ) {
    this.timer = setInterval(() => void this.sample(), sampleMs);
    this.timer.unref();
  }

  /** Watches `engine`, whose browser's processes are those of the process groups `browser` names at each sample. */
  watch(engine: EngineName, browser: WatchedBrowser): EngineMemory {
    const memory = new EngineMemory(engine, browser, this.budget);
    this.engines.add(memory);
    return memory;
  }

  /** One sample: every watched engine's processes read in one pass, each engine held to its budget; resolves once the new processes it found are in their engines' cgroups. */
  sample(): Promise<void> {
    const owners = new Map<number, EngineMemory>();
    for (const engine of this.engines) for (const group of engine.browser.processGroups()) owners.set(group, engine);
    const found = new Map<EngineMemory, ProcessMemory[]>();
    for (const p of this.table.read(new Set(owners.keys()))) {
      const engine = owners.get(p.group)!;
      found.set(engine, [...(found.get(engine) ?? []), p]);
    }
    for (const engine of this.engines) engine.check(found.get(engine) ?? []);
    return Promise.all([...this.engines].map((engine) => engine.moving)).then(() => undefined);
  }

  /** Stops sampling and removes the engines' cgroups (their browsers are closed first). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all([...this.engines].map((engine) => engine.close()));
    this.engines.clear();
  }
}

/** One engine's record of the processes killed for memory, for the failure policy. */
export class EngineMemory {
  private readonly cgroup: MemoryCgroup | undefined;
  /** Kills so far, the watcher's and the kernel's. */
  private kills = 0;
  private kernelKills = 0;
  private last: OracleError | undefined;
  /** Processes moved (or being moved) into the cgroup, and those killed that have not yet gone (an exiting process still shows its pages). */
  private adopted = new Set<number>();
  private killed = new Set<number>();
  /** The moves into the cgroup that the last check started. */
  moving: Promise<unknown> = Promise.resolve();

  constructor(
    readonly engine: EngineName,
    readonly browser: WatchedBrowser,
    private readonly budget: number,
  ) {
    const cgroup = MemoryCgroup.create(`${threadId}-${engine}`, Math.round(budget * CGROUP_LIMIT));
    if (typeof cgroup === 'string') log.debug(`${engine}: memory watched every ${SAMPLE_MS} ms, no kernel limit: ${cgroup}`);
    else this.cgroup = cgroup;
  }

  /** Where the record stands: a case takes a mark as it starts, and asks explain() with it when it fails. */
  mark(): number {
    this.readKernel();
    return this.kills;
  }

  /**
   * Why a case that ran from `mark` failed with `error`: memory_exceeded when a process of the
   * engine was killed for memory meanwhile, since a killed page fails in whatever way its driver
   * reports it (a crash, a broken call, a timeout); `error` itself when that did not happen, or when
   * the page lived to give the case's own answer (its script threw, its dump was too large).
   */
  explain(error: unknown, mark: number): unknown {
    if (error instanceof OracleError && CASE_ANSWERS.has(error.code)) return error;
    this.readKernel();
    return this.kills > mark ? this.last : error;
  }

  /** Holds the engine's processes, as just read, to the budget; moves new ones into the cgroup. */
  check(processes: ProcessMemory[]): void {
    const present = new Set(processes.map((p) => p.pid));
    this.killed = new Set([...this.killed].filter((pid) => present.has(pid)));
    if (this.cgroup) {
      this.adopted = new Set([...this.adopted].filter((pid) => present.has(pid)));
      const moves: Promise<unknown>[] = [];
      for (const { pid } of processes) {
        if (this.adopted.has(pid)) continue;
        // Taken at once, so that the next sample does not move it again; given back when the move failed.
        this.adopted.add(pid);
        moves.push(this.cgroup.add(pid).then((moved) => moved || this.adopted.delete(pid)));
      }
      this.moving = Promise.all(moves);
    }
    this.readKernel();
    const over = overrun(
      processes.filter((p) => !this.killed.has(p.pid)),
      this.budget,
    );
    if (!over) return;
    const { victim, used } = over;
    const message = `${this.engine} used ${formatSize(used)}, over ${formatSize(this.budget)} (--max-engine-memory); its ${victim.name} process was killed`;
    this.record(new OracleError('memory_exceeded', message));
    const whole = this.browser.groupPerPage;
    for (const p of processes) if (p.pid === victim.pid || (whole && p.group === victim.group)) this.killed.add(p.pid);
    log.warn(
      `${this.engine}: ${message} (pid ${victim.pid}, ${formatSize(victim.own)} of its own, ${formatSize(victim.rss)} resident)` +
        (whole ? ", with the rest of its page's browser" : ''),
    );
    try {
      process.kill(whole ? -victim.group : victim.pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }

  async close(): Promise<void> {
    if (!this.cgroup) return;
    const deadline = Date.now() + CGROUP_REMOVE_MS;
    while (!this.cgroup.remove() && Date.now() < deadline) await sleep(50);
  }

  /** Records the kernel's kills in the cgroup since the last look. */
  private readKernel(): void {
    if (!this.cgroup) return;
    const kills = this.cgroup.oomKills();
    if (kills <= this.kernelKills) return;
    this.kernelKills = kills;
    const message = `${this.engine} reached its kernel limit of ${formatSize(this.cgroup.limit)} (--max-engine-memory ${formatSize(this.budget)}, and a quarter); the kernel killed one of its processes`;
    this.record(new OracleError('memory_exceeded', message));
    log.warn(`${this.engine}: ${message}`);
  }

  private record(error: OracleError): void {
    this.kills++;
    this.last = error;
  }
}
