// A browser process as the Chromium and Firefox adapters run one: a fresh temporary folder (its
// profile), its own process group, so that the browser and every helper and content process it
// forks die together, and an exit that resolves only once that whole group is gone and the folder
// removed (under load a zygote or a content process outlives the SIGKILL by a while). Each engine
// keeps its own arguments, environment and transport.
import { spawn, type ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { createInterface, type Interface } from 'node:readline';
import { groupGone } from '../../system/processes.js';
import { ownedFolder } from '../../system/scratch.js';
import { withGrace } from './time-limits.js';

/** Stderr lines kept to explain a browser that did not start. */
const STDERR_KEPT = 5;
/** How long a browser asked to close has to exit before its group is killed. */
const EXIT_GRACE_MS = 3_000;

export interface BrowserSpec {
  executable: string;
  /** The Debian package of the system's build, named when the executable is missing. */
  debianPackage: string;
  /** What its temporary folder is for, in its name (a word). */
  folderKind: string;
  /** Writes what the browser reads from its folder at start (Firefox's user.js). */
  prepare?: (folder: string) => Promise<void>;
  args: (folder: string) => string[];
  env: Record<string, string>;
  /** Pipes beyond stderr, as fds 3 and up (Chromium's DevTools pipe). */
  pipes?: number;
  /** Kills what the browser started outside its group (Firefox's crash helper), given the browser's pid. */
  killOutside?: (pid: number) => void;
}

export interface BrowserProcess {
  readonly pid: number;
  readonly stdio: ChildProcess['stdio'];
  /** Its stderr, line by line, read to its end (a full pipe would stall the browser). */
  readonly stderr: Interface;
  /** Resolves once it has exited, its whole group is gone and its folder removed. */
  readonly exited: Promise<void>;
  /** SIGKILLs its whole process group, and what it started outside it. */
  kill(): void;
  /**
   * Once it is gone: why it did not start — `why` when given (a timeout), else its spawn error or
   * its exit — with its last stderr lines.
   */
  failure(why?: string): Promise<string>;
  /** It has started: its stderr lines are no longer kept (they only explain a failed start). */
  started(): void;
  /** Sends `ask` (the protocol's close), gives the browser a moment to exit, then kills its group; resolves once it is gone. */
  close(ask: () => Promise<unknown>, askGraceMs: number): Promise<void>;
}

/** SIGKILLs process group `pgid`, if it is still there. */
export function killGroup(pgid: number | undefined): void {
  if (!pgid) return;
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // the group is gone already
  }
}

/** Starts the browser in a process group of its own; rejects only when its folder cannot be made. */
export async function startBrowser(spec: BrowserSpec): Promise<BrowserProcess> {
  const folder = ownedFolder(spec.folderKind);
  try {
    await spec.prepare?.(folder);
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
  const child = spawn(spec.executable, spec.args(folder), {
    detached: true,
    // Its temporary files (Chromium's singleton folder, for one) go in its folder, so a browser killed hard leaves none in /tmp.
    env: { ...spec.env, TMPDIR: folder },
    // Whatever a page makes the browser print (Firefox's dump() writes to stdout) must not reach the oracle's stdout.
    stdio: ['ignore', 'ignore', 'pipe', ...Array.from({ length: spec.pipes ?? 0 }, () => 'pipe' as const)],
  });
  const kill = () => {
    if (!child.pid) return;
    killGroup(child.pid);
    spec.killOutside?.(child.pid);
  };
  let spawnError: Error | undefined;
  let exitedHow = '';
  const exited = new Promise<void>((resolve) => {
    const cleanUp = () => {
      // Helpers and content processes outlive the browser process unless their group is killed.
      kill();
      void groupGone(child.pid ?? -1)
        .then(() => rm(folder, { recursive: true, force: true, maxRetries: 3 }))
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
  let recent: string[] | undefined = [];
  const stderr = createInterface({ input: child.stderr! });
  stderr.on('line', (line) => {
    if (!recent) return;
    recent.push(line);
    if (recent.length > STDERR_KEPT) recent.shift();
  });
  let closing: Promise<void> | undefined;
  return {
    pid: child.pid ?? -1,
    stdio: child.stdio,
    stderr,
    exited,
    kill,
    failure: async (why) => {
      await exited;
      const missing = (spawnError as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
      if (missing) return `${spec.executable} not found (apt-get install ${spec.debianPackage})`;
      const said = recent?.length ? ` (its last words: ${recent.join(' | ')})` : '';
      return `${why ?? spawnError?.message ?? exitedHow}${said}`;
    },
    started: () => {
      recent = undefined;
    },
    close: (ask, askGraceMs) =>
      (closing ??= (async () => {
        await withGrace(ask(), askGraceMs);
        await withGrace(exited, EXIT_GRACE_MS);
        kill();
        await exited;
      })()),
  };
}
