// The firefox-esr process: a fresh temporary profile, its own process group (so the parent, its
// fork server and every content process die together; browser-process.ts), and the WebDriver
// BiDi address it prints.
import { readFileSync, readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EngineLaunch } from '../../../worker-contract/launch.js';
import { type BrowserProcess, startBrowser } from '../browser-process.js';
import { browserEnv } from '../env.js';
import { START_LIMIT_MS } from '../time-limits.js';
import { firefoxPrefs, userJs } from './prefs.js';

export const SYSTEM_FIREFOX = '/usr/bin/firefox-esr';

const LISTENING = /WebDriver BiDi listening on (ws:\/\/\S+)/;

export interface FirefoxProcess extends BrowserProcess {
  /** The BiDi WebSocket address (without `/session`). */
  readonly wsUrl: string;
  /** Its profile folder (where Marionette, when started, writes its port). */
  readonly profile: string;
}

/**
 * The crash reporter on, reporting nothing (as Playwright sets it), and deliberately without
 * MOZ_CRASHREPORTER_SHUTDOWN: with it, one crashed content process takes the whole browser (and
 * the other pages' cases) down. The adapter notices a crashed page from BiDi events instead.
 */
function firefoxEnv(options: EngineLaunch): Record<string, string> {
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
export async function startFirefox(options: EngineLaunch, executable = SYSTEM_FIREFOX): Promise<FirefoxProcess> {
  let profileDir = '';
  const firefox = await startBrowser({
    executable,
    debianPackage: 'firefox-esr',
    folderKind: 'firefox',
    prepare: (profile) => writeFile(join(profile, 'user.js'), userJs(firefoxPrefs(options))),
    args: (profile) => {
      profileDir = profile;
      // Marionette serves the virtual authenticator of the `devices` profile (marionette.ts).
      return ['--remote-debugging-port=0', '--headless', '--profile', profile, ...(options.profile === 'devices' ? ['--marionette'] : [])];
    },
    env: firefoxEnv(options),
    killOutside: killCrashHelper,
  });
  return { ...firefox, wsUrl: await listening(firefox), profile: profileDir };
}

/** The BiDi address Firefox prints once it listens; rejects, once it is gone, with why it did not start. */
function listening(firefox: BrowserProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = async (why?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      firefox.kill();
      reject(new Error(`firefox-esr did not start: ${await firefox.failure(why)}`));
    };
    const timer = setTimeout(() => void fail(`no WebDriver BiDi address within ${START_LIMIT_MS} ms`), START_LIMIT_MS);
    void firefox.exited.then(() => fail());
    const onLine = (line: string) => {
      const address = LISTENING.exec(line)?.[1];
      if (!address || settled) return;
      settled = true;
      clearTimeout(timer);
      // Stderr keeps being read (and dropped): a full pipe would stall Firefox.
      firefox.stderr.off('line', onLine);
      firefox.started();
      resolve(address);
    };
    firefox.stderr.on('line', onLine);
  });
}
