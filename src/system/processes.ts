// The safety nets behind every orderly close. Before exit, whatever processes this oracle
// started and are still alive (a browser that ignored its close, a MiniBrowser orphaned by
// its driver) are killed, found through /proc by parentage. At start-up, processes left by an
// oracle that was itself killed hard (they outlive it, re-parented) are found by the owner
// mark every process the oracle starts carries in its environment, and killed.
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** Set to the oracle's pid in the environment of every process it starts. */
export const OWNER_ENV = 'BROWSER_ORACLE_OWNER';

/** The environment that marks a child process as this oracle's. */
export function ownedEnv(base: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) if (v !== undefined) env[k] = v;
  env[OWNER_ENV] = String(process.pid);
  return env;
}

function pids(): number[] {
  return readdirSync('/proc')
    .map(Number)
    .filter((pid) => Number.isInteger(pid));
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses; the fields after its last ')' do not.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

export function descendantsOf(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const pid of pids()) {
    const parent = parentOf(pid);
    if (parent !== undefined) children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  const found: number[] = [];
  const stack = [root];
  while (stack.length) {
    for (const child of children.get(stack.pop()!) ?? []) {
      found.push(child);
      stack.push(child);
    }
  }
  return found;
}

/** SIGKILLs `targets`; returns their names (a name per process killed), for the log. */
function kill(targets: number[]): string[] {
  const killed: string[] = [];
  for (const pid of targets) {
    let name = '?';
    try {
      name = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
      process.kill(pid, 'SIGKILL');
      killed.push(name);
    } catch {
      // exited meanwhile
    }
  }
  return killed;
}

/** SIGKILL every process below this one; returns their names. */
export function killDescendants(): string[] {
  return kill(descendantsOf(process.pid));
}

function ownerOf(pid: number): number | undefined {
  try {
    const mark = readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .find((v) => v.startsWith(`${OWNER_ENV}=`));
    return mark ? Number(mark.slice(OWNER_ENV.length + 1)) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether process `pid` exists (one of another user's, which may not be signalled, does). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** SIGKILL processes whose owning oracle no longer exists; returns their names. */
export function killStrays(): string[] {
  const owned = pids()
    .map((pid) => ({ pid, owner: ownerOf(pid) }))
    .filter(({ owner }) => owner !== undefined && owner !== process.pid);
  // Which oracles are alive is read after their processes were: an oracle that started while the
  // list was read (another test, another user) is in it, and its browsers are left alone.
  const alive = new Set(pids());
  return kill(owned.filter(({ owner }) => !alive.has(owner!)).map(({ pid }) => pid));
}

/** Whether a live process (a zombie is not) is still in process group `pgid`. */
function groupAlive(pgid: number): boolean {
  return pids().some((pid) => {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return fields[0] !== 'Z' && Number(fields[2]) === pgid;
    } catch {
      return false;
    }
  });
}

/**
 * Resolves once no live process is left in group `pgid`, or after `limitMs`: a SIGKILL is
 * delivered when the kernel gets to it, and a browser is not gone until its whole group is.
 */
export async function groupGone(pgid: number, limitMs = 5000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (groupAlive(pgid) && Date.now() < deadline) await sleep(20);
}
