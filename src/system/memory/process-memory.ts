// What each process of some process groups holds in memory, read from /proc. Every browser the
// oracle starts runs in process groups of its own (its renderers, content, web, network and GPU
// processes with it), so a group is the unit: one pass over /proc/<pid>/stat finds the members,
// and /proc/<pid>/status says what each holds. VmRSS counts the pages of the browser's own code
// too, which the kernel shares among every process that maps them; RssAnon and RssShmem are the
// memory a process has for itself (heaps, typed arrays, shared-memory segments), what a case can
// grow. Measured on a 2-core machine with 211 processes: the pass costs about 2 ms of CPU for 30
// browser processes; smaps_rollup's Pss, which would split shared pages fairly, costs 38 ms (docs/protocol.md, "Memory").
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

/** The live processes of `groups`, with what each holds. A process that exits while it is read is left out. */
export function processesOf(groups: ReadonlySet<number>): ProcessMemory[] {
  const found: ProcessMemory[] = [];
  if (!groups.size) return found;
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const stat = read(`/proc/${pid}/stat`);
    if (stat === undefined) continue;
    // The command name may hold spaces and parentheses; the fields after its last ')' do not.
    const close = stat.lastIndexOf(')');
    const [state, , group] = stat.slice(close + 2).split(' ');
    if (state === 'Z' || !groups.has(Number(group))) continue;
    const status = read(`/proc/${pid}/status`);
    if (status === undefined) continue;
    found.push({
      pid,
      group: Number(group),
      name: stat.slice(stat.indexOf('(') + 1, close),
      rss: kilobytes(status, 'VmRSS'),
      own: kilobytes(status, 'RssAnon') + kilobytes(status, 'RssShmem'),
    });
  }
  return found;
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
