// What each process of some process groups holds in memory, read from /proc. Every browser the
// oracle starts runs in process groups of its own (its renderers, content, web, network and GPU
// processes with it), so a group is the unit. VmRSS counts the pages of the browser's own code too,
// which the kernel shares among every process that maps them; RssAnon and RssShmem are the memory
// a process has for itself (heaps, typed arrays, shared-memory segments), what a case can grow.
// smaps_rollup's Pss would split shared pages fairly, but costs about 38 ms of CPU for 30 browser
// processes where /proc/<pid>/status costs 0.25 ms (docs/protocol.md, "Memory").
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcessMemory {
  pid: number;
  /** Its process group. */
  group: number;
  /** Its command name, as the kernel keeps it (at most 15 characters). */
  name: string;
  /** Resident bytes, its share of shared code included (VmRSS). */
  rss: number;
  /** Resident bytes of its own: anonymous and shared memory (RssAnon + RssShmem). */
  own: number;
}

/**
 * Reads the processes of some groups, pass after pass. Which group a process is in is read from
 * /proc/<pid>/stat in the first two passes that see it (a process started detached is in its
 * parent's group until it makes its own, moments after it starts), then remembered: reading every
 * process's stat on every pass was most of the cost (2 ms of CPU a pass on a machine running 211
 * processes, where status files of the 30 in the groups cost 0.25 ms).
 */
export class ProcessTable {
  private known = new Map<number, { group: number | undefined; reads: number }>();

  /** The live processes of `groups` now, with what each holds. A process that exits while it is read is left out. */
  read(groups: ReadonlySet<number>): ProcessMemory[] {
    const found: ProcessMemory[] = [];
    const known = new Map<number, { group: number | undefined; reads: number }>();
    for (const entry of readdirSync('/proc')) {
      const pid = Number(entry);
      if (!Number.isInteger(pid)) continue;
      let seen = this.known.get(pid);
      if (!seen || seen.reads < 2) seen = { group: groupOf(pid), reads: (seen?.reads ?? 0) + 1 };
      known.set(pid, seen);
      if (seen.group === undefined || !groups.has(seen.group)) continue;
      const status = read(`/proc/${pid}/status`);
      if (status === undefined || /^State:\s+Z/m.test(status)) continue;
      found.push({
        pid,
        group: seen.group,
        name: /^Name:\s+(.*)$/m.exec(status)?.[1] ?? '?',
        rss: kilobytes(status, 'VmRSS'),
        own: kilobytes(status, 'RssAnon') + kilobytes(status, 'RssShmem'),
      });
    }
    this.known = known;
    return found;
  }
}

/** The process group of `pid`, from its stat (the fields after the command name's last ')' hold no spaces). */
function groupOf(pid: number): number | undefined {
  const stat = read(`/proc/${pid}/stat`);
  return stat === undefined ? undefined : Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'latin1');
  } catch {
    return undefined;
  }
}

/** A `Field:   123 kB` line of /proc/<pid>/status, in bytes (0 when absent, as for a process that is exiting). */
function kilobytes(status: string, field: string): number {
  const at = status.indexOf(`\n${field}:`);
  return at < 0 ? 0 : Number.parseInt(status.slice(at + field.length + 2).trimStart(), 10) * 1024;
}
