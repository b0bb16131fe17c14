// The Chromium process: a fresh --user-data-dir, its own process group (so the browser, its
// zygotes and every renderer die together; browser-process.ts), and the DevTools protocol on its
// fds 3 and 4 (--remote-debugging-pipe, as Playwright drives it). A pipe rather than a port: no
// listening socket that anything else on the machine could connect to, no address to read back
// from stderr, and a browser whose owner dies sees its pipe close and exits with it.
import type { Readable, Writable } from 'node:stream';
import { type BrowserProcess, startBrowser } from '../browser-process.js';
import { CdpConnection } from './connection.js';

export interface ChromiumProcess extends BrowserProcess {
  readonly connection: CdpConnection;
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
  const chromium = await startBrowser({
    executable,
    debianPackage: 'chromium',
    folderKind: 'chromium',
    args: (userDataDir) => [...args, ...transportSwitches(userDataDir)],
    env,
    pipes: 2,
  });
  const connection = new CdpConnection(chromium.stdio[3] as Writable, chromium.stdio[4] as Readable);
  // The browser is gone once either end goes: a pipe closed under a live process ends it too.
  void connection.closed.then(chromium.kill);
  void chromium.exited.then(() => connection.close());
  return { ...chromium, connection };
}
