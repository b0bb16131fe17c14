// The Chromium process: a fresh --user-data-dir, its own process group (so the browser, its
// zygotes and every renderer die together), and the DevTools protocol on its fds 3 and 4
// (--remote-debugging-pipe, as Playwright drives it). A pipe rather than a port: no listening
// socket that anything else on the machine could connect to, no address to read back from
// stderr, and a browser whose owner dies sees its pipe close and exits with it.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { groupGone } from '../../../system/processes.js';
import { CdpConnection } from './connection.js';

/** Stderr lines kept to explain a Chromium that did not start. */
const STDERR_KEPT = 5;

export interface ChromiumProcess {
  readonly pid: number;
  readonly connection: CdpConnection;
  /** Resolves once the process has exited, its group is killed and its user data folder removed. */
  readonly exited: Promise<void>;
  /** SIGKILLs the whole process group. */
  kill(): void;
  /** Why it did not start, as far as its exit and last stderr lines tell. */
  failure(): Promise<string>;
}

/** The transport's switches, as Playwright passes them: a profile in `userDataDir`, the protocol on fds 3 and 4, no window until asked for. */
export const transportSwitches = (userDataDir: string): string[] => [
  `--user-data-dir=${userDataDir}`,
  '--remote-debugging-pipe',
  '--no-startup-window',
];

/**
 * Starts `executable` with `args` and the transport's switches; rejects with a one-line reason
 * when it cannot be spawned. Whether it came up is the first command's to tell.
 */
export async function startChromium(executable: string, args: readonly string[], env: Record<string, string>): Promise<ChromiumProcess> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'browser-oracle-chromium-'));
  const child = spawn(executable, [...args, ...transportSwitches(userDataDir)], {
    detached: true,
    env,
    // Whatever a page makes Chromium print must not reach the oracle's stdout.
    stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
  });
  const kill = () => {
    if (!child.pid) return;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // the group is gone already
    }
  };
  let spawnError: Error | undefined;
  let exitedHow = '';
  const exited = new Promise<void>((resolve) => {
    const cleanUp = () => {
      // Zygotes and renderers outlive the browser process unless their group is killed.
      kill();
      void groupGone(child.pid ?? -1)
        .then(() => rm(userDataDir, { recursive: true, force: true, maxRetries: 3 }))
        .then(resolve, resolve);
    };
    child.once('exit', (code, signal) => {
      exitedHow = `it exited (${signal ?? `code ${code}`})`;
      cleanUp();
    });
    // A spawn that failed (no such file) emits only 'error'.
    child.once('error', (error) => {
      spawnError = error;
      if (child.pid === undefined) cleanUp();
    });
  });
  const recent: string[] = [];
  // Stderr is read to its end (a full pipe would stall Chromium), its last lines kept.
  createInterface({ input: child.stderr! }).on('line', (line) => {
    recent.push(line);
    if (recent.length > STDERR_KEPT) recent.shift();
  });
  const connection = new CdpConnection(child.stdio[3] as Writable, child.stdio[4] as Readable);
  // The browser is gone once either end goes: a pipe closed under a live process ends it too.
  void connection.closed.then(kill);
  void exited.then(() => connection.close());
  return {
    pid: child.pid ?? -1,
    connection,
    exited,
    kill,
    failure: async () => {
      await exited;
      const missing = (spawnError as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
      const why = missing ? `${executable} not found (apt-get install chromium)` : (spawnError?.message ?? exitedHow);
      return recent.length && !missing ? `${why} (its last words: ${recent.join(' | ')})` : why;
    },
  };
}
