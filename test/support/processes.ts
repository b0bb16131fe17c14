// Finds an engine's processes below the oracle, to kill them as a crash would, or to count their
// CPU time (bench/cpu.ts); and the processes an oracle started that are still running.
import { readdirSync, readFileSync } from 'node:fs';
import type { EngineName } from '../../src/protocol/schema.js';
import { MemoryCgroup } from '../../src/system/memory/cgroup.js';
import { OWNER_ENV } from '../../src/system/processes.js';

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

/** An engine's processes, told apart by command line (NUL bytes read as spaces). */
interface EngineProcesses {
  /** Its main browser process, whose death takes the browser down. */
  main: (cmd: string) => boolean;
  /** Any process it runs: the browser, its helpers, its driver, its display. */
  any: (cmd: string) => boolean;
}

export const ENGINE_PROCESSES: Record<EngineName, EngineProcesses> = {
  chromium: {
    main: (cmd) => /\/chromium(?:\/chromium)? /.test(cmd) && !cmd.includes('--type='),
    any: (cmd) => /\/chromium(?:\/chromium)?(?: |$)|chrome_crashpad/.test(cmd),
  },
  firefox: {
    main: (cmd) => cmd.includes('firefox-esr') && !cmd.includes('-contentproc'),
    any: (cmd) => /firefox-esr|firefox-bin|\/firefox /.test(cmd),
  },
  webkit: {
    main: (cmd) => cmd.includes('MiniBrowser'),
    any: (cmd) => /WebKitWebDriver|MiniBrowser|WebKitWebProcess|WebKitNetworkProcess|Xvfb/.test(cmd),
  },
};

/** The main browser process of `engine` among `pids` (not its helpers or content processes). */
export function engineProcesses(pids: number[], engine: EngineName): number[] {
  return pids.filter((pid) => ENGINE_PROCESSES[engine].main(cmdline(pid)));
}

export function killAll(pids: number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** Live (not zombie) processes of `leader`'s process group, and its crash helper (which leaves the group). */
export function survivors(leader: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        const fields = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]!.split(' ');
        if (fields[0] === 'Z') return false;
        const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
        return Number(fields[2]) === leader || (argv[0]!.endsWith('/crashhelper') && argv[1] === String(leader));
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** The fields of `pid`'s stat after its command name (which may hold spaces and parentheses), or undefined once it is gone. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/**
 * When `pid` started (clock ticks since boot), or undefined once it is gone or a zombie. A pid
 * names one process only for a while: pid_max is 32768 here, and a loaded machine gives every pid
 * out again within minutes, so a process seen during a long run is the same one later only if
 * its start is the same.
 */
export function startOf(pid: number): number | undefined {
  const fields = statFields(pid);
  return fields && fields[0] !== 'Z' ? Number(fields[19]) : undefined;
}

/** Live processes started by the oracle whose pid is `owner` (the mark every engine process carries). */
export function processesOwnedBy(owner: number): number[] {
  return readdirSync('/proc')
    .map(Number)
    .filter((pid) => {
      if (!Number.isInteger(pid) || startOf(pid) === undefined) return false;
      try {
        return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`${OWNER_ENV}=${owner}`);
      } catch {
        return false;
      }
    });
}

/** A process as a test saw it start: its pid, and when it started (so that a pid given out again is not taken for it). */
export interface SeenProcess {
  pid: number;
  start: number;
}

/**
 * The source of a JS function `started(pids)`, for the programs a test writes: it writes
 * `started <pid>:<start> …` on stderr, which `seenIn` reads back.
 */
export const STARTED_JS = `
const started = (pids) => process.stderr.write('started ' + pids.map((pid) => {
  const stat = require('node:fs').readFileSync('/proc/' + pid + '/stat', 'latin1');
  return pid + ':' + stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
}).join(' ') + '\\n');
`;

/** The processes `started(…)` lines in `text` name. */
export const seenIn = (text: string): SeenProcess[] =>
  [...text.matchAll(/started ((?:\d+:\d+ ?)+)/g)].flatMap((m) =>
    m[1]!
      .trim()
      .split(' ')
      .map((p) => ({ pid: Number(p.split(':')[0]), start: Number(p.split(':')[1]) })),
  );

/** Whether the process a test saw start is still running (not a zombie, and its pid not given to another). */
export const stillRunning = (p: SeenProcess): boolean => startOf(p.pid) === p.start;

/** Whether this machine gives the oracle memory cgroups (root, a v1 memory hierarchy: the project's machines). */
export function memoryCgroupsHere(): boolean {
  const probe = MemoryCgroup.create('probe', 64 << 20);
  if (typeof probe === 'string') return false;
  probe.remove();
  return true;
}
