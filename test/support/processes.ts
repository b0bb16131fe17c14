// Finds an engine's processes below the oracle, to kill them as a crash would.
import { readdirSync, readFileSync } from 'node:fs';
import type { EngineName } from '../../src/protocol/schema.js';

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

/** The main browser process of each engine (not its helpers or content processes). */
const MAIN_PROCESS: Record<EngineName, (cmd: string) => boolean> = {
  chromium: (cmd) => /\/chromium(?:\/chromium)? /.test(cmd) && !cmd.includes('--type='),
  firefox: (cmd) => cmd.includes('firefox-esr') && !cmd.includes('-contentproc'),
  webkit: (cmd) => cmd.includes('MiniBrowser'),
};

export function engineProcesses(pids: number[], engine: EngineName): number[] {
  return pids.filter((pid) => MAIN_PROCESS[engine](cmdline(pid)));
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
