// The safety net behind every orderly close: whatever processes this oracle started and
// are still alive (a browser that ignored its close, a MiniBrowser orphaned by its driver)
// are killed before exit, found through /proc by parentage.
import { readdirSync, readFileSync } from 'node:fs';

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
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const parent = parentOf(pid);
    if (parent !== undefined) children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  const found: number[] = [];
  const stack = [root];
  while (stack.length) for (const child of children.get(stack.pop()!) ?? []) found.push(child), stack.push(child);
  return found;
}

/** SIGKILL every process below this one; returns how many there were. */
export function killDescendants(): number {
  const pids = descendantsOf(process.pid);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // exited meanwhile
    }
  }
  return pids.length;
}
