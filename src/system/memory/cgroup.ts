// A memory cgroup per engine: the kernel's own bound on what an engine's processes may hold, which
// no allocation can outrun (the watcher samples; the kernel counts every page as it is charged).
// Made as a child of the oracle's own cgroup in the cgroup v1 memory hierarchy, which is where the
// memory controller is on the machines this project runs on (/sys/fs/cgroup is a tmpfs of v1
// hierarchies there, and the cgroup2 one beside them has no memory controller). Under cgroup v2 a
// cgroup that holds processes, as the oracle's own does, cannot hand the memory controller to
// children of its own, so there the watcher alone bounds the engines (docs/protocol.md, "Memory").
import { mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pidAlive } from '../processes.js';

/** The start of the name of every cgroup an oracle makes; its pid follows. */
const PREFIX = 'browser-oracle-';

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** This process's own cgroup in the v1 memory hierarchy, as a folder, or why there is none. */
function ownMemoryCgroup(): { path: string } | { why: string } {
  const line = read('/proc/self/cgroup')
    ?.split('\n')
    .find((l) => l.split(':')[1]?.split(',').includes('memory'));
  if (!line) return { why: 'no cgroup v1 memory hierarchy' };
  const path = line.slice(line.indexOf(':', line.indexOf(':') + 1) + 1);
  const mount = read('/proc/self/mountinfo')
    ?.split('\n')
    .map((l) => l.split(' '))
    .find((fields) => {
      const dash = fields.indexOf('-');
      return fields[dash + 1] === 'cgroup' && fields[dash + 3]?.split(',').includes('memory');
    });
  if (!mount) return { why: 'the cgroup v1 memory hierarchy is not mounted here' };
  // A mount shows its hierarchy from `root` down (a cgroup namespace or a bind mount hides what is above).
  const [root, point] = [mount[3]!, mount[4]!];
  if (root !== '/' && path !== root && !path.startsWith(`${root}/`)) return { why: "this process's memory cgroup is outside the mount" };
  return { path: join(point, root === '/' ? path : path.slice(root.length)) };
}

export class MemoryCgroup {
  private constructor(
    readonly path: string,
    /** memory.limit_in_bytes, as set. */
    readonly limit: number,
  ) {}

  /**
   * A new cgroup `name` (under the oracle's own, prefixed with its pid) whose processes together
   * may hold `limit` bytes; or why there can be none (no v1 memory hierarchy, not root).
   */
  static create(name: string, limit: number): MemoryCgroup | string {
    const own = ownMemoryCgroup();
    if ('why' in own) return own.why;
    const path = join(own.path, `${PREFIX}${process.pid}-${name}`);
    try {
      // A folder made in a cgroup hierarchy is a cgroup, its control files made with it.
      mkdirSync(path);
      writeFileSync(join(path, 'memory.limit_in_bytes'), String(limit));
      return new MemoryCgroup(path, limit);
    } catch (error) {
      tryRemove(path);
      return `cannot make a memory cgroup in ${own.path} (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
    }
  }

  /**
   * Moves process `pid` into the cgroup (its children from then on are born there); false when it
   * is gone. Off the calling thread: the kernel holds each move for an RCU grace period (7 ms
   * measured here, for 0.3 ms of CPU), which would stall a worker's drivers for every new process.
   */
  async add(pid: number): Promise<boolean> {
    try {
      await writeFile(join(this.path, 'cgroup.procs'), String(pid));
      return true;
    } catch {
      return false;
    }
  }

  /** How many processes the kernel has killed here for passing the limit. */
  oomKills(): number {
    const line = read(join(this.path, 'memory.oom_control'))
      ?.split('\n')
      .find((l) => l.startsWith('oom_kill '));
    return line ? Number(line.slice('oom_kill '.length)) : 0;
  }

  /** The pids of the processes in the cgroup now. */
  processes(): number[] {
    return pidsIn(this.path);
  }

  /** Removes the cgroup; false while processes are still in it (the kernel refuses). */
  remove(): boolean {
    return tryRemove(this.path);
  }
}

/** Removes the cgroups of oracles that no longer run (killed before they could remove their own). */
export function removeStrayCgroups(): void {
  const own = ownMemoryCgroup();
  if ('why' in own) return;
  let names: string[];
  try {
    names = readdirSync(own.path);
  } catch {
    return;
  }
  for (const name of names) {
    const owner = new RegExp(`^${PREFIX}(\\d+)-`).exec(name)?.[1];
    if (owner === undefined || pidAlive(Number(owner))) continue;
    // What it still holds outlived its oracle: nothing of a killed oracle's is let run on.
    for (const pid of pidsIn(join(own.path, name))) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
    tryRemove(join(own.path, name));
  }
}

function pidsIn(path: string): number[] {
  return (read(join(path, 'cgroup.procs')) ?? '').split('\n').filter(Boolean).map(Number);
}

function tryRemove(path: string): boolean {
  try {
    rmdirSync(path);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}
