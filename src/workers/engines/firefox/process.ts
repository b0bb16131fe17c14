// The firefox-esr process: a fresh temporary profile, its own process group (so the parent, its
// fork server and every content process die together), and the WebDriver BiDi address it prints.
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { LaunchOptions } from '../../../farm/launch.js';
import { groupGone } from '../../../system/processes.js';
import { browserEnv } from '../env.js';
import { firefoxPrefs, userJs } from './prefs.js';

export const SYSTEM_FIREFOX = '/usr/bin/firefox-esr';

/** How long Firefox may take to print its BiDi address (a cold start on a loaded 2-core machine takes seconds). */
const START_TIMEOUT_MS = 30_000;
const LISTENING = /WebDriver BiDi listening on (ws:\/\/\S+)/;
/** Stderr lines kept to explain a Firefox that did not start. */
const STDERR_KEPT = 5;

export interface FirefoxProcess {
  /** The BiDi WebSocket address (without `/session`). */
  readonly wsUrl: string;
  readonly pid: number;
  /** Resolves once the process has exited, its group is killed and its profile removed. */
  readonly exited: Promise<void>;
  /** SIGKILLs the whole process group. */
  kill(): void;
}

/**
 * The crash reporter on, reporting nothing (as Playwright sets it), and deliberately without
 * MOZ_CRASHREPORTER_SHUTDOWN: with it, one crashed content process takes the whole browser (and
 * the other pages' cases) down. The adapter notices a crashed page from BiDi events instead.
 */
function firefoxEnv(options: LaunchOptions): Record<string, string> {
  const env = browserEnv(options);
  env.MOZ_CRASHREPORTER = '1';
  env.MOZ_CRASHREPORTER_NO_REPORT = '1';
  delete env.MOZ_CRASHREPORTER_SHUTDOWN;
  // A release build takes services.settings.server (prefs.ts) only with this set; without it,
  // Remote Settings syncs from firefox.settings.services.mozilla.com, about 18 refused requests a run.
  env.MOZ_REMOTE_SETTINGS_DEVTOOLS = '1';
  // Playwright drops these on Linux: Firefox would take itself for a snap.
  delete env.SNAP_NAME;
  delete env.SNAP_INSTANCE_NAME;
  return env;
}

/**
 * Firefox starts a crash helper (whatever the crash reporter variables say) that leaves the
 * process group for a session of its own; it names the browser's pid as its first argument.
 */
function killCrashHelper(browserPid: number): void {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let argv: string[];
    try {
      argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    if (argv[0]?.endsWith('/crashhelper') && argv[1] === String(browserPid)) {
      try {
        process.kill(Number(name), 'SIGKILL');
      } catch {
        // exited meanwhile
      }
    }
  }
}

/** Starts firefox-esr headless on a fresh profile; rejects with a one-line reason when it does not come up. */
export async function startFirefox(options: LaunchOptions, executable = SYSTEM_FIREFOX): Promise<FirefoxProcess> {
  const profile = await mkdtemp(join(tmpdir(), 'browser-oracle-firefox-'));
  try {
    await writeFile(join(profile, 'user.js'), userJs(firefoxPrefs(options)));
  } catch (error) {
    await rm(profile, { recursive: true, force: true });
    throw error;
  }
  const child = spawn(executable, ['--remote-debugging-port=0', '--headless', '--profile', profile], {
    detached: true,
    env: firefoxEnv(options),
    // A page's dump() writes to stdout: never let it near ours.
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const kill = () => {
    if (!child.pid) return;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // the group is gone already
    }
    killCrashHelper(child.pid);
  };
  const exited = new Promise<void>((resolve) => {
    const cleanUp = () => {
      // The fork server and content processes outlive the parent unless their group is killed.
      kill();
      void groupGone(child.pid ?? -1)
        .then(() => rm(profile, { recursive: true, force: true, maxRetries: 3 }))
        .then(resolve, resolve);
    };
    child.once('exit', cleanUp);
    // A spawn that failed (no such file) emits only 'error'.
    child.once('error', () => child.pid === undefined && cleanUp());
  });

  const recent: string[] = [];
  const lines = createInterface({ input: child.stderr! });
  let onError: (error: Error) => void = () => {};
  let onExit: (code: number | null, signal: NodeJS.Signals | null) => void = () => {};
  const wsUrl = await new Promise<string>((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      kill();
      const said = recent.length ? ` (its last words: ${recent.join(' | ')})` : '';
      reject(new Error(`firefox-esr did not start: ${why}${said}`));
    };
    const timer = setTimeout(() => fail(`no WebDriver BiDi address within ${START_TIMEOUT_MS} ms`), START_TIMEOUT_MS);
    onError = (error) =>
      fail((error as NodeJS.ErrnoException).code === 'ENOENT' ? `${executable} not found (apt-get install firefox-esr)` : error.message);
    onExit = (code, signal) => fail(`it exited (${signal ?? `code ${code}`})`);
    child.once('error', onError);
    child.once('exit', onExit);
    lines.on('line', (line) => {
      const address = LISTENING.exec(line)?.[1];
      if (address) {
        clearTimeout(timer);
        resolve(address);
      } else {
        recent.push(line);
        if (recent.length > STDERR_KEPT) recent.shift();
      }
    });
  }).catch(async (error: unknown) => {
    await exited;
    throw error;
  });
  child.off('error', onError).off('exit', onExit);
  // Stderr keeps being read (and dropped): a full pipe would stall Firefox.
  lines.removeAllListeners('line');
  return { wsUrl, pid: child.pid!, exited, kill };
}
