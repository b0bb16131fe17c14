// The X display WebKitGTK's MiniBrowser needs. Started by the oracle when none is given,
// stopped with it; -displayfd lets the server pick a free display number itself.
import { spawn } from 'node:child_process';

export interface Display {
  name: string;
  stop(): Promise<void>;
}

export async function startXvfb(): Promise<Display> {
  const xvfb = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1600x1200x24', '-nolisten', 'tcp', '-noreset'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => xvfb.once('exit', () => resolve()));
  let stderr = '';
  xvfb.stderr!.on('data', (chunk) => (stderr = (stderr + chunk).slice(-2000)));
  const name = await new Promise<string>((resolve, reject) => {
    let out = '';
    xvfb.stdio[3]!.on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) resolve(`:${out.trim()}`);
    });
    xvfb.once('error', (e) => reject(new Error(`could not start Xvfb (${e.message}); install it: apt-get install -y xvfb xauth`)));
    void exited.then(() => reject(new Error(`Xvfb exited at start: ${stderr.trim()}`)));
  });
  return {
    name,
    async stop() {
      if (xvfb.exitCode === null && xvfb.signalCode === null) xvfb.kill('SIGTERM');
      await exited;
    },
  };
}
