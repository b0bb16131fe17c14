// The X display WebKitGTK's MiniBrowser needs. Started by the WebKit adapter when none is given,
// restarted on the same display number if it dies (WebKit pages are then replaced by their
// engine hosts), and stopped with the oracle. -displayfd lets the first start pick a free
// display number itself.
import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { log } from './log.js';
import { ownedEnv } from './processes.js';

export interface Display {
  name: string;
  stop(): Promise<void>;
}

const ARGS = ['-screen', '0', '1600x1200x24', '-nolisten', 'tcp', '-noreset'];
const RESTART_PAUSE_MS = 500;

function launch(display: string | undefined): { xvfb: ChildProcess; name: Promise<string>; exited: Promise<void> } {
  const xvfb = spawn('Xvfb', display ? [display, ...ARGS] : ['-displayfd', '3', ...ARGS], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    env: ownedEnv(),
    // Its own process group: a Ctrl-C in the oracle's terminal is the oracle's to handle, and the
    // oracle stops its X server last, after the browsers on it.
    detached: true,
  });
  const exited = new Promise<void>((resolve) => xvfb.once('exit', () => resolve()));
  let stderr = '';
  xvfb.stderr!.on('data', (chunk) => (stderr = (stderr + chunk).slice(-2000)));
  const name = new Promise<string>((resolve, reject) => {
    if (display) return resolve(display);
    let out = '';
    xvfb.stdio[3]!.on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) resolve(`:${out.trim()}`);
    });
    xvfb.once('error', (e) => reject(new Error(`could not start Xvfb (${e.message}); install it: apt-get install -y xvfb xauth`)));
    void exited.then(() => reject(new Error(`Xvfb exited at start: ${stderr.trim()}`)));
  });
  return { xvfb, name, exited };
}

export async function startXvfb(): Promise<Display> {
  let current = launch(undefined);
  const name = await current.name;
  let stopping = false;
  const supervise = (run: typeof current) => {
    void run.exited.then(async () => {
      if (stopping) return;
      log.warn(`Xvfb ${name} exited; restarting it`);
      await sleep(RESTART_PAUSE_MS);
      if (stopping) return;
      current = launch(name);
      supervise(current);
    });
  };
  supervise(current);
  return {
    name,
    async stop() {
      stopping = true;
      const { xvfb, exited } = current;
      if (xvfb.exitCode === null && xvfb.signalCode === null) xvfb.kill('SIGTERM');
      await exited;
    },
  };
}
