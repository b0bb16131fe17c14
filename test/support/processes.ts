// Finds an engine's processes below the oracle, to kill them as a crash would, or to count their
// CPU time (bench/cpu.ts).
import { readdirSync, readFileSync } from 'node:fs';
import type { EngineName } from '../../src/protocol/schema.js';

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
