// When an engine's processes are over their memory budget, and which one to kill. Two readings of
// one budget: the memory the processes hold for themselves, added up (what the engine costs the
// machine; the pages of the browser's code, shared, are not counted), and what any one of them
// has resident (what `ps` and `top` show, shared code included). The process to kill is the one
// over the budget by itself, else the one holding the most.
import type { ProcessMemory } from './process-memory.js';

export interface Overrun {
  victim: ProcessMemory;
  /** How much the engine was found to use: its processes' own memory together, or the victim's resident size when that alone is over. */
  used: number;
}

export function overrun(processes: readonly ProcessMemory[], budget: number): Overrun | undefined {
  if (!processes.length) return undefined;
  const biggest = (key: 'rss' | 'own') => processes.reduce((a, b) => (b[key] > a[key] ? b : a));
  const resident = biggest('rss');
  if (resident.rss > budget) return { victim: resident, used: resident.rss };
  const total = processes.reduce((sum, p) => sum + p.own, 0);
  return total > budget ? { victim: biggest('own'), used: total } : undefined;
}
