// A program the oracle runs but does not trust (an engine under test): started so that everything
// it starts can be found and killed, whatever it does. Where a memory cgroup can be made
// (memory/cgroup.ts: root, the v1 memory hierarchy), the program is born in one of its own, with
// a memory limit: a small shell moves itself into the cgroup and then execs the program, so not
// even its first child is born outside it. A cgroup holds every descendant, in the program's
// process group or in a session of its own (setsid), and the kernel bounds what they hold
// together. Where none can be made, the program leads a process group of its own and carries a
// mark in its environment, which its descendants inherit: a process that leaves its group and
// clears its environment escapes, and its memory is not bounded (the caller warns about that).
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, readdirSync, readFileSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { MemoryCgroup } from './memory/cgroup.js';
import { ownedEnv } from './processes.js';

/** Set in the environment of a process tree's program: the tree's own mark, which its descendants inherit. */
const TREE_ENV = 'BROWSER_ORACLE_TREE';

/** How long killAll keeps finding and killing processes of a tree that go on starting more. */
const KILL_MS = 5_000;

let trees = 0;

/** The path `command` would run, or why it cannot be run (no such file, not executable, not on PATH). */
function executable(command: string): { path: string } | { why: string } {
  const runnable = (path: string) => {
    try {
      if (!statSync(path).isFile()) return false;
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (command.includes('/')) return runnable(command) ? { path: command } : { why: `${command} is not an executable file` };
  const found = (process.env.PATH ?? '')
    .split(delimiter)
    .map((dir) => join(dir || '.', command))
    .find(runnable);
  return found ? { path: found } : { why: `no executable ${command} on PATH` };
}

export class ProcessTree {
  /** The program: its stdio are pipes. */
  readonly child: ChildProcess;

  private constructor(
    argv: readonly string[],
    /** The tree's cgroup; undefined where none could be made. */
    readonly cgroup: MemoryCgroup | undefined,
    private readonly mark: string,
  ) {
    const env = { ...ownedEnv(), [TREE_ENV]: mark };
    const [command, ...args] = cgroup
      ? ['/bin/sh', '-c', 'echo $$ > "$0" || exit 125; exec "$@"', join(cgroup.path, 'cgroup.procs'), ...argv]
      : argv;
    // A group of its own too: a Ctrl-C at the terminal is the oracle's to handle, and without a
    // cgroup the group is how a hung program is killed with what it started.
    this.child = spawn(command!, args, { stdio: ['pipe', 'pipe', 'pipe'], detached: true, env });
  }

  /**
   * Starts `argv` as a tree whose processes may hold `memoryLimit` bytes together, in a cgroup
   * named after `name`; `unconfined` says why there is no cgroup (null when there is one). A
   * program that cannot be run is a string, the reason.
   */
  static start(
    argv: readonly string[],
    { name, memoryLimit }: { name: string; memoryLimit: number },
  ): { tree: ProcessTree; unconfined: string | null } | string {
    const [command, ...args] = argv;
    const found = executable(command!);
    if ('why' in found) return found.why;
    const mark = `${process.pid}-${++trees}`;
    const cgroup = MemoryCgroup.create(`${name}-${trees}`, memoryLimit);
    const tree = new ProcessTree([found.path, ...args], typeof cgroup === 'string' ? undefined : cgroup, mark);
    return { tree, unconfined: typeof cgroup === 'string' ? cgroup : null };
  }

  /** The pids of the tree's live processes: its cgroup's, else its group's and those that carry its mark. */
  processes(): number[] {
    if (this.cgroup) return this.cgroup.processes();
    const group = this.child.pid;
    const found: number[] = [];
    for (const entry of readdirSync('/proc')) {
      const pid = Number(entry);
      if (!Number.isInteger(pid) || pid === process.pid) continue;
      const stat = read(`/proc/${pid}/stat`);
      // The fields after the command name's last ')' hold no spaces: state, parent, group.
      const [state, , pgid] = stat?.slice(stat.lastIndexOf(')') + 2).split(' ') ?? [];
      if (stat === undefined || state === 'Z') continue;
      if (Number(pgid) === group || read(`/proc/${pid}/environ`)?.split('\0').includes(`${TREE_ENV}=${this.mark}`)) found.push(pid);
    }
    return found;
  }

  /** SIGKILLs every process of the tree, again until none is left (or KILL_MS has passed: false then). */
  async killAll(): Promise<boolean> {
    const deadline = Date.now() + KILL_MS;
    for (;;) {
      const left = this.processes();
      if (!left.length) return true;
      if (Date.now() > deadline) return false;
      for (const pid of left) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone meanwhile
        }
      }
      await sleep(10);
    }
  }

  /** How many of the tree's processes the kernel killed for passing the memory limit. */
  oomKills(): number {
    return this.cgroup?.oomKills() ?? 0;
  }

  /** Kills what is left of the tree and removes its cgroup. */
  async close(): Promise<void> {
    await this.killAll();
    this.cgroup?.remove();
  }
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'latin1');
  } catch {
    return undefined;
  }
}
