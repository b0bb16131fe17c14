// CPU time of an oracle and its engines, read from /proc: every process below a root, each
// counted to the engine whose browser (or driver, or X server) it descends from, the rest to
// Node. Processes that exited and were waited for are in their parent's cutime/cstime, so a
// sample before and after a phase gives the phase's CPU.
import { readdirSync, readFileSync } from 'node:fs';
import { ENGINE_NAMES, type EngineName } from '../src/protocol/schema.js';
import { ENGINE_PROCESSES } from '../test/support/processes.js';

export type CpuOwner = EngineName | 'node';
export type CpuSample = Record<CpuOwner, number>;
/** Every owner, in the order the bench prints them. */
export const CPU_OWNERS: readonly CpuOwner[] = [...ENGINE_NAMES, 'node'];

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** Which engine a process's command line starts. */
const engineOf = (cmd: string): EngineName | undefined => ENGINE_NAMES.find((engine) => ENGINE_PROCESSES[engine].any(cmd));

interface Proc {
  parent: number;
  ms: number;
  cmd: string;
}

/** The fields of a `/proc/…/stat` after the command name (whose parentheses may enclose anything): f[0] is field 3. */
function statFields(path: string): string[] {
  const stat = readFileSync(`${path}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** CPU ms so far (utime + stime) of a process or one of its threads (`/proc/PID/task/TID`), its children's not counted; null once it is gone. */
export function ownCpuMs(path: string): number | null {
  try {
    const f = statFields(path);
    return (Number(f[11]) + Number(f[12])) * TICK_MS;
  } catch {
    return null;
  }
}

function processes(): Map<number, Proc> {
  const all = new Map<number, Proc>();
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    try {
      const f = statFields(`/proc/${pid}`);
      // utime, stime, cutime, cstime (fields 14–17)
      const ticks = Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
      all.set(pid, { parent: Number(f[1]), ms: ticks * TICK_MS, cmd: readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ') });
    } catch {
      // gone meanwhile
    }
  }
  return all;
}

/** What a process is within its engine, from its own command line: "firefox tab", "chromium renderer", "webkit WebKitWebProcess". */
function kindOf(owner: CpuOwner, cmd: string): string {
  if (owner === 'node') return 'node';
  if (owner === 'chromium') return `chromium ${/--type=([\w-]+)/.exec(cmd)?.[1] ?? (cmd.includes('crashpad') ? 'crashpad' : 'browser')}`;
  // A Gecko child's last argument is its kind: tab, extension, socket, rdd, utility, forkserver.
  if (owner === 'firefox') return `firefox ${cmd.includes('-contentproc') ? (cmd.trim().split(' ').pop() ?? 'child') : 'parent'}`;
  return `webkit ${/(WebKitWebDriver|MiniBrowser|WebKitWebProcess|WebKitNetworkProcess|Xvfb)/.exec(cmd)?.[1] ?? 'other'}`;
}

/** CPU milliseconds so far of `root` and everything below it, by `key` of each process's owner and command line. */
function sample(root: number, key: (owner: CpuOwner, cmd: string) => string): Record<string, number> {
  const all = processes();
  const totals: Record<string, number> = {};
  for (const [pid, proc] of all) {
    let owner: CpuOwner | undefined;
    let below = false;
    // Walk up: the first engine process on the way names the owner; reaching root means it counts.
    for (let p: number | undefined = pid; p !== undefined && p > 1; p = all.get(p)?.parent) {
      owner ??= engineOf(all.get(p)?.cmd ?? '');
      if (p === root) {
        below = true;
        break;
      }
    }
    // Each process's own time, plus its waited-for children's: nothing is counted twice.
    if (!below) continue;
    const k = key(owner ?? 'node', proc.cmd);
    totals[k] = (totals[k] ?? 0) + proc.ms;
  }
  return totals;
}

/** CPU milliseconds so far of `root` and everything below it, by owner. */
export function sampleCpu(root: number): CpuSample {
  return { ...(Object.fromEntries(CPU_OWNERS.map((owner) => [owner, 0])) as CpuSample), ...sample(root, (owner) => owner) };
}

/** CPU milliseconds so far of `root` and everything below it, by process kind (kindOf). */
export const sampleKinds = (root: number): Record<string, number> => sample(root, kindOf);

export function cpuBetween<T extends Record<string, number>>(before: T, after: T): T {
  return Object.fromEntries(Object.keys({ ...before, ...after }).map((k) => [k, (after[k] ?? 0) - (before[k] ?? 0)])) as T;
}
